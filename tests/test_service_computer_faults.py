"""A computer player that raises never closes its table: the safest move is made instead.

Before, any error but a refused action (an IndexError deep in a computer player's card
memory, an assert in the timer's suggestion, a bid that raised during the deal) reached
the driver, which closed the whole table mid-hand as a bug.
"""

from __future__ import annotations

import logging

import pytest

from bot.ai import ExpertPlayer, HeuristicPlayer
from bot.game import Phase
from bot.service import UpdateKind

from .test_service import ALICE, CHANNEL, _full_table, env, run_until

__all__ = ["env"]  # the fixture, shared with the service tests


def _closed(sink) -> list[object]:
    return [u.reason for _, u in sink.updates if u.kind is UpdateKind.CLOSED]


@pytest.mark.parametrize("where", ["play", "bid"])
async def test_a_computer_player_that_raises_makes_the_safest_move(
    env, monkeypatch, caplog, where: str
) -> None:
    service, _store, clock, sink = env
    table = await _full_table(service, humans=1)
    real = HeuristicPlayer.act
    raised: list[int] = []

    def flaky(self, view):
        late_trick = view.expecting == "play" and len(view.tricks) == 3
        deal = view.expecting in ("deal", "end_bidding")  # asked whether it bids
        if view.seat != 0 and (late_trick if where == "play" else deal):
            raised.append(view.seat)
            raise IndexError("a bug deep in the card memory")
        return real(self, view)

    monkeypatch.setattr(HeuristicPlayer, "act", flaky)
    await service.start(CHANNEL, ALICE)
    await service.set_auto(CHANNEL, ALICE, True)  # 托管: only computers play
    with caplog.at_level(logging.ERROR):
        await run_until(clock, lambda: table.match.hand_no > 0 or table.closed, steps=3000)
    assert raised and not table.closed and _closed(sink) == []
    assert table.match.phase is not Phase.OVER  # the next hand under way
    assert "computer player at table" in caplog.text  # said in the log, not to players


async def test_a_timer_whose_choice_raises_plays_the_safest_move(env, monkeypatch, caplog) -> None:
    service, store, clock, sink = env
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    match = table.match
    await run_until(clock, lambda: match.expecting() in (("play", 0), ("bury", 0)))
    seq = match.seq

    def broken(view):
        raise AssertionError("suggest broke")

    monkeypatch.setattr("bot.service.runtime.suggest", broken)
    with caplog.at_level(logging.ERROR):
        await run_until(clock, lambda: match.seq > seq or table.closed)  # Alice's time runs out
    assert not table.closed and _closed(sink) == []
    taken = {seq: (seat, action) for seq, seat, action in await store.action_log(table.id)}
    assert taken[seq + 1][0] == 0 and taken[seq + 1][1].get("auto")  # the timer, for Alice
    assert "the timer's choice at table" in caplog.text


async def test_an_expert_whose_search_raises_makes_the_safest_move(env, monkeypatch) -> None:
    """The expert thinks in a thread: its error comes back through the future."""
    service, _store, clock, sink = env
    table = await service.new_table(1, CHANNEL, ALICE, "Alice")
    for _ in range(3):
        await service.add_bot(CHANNEL, level="expert")
    table.meta["think_ms"] = 1.0

    def broken(self, view, due=None):
        if view.expecting == "play":
            raise KeyError("a bug in the search")
        return HeuristicPlayer.act(self, view)

    monkeypatch.setattr(ExpertPlayer, "act", broken)
    await service.start(CHANNEL, ALICE)
    await service.set_auto(CHANNEL, ALICE, True)
    await run_until(clock, lambda: len(table.match.tricks) > 2 or table.closed, steps=3000)
    assert not table.closed and _closed(sink) == []
