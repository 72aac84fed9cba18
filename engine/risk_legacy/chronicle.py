"""The world in words: what changed between two worlds, and the world as it stands. Pure text from
world documents, for campaign histories (`ledger campaign show`) and findings."""

from __future__ import annotations

from engine.core.text import plural
from engine.risk_legacy import world as W
from engine.risk_legacy.board import FACTION_NAMES, GameData


def _t(data: GameData, t: str) -> str:
    return data.names.get(t, t)


def _card(data: GameData, card: str) -> str:
    t = data.territory_of_card.get(card)
    return f"{card} ({_t(data, t)})" if t else card


def world_changes(before: W.World, after: W.World, data: GameData) -> list[str]:
    """What `after` has that `before` has not (and the reverse), one change per line, in words."""
    out: list[str] = []
    for sig in after.signatures[len(before.signatures):]:
        fac = f" ({FACTION_NAMES.get(sig.faction, sig.faction)})" if sig.faction else ""
        out.append(f"{sig.player}{fac} signs the victors' section for game {sig.game}"
                   + (f": {sig.slogan!r}" if sig.slogan else ""))
    ts = sorted(set(before.territories) | set(after.territories))
    pairs = [(t, W.marks(before, t), W.marks(after, t)) for t in ts]
    for t, a, b in pairs:
        if a.scar != b.scar and b.scar is not None:
            out.append(f"{b.scar.replace('_', ' ')} scar placed in {_t(data, t)}")
    for t, a, b in pairs:
        if a.fortification != b.fortification and b.fortification is not None and a.fortification is not None \
                and b.fortification > a.fortification:
            out.append(f"the fortification in {_t(data, t)} wears: {b.fortification} of 10 boxes marked"
                       + (" (spent)" if b.fortification >= 10 else ""))
    for t, a, b in pairs:
        name = _t(data, t)
        if a.city != b.city:
            if b.city is None:
                out.append(f"the city {a.city.name} in {name} is gone")
            else:
                who = f" by {b.city.founder}" if b.city.founder else ""
                out.append(f"{b.city.kind.replace('capital', 'World Capital')} city {b.city.name!r} founded in "
                           f"{name}{who}" + (f" (was {a.city.name})" if a.city else ""))
        if a.scar != b.scar and b.scar is None:
            out.append(f"the {a.scar.replace('_', ' ')} scar in {name} is cancelled")
        if a.fortification != b.fortification:
            if b.fortification is None:
                out.append(f"the fortification in {name} is gone")
            elif a.fortification is None or b.fortification < a.fortification:
                out.append(f"the city in {name} is fortified")
    for c in sorted(set(before.continents) | set(after.continents)):
        a, b = W.continent_marks(before, c), W.continent_marks(after, c)
        name = data.continent_names.get(c, c)
        if a.name != b.name:
            out.append(f"{name} is named {b.name!r}" + (f" by {b.named_by}" if b.named_by else ""))
        if a.modifier != b.modifier:
            out.append(f"{name}'s bonus gets the {b.modifier:+d} mark ({data.bonuses.get(c, 0) + b.modifier})")
    for card in sorted(set(after.destroyed) - set(before.destroyed)):
        out.append(f"Territory card {_card(data, card)} is destroyed")
    for card, n in sorted(after.resources.items()):
        old = before.resources.get(card)
        if old is not None and n != old:
            out.append(f"Territory card {_card(data, card)} goes from {old} to {plural(n, 'resource')}")
    for p in after.packs[len(before.packs):]:
        out.append(f"sealed {p.pack.replace('_', ' ')}: its condition is met ({p.condition}); its contents "
                   "are outside this engine")
    if after.name != before.name:
        out.append(f"the world is named {after.name!r}")
    for f, power in sorted(after.powers.items()):
        if before.powers.get(f) != power and power:
            out.append(f"{FACTION_NAMES.get(f, f)} gets the starting power {power}")
    return out


