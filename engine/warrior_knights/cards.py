"""The Warrior Knights cards, read from a cards file the user supplies (the summary prints no
card): Barons and their strongholds and regular troops, Nobles and their abilities, the Action card
mix with the Special Phase area of each, the Mercenaries, the Fate, Agenda and Event decks and the
Crown & Glory cards. Every section is optional: a section left out is judged in *observed mode*
(a draw event carries the card's printed fields; the engine checks what follows from them and
cannot check deck membership). `parse_cards` reports every problem at once, each naming the file,
the key and what is wrong.

The shape is in docs/warrior-knights.md ("The cards file").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core.data import Problems, Shape

CARDS_SCHEMA = "ledger.warrior_knights.cards/1"
DECKS = ("base", "for_glory")
SECTIONS = ("barons", "nobles", "action_cards", "mercenaries", "fate", "agendas", "events",
            "crown_and_glory")

# The Baron actions (Actions 1-6, and Crown & Glory's New Baron Action Cards) and the Neutral
# actions (Neutral Actions 1-5, and the New Neutral Action Cards of For Glory).
BARON_ACTIONS = ("levy_taxes", "draft_soldiers", "rally_support", "serve_the_church",
                 "mobilize_forces", "versatile", "forced_march", "enrich_mind")
NEUTRAL_ACTIONS = ("important_event", "fund_expedition", "upgrade_defenses", "muster_troops",
                   "uncertain_times", "research", "pressing_agenda", "assemble_troops")
# The actions a Versatile card may list: a Baron action, or a marker bought on the track.
VERSATILE_OPTIONS = ("levy_taxes", "draft_soldiers", "rally_support", "serve_the_church",
                     "mobilize_forces")
SPECIAL_AREAS = ("taxation", "wages", "assembly")      # Special Phases 1-3 (the Draft comes by the track)
HAND = "hand"                                           # Versatile Action: "returned to the owner's hand"
ACTION_CARDS_PER_BARON = 12                             # Setup 1: "Action cards (12)"
NOBLES_PER_BARON = 4                                    # Setup 1: "4 Noble pieces and matching Noble cards"
REGULARS = (50, 50, 50, 100)                            # Setup 1: "Regular troops (3x50 and 1x100)"

NOBLE_SHAPES = ("star", "square", "triangle", "circle")
# What a Noble's special ability does in battle, where the engine can count it; "text": a card
# text the engine does not read (its effect is logged as an adjustment).
ABILITIES = ("deal_100", "prevent_100", "victory_1", "text")
MERC_KINDS = ("troop", "leader", "herald")
LEADER_KINDS = ("leader", "herald")                     # For Glory's New Mercenary Cards
REVOLT_RESULTS = ("revolt", "no_revolt", "riot")
BATTLE_RESULTS = ("deal_100", "prevent_100", "victory", "draw_1", "retreat_draw_1", "none")
# Fund Expedition 4 and For Glory's Expedition Result: Funds Needed; best first (the order the
# summary gives for "choose the better result").
EXPEDITION_RESULTS = ("5x", "4x", "3x", "2x", "1x", "no_news", "funds_needed", "fleet_lost")
AGENDA_KINDS = ("motion", "law", "charge", "concession", "office", "private_motion")
VOTE_KINDS = ("yes_no", "choose_baron")
EVENT_COLOURS = ("red", "green", "blue")


@dataclass(frozen=True, slots=True)
class BaronCard:
    color: str
    stronghold_strength: int
    regulars: tuple[tuple[int, int], ...]        # (strength, wage) of each regular troop


@dataclass(frozen=True, slots=True)
class NobleCard:
    baron: str
    shape: str
    ability: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class ActionKind:
    """One kind of Action card: its type, copies per Baron (or in the Neutral deck), and the
    Special Phase area it is allocated to: an area, "hand", several the Baron chooses from, or
    (Mobilize Forces) one for a move and one for a battle."""

    type: str
    copies: int
    area: Any = None              # str | tuple[str, ...] | Mapping[str, str] (baron cards only)
    options: tuple[str, ...] = ()
    deck: str = "base"


@dataclass(frozen=True, slots=True)
class Mercenary:
    id: str
    nationality: str
    strength: int
    wage: int
    kind: str = "troop"
    deck: str = "base"
    ability: str = ""


@dataclass(frozen=True, slots=True)
class FateCard:
    """A Fate card's printed fields (any may be absent: None)."""

    id: str | None
    baron: str | None = None
    revolt: str | None = None
    noble: str | None = None
    battle: str | None = None
    expeditions: Mapping[str, str] | None = None
    city: str | None = None
    nationality: str | None = None
    deck: str = "base"


