"""The table service counts a player who leaves an undecided match for it, as a loss.

Leaving in the lobby counts nothing, and neither does leaving a match already decided
(its record counted the player in their seat); a tournament's absent player, whose
seat a computer takes after the grace period, is a leaver too.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.game import Match
from bot.service import LeaveOutcome, Table
from bot.service.faults import NotSaved
from bot.store import Store

from .test_service import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    _full_table,
    env,
    run_until,
)

__all__ = ["env"]  # the fixture, shared with the service tests


async def _counted(store: Store, user_id: int) -> tuple[int, int, int] | None:
    stats = await store.player_stats(GUILD, user_id)
    return None if stats is None else (stats.matches, stats.wins, stats.rated_matches)


async def test_leavers_are_counted_at_once_and_lobby_leavers_not(env) -> None:
    service, store, _clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.join(CHANNEL, CAROL, "Carol")
    assert await service.leave(CHANNEL, CAROL) is LeaveOutcome.LEFT  # the lobby
    await service.join(CHANNEL, BOB, "Bob")
    while None in table.seats:
        await service.add_bot(CHANNEL)
    await service.start(CHANNEL, ALICE)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.REPLACED
    assert await _counted(store, BOB) == (1, 0, 1)
    assert await service.leave(CHANNEL, ALICE) is LeaveOutcome.CLOSED  # the last human
    assert await _counted(store, ALICE) == (1, 0, 1)  # the table closes: no match end
    assert await _counted(store, CAROL) is None


async def test_a_tournament_s_absent_player_replaced_after_the_grace_is_a_leaver(env) -> None:
    service, store, _clock, _sink = env
    table = await _full_table(service, humans=2)
    table.meta["leave_grace"] = 300.0
    await service.start(CHANNEL, ALICE)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.AWAY  # on 托管: not yet
    assert await _counted(store, BOB) is None
    await service.seat_computer(CHANNEL, 1)  # the grace has passed
    assert await _counted(store, BOB) == (1, 0, 1)


async def test_leaving_a_decided_match_counts_only_its_result(env, monkeypatch) -> None:
    """Between the last hand's record, with the match's, and the table's close."""
    service, store, clock, _sink = env
    new = Match.new
    monkeypatch.setattr(  # a short match: both teams at K
        Match,
        "new",
        lambda seed, rules=None, **kw: new(seed, rules, **{**kw, "levels": ("K", "K")}),
    )
    closing, go_on = asyncio.Event(), asyncio.Event()
    close = service._close

    async def held(table: Table, reason: object) -> None:
        closing.set()
        await go_on.wait()
        await close(table, reason)

    monkeypatch.setattr(service, "_close", held)
    table = await _full_table(service, humans=2)
    for user in (ALICE, BOB):
        await service.set_auto(CHANNEL, user, True)
    await service.start(CHANNEL, ALICE)
    await run_until(clock, closing.is_set, steps=2000)
    assert table.match is not None and table.match.winner_team is not None
    bob_won = int(table.match.winner_team == 1)
    assert await _counted(store, BOB) == (1, bob_won, 1)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.REPLACED
    go_on.set()
    assert await _counted(store, BOB) == (1, bob_won, 1)  # no second match, no loss


async def test_a_refused_leaving_counts_nothing_and_keeps_the_seat(env, monkeypatch) -> None:
    service, store, _clock, _sink = env
    table = await _full_table(service, humans=2)
    await service.start(CHANNEL, ALICE)

    async def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "leave_match", full_disk)
    with pytest.raises(NotSaved):
        await service.leave(CHANNEL, BOB)
    assert table.seats[1] is not None and table.seats[1].user_id == BOB
    assert await _counted(store, BOB) is None
