"""Discord requests for one human play, counted through the fake (``cogs.play`` decides).

A click on the DM panel: the acknowledgement and the panel edited through the
interaction, nothing more in that player's DMs. ``/shengji play``: the
acknowledgement, the follow-up that ends its "thinking", and one edit of the
player's DM panel. No "your turn" notice while the turn has not waited.
"""

from __future__ import annotations

from collections import Counter

from fakediscord.http import RequestRecord

from .helpers import Env
from .test_bad_input import _started
from .test_presenter_load import _quiet


def _kinds(env: Env, since: int, dm_id: int) -> Counter[str]:
    """The play's requests by kind: interaction callbacks, webhook calls (follow-ups and
    edits of the original response), and requests in the player's DM channel."""
    kinds: Counter[str] = Counter()
    for r in list(env.fake.requests)[since:]:
        kind = _kind(r, dm_id)
        if kind:
            kinds[kind] += 1
    return kinds


def _kind(r: RequestRecord, dm_id: int) -> str:
    route = r.route or ""
    if route.startswith("/interactions/"):
        return "ack"
    if route.startswith("/webhooks/"):
        return f"webhook {r.method}"
    if r.channel_id == dm_id:
        return f"dm {r.method}"
    return ""


async def _ready(env: Env) -> tuple[int, int]:
    env.bot.presenter.ping_after = 60.0  # the players answer at once: no notice due
    await _started(env, humans=4)
    seat = env.match().to_act
    assert seat is not None
    await env.fresh_panel(env.seat_user(seat), seat)
    await _quiet(env)
    return seat, env.fake.dm_channel(env.seat_user(seat)).id


async def test_a_play_from_the_panel_is_two_requests_a_click(shengji: Env) -> None:
    env = shengji
    seat, dm_id = await _ready(env)
    since = len(env.fake.requests)
    await env.play_with_panel(seat, env.suggestion(seat)[:1])  # one menu choice, then Play
    await _quiet(env)
    assert _kinds(env, since, dm_id) == {"ack": 2, "webhook PATCH": 2}


async def test_a_play_by_slash_command_is_three_requests(shengji: Env) -> None:
    env = shengji
    seat, dm_id = await _ready(env)
    since = len(env.fake.requests)
    await env.play_with_slash(seat, env.suggestion(seat)[:1])
    await _quiet(env)
    assert _kinds(env, since, dm_id) == {"ack": 1, "webhook POST": 1, "dm PATCH": 1}