@dataclass(frozen=True, slots=True)
class Agenda:
    id: str | None
    title: str
    kind: str
    vote: str
    income: int | None = None
    maintained_troops: int | None = None
    bars_attendance: bool = False
    text: str = ""
    deck: str = "base"


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str | None
    title: str
    color: str
    cancel_faith: int | None = None
    needs_fate_target: bool = False
    text: str = ""
    deck: str = "base"


@dataclass(frozen=True)
class Cards:
    """One cards file, checked. A section that is None was left out (observed mode)."""

    barons: Mapping[str, BaronCard] | None
    nobles: Mapping[tuple[str, str], NobleCard] | None
    baron_actions: Mapping[str, ActionKind] | None
    neutral_actions: Mapping[str, ActionKind] | None
    mercenaries: Mapping[str, Mercenary] | None
    fate: Mapping[str, FateCard] | None
    agendas: Mapping[str, Agenda] | None
    events: Mapping[str, EventCard] | None
    crown_and_glory: Mapping[str, Any] | None
    digest: str | None
    label: str
    invented: bool = False
    note: str = ""
    source: str = ""

    @property
    def observed(self) -> tuple[str, ...]:
        """The sections left out, judged in observed mode."""
        out = []
        for name in SECTIONS:
            if name == "crown_and_glory":
                continue               # the expansion's cards: judged as adjustments (docs/warrior-knights.md)
            value = getattr(self, name, None) if name != "action_cards" else self.baron_actions
            if value is None:
                out.append(name)
        return tuple(out)


NO_CARDS = Cards(None, None, None, None, None, None, None, None, None, None, "no cards file")
"""No cards file at all: every section in observed mode."""


def _deck(s: Shape) -> str:
    return s.get("deck", "base").one_of(DECKS)


def _area_of(kind: str, s: Shape, p: Problems) -> Any:
    v = s.value
    if kind == "mobilize_forces":
        if not isinstance(v, dict):
            p.add(s, "Mobilize Forces names an area for a move and one for a battle: "
                  "{\"move\": AREA, \"battle\": AREA}")
            return None
        return {"move": s["move"].one_of(SPECIAL_AREAS), "battle": s["battle"].one_of(SPECIAL_AREAS)}
    if isinstance(v, list):
        areas = tuple(x.one_of(SPECIAL_AREAS) for x in s.list())
        if len(areas) < 2:
            p.add(s, "a list of areas names the two or more areas the Baron chooses from")
        return areas
    return s.one_of(SPECIAL_AREAS + (HAND,))


# The keys each object of a cards file may have (docs/warrior-knights.md, "The cards file"): any
# other is a problem naming the closest, so that a misspelt optional key is not read as left out.
BARON_KEYS = ("color", "stronghold_strength", "regulars")
REGULAR_KEYS = ("strength", "wage")
NOBLE_KEYS = ("baron", "shape", "ability", "text")
ACTION_KEYS = ("type", "copies", "area", "options", "deck")
MERCENARY_KEYS = ("id", "nationality", "strength", "wage", "kind", "ability", "deck")
LISTED_KEYS = {
    "fate": ("id", "baron", "revolt", "noble", "battle", "expeditions", "city", "nationality", "deck"),
    "agendas": ("id", "title", "kind", "vote", "income", "maintained_troops", "bars_attendance", "text", "deck"),
    "events": ("id", "title", "color", "cancel_faith", "needs_fate_target", "text", "deck"),
}
GLORY_KEYS = {"": ("advancements", "town_levies", "garrison", "missions", "kings_army"),
              "advancements": ("id", "knowledge", "when", "exhausts", "text"),
              "town_levies": ("id", "city", "strength", "nationality"),
              "missions": ("id", "text", "check"),     # check: a note for the reader, not read
              "kings_army": ("strength", "wage")}


