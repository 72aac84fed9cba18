"""The variants of Risk Europe as data: what each one changes from setup to the win check.

A game declares its variant in GameStarted as one string: a base game, optionally followed by
modifiers joined with "+":

    basic | mercenaries-3p | mercenaries-2p | teams       the base game
    +missions                                            Kingdom Missions (any base with Crown Cards)
    +long                                                the lengthier team game (teams only)

e.g. "basic", "mercenaries-3p+missions", "teams+long". The engine reads every difference from the
resulting row instead of branching on names: how many players and Mercenary Armies sit at the
table and where, how many cities each drafts and which get a castle, how many Footmen come with
each, whether Crown Cards are used, and how the game is won.

docs/variants.md explains each row with its rulebook passages.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine.core.errors import LedgerError

PLAYER, MERC = "P", "M"


@dataclass(frozen=True)
class Variant:
    """One row of the variant table."""

    name: str
    section: str                         # where the rulebook describes it
    players: int                         # players at the table
    seating: tuple[str, ...]             # clockwise from the first player: P a player, M a Mercenary Army
    draft_castles: tuple[bool, ...]      # one entry per city each player places: does it get a castle?
    draft_footmen: int                   # Footmen placed with each city
    merc_castles: tuple[bool, ...] = ()  # one entry per City Bonus Tile a Mercenary Army draws
    merc_footmen: int = 10               # Mercenary Footmen in each of its cities
    crown_cards: bool = True             # War Banners and Crown Cards in play
    teams: bool = False                  # opposite seats are teammates
    win_crowns: int | None = 7           # crowns that win at the end of a round (None: not by crowns)
    rounds: int | None = None            # the game ends after this round (team play)
    all_cities_win: bool = False         # a team holding every crown city wins (team play, long form)
    missions: bool = False               # Kingdom Missions: Crown Cards are earned, not bought
    win_rule: str = "RE-CLAIM"           # the rule a wrong declared winner breaks

    @property
    def mercenaries(self) -> int:
        return self.seating.count(MERC)

    @property
    def merc_tiles(self) -> int:
        return len(self.merc_castles)

    @property
    def placement_rule(self) -> str:
        """The rule that fixes how many Footmen come with a placed city."""
        return "RE-PLACE-FOOTMEN" if len(self.draft_castles) == 1 else "RE-DRAFT"


MERCENARIES = "Mercenaries (2 and 3 Players) (p.20-21)"
TEAMS = "Team Gameplay (p.22)"

BASES: dict[str, Variant] = {v.name: v for v in (
    Variant("basic", "Game Setup: Basic Game - 4 Players (p.6)", players=4, seating=(PLAYER,) * 4,
            draft_castles=(True,), draft_footmen=10),
    Variant("mercenaries-3p", MERCENARIES + ": 3-Player Variant", players=3,
            seating=(PLAYER, PLAYER, PLAYER, MERC),
            draft_castles=(True, False), draft_footmen=5, merc_castles=(True, False), win_crowns=8,
            win_rule="RE-MERC-WIN"),
    Variant("mercenaries-2p", MERCENARIES + ": 2-Player Variant", players=2,
            seating=(PLAYER, MERC, PLAYER, MERC),
            draft_castles=(True, True, False), draft_footmen=5, merc_castles=(True,), win_crowns=10,
            win_rule="RE-MERC-WIN"),
    Variant("teams", TEAMS, players=4, seating=(PLAYER,) * 4, draft_castles=(True, False),
            draft_footmen=5, crown_cards=False, teams=True, win_crowns=None, rounds=16,
            win_rule="RE-TEAM-END"),
)}


def _missions(v: Variant) -> Variant | str:
    if not v.crown_cards:
        return f"Kingdom Missions are on the Crown Cards, which {v.name} sets aside"
    return replace(v, missions=True)


def _long(v: Variant) -> Variant | str:
    if not v.teams:
        return "+long is the lengthier form of team play"
    return replace(v, rounds=None, all_cities_win=True)


MODIFIERS = {"missions": _missions, "long": _long}


class VariantError(LedgerError, ValueError):
    """A variant string this engine does not judge (the message says why)."""


@lru_cache(maxsize=None)
def parse_variant(name: str) -> Variant:
    """The row of the variant a game declares ("base" or "base+modifier+..."); VariantError if
    there is none."""
    base, *mods = name.split("+")
    v = BASES.get(base)
    if v is None:
        raise VariantError(f"variant {name!r} is not one this engine judges: the base game is one of "
                           f"{', '.join(BASES)}, optionally +{' or +'.join(MODIFIERS)}")
    if len(set(mods)) != len(mods):
        raise VariantError(f"variant {name!r} repeats a modifier")
    for mod in mods:
        make = MODIFIERS.get(mod)
        if make is None:
            raise VariantError(f"variant {name!r}: unknown modifier +{mod} (known: "
                               f"{', '.join('+' + m for m in MODIFIERS)})")
        got = make(v)
        if isinstance(got, str):
            raise VariantError(f"variant {name!r}: {got}")
        v = got
    return replace(v, name=name)


VARIANTS = tuple(BASES) + ("teams+long",) + tuple(f"{b}+missions" for b in BASES if BASES[b].crown_cards)
"""Every variant string the simulator plays (the base games, the long team game, and each base
with Kingdom Missions)."""


def seat_armies(v: Variant, players: tuple[str, ...], mercenaries: tuple[str, ...],
                first: str) -> tuple[str, ...]:
    """The clockwise seats once `first` holds the First Player Marker: the players in their
    declared order from `first`, the Mercenary decks placed by the variant's seating (3 players:
    to the right of the first player; 2 players: the first declared to their left, the second to
    their right)."""
    i = players.index(first)
    ps = iter(players[i:] + players[:i])
    ms = iter(mercenaries)
    return tuple(next(ps) if kind == PLAYER else next(ms) for kind in v.seating)
