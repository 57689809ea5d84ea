"""Seed 000's 不许查牌 at a Discord table: no looking back at a finished trick.

With ``assistance: none`` a player sees the trick on the table and their own hand,
nowhere the trick before (the table message, its image, the DM and ephemeral
panels), a forged Previous trick button changes nothing, and the turn timer still plays
for an absent player. Each test also runs with ``assistance: full``, where the
previous trick is shown, so that a check that finds nothing finds nothing for a
reason.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.game import Match, Phase
from bot.rules import RuleSet
from bot.store import GuildSettings
from cogs import components
from cogs.tableview import names_of, plays_text, winning_now
from fakediscord.state import Message
from renderers.scenes import TableScene

from .helpers import FAST, Env
from .test_abuse import forged_click
from .test_bad_input import _started

ASSISTANCE = ["none", "full"]


async def _table(env: Env, assistance: str, humans: int) -> Match:
    """A started table whose rules differ from the default in ``assistance`` only."""
    rules = replace(RuleSet(), assistance=assistance)
    await env.store.save_guild_settings(env.world.guild.id, GuildSettings(rules, dict(FAST)))
    await _started(env, humans=humans)
    assert env.table().rules == rules
    return env.match()


def _scenes(env: Env, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every scene the presenter renders from now on (the table image's among them)."""
    scenes: list[Any] = []
    render = env.bot.presenter.render

    async def recording(fn: Any, scene: Any, *args: Any, **kwargs: Any) -> bytes:
        scenes.append(scene)
        return await render(fn, scene, *args, **kwargs)

    monkeypatch.setattr(env.bot.presenter, "render", recording)
    return scenes


def _under_way(scenes: list[Any]) -> list[TableScene]:
    """The table images drawn while a trick after the first was being played."""
    return [
        s
        for s in scenes
        if isinstance(s, TableScene) and (s.trick.trick_no or 0) >= 2 and len(s.trick.plays) < 4
    ]


def _shows(env: Env, match: Match) -> Message | None:
    """The table message once it shows the trick as it is now."""
    names = names_of(tuple(env.table().seats))
    now = plays_text(match.trick, names, "en-US", winning_now(match.view(None)))
    return next((m for m in reversed(env.place_messages()) if now in m.content), None)


async def _alice_follows(env: Env, scenes: list[Any]) -> Message:
    """Alice (the one person, seat 0) plays until she is to follow in a trick after
    the first and the table image was drawn mid-trick at least once; the table message."""
    match = env.match()
    while match.phase == Phase.PLAY:
        kind, seat = match.expecting()
        if seat != 0 or kind != "play":
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s or match.phase != Phase.PLAY)
            continue
        if match.trick and match.tricks:
            message: Message = await env.until(lambda: _shows(env, match))
            if _under_way(scenes):
                return message
        await env.play_with_slash(0, env.suggestion(0))
    raise AssertionError("the hand ended before Alice followed with the table drawn mid-trick")


@pytest.mark.deal_seed(3)
@pytest.mark.parametrize("assistance", ASSISTANCE)
async def test_the_previous_trick_is_shown_only_with_assistance(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, assistance: str
) -> None:
    env = shengji
    scenes = _scenes(env, monkeypatch)
    match = await _table(env, assistance, humans=1)
    table_message = await _alice_follows(env, scenes)
    names = names_of(tuple(env.table().seats))
    previous = plays_text(match.tricks[-1].plays, names, "en-US", match.tricks[-1].winner)
    shown = assistance == "full"
    # the table message's text: the trick on the table only, either way (the image has the strip)
    assert previous not in table_message.content and "Previous trick" not in table_message.content
    # the table image: the previous trick drawn beside the one under way only with assistance
    drawn = [s for s in scenes if isinstance(s, TableScene)]
    assert any(s.last is not None for s in drawn) == shown
    assert all((s.last is not None) == bool(s.last_title) for s in drawn)
    assert all((s.last is not None) == shown for s in _under_way(scenes))
    # Alice's DM panel and the ephemeral one (My hand): her hand, the trick, no trick before
    alice = env.users[0]
    panel = await env.fresh_panel(alice, 0)
    tid = env.table().id
    handle = env.driver.click(table_message, f"sj:t:{tid}:hand", alice)
    await handle
    (ephemeral,) = await handle.wait_followups(1)
    assert ephemeral.ephemeral
    for text in (panel.content, ephemeral.content):
        assert "On the table:" in text
        assert (f"Previous trick: {previous}" in text) == shown, text
    assert {name for _, to, name, *_ in env.audit if to == alice.id} == {"HandScene"}