def _baron_cards(top: Shape, p: Problems) -> Mapping[str, BaronCard]:
    out: dict[str, BaronCard] = {}
    for b in top["barons"].list():
        with p.each():
            p.unknown(b, BARON_KEYS)
            for r in b["regulars"].list():
                p.unknown(r, REGULAR_KEYS)
            color = b["color"].str()
            if color in out:
                p.add(b["color"], f"the Baron colour {color!r} is used twice")
            sh = b["stronghold_strength"].int()
            if sh < 0 or sh % 100:
                p.add(b["stronghold_strength"], f"a stronghold's strength is a multiple of 100, found {sh}")
            regulars = tuple((r["strength"].int(), r["wage"].int()) for r in b["regulars"].list())
            if tuple(sorted(x for x, _ in regulars)) != REGULARS:
                p.add(b["regulars"], "each Baron has 4 regular troops, 3 of strength 50 and 1 of 100 "
                      f"(Setup 1), found strengths {[x for x, _ in regulars]}")
            for i, (_, wage) in enumerate(regulars):
                if wage < 0:
                    p.add(b["regulars"].list()[i]["wage"], f"a wage is 0 or more crowns, found {wage}")
            out[color] = BaronCard(color, sh, regulars)
    return out


def _noble_cards(top: Shape, p: Problems, barons: Mapping[str, BaronCard] | None
                 ) -> Mapping[tuple[str, str], NobleCard]:
    out: dict[tuple[str, str], NobleCard] = {}
    for n in top["nobles"].list():
        with p.each():
            p.unknown(n, NOBLE_KEYS)
            baron, shape = n["baron"].str(), n["shape"].one_of(NOBLE_SHAPES)
            ability = n["ability"].one_of(ABILITIES)
            if barons is not None and baron not in barons:
                p.add(n["baron"], f"unknown Baron colour {baron!r} (not in \"barons\": "
                      f"{', '.join(barons)})")
            if (baron, shape) in out:
                p.add(n, f"the {baron} Baron's {shape} Noble is listed twice")
            text = n.get("text").optional_str() or ""
            if ability == "text" and not text:
                p.add(n, "an ability given as \"text\" needs its \"text\"")
            out[(baron, shape)] = NobleCard(baron, shape, ability, text)
    colours = sorted({b for b, _ in out})
    for c in colours:
        have = sorted(s for b, s in out if b == c)
        if len(have) != NOBLES_PER_BARON:
            p.add(top["nobles"], f"each Baron has {NOBLES_PER_BARON} Nobles (Setup 1); {c} has "
                  f"{len(have)} ({', '.join(have)})")
    return out


def _action_cards(top: Shape, p: Problems) -> tuple[Mapping[str, ActionKind], Mapping[str, ActionKind]]:
    sec = top["action_cards"]
    p.unknown(sec, ("baron", "neutral"))
    baron: dict[str, ActionKind] = {}
    for a in sec["baron"].list():
        with p.each():
            p.unknown(a, ACTION_KEYS)
            kind = a["type"].one_of(BARON_ACTIONS)
            copies = a["copies"].int()
            if copies < 1:
                p.add(a["copies"], f"copies is 1 or more, found {copies}")
            if kind in baron:
                p.add(a["type"], f"the Action card {kind!r} is listed twice")
            options: tuple[str, ...] = ()
            if kind == "versatile":
                options = tuple(o.one_of(VERSATILE_OPTIONS) for o in a["options"].list())
                if not options:
                    p.add(a["options"], "a Versatile card lists the actions it allows")
            area = _area_of(kind, a["area"], p)
            if kind == "versatile" and area != HAND:
                p.add(a["area"], "a Versatile card returns to its owner's hand (\"area\": \"hand\"; "
                      "Actions 6)")
            baron[kind] = ActionKind(kind, copies, area, options, _deck(a))
    total = sum(k.copies for k in baron.values() if k.deck == "base")
    if baron and total != ACTION_CARDS_PER_BARON:
        p.add(sec["baron"], f"each Baron has {ACTION_CARDS_PER_BARON} Action cards (Setup 1); the base "
              f"cards listed make {total}")
    neutral: dict[str, ActionKind] = {}
    for a in sec["neutral"].list():
        with p.each():
            p.unknown(a, ("type", "copies", "deck"))
            kind = a["type"].one_of(NEUTRAL_ACTIONS)
            copies = a["copies"].int()
            deck = _deck(a)
            if copies < 1:
                p.add(a["copies"], f"copies is 1 or more, found {copies}")
            key = kind if deck == "base" else f"{kind}@{deck}"
            if key in neutral:
                p.add(a["type"], f"the Neutral card {kind!r} ({deck}) is listed twice")
            neutral[key] = ActionKind(kind, copies, None, (), deck)
    base = sum(k.copies for k in neutral.values() if k.deck == "base")
    if neutral and base < 6:
        p.add(sec["neutral"], f"the Neutral deck must hold at least the 6 cards a round shuffles into "
              f"the stacks (Planning: 2 into each of 3 stacks); the base cards listed make {base}")
    return baron, neutral


