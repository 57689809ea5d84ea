"""Play makes no cyclic garbage: what a turn leaves behind goes by reference counting.

At 400 tables the garbage collector's pauses blocked the event loop (issue 14 item
10: up to 82 ms for a young collection, 206-563 ms for the older ones) because every
interaction (discord.py's ``Interaction`` and its cached response point at each
other), every cancelled turn-notice wait, every DM ``LiveMessage`` (its error
callback held it), every uploaded picture (``discord.File`` leaves its buffer's
bound ``close`` in the buffer) and every rules search by a closure calling itself
was a cycle. Here turns are played through the real client and the fake with the
collector off; the collection afterwards must find nothing of the bot's.
"""

from __future__ import annotations

import collections
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import discord

from app.tuning import FinishedInteractions, _caches_response

from .helpers import Env
from .test_bad_input import _started


def _kind(o: object) -> str:
    return f"{type(o).__module__}.{type(o).__qualname__}"


@contextmanager
def _garbage() -> Iterator[list[object]]:
    """The collector off inside; afterwards the list holds what a collection found."""
    found: list[object] = []
    gc.collect()
    gc.disable()
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found += gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_turns_through_commands_and_panels_leave_no_cyclic_garbage(shengji: Env) -> None:
    env = shengji
    env.bot.presenter.ping_after = 10.0  # each turn's notice waits, then is called off
    env.bot.finished_interactions.every = 0.0  # look at every new interaction
    await _started(env, humans=2)
    played = 0
    with _garbage() as garbage:
        while played < 12:
            seat = env.match().to_act
            assert seat is not None
            info = env.table().seats[seat]
            assert info is not None
            if info.kind != "human":
                await env.tick(1)  # the computer player's turn
                continue
            if played % 2:
                await env.play_with_panel(seat, env.suggestion(seat))
            else:
                await env.play_with_slash(seat, env.suggestion(seat))
            played += 1
    kinds = collections.Counter(_kind(o) for o in garbage)
    assert not [k for k in kinds if k.startswith(("discord.", "cogs.", "bot.", "app."))], kinds
    assert not kinds["_io.BytesIO"] and not kinds["_asyncio.Task"], kinds
    assert sum(kinds.values()) < 20, kinds  # nothing else either: none at all when written


def test_discord_py_still_caches_the_response_where_the_sweep_looks() -> None:
    """Should this fail (a new discord.py), ``FinishedInteractions`` does nothing: see it."""
    assert _caches_response()
    assert FinishedInteractions().enabled


def _interaction(env: Env) -> discord.Interaction:
    """A component interaction in a DM, made by the running client's own state."""
    user = env.users[0]
    payload = {
        "id": "1456000000000000001",
        "application_id": str(env.bot.application_id or 1),
        "type": 3,
        "token": "token",
        "version": 1,
        "attachment_size_limit": 8 << 20,
        "channel": {"id": "1456000000000000002", "type": 1},
        "user": {"id": str(user.id), "username": user.name, "discriminator": "0"},
        "data": {"custom_id": "x", "component_type": 2},
    }
    return discord.Interaction(data=payload, state=env.bot._connection)  # type: ignore[arg-type]


async def test_the_sweep_frees_an_interaction_only_once_nothing_uses_it(shengji: Env) -> None:
    env = shengji
    watch = FinishedInteractions(every=0.0)
    interaction = _interaction(shengji)
    response = interaction.response  # cached: the cycle
    watch.watch(interaction)
    assert watch.sweep(0.0) == 0  # held here (a handler running)
    assert interaction.response is response
    del interaction
    assert watch.sweep(0.0) == 0  # its response held (someone about to answer through it)
    assert response._parent.response is response
    with _garbage() as garbage:
        del response
        assert watch.sweep(0.0) == 1  # nothing holds either: the cycle is cut
        assert watch.sweep(0.0) == 0  # and it is no longer watched
    assert not [o for o in garbage if isinstance(o, discord.Interaction)]
    # one never let go is watched until its token expires, then left to the collector
    kept = _interaction(env)
    kept.response.is_done()
    watch.watch(kept)
    assert watch.sweep(15 * 60.0 - 1) == 0 and len(watch._watched) == 1
    assert watch.sweep(sys.float_info.max) == 0 and not watch._watched
    assert kept.response._parent is kept
