"""A round whose time is up ends, however its last matches end.

Once the time is up the round clock finished the matches between hands and left those
in their hand to the hook that hears the hand scored. Two ways no hand was ever heard:
a table that closed first (an abort, a deleted thread), and a hand the table service
recorded itself at a restart (the bot stopped between its last play and its record),
which no hook heard. Either way the match was never finished and the round never ended.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from bot.game import Phase

from .helpers import Env, restart
from .test_tournament_ended import computer_cup
from .test_tournament_flow import play_until


async def test_a_match_aborted_after_the_time_is_up_is_finished(shengji: Env) -> None:
    env = shengji
    cup = await computer_cup(env)  # two computer teams: one match, a 1-minute round
    [slot] = cup.slots.values()
    service = env.bot.service
    table = service.tables[slot.place_id]
    match = table.match
    assert match is not None
    await env.tick_until(lambda: match.phase is Phase.PLAY, step=1.0)
    assert match.hand_no == 0
    await env.tick(61)  # the round's time is up mid-hand: that hand plays on
    assert cup.timed_out == [1] and not slot.done
    await service.abort(table.channel_id, cup.organiser_id, True)  # an admin's abort
    assert table.closed
    await env.tick_until(lambda: slot.done, step=5.0)
    await env.until(lambda: cup.phase != "running" or cup.bracket.current.number != 1)


async def test_a_hand_recorded_at_a_restart_reaches_the_tally(shengji: Env) -> None:
    env = shengji
    cup = await computer_cup(env)
    stuck: list[asyncio.Task[Any]] = []

    async def dies(*args: Any, **kwargs: Any) -> None:  # the process stops in this write
        stuck.append(asyncio.current_task())  # type: ignore[arg-type]
        await asyncio.Event().wait()

    env.bot.service.store.record_hand = dies  # type: ignore[method-assign]
    await play_until(env, lambda: bool(stuck))
    [slot] = cup.slots.values()
    assert slot.tally.hands == 0 and not slot.done
    await env.tick(120)  # the round's time runs out while the process hangs
    env.bot.service.shutdown = partial(env.bot.service.shutdown, flush_seconds=0.1)  # type: ignore[method-assign]
    running = await restart(env)
    for task in stuck:
        task.cancel()
    try:
        cups, channel = env.bot.tournaments, env.world.tables.id
        again = cups.cups.get(channel) or cups.finished[channel]  # it may end at once
        [slot] = again.slots.values()
        assert await env.store.hands_of_table(slot.table_id)  # recorded at the restart
        assert slot.tally.hands == 1  # and counted
        await env.tick_until(lambda: slot.done, step=5.0)
        await env.until(lambda: again.phase != "running" or again.bracket.current.number != 1)
    finally:
        await running.stop()
