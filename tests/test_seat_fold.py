"""engine.core.seat_fold: a game folded from its log as one seat reads it (other seats' secrets
redacted) has the public board of the referee's game at every point, for both games; and the
fold is kept between calls, refolded from the first event a later read shows differently."""

from __future__ import annotations

import pytest

from engine.core.ruleset import get_ruleset
from engine.core.seat_fold import SeatFold, shows_hidden
from engine.core.views import HIDDEN
from engine.risk_europe.live import _foldable as europe_foldable
from engine.risk_europe.sim import simulate_game
from engine.risk_legacy.live import _foldable as legacy_foldable
from engine.risk_legacy.sim import play_game
from replay.logfile import read_log_text
from replay.seat import seat_log
from tests.test_views import game_of_text, open_europe, open_legacy, text_of


def _prefix(log, k):
    return read_log_text(text_of(log[:k]), "<prefix>")


@pytest.mark.parametrize("name, log, foldable, seat", [
    ("risk-europe", open_europe(simulate_game(3, "fold-3", live=True)), europe_foldable, "orange"),
    ("risk-legacy", open_legacy(play_game(4, "fold-4").envelopes), legacy_foldable, "bob"),
], ids=["europe", "legacy"])
def test_a_seat_fold_has_the_referee_board_at_every_point(name, log, foldable, seat):
    rs = get_ruleset(name)
    fold = SeatFold(rs, foldable)
    points = list(range(3, len(log), max(1, len(log) // 11))) + [len(log)]
    redacted = 0
    for k in points:
        mine = seat_log(_prefix(log, k), seat)
        redacted += any(shows_hidden(e["payload"]) for e in mine)
        referee = game_of_text(text_of(log[:k])).final          # (concluded: the log ends there)
        assert rs.snapshot(rs.conclude(fold.state(mine))) == rs.snapshot(referee), k
    assert redacted > 0                     # the seat did read others' secrets redacted


def test_a_seat_fold_refolds_from_the_first_event_read_differently():
    rs = get_ruleset("risk-europe")
    log = open_europe(simulate_game(3, "fold-3", live=True))
    first = next(i for i, e in enumerate(log) if e["type"] == "CardsCommitted" and e["actor"] != "orange")
    fold = SeatFold(rs, europe_foldable)
    before = seat_log(_prefix(log, first + 1), "orange")
    assert before[first]["payload"]["cards"] == [HIDDEN, HIDDEN]
    fold.state(before)
    kept = fold.states[first - 1]
    after = seat_log(_prefix(log, len(log)), "orange")[:first + 1]
    fold.state(after)
    assert fold.states[first - 1] is kept and fold.envelopes[first] == after[first]
