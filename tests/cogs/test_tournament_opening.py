"""A round whose matches open from a task (the round before ended), where no one's
command waits to say why it failed: a refusal is said in the channel for the organiser
to fix, and Discord's weather is ridden out by trying again on the tournament's clock.

Before, the exception ended the task unseen ("Task exception was never retrieved"):
the round sat without tables, its clock never started, and the channel said nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

import cogs.live
from bot.game import HandScored
from bot.tournament.cup import Cup
from fakediscord.http import RequestRecord
from fakediscord.state import Perm

from ..store.helpers import DEALER, result
from .helpers import Env
from .test_tournament_ended import computer_cup
from .test_tournament_flow import cmd, organiser, play_until, threads

MESSAGES = "/channels/{channel_id}/messages"


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _said(env: Env, text: str) -> bool:
    return any(text in m.content for m in env.fake.channel_messages(env.world.tables))


def _second_round(record: RequestRecord) -> bool:
    """The first message of a round 2 match (its thread opens from it)."""
    return isinstance(record.json, dict) and "**R2 · " in str(record.json.get("content"))


async def four_computer_teams(env: Env) -> Cup:
    """Two matches in round 1; their winners meet in round 2."""
    cup = await computer_cup(env, teams=4)
    await env.until(lambda: len(threads(env)) == 2, timeout=60)
    return cup


async def test_a_round_refused_its_threads_says_so_and_the_organiser_starts_it(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    cup = await four_computer_teams(env)
    env.fake.revoke_permissions(env.world.tables, Perm.CREATE_PUBLIC_THREADS)
    await asyncio.sleep(0.2)  # CHANNEL_UPDATE reaches the bot
    await play_until(env, lambda: _said(env, "Create Public Threads"), budget=60)
    assert cup.bracket is not None and cup.bracket.current is not None
    assert cup.bracket.current.number == 2 and len(threads(env)) == 2
    assert cup.clock is not None and not cup.clock.started  # no round time lost meanwhile
    assert not _errors(caplog)
    env.fake.restore_permissions(env.world.tables)
    await asyncio.sleep(0.2)
    # the organiser, impatient, starts it twice at once: one thread and table all the same
    said = await asyncio.gather(*(cmd(env, env.users[0], "start") for _ in range(2)))
    assert all("Started: 4 teams" in s for s in said)
    await env.until(lambda: cup.clock is not None and cup.clock.started, timeout=60)
    await env.fake.idle(quiet=0.3)
    assert len(threads(env)) == 3 and len(cup.slots) == 3
    final = [t for t in env.bot.service.tables.values() if t.meta.get("round") == 2]
    assert len(final) == 1 and final[0].channel_id == cup.slots["2.0"].place_id
    assert _said(env, "Every match of the round is open now.")


@pytest.mark.parametrize("weather", ["503", "dropped"])
async def test_a_round_that_meets_discords_weather_opens_on_its_own(
    shengji: Env, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, weather: str
) -> None:
    """A 503 (which discord.py does not retry), or a connection dropped at every one of
    the post's tries: the opening is tried again after ``OPEN_AGAIN[0]`` seconds."""
    env = shengji
    monkeypatch.setattr(cogs.live, "NETWORK_WAITS", (0.05, 0.05, 0.05))
    if weather == "503":
        failed = env.fake.faults.server_error("POST", MESSAGES, status=503, when=_second_round)
        tries = 1
    else:
        failed = env.fake.faults.disconnect("POST", MESSAGES, times=4, when=_second_round)
        tries = 4
    cup = await four_computer_teams(env)
    with caplog.at_level(logging.WARNING, "bot.tournament.rounds"):
        await play_until(env, lambda: len(threads(env)) == 3, budget=60)
    assert failed.hits == tries
    await env.until(lambda: cup.clock is not None and cup.clock.started)  # the table too
    await env.until(lambda: _said(env, "Every match of the round is open now."))
    assert any("trying again in 30 s" in r.getMessage() for r in caplog.records)
    assert not _errors(caplog)


async def _starting_slowly(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> tuple[Cup, asyncio.Task[str]]:
    """Alice's cup of eight computer teams, its start under way with one match of four
    open: each match's first message takes a while, as in a big draw."""
    alice = env.users[0]
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup", round_minutes=30)
    await cmd(env, alice, "addbots", count=8, level="easy")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    sink = env.bot.tournaments.sink
    post = sink.post_opening

    async def slowly(*args: Any) -> int:  # each match's first message takes a while
        await asyncio.sleep(0.3)
        return await post(*args)

    monkeypatch.setattr(sink, "post_opening", slowly)
    start = asyncio.create_task(cmd(env, alice, "start"))
    await env.until(lambda: len(cup.slots) == 1)
    return cup, start


async def test_a_cancel_while_the_start_opens_the_matches_leaves_no_table_open(
    shengji: Env, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser cancels while the start is still opening the round's matches (a
    big draw takes seconds). The start went on opening the rest, tables of a tournament
    that no longer was, and said the round had started after the cancelling."""
    env = shengji
    alice = env.users[0]
    cup, start = await _starting_slowly(env, monkeypatch)
    assert "is cancelled" in await cmd(env, alice, "cancel")
    await start
    await env.fake.idle(quiet=0.5)
    assert len(cup.slots) < 4  # the opening stopped
    assert not [t for t in env.bot.service.tables.values() if t.meta.get("tournament")]
    said = [m.content for m in env.fake.channel_messages(env.world.tables)]
    assert not any("Round 1 has started" in s for s in said), said
    assert not _errors(caplog)


async def test_a_cancel_while_another_is_under_way_says_there_is_nothing_left_to_cancel(
    shengji: Env, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two cancels at once (a double click, two organisers): the second came while the
    first waited for the start's opening, and both then took the tournament off the
    channel's list; the second's failed ("something went wrong", an ERROR). And a match
    that ends meanwhile no longer moves a tournament being cancelled on (found by the
    monkey, seed 9102)."""
    env = shengji
    alice, bob = env.users[:2]
    organiser(env, bob)
    cup, start = await _starting_slowly(env, monkeypatch)
    first = asyncio.create_task(cmd(env, alice, "cancel"))
    await env.until(lambda: cup.phase == "cancelled")
    (slot,) = cup.slots.values()
    table = env.bot.service.tables[slot.place_id]
    await env.bot.tournaments.on_events(table, [HandScored(result(0, 0, DEALER, 2))])
    assert not slot.tally.hands and not slot.done  # the cancelled cup counts nothing more
    assert "no tournament in this channel" in await cmd(env, bob, "cancel")
    assert "is cancelled" in await first
    await start
    assert env.bot.tournaments.cups == {}
    assert env.bot.tournaments.finished[env.world.tables.id] is cup
    assert not _errors(caplog)