def describe_world(w: W.World, data: GameData) -> list[str]:
    """The world as it stands, a topic per line."""
    out = [f"{w.games} game{'s' if w.games != 1 else ''} played" + (f"; the world is named {w.name!r}" if w.name else "")]
    counts: dict[str, int] = {}
    for sig in w.signatures:
        counts[sig.player] = counts.get(sig.player, 0) + 1
    if counts:
        out.append("victors' section: " + ", ".join(f"{p} ×{n}" for p, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))))
    out.append("starting powers: " + ", ".join(f"{FACTION_NAMES.get(f, f)} {p or '(none)'}" for f, p in sorted(w.powers.items())))
    conts = [f"{data.continent_names[c]}" + (f" named {m.name!r} by {m.named_by}" if m.name else "")
             + (f" bonus {m.modifier:+d}" if m.modifier else "")
             for c, m in sorted(w.continents.items()) if c in data.continent_names]
    if conts:
        out.append("continents: " + "; ".join(conts))
    cities = [f"{m.city.name} ({m.city.kind}, {_t(data, t)}" + (f", founded by {m.city.founder}" if m.city.founder else "")
              + (f", fortified {m.fortification}/10" if m.fortification is not None else "") + ")"
              for t, m in sorted(w.territories.items()) if m.city]
    if cities:
        out.append("cities: " + "; ".join(cities))
    scars = [f"{m.scar.replace('_', ' ')} in {_t(data, t)}" for t, m in sorted(w.territories.items()) if m.scar]
    if scars:
        out.append("scars: " + "; ".join(scars))
    cancelled = [_t(data, t) for t, m in sorted(w.territories.items()) if m.scar_cancelled]
    if cancelled:
        out.append("cancelled scars: " + ", ".join(cancelled))
    rich = [f"{_card(data, c)} {n}" for c, n in sorted(w.resources.items(), key=lambda x: (-x[1], x[0])) if n > 1]
    if rich:
        out.append("Territory cards above 1 resource: " + ", ".join(rich))
    if w.destroyed:
        out.append("destroyed cards: " + ", ".join(_card(data, c) for c in sorted(w.destroyed)))
    out.append("left in the box: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(w.supply.items())))
    if w.packs:
        out.append("sealed packs whose condition was met: " + "; ".join(
            f"{p.pack.replace('_', ' ')} (game {p.game}: {p.condition})" for p in w.packs))
    if w.trade_chart is not None:
        out.append("trade chart: " + ", ".join(f"{k}→{v}" for k, v in sorted(w.trade_chart.items())))
    return out


def world_diff(expected: W.World, got: W.World, data: GameData) -> list[str]:
    """Where `got` differs from `expected`, one line each: "<what>: <expected> here, <got> there"
    (for findings about a game that starts from the wrong world)."""
    out: list[str] = []

    def say(what: str, a: object, b: object) -> None:
        out.append(f"{what}: {a if a not in (None, '') else 'none'} in the campaign, "
                   f"{b if b not in (None, '') else 'none'} in the game")

    for t in sorted(set(expected.territories) | set(got.territories)):
        a, b = W.marks(expected, t), W.marks(got, t)
        name = _t(data, t)
        if a.scar != b.scar:
            say(f"scar in {name}", (a.scar or "").replace("_", " "), (b.scar or "").replace("_", " "))
        if a.city != b.city:
            say(f"city in {name}", a.city and f"{a.city.name} ({a.city.kind})", b.city and f"{b.city.name} ({b.city.kind})")
        if a.fortification != b.fortification:
            say(f"fortification boxes in {name}", a.fortification, b.fortification)
        if a.scar_cancelled != b.scar_cancelled:
            say(f"cancelled scars in {name}", a.scar_cancelled, b.scar_cancelled)
    for c in sorted(set(expected.continents) | set(got.continents)):
        a, b = W.continent_marks(expected, c), W.continent_marks(got, c)
        if a != b:
            say(f"{data.continent_names.get(c, c)}", f"{a.name or 'unnamed'} {a.modifier:+d}", f"{b.name or 'unnamed'} {b.modifier:+d}")
    for card in sorted(set(expected.resources) | set(got.resources)):
        if expected.resources.get(card) != got.resources.get(card):
            say(f"resources on {_card(data, card)}", expected.resources.get(card), got.resources.get(card))
    if sorted(expected.destroyed) != sorted(got.destroyed):
        say("destroyed cards", ", ".join(sorted(expected.destroyed)), ", ".join(sorted(got.destroyed)))
    if expected.signatures != got.signatures:
        say("signatures", len(expected.signatures), len(got.signatures))
    if expected.games != got.games:
        say("games played", expected.games, got.games)
    for k in sorted(set(expected.supply) | set(got.supply)):
        if expected.supply.get(k) != got.supply.get(k):
            say(f"{k.replace('_', ' ')} left in the box", expected.supply.get(k), got.supply.get(k))
    for f in sorted(set(expected.powers) | set(got.powers)):
        if expected.powers.get(f) != got.powers.get(f):
            say(f"{FACTION_NAMES.get(f, f)}'s starting power", expected.powers.get(f), got.powers.get(f))
    if expected.packs != got.packs:
        say("sealed packs met", len(expected.packs), len(got.packs))
    if expected.name != got.name:
        say("the world's name", expected.name, got.name)
    if expected.trade_chart != got.trade_chart:
        say("trade chart", expected.trade_chart, got.trade_chart)
    if expected.factions != got.factions:
        say("faction card records", sum(map(len, expected.factions.values())), sum(map(len, got.factions.values())))
    return out
