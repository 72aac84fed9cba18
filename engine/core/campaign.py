"""What the store and the `ledger campaign` commands ask of a ruleset whose games are played as a
campaign on an evolving world (`Ruleset.campaign`). Pure functions; reading logs, judging them and
writing campaign files stay in the shell (ledger.campaign), which reaches the game only here.

A campaign value (`Campaign`) and a world are the ruleset's own; the shell passes them back.
A judgement `j` is duck-typed: game_id, file, head, events, findings, fatal, result, final_state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator


@dataclass(frozen=True)
class CampaignHooks:
    """The campaign functions of one ruleset (every one pure: same inputs, same outputs)."""

    claim: Callable[[Any], tuple[str, int] | None]
    """(campaign name, game number) a game's start payload claims, or None."""
    from_dict: Callable[[dict], Any]
    """A campaign from its file's document; ValueError naming what is wrong."""
    new: Callable[..., tuple[list[str], Any]]
    """(name, powers, stickers, data) -> (problems, a campaign at the world before game 1)."""
    customize: Callable[..., tuple[list[str], Any]]
    """(name, seed, powers, stickers, data) -> (problems, a campaign at the world before game 1):
    the choices the players made (`powers`, `stickers`: the words of the command line, key ->
    value) and the rest drawn at random from `seed` as the rulebook suggests. Each problem names
    the rule it breaks ("RULE-ID: ...")."""
    world_of: Callable[[Any], Any]
    """The world a game's final state leaves."""
    world_digest: Callable[[Any], str]
    world_doc: Callable[[Any], dict]
    """A world as a JSON document (the store keeps these)."""
    fits: Callable[..., list]
    """(campaign, j, start, game_no, world_before, data) -> findings of a game as game N."""
    game_record: Callable[..., dict]
    """(j, log label, game_no, world_before, world_after, data) -> its history entry."""
    game_of: Callable[..., Any]
    """(start payload, j, data) -> (CampaignGame, record) for linking, or None."""
    link: Callable[..., list]
    """(name, [CampaignGame], world0 doc | None, data) -> one Link per game."""
    from_store: Callable[..., Any]
    """(name, data_digest, setup | None, world0 doc | None, records, world doc | None, data) -> campaign."""
    history: Callable[[Any, Any], dict]
    history_lines: Callable[[Any, Any], list[str]]
    next_start: Callable[..., dict]
    """(campaign, players, dice=None, data=None) -> the next game's start payload."""
    finding: Callable[..., Any]
    """(file, rule id, message, line=1, seq=0) -> a Finding on the game's start claim."""
    game_type: type
    """The linked game's record type (fields game_id, campaign, game, start_digest, end_digest,
    start_world, end_world, own_findings, stored, file), as `game_of` makes it; the store rebuilds
    stored games with it."""
    order_rule: str
    """The rule a game breaks when it is not the campaign's next game (wrong number or name,
    unreadable, a duplicate, changed since it was added)."""
    world_rule: str
    """The rule a game breaks when it does not start from the world the game before it left."""
    simulate: Callable[[str, int, int], tuple[Any, Iterator[Any]]] | None = None
    """(name, games, seed) -> (the campaign before game 1, the played games with `envelopes`)."""
