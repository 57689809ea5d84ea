"""``/shengji prefs`` through Discord: saved, applied to the next panel, kept across a restart."""

from __future__ import annotations

import io

from PIL import Image

from bot.i18n import t
from bot.store import UserPrefs
from cogs.panels import hand_image

from .helpers import Env, restart
from .test_bad_input import _started


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
    assert text == "主题只能是：dark, light。没有做任何更改。"
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
        title = t("zh-CN", "panel-title", count=len(view.hand))
        expected = hand_image(view, [], title, wanted, "zh-CN")
        assert panel.attachments[0].data == expected
        plain = Image.open(io.BytesIO(hand_image(view, [], title, UserPrefs(), "zh-CN")))
        assert panel.attachments[0].image_size[0] < plain.width  # fewer cards a row
    finally:
        await running.stop()


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
    assert await env.reply(alice, "hint") == "本频道没有牌桌。用 `/双升 开桌` 开一桌。"
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    text = await env.reply(alice, "play", cards="ZZ")
    assert text.startswith("“ZZ”不是一张牌")
    # someone else (no preference, an English client) still reads English
    assert "seated players" in await env.reply(env.users[1], "hint")