def _mercenaries(top: Shape, p: Problems) -> Mapping[str, Mercenary]:
    out: dict[str, Mercenary] = {}
    for m in top["mercenaries"].list():
        with p.each():
            p.unknown(m, MERCENARY_KEYS)
            mid = m["id"].str()
            if mid in out:
                p.add(m["id"], f"the Mercenary card id {mid!r} is used twice")
            strength, wage = m["strength"].int(), m["wage"].int()
            if strength <= 0 or strength % 50:
                p.add(m["strength"], f"a troop's strength is a positive multiple of 50, found {strength}")
            if wage < 0:
                p.add(m["wage"], f"a wage is 0 or more crowns, found {wage}")
            kind = m.get("kind", "troop").one_of(MERC_KINDS)
            ability = m.get("ability").optional_str() or ""
            deck = _deck(m)
            if kind in LEADER_KINDS:
                # For Glory, New Mercenary Cards: "Each Leader and Herald grants a special ability"
                if not ability:
                    p.add(m, f"a {kind.capitalize()} grants its Noble an ability: give the card's "
                          "\"ability\" (its text)")
                if deck != "for_glory":
                    p.add(m, f"a {kind.capitalize()} is one of For Glory's New Mercenary Cards: "
                          "\"deck\": \"for_glory\"")
            elif ability:
                p.add(m["ability"], "only a Leader or a Herald (\"kind\": \"leader\" or \"herald\") "
                      "grants an ability; a troop has none")
            out[mid] = Mercenary(mid, m["nationality"].str(), strength, wage, kind, deck, ability)
    return out


def fate_card(f: Shape, card_id: str | None) -> FateCard:
    """A Fate card's printed fields from a cards file or a draw event (observed mode)."""
    exp = f.get("expeditions")
    expeditions = None
    if exp.value is not None:
        expeditions = {k: v.one_of(EXPEDITION_RESULTS) for k, v in exp.items()}
    return FateCard(
        card_id,
        baron=f.get("baron").optional_str(),
        revolt=None if f.get("revolt").value is None else f["revolt"].one_of(REVOLT_RESULTS),
        noble=None if f.get("noble").value is None else f["noble"].one_of(NOBLE_SHAPES),
        battle=None if f.get("battle").value is None else f["battle"].one_of(BATTLE_RESULTS),
        expeditions=expeditions,
        city=f.get("city").optional_str(),
        nationality=f.get("nationality").optional_str(),
        deck=_deck(f))


def _fate(top: Shape, p: Problems, barons: Mapping[str, BaronCard] | None) -> Mapping[str, FateCard]:
    out: dict[str, FateCard] = {}
    for f in top["fate"].list():
        with p.each():
            p.unknown(f, LISTED_KEYS["fate"])
            fid = f["id"].str()
            if fid in out:
                p.add(f["id"], f"the Fate card id {fid!r} is used twice")
            card = fate_card(f, fid)
            if barons is not None and card.baron is not None and card.baron not in barons:
                p.add(f["baron"], f"unknown Baron colour {card.baron!r} (not in \"barons\")")
            if card.revolt == "riot" and card.deck != "for_glory":
                p.add(f["revolt"], "the Riot result is on the For Glory Fate deck only (\"deck\": \"for_glory\")")
            out[fid] = card
    return out


def agenda_card(a: Shape, card_id: str | None) -> Agenda:
    return Agenda(card_id, a["title"].str(), a["kind"].one_of(AGENDA_KINDS),
                  a.get("vote", "yes_no").one_of(VOTE_KINDS), a.get("income").optional_int(),
                  a.get("maintained_troops").optional_int(), a.get("bars_attendance", False).bool(),
                  a.get("text").optional_str() or "", _deck(a))


def event_card(e: Shape, card_id: str | None) -> EventCard:
    cost = e.get("cancel_faith").optional_int()
    return EventCard(card_id, e["title"].str(), e["color"].one_of(EVENT_COLOURS), cost,
                     e.get("needs_fate_target", False).bool(), e.get("text").optional_str() or "",
                     _deck(e))


