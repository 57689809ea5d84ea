"""``/shengji prefs`` through Discord: saved, applied to the live panel at once and to the
next, kept across a restart."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import threading
from typing import Any

import pytest
from PIL import Image

from bot.game import Match
from bot.i18n import LOCALES, t
from bot.store import SeatInfo, UserPrefs
from bot.store.simulate import simulate
from cogs.messages import last_trick_scene
from cogs.panels import hand_image
from cogs.playerprefs import PREFS_TTL
from cogs.prefs import ALLOWED, FIELDS, WORDS
from cogs.records import _hand_scene
from cogs.tableview import names_of
from fakediscord.state import Message, User
from renderers import render_history, render_table

from .helpers import Env, restart
from .test_bad_input import _started
from .test_tournament_flow import small_cup

#: preferences that change the hand image, set one after another in the middle of a hand
DRAWN = [
    ("four_color", "on", UserPrefs(four_color=True)),
    ("theme", "light", UserPrefs(four_color=True, theme="light")),
    ("card_size", "large", UserPrefs(four_color=True, theme="light", card_size="large")),
]


async def test_preferences_apply_to_the_next_panel_and_survive_a_restart(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    assert "Saved" in await env.reply(alice, "prefs", field="four_color", value="on")
    assert "Saved" in await env.reply(alice, "prefs", field="card_size", value="large")
    assert "已保存" in await env.reply(alice, "prefs", field="language", value="中文")
    wanted = UserPrefs(locale="zh-CN", four_color=True, card_size="large")
    assert await env.store.user_prefs(alice.id) == wanted
    # a bad value: a clear error in her language, nothing changed
    text = await env.reply(alice, "prefs", field="theme", value="neon")
    assert text == "主题只能是：深色、浅色。没有做任何更改。"
    assert await env.store.user_prefs(alice.id) == wanted
    # the bot restarts; her next panel is drawn as she asked
    running = await restart(env)
    try:
        await _started(env, humans=1)
        match = env.match()
        await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
        panel = await env.fresh_panel(alice, 0)
        view = match.view(0)
        # in Chinese (a dealer's panel opens with what she buried, then the trump line)
        assert any(line.startswith("**主：**") for line in panel.content.splitlines())
        title = t("zh-CN", "panel-title")
        expected = hand_image(view, [], title, wanted, "zh-CN")
        assert panel.attachments[0].data == expected
        plain = Image.open(io.BytesIO(hand_image(view, [], title, UserPrefs(), "zh-CN")))
        assert panel.attachments[0].image_size[0] < plain.width  # fewer cards a row
    finally:
        await running.stop()


async def test_a_change_stored_by_another_process_reaches_the_panels_within_the_ttl(
    shengji: Env,
) -> None:
    """With several processes (``SHENGJI_SHARDS``), ``/shengji prefs`` may be handled by
    one that does not run Alice's table: this one reads her change once the preferences
    it keeps are ``PREFS_TTL`` old, as its next panel shows."""
    env = shengji
    alice = env.users[0]
    assert "no table" in await env.reply(alice, "hint")  # her preferences, read and kept
    wanted = UserPrefs(locale="zh-CN", four_color=True)
    await env.store.save_user_prefs(alice.id, wanted)  # what the other process stores
    assert "no table" in await env.reply(alice, "hint")  # kept: not read at every reply
    await env.tick(PREFS_TTL)
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    panel = await env.fresh_panel(alice, 0)
    assert any(line.startswith("**主：**") for line in panel.content.splitlines())
    view = match.view(0)
    title = t("zh-CN", "panel-title")
    assert panel.attachments[0].data == hand_image(view, [], title, wanted, "zh-CN")


async def _alice_waits(env: Env) -> Match:
    """Four people playing, and Alice (seat 0) not the one to act: her panel only waits."""
    await _started(env, humans=4)
    match = env.match()
    if match.to_act == 0:
        await env.play_with_panel(0, env.suggestion(0))
    return match


async def test_a_preference_redraws_the_live_panel_at_once(shengji: Env) -> None:
    """Mid-hand, not her turn, nothing else happening: Alice's panel is drawn again as she
    now asks, without waiting for her next turn."""
    env = shengji
    alice = env.users[0]
    match = await _alice_waits(env)
    seq, view = match.seq, match.view(0)
    title = t("en-US", "panel-title")

    def drawn_as(prefs: UserPrefs) -> Message | None:
        """Her live panel, once it shows her hand as it stands, drawn with ``prefs``."""
        image = hand_image(view, [], title, prefs, "en-US")
        panels = [m for m in env.fake.dms(alice) if m.attachments]
        return panels[-1] if panels and panels[-1].attachments[0].data == image else None

    panel = await env.until(lambda: drawn_as(UserPrefs()))
    before = panel.attachments[0].data
    for field, value, prefs in DRAWN:
        assert "Saved" in await env.reply(alice, "prefs", field=field, value=value)
        redrawn = await env.until(lambda p=prefs: drawn_as(p))
        assert redrawn.id == panel.id and redrawn.attachments[0].data != before
        before = redrawn.attachments[0].data
        assert match.seq == seq, "nobody acted: the redraw came from the preference"


async def test_a_panel_shown_with_its_preferences_expired_leaves_the_queued_render_its_state(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A state of Alice's panel waits in the render queue (the render thread busy); a newer
    one is shown once her preferences are no longer kept (``PREFS_TTL``), so before they
    are read again: the queued render draws the state it was queued for, then the newer
    one is drawn, rather than the queued render finding no state (an AssertionError in
    the render thread, logged, and the panel's edit lost)."""
    env = shengji
    alice = env.users[0]
    await _alice_waits(env)
    presenter, table = env.bot.presenter, env.table()
    await env.fake.idle()
    cell = presenter.ui(table).panel_cells[0]
    gate = threading.Event()
    busy = asyncio.ensure_future(presenter.off_loop(gate.wait))
    caplog.set_level(logging.WARNING)
    assert presenter.redraw_for(alice.id) == 1
    await env.until(lambda: presenter.rendering == 2)  # her panel waits behind the busy render
    presenter.forget_prefs(alice.id)
    assert presenter.redraw_for(alice.id) == 1
    gate.set()
    await busy
    await env.until(lambda: cell.sent == cell.version)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_turn_dm_off_sends_no_notice(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    assert "Saved" in await env.reply(alice, "prefs", field="turn_dm", value="off")
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    await env.fresh_panel(alice, 0)
    assert not [m for m in env.fake.dms(alice) if "🔔" in m.content]
    # the control: turned back on, her next turn brings the notice
    assert "Saved" in await env.reply(alice, "prefs", field="turn_dm", value="on")
    await env.play_with_slash(0, env.suggestion(0))
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    await env.until(lambda: [m for m in env.fake.dms(alice) if "🔔" in m.content])


async def test_refusals_and_illegal_plays_in_the_players_language(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    assert "已保存" in await env.reply(alice, "prefs", field="language", value="zh")
    assert await env.reply(alice, "hint") == "本频道没有牌桌。用`/双升 开桌`开一桌。"
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    text = await env.reply(alice, "play", cards="ZZ")
    assert text.startswith("“ZZ”不是一张牌")
    # someone else (no preference, an English client) still reads English
    assert "seated players" in await env.reply(env.users[1], "hint")


def _light(png: bytes) -> bool:
    """Whether an image is drawn in the light theme: its page (a corner) is light."""
    r, g, b = Image.open(io.BytesIO(png)).convert("RGB").getpixel((2, 2))
    return (r + g + b) / 3 > 128


async def _last_trick(env: Env, message: Message, user: User) -> bytes:
    handle = env.driver.click(message, f"sj:t:{env.table().id}:last", user)
    await handle
    (answer,) = await handle.wait_followups(1)
    assert answer.ephemeral
    return answer.attachments[0].data


async def _history(env: Env, user: User, hand_id: int) -> bytes:
    handle = await env.slash(user, "history", hand_id=hand_id)
    first = await handle.wait_message()
    assert first.ephemeral
    return first.attachments[0].data


async def test_the_images_only_you_see_use_your_theme_and_four_colours(shengji: Env) -> None:
    """The Previous trick and /shengji history images are one player's, like their panel:
    Alice (light, four colours) sees hers so; Bob, with no preferences, the default."""
    env = shengji
    alice, bob = env.users[0], env.users[1]
    assert "Saved" in await env.reply(alice, "prefs", field="theme", value="light")
    assert "Saved" in await env.reply(alice, "prefs", field="four_color", value="on")
    chosen = {"theme": "light", "four_color": True}
    await _started(env, humans=1)
    match = env.match()
    while not match.tricks or match.to_act != 0 or match.expecting()[0] != "play":
        if match.to_act == 0 and match.expecting()[0] == "play":
            await env.play_with_slash(0, env.suggestion(0))
        else:
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s)
    # waiting for Alice's play, the last trick stays as it is
    message: Message = await env.until(
        lambda: next(
            (
                m
                for m in reversed(env.fake.channel_messages(env.place()))
                if any(c.endswith(":last") for c in m.custom_ids())
            ),
            None,
        )
    )
    scene = last_trick_scene(match.view(None), names_of(tuple(env.table().seats)), "en-US")
    assert scene is not None
    mine = await _last_trick(env, message, alice)
    assert _light(mine) and mine == render_table(scene, lang="en", **chosen)
    theirs = await _last_trick(env, message, bob)
    assert not _light(theirs) and theirs == render_table(scene, lang="en")

    players = [SeatInfo.human(u.id, u.name, auto=True) for u in env.users]
    done = await simulate(
        env.store, hands=1, players=players, guild_id=env.world.guild.id, channel_id=7
    )
    (hand_id,) = done.hands
    record = await env.store.hand_record(hand_id)
    assert record is not None
    history = _hand_scene("en-US", record)
    mine = await _history(env, alice, hand_id)
    assert _light(mine) and mine == render_history(history, **chosen)
    theirs = await _history(env, bob, hand_id)
    assert not _light(theirs) and theirs == render_history(history)


async def test_your_tournament_standings_in_your_theme(shengji: Env) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    assert "Saved" in await env.reply(alice, "prefs", field="theme", value="light")
    await small_cup(env)
    shown = []
    for user in (alice, bob):
        handle = env.driver.send_slash("shengji tournament standings", user, env.world.tables)
        await handle
        answer = await handle.wait_message()
        assert answer.ephemeral
        shown.append(_light(answer.attachments[0].data))
    assert shown == [True, False]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("field", FIELDS)
def test_a_bad_values_error_offers_words_of_the_players_language_the_command_takes(
    locale: str, field: str
) -> None:
    offered = re.split(r"、|, ", t(locale, ALLOWED[field]))
    assert len(offered) >= 2
    assert all(word.lower() in WORDS[field] for word in offered), offered
    stored = {WORDS[field][word.lower()] for word in offered}
    assert len(stored) == len(offered), "each word offered is a different choice"
    if locale == "zh-CN":  # not the English words a Chinese player would not type
        assert not any(re.search("[a-z]", word) for word in offered), offered


async def test_a_choice_saved_while_the_clients_language_is_noted_keeps_both(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new player's first interaction is `/shengji prefs`: the listener noting their
    client's language and the command saving their choice run at once; neither may put
    the other's change out of the kept preferences."""
    env = shengji
    alice = env.users[0]
    alice.locale = "zh-CN"
    presenter = env.bot.presenter
    presenter.forget_prefs(alice.id)
    held = asyncio.Event()
    save_client = env.bot.service.save_client_locale

    async def slow_save(user_id: int, locale: Any) -> None:
        await held.wait()  # the client's language is still being stored
        await save_client(user_id, locale)

    monkeypatch.setattr(env.bot.service, "save_client_locale", slow_save)
    assert "已保存" in await env.reply(alice, "prefs", field="theme", value="light")
    kept = presenter.cached_prefs(alice.id)
    assert kept is not None and kept.theme == "light" and kept.client_locale == "zh-CN"
    held.set()
    stored = await env.store.user_prefs(alice.id)
    assert stored.theme == "light"
