"""A human who leaves a match before its end is counted for it at once, as a loss (逃跑算输).

Before migration 0010 the match counted only for the seats' players at its end, so a
player who left a losing match kept the loss and the rating's fall off their record.
"""

from __future__ import annotations

import pytest

from bot.rules import RuleSet
from bot.store import Leaver, SeatInfo, Store
from bot.store import ratings as rating_model

from .helpers import GUILD, HUMANS

A, B, C, D = (s.user_id for s in HUMANS)  # seats 0 and 2 are team 0, seats 1 and 3 team 1
FRESH = (rating_model.DEFAULT_MU, rating_model.DEFAULT_SIGMA)


async def _table(store: Store) -> int:
    return await store.create_table(GUILD, 1, A, RuleSet(), 1, HUMANS, 0, 0.0)


async def _leave(
    store: Store, table: int, seat: int, meta: dict[str, object] | None = None
) -> None:
    seats = list(HUMANS)
    seats[seat] = SeatInfo.bot(f"{HUMANS[seat].name} (bot)")
    leaver = Leaver(seat, HUMANS[seat].user_id or 0, HUMANS[seat].name)
    await store.leave_match(table, seats, meta, leaver, 2.0)


async def _stats(store: Store, user_id: int) -> tuple[int, int, int]:
    stats = await store.player_stats(GUILD, user_id)
    assert stats is not None
    return stats.matches, stats.wins, stats.rated_matches


async def test_a_leaver_loses_the_match_at_once_and_the_stand_in_s_win_is_not_theirs(
    store: Store,
) -> None:
    table = await _table(store)
    await _leave(store, table, 0, {"votes": []})
    assert await _stats(store, A) == (1, 0, 1)  # counted at the leaving, as lost
    a = await store.player_stats(GUILD, A)
    assert a is not None
    lost = rating_model.rate_match([FRESH, FRESH, FRESH, FRESH], 1)[0]  # in seat 0, vs B, D
    assert (a.mu, a.sigma) == pytest.approx(lost) and a.mu < rating_model.DEFAULT_MU
    (live,) = await store.live_tables()
    assert live.seats[0] == SeatInfo.bot("Ann (bot)") and live.meta["votes"] == []

    await store.record_match_end(table, 0, 3.0)  # Ann's team wins with her stand-in
    assert await store.player_stats(GUILD, A) == a  # no win, no second match, no rating
    assert await _stats(store, C) == (1, 1, 1)  # the partner who stayed wins
    assert await _stats(store, B) == (1, 0, 1)
    rows = await store._db.all("SELECT user_id, seat, name, team FROM match_leavers")
    assert [tuple(r) for r in rows] == [(A, 0, "Ann", 0)]


async def test_a_leaver_is_counted_though_the_match_never_ends(store: Store) -> None:
    """An abort after the leaving, or the last human leaving, records no match end: the
    leaver's loss was already counted."""
    table = await _table(store)
    await _leave(store, table, 1)
    await store.close_table(table, "aborted", 3.0)
    assert await _stats(store, B) == (1, 0, 1)
    assert await store.player_stats(GUILD, A) is None  # the others: no match counted