def _listed(top: Shape, key: str, p: Problems, read) -> Mapping[str, Any]:
    out: dict[str, Any] = {}
    for x in top[key].list():
        with p.each():
            p.unknown(x, LISTED_KEYS[key])
            xid = x["id"].str()
            if xid in out:
                p.add(x["id"], f"the card id {xid!r} is used twice")
            card = read(x, xid)
            if key == "events" and card.cancel_faith is not None and card.cancel_faith < 0:
                p.add(x["cancel_faith"], f"a cancelling cost is 0 or more Faith, found {card.cancel_faith}")
            out[xid] = card
    return out


def _crown_and_glory(top: Shape, p: Problems) -> Mapping[str, Any]:
    cg = top["crown_and_glory"]
    out: dict[str, Any] = {}
    p.unknown(cg, GLORY_KEYS[""])
    for section in ("advancements", "town_levies", "missions", "kings_army"):
        with p.each():
            for x in cg.get(section, []).list():
                p.unknown(x, GLORY_KEYS[section])
    p.unknown(cg.get("garrison", {}), ("count", "strength", "wage"))
    with p.each():
        adv = {}
        for a in cg.get("advancements", []).list():
            with p.each():
                aid = a["id"].str()
                if aid in adv:
                    p.add(a["id"], f"the Advancement id {aid!r} is used twice")
                adv[aid] = {"knowledge": a["knowledge"].int(), "when": a.get("when", "any").str(),
                            "exhausts": a.get("exhausts", True).bool(), "text": a.get("text").optional_str() or ""}
        out["advancements"] = adv
    with p.each():
        levies = {}
        for t in cg.get("town_levies", []).list():
            with p.each():
                lid = t.get("id").optional_str() or t["city"].str()
                levies[lid] = {"city": t["city"].str(), "strength": t["strength"].int(),
                               "nationality": t.get("nationality").optional_str()}
        out["town_levies"] = levies
    with p.each():
        g = cg.get("garrison", {"count": 8, "strength": 100, "wage": 1})
        out["garrison"] = {"count": g["count"].int(), "strength": g["strength"].int(), "wage": g["wage"].int()}
    with p.each():
        out["missions"] = {m["id"].str(): m.get("text").optional_str() or "" for m in cg.get("missions", []).list()}
    with p.each():
        out["kings_army"] = tuple((k["strength"].int(), k["wage"].int()) for k in cg.get("kings_army", []).list())
    return out


def parse_cards(raw: object, label: str, digest: str) -> Cards:
    """The cards in `raw` (a cards file's JSON), checked; DataErrors listing every problem."""
    top = Shape(raw, label)
    p = Problems()
    if not isinstance(raw, dict):
        p.items.append(str(top.fail("an object (a Warrior Knights cards file)")))
        p.raise_any()
    schema = top.get("schema")
    if schema.value != CARDS_SCHEMA:
        p.add(schema, f"expected {CARDS_SCHEMA!r} (a Warrior Knights cards file), found {schema.value!r}"
              if schema.value is not None else f"the key 'schema' is missing (expected {CARDS_SCHEMA!r})")
    unknown = sorted(k for k in raw if k not in SECTIONS + ("schema", "invented", "note", "source"))
    for k in unknown:
        p.add(top, f"unknown section {k!r} (the sections are {', '.join(SECTIONS)})")
    invented = False
    with p.each():
        invented = top.get("invented", False).bool()
    got: dict[str, Any] = {}

    def section(name: str, read) -> None:
        if name in raw and raw[name] is not None:
            with p.each():
                got[name] = read()

    section("barons", lambda: _baron_cards(top, p))
    section("nobles", lambda: _noble_cards(top, p, got.get("barons")))
    section("action_cards", lambda: _action_cards(top, p))
    section("mercenaries", lambda: _mercenaries(top, p))
    section("fate", lambda: _fate(top, p, got.get("barons")))
    section("agendas", lambda: _listed(top, "agendas", p, agenda_card))
    section("events", lambda: _listed(top, "events", p, event_card))
    section("crown_and_glory", lambda: _crown_and_glory(top, p))
    p.raise_any()
    actions = got.get("action_cards")
    note = top.get("note").value
    source = top.get("source").value
    return Cards(barons=got.get("barons"), nobles=got.get("nobles"),
                 baron_actions=actions[0] if actions else None,
                 neutral_actions=actions[1] if actions else None,
                 mercenaries=got.get("mercenaries"), fate=got.get("fate"), agendas=got.get("agendas"),
                 events=got.get("events"), crown_and_glory=got.get("crown_and_glory"), digest=digest,
                 label=label, invented=invented, note=note if isinstance(note, str) else "",
                 source=source if isinstance(source, str) else "")