@pytest.mark.deal_seed(3)
@pytest.mark.parametrize("assistance", ASSISTANCE)
async def test_a_forged_last_trick_button_is_refused_without_assistance(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, assistance: str
) -> None:
    """No table message offers Previous trick under ``none``; a forged press gets the short
    refusal, no image, and the table and its messages stay as they were."""
    env = shengji
    scenes = _scenes(env, monkeypatch)
    match = await _table(env, assistance, humans=1)
    await _alice_follows(env, scenes)
    tid = env.table().id
    last = f"sj:t:{tid}:last"
    assert any(last in m.custom_ids() for m in env.place_messages()) == (assistance == "full")
    before = (match.to_dict(), [(m.id, m.content) for m in env.place_messages()], len(scenes))
    handle = forged_click(env, env.users[0], env.place(), last)
    await handle
    if assistance == "full":
        (image,) = await handle.wait_followups(1)
        assert image.ephemeral and image.attachments
        return
    answer = await handle.wait_message()
    assert answer.ephemeral and not answer.attachments
    assert answer.content == "The previous trick is not shown at this table (no assistance)."
    after = (match.to_dict(), [(m.id, m.content) for m in env.place_messages()], len(scenes))
    assert after == before and not handle.followups


@pytest.mark.parametrize("assistance", ASSISTANCE)
async def test_the_timer_still_plays_for_an_absent_player(shengji: Env, assistance: str) -> None:
    """Seed 000 takes the help away from players, not the clock: an absent player's turn
    runs out and the computer plays for them, and the table says so."""
    env = shengji
    match = await _table(env, assistance, humans=2)
    while env.table().seats[match.to_act].kind != "human":
        seq = match.seq
        await env.until(lambda s=seq: match.seq > s)
    seat = match.to_act
    name = names_of(tuple(env.table().seats))[seat]
    seq = match.seq
    await env.tick(env.table().rules.play_seconds + 1)
    await env.until(lambda: match.seq > seq)
    played = [s for s, _ in match.trick] + [s for t in match.tricks for s, _ in t.plays]
    assert seat in played
    said = f"({name} was played for by the computer.)"
    await env.until(lambda: any(said in m.content for m in env.place_messages()))


@pytest.mark.deal_seed(3)
async def test_a_previous_trick_asked_for_as_the_next_hand_deals_is_shown(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Monkey seed 504: the hand ended and the next one dealt while a Previous trick click
    waited for its preferences; the answer then drew the new hand, which has no trick yet,
    and failed. The answer draws the table as the click found it."""
    env = shengji
    scenes = _scenes(env, monkeypatch)
    match = await _table(env, "full", humans=1)
    table_message = await _alice_follows(env, scenes)
    table = env.table()
    dealing = Match.new(table.seed + 1, table.rules)  # a hand whose cards are being dealt
    read_prefs = components.reply_prefs
    draw = env.bot.presenter.last_trick_image

    async def prefs_as_the_next_hand_deals(interaction: Any) -> Any:
        prefs = await read_prefs(interaction)
        table.match = dealing
        return prefs

    drawn: list[Any] = []

    async def drawn_with_the_match_back(*args: Any) -> bytes | None:
        table.match = match  # before the loop turns: the table's driver never sees `dealing`
        drawn.append(args[1])
        return await draw(*args)

    monkeypatch.setattr(components, "reply_prefs", prefs_as_the_next_hand_deals)
    monkeypatch.setattr(env.bot.presenter, "last_trick_image", drawn_with_the_match_back)
    handle = env.driver.click(table_message, f"sj:t:{table.id}:last", env.users[0])
    await handle
    (answer,) = await handle.wait_followups(1)
    assert answer.ephemeral and answer.attachments
    (view,) = drawn  # the hand the click was made in, with its finished tricks
    assert view.tricks and view.tricks[0] == match.tricks[0] and view.trump == match.trump
