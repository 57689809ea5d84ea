"""Post-hand reviews in the table service: found, checked, and run off the tables' way
(a real store in a temp folder, a manual clock for the tables)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.reviews
from bot.ai import suggest
from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import Table, TableService, UserError
from bot.store import GuildSettings, Store

from .test_service import (
    ALICE,
    BOB,
    CHANNEL,
    FAST,
    GUILD,
    OTHER,
    Recorder,
    caught_up,
    run_until,
    settle,
)


@pytest.fixture
async def opened() -> AsyncIterator[list[TableService]]:
    """The services a test opened, shut down and closed whatever happens."""
    services: list[TableService] = []
    yield services
    for service in services:
        await service.shutdown()
        await service.store.close()


TIMED_OUT = 2  # Alice's first plays left to her turn timer


async def _one_hand(
    opened: list[TableService], path: Path, rules: RuleSet | None = None
) -> tuple[TableService, Table]:
    """A table where Alice and three computer players have finished a hand: her turn
    timer plays her first ``TIMED_OUT`` cards, she plays the others herself."""
    path.mkdir(exist_ok=True)
    store = await Store.open(path / "db.sqlite3")
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    clock = ManualClock()
    service = TableService(store, Recorder(), clock, seed_source=lambda: 11)
    opened.append(service)
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice", rules)
    for _ in range(3):
        await service.add_bot(CHANNEL)
    await service.start(CHANNEL, ALICE)
    await run_until(clock, lambda: table.match is not None)
    match = table.match
    assert match is not None
    while match.result is None:
        view = match.view(0)
        mine = view.to_act == 0 and view.expecting in ("play", "bury", "overcall")
        if mine and not (view.expecting == "play" and len(view.tricks) < TIMED_OUT):
            await service.act(CHANNEL, ALICE, suggest(view))
        else:
            await clock.advance(1.0)
            await settle(clock, 5)
    await caught_up(clock, store, table)
    return service, table


async def test_who_may_review_what(tmp_path: Path, opened: list[TableService]) -> None:
    service, table = await _one_hand(opened, tmp_path)
    (hand_id,) = await service.store.hands_of_table(table.id)
    hand_no, review = await service.review(GUILD, CHANNEL, ALICE, hand_id=hand_id)
    assert hand_no == hand_id and review.seat == 0 and review.complete and review.judged > 0
    # the timer's plays are logged as the computer's, and the review leaves them out
    source = await service.store.replay_source(hand_id)
    assert source is not None
    alices = [a for seat, a in source.actions if seat == 0 and a["kind"] == "play"]
    assert [a.get("auto", False) for a in alices[:3]] == [True] * TIMED_OUT + [False]
    assert review.auto == TIMED_OUT and review.judged <= len(alices) - TIMED_OUT
    again = await service.review(GUILD, CHANNEL, ALICE)  # the last hand here, kept
    assert again == (hand_id, review)
    refusals = [
        (dict(guild_id=GUILD, user_id=BOB, hand_id=hand_id), "review-not-yours"),  # a spectator
        (dict(guild_id=GUILD + 1, user_id=ALICE, hand_id=hand_id), "review-no-hand"),
        (dict(guild_id=GUILD, user_id=ALICE, hand_id=hand_id + 1), "review-no-hand"),
        # the button of another table's summary, pressed elsewhere
        (dict(guild_id=GUILD, user_id=ALICE, table_id=table.id, hand_no=0, at=OTHER), "wrong"),
        (dict(guild_id=GUILD, user_id=ALICE, at=OTHER), "review-which"),  # no table there
    ]
    for kwargs, key in refusals:
        at = kwargs.pop("at", CHANNEL)
        with pytest.raises(UserError) as refused:
            await service.review(place_id=at, **kwargs)
        assert key in refused.value.key


async def test_no_review_without_assistance_or_without_the_log(
    tmp_path: Path, opened: list[TableService]
) -> None:
    service, table = await _one_hand(opened, tmp_path, RuleSet(assistance="none"))
    (hand_id,) = await service.store.hands_of_table(table.id)
    for kwargs in (dict(hand_id=hand_id), dict()):
        with pytest.raises(UserError) as refused:
            await service.review(GUILD, CHANNEL, ALICE, **kwargs)
        assert refused.value.key == "review-off"
    service2, table2 = await _one_hand(opened, tmp_path / "x")
    (hand2,) = await service2.store.hands_of_table(table2.id)
    await service2.abort(CHANNEL, ALICE, is_admin=True)
    await service2.store.prune_logs(time.time() + 10**9)
    with pytest.raises(UserError) as refused:
        await service2.review(GUILD, CHANNEL, ALICE, hand_id=hand2)
    assert refused.value.key == "review-gone"


async def test_a_review_runs_while_the_tables_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[TableService]
) -> None:
    """A review computes in a worker process: meanwhile another table's commands are
    answered; a budget that runs out gives a partial review, which is not kept."""
    service, _ = await _one_hand(opened, tmp_path)
    # 400 samples a decision (about 0.4 s each here) in a budget of 1.5 s: the review
    # runs out of its time after a few decisions
    monkeypatch.setattr(bot.service.reviews, "WORLDS", 400)
    monkeypatch.setattr(bot.service.reviews, "BUDGET_S", 1.5)
    asking = asyncio.create_task(service.review(GUILD, CHANNEL, ALICE))
    while service._reviewer is None or not service._reviewer._processes:
        await asyncio.sleep(0.01)  # the review is in its worker (a busy machine: later)
    other = await service.new_table(GUILD, OTHER, BOB, "Bob")
    assert await service.add_bot(OTHER, level="expert") == 1 and other.seats[1] is not None
    assert not asking.done()
    pool = service._reviewer
    assert pool is not None
    (worker,) = [p for p in multiprocessing.active_children() if p.pid in pool._processes]
    assert worker.pid != os.getpid()
    _, review = await asking
    # what was judged before the budget ran out is shown (how many plays that is
    # follows the machine's speed: no fixed decisions here)
    assert not review.complete and review.judged < 20
    assert len(review.decisions) <= review.judged
    assert service._reviews == {}, "a partial review is asked again next time"


async def test_a_review_whose_worker_dies_is_refused_and_asked_again(
    tmp_path: Path, opened: list[TableService]
) -> None:
    """Killed (or out of memory) mid-review: the asker is told to try again, and the
    next ask gets a new worker and its review."""
    service, _ = await _one_hand(opened, tmp_path)
    asking = asyncio.create_task(service.review(GUILD, CHANNEL, ALICE))
    while service._reviewer is None or not service._reviewer._processes:
        await asyncio.sleep(0.01)
    for pid in list(service._reviewer._processes):
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(UserError) as refused:
        await asking
    assert refused.value.key == "review-failed"
    _, review = await service.review(GUILD, CHANNEL, ALICE)
    assert review.complete and review.judged > 0
    await service.shutdown()  # and the worker goes with the service
    assert service._reviewer is None
