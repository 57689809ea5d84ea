"""Every reply that used to be English-only, read by a player whose Discord is Chinese.

The players' clients and the server are zh-CN; each reply must hold no English
word (the players' names, card codes, the setting names an admin types and the
tournament's own name allowed) and some Chinese.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import app_commands

from bot.store import SeatInfo
from bot.store.simulate import simulate
from fakediscord.state import Message

from .helpers import Env
from .test_languages import dealt, english_words, texts
from .test_tournament_flow import cmd, message_with, organiser, threads

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
async def zh(shengji: Env) -> Env:
    """Every client in Chinese, and the server's preferred locale too (as Discord says)."""
    for user in [*shengji.users, admin(shengji)]:
        user.locale = "zh-CN"
    shengji.fake.set_preferred_locale(shengji.world.guild, "zh-CN")
    guild_id = shengji.world.guild.id
    await shengji.until(lambda: shengji.bot.get_guild(guild_id).preferred_locale.value == "zh-CN")
    return shengji


def admin(env: Env) -> Any:
    return next(u for u in env.fake.users.values() if u.id == env.world.guild.owner_id)


def _allowed(env: Env, *extra: str) -> set[str]:
    words = " ".join([u.name for u in env.users] + [u.name.title() for u in env.users])
    return set(re.findall(r"[A-Za-z]{2,}", words + " " + " ".join(extra)))


def assert_chinese(env: Env, what: str | Message, *extra: str) -> None:
    found = [what] if isinstance(what, str) else texts(what)
    assert any(HAN.search(text) for text in found), found
    for text in found:
        # setting names and values are what an admin types (in code format)
        plain = re.sub(r"`[^`]*`", "", text)
        assert not english_words(plain, _allowed(env, *extra)), text


async def _message(env: Env, user: Any, name: str, **options: Any) -> Message:
    handle = await env.slash(user, name, **options)
    return await handle.wait_message()


async def test_settings_and_their_refusals(zh: Env) -> None:
    env = zh
    shown = await _message(env, admin(env), "settings")
    assert_chinese(env, shown)  # what an admin types is in code format
    assert shown.embeds[0]["title"] == "本服务器的设置"
    listed = shown.embeds[0]["description"].splitlines()
    # each setting and value by the name the reader knows, beside what an admin types
    assert "几副牌 `decks` = 两副牌 `2`" in listed, listed
    assert "反主时机 `overcall` = 发牌时反主 `deal`" in listed, listed
    assert "最多牌桌 `max_tables` = 25" in listed, listed  # a number as it is
    assert_chinese(env, await env.reply(env.users[1], "settings", field="decks", value="3"))
    for field, value in (("decks", "4"), ("play_seconds", "1"), ("bid_window", "x")):
        text = (await _message(env, admin(env), "settings", field=field, value=value)).content
        assert_chinese(env, text)  # a rule's values by name, each typed form in code format
    refused = await _message(env, admin(env), "settings", field="decks", value="4")
    assert refused.content == "`decks`不能设为`4`：只能是一副牌 `1`、两副牌 `2`或三副牌 `3`。"
    assert_chinese(env, (await _message(env, admin(env), "settings", max_tables=99)).content)
    changed = await _message(env, admin(env), "settings", field="language", value="zh")
    assert changed.embeds[0]["title"] == "设置已更改"


async def test_a_refusals_list_is_a_chinese_list(zh: Env) -> None:
    env = zh
    await env.reply(env.users[0], "new")
    said = await env.reply(env.users[0], "start")
    assert "还有3个空位（2、3和4号位），可以用`/双升 加电脑`补上" in said, said  # not "1, 2, 3"


async def test_records_leaderboard_stats_and_history(zh: Env) -> None:
    env = zh
    alice = env.users[0]
    assert_chinese(env, await env.reply(alice, "leaderboard"))  # nothing recorded yet
    assert_chinese(env, await env.reply(alice, "history"))
    assert_chinese(env, await env.reply(alice, "stats"))
    players = [SeatInfo.human(u.id, u.name, auto=True) for u in env.users]
    await simulate(env.store, hands=2, players=players, guild_id=env.world.guild.id, channel_id=7)
    board = await _message(env, alice, "leaderboard", metric="hands")
    assert not board.ephemeral  # for the channel: the server's language
    assert_chinese(env, board)
    assert_chinese(env, await _message(env, alice, "stats"))
    listing = await _message(env, alice, "history")
    assert_chinese(env, listing)
    (hand_id, *_) = await env.store.hands_of_table(1)
    handle = await env.slash(alice, "history", hand_id=hand_id)
    pages = [await handle.wait_message(), *handle.followups]
    assert pages[0].content.startswith(f"**第{hand_id}局**")
    for page in pages:
        assert_chinese(env, page)
    # each trick's points: the attackers' when they won it, else kept from them
    record = await env.bot.service.hand_record(env.world.guild.id, hand_id)
    said = "\n".join(page.content for page in pages)
    dealer = record.result.dealer
    for n, trick in enumerate(record.tricks, 1):
        if not trick.points:
            tail = ""
        elif trick.winner % 2 != dealer % 2:
            tail = f"（闲家+{trick.points}）"
        else:
            tail = f"（保住{trick.points}分）"
        assert re.search(rf"^{n}\. .* → [^（\n]+{re.escape(tail)}$", said, re.M), (n, tail)
    assert_chinese(env, await env.reply(alice, "history", hand_id=99999))


async def test_generic_refusals(zh: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    env = zh

    async def broken(*args: Any) -> Any:
        raise RuntimeError("the store fell over")

    monkeypatch.setattr(env.bot.service, "leaderboard", broken)
    text = await env.reply(env.users[0], "leaderboard")
    assert text == "我这边出了点问题，牌局没有受影响。请再试一次。"

    async def refuse(interaction: Any) -> bool:
        raise app_commands.CheckFailure("no")

    from cogs.common import shengji

    monkeypatch.setattr(shengji, "interaction_check", refuse)
    assert await env.reply(env.users[0], "hint") == "你在这里没有权限这样做。"


@pytest.mark.deal_seed(3)
async def test_the_bid_button_reply(zh: Env) -> None:
    env = zh
    match = await dealt(env)
    bidder = next(s for s in range(4) if match.legal_bids(s))
    user = env.users[bidder]
    panel = await env.until(lambda: env.panel(user, f"sj:d:{env.table().id}:{bidder}:"))
    bid_id = next(c for c in panel.custom_ids() if c.startswith("sj:d:"))
    handle = env.driver.click(panel, bid_id, user)
    (reply,) = await handle.wait_followups(1)
    assert reply.content.startswith("你亮了") and reply.ephemeral
    assert_chinese(env, reply)


async def test_a_tournament_in_chinese(zh: Env) -> None:
    env = zh
    alice, bob, carol, dave = env.users
    organiser(env, alice)
    assert_chinese(env, await cmd(env, bob, "create", name="Cup"))  # no permission
    assert_chinese(env, await cmd(env, alice, "create", name="Cup"), "Cup")
    reg = await env.until(lambda: message_with(env, env.world.tables, ":reg"))
    assert_chinese(env, reg, "Cup", "tournament")
    assert_chinese(env, await cmd(env, alice, "register", partner=bob), "Cup")
    assert_chinese(env, await cmd(env, carol, "register", partner=bob))  # taken
    assert_chinese(env, await cmd(env, alice, "confirm"))  # the partner confirms
    assert_chinese(env, await cmd(env, bob, "confirm"), "Alice")
    assert_chinese(env, await cmd(env, bob, "start"))  # only the organiser
    assert_chinese(env, await cmd(env, alice, "addbots", count=2))
    assert_chinese(env, await cmd(env, alice, "close"))
    assert_chinese(env, await cmd(env, dave, "withdraw"))  # registration closed
    assert_chinese(env, await cmd(env, alice, "start"))
    await env.until(lambda: len(threads(env)) == 1, timeout=60)
    opened = await env.until(lambda: env.fake.channel_messages(threads(env)[0]))
    assert_chinese(env, opened[0])
    match_line = await env.until(
        lambda: next(
            (
                m.content
                for m in env.fake.channel_messages(threads(env)[0])
                if m.content.startswith("第1轮")
            ),
            None,
        )
    )
    assert re.search(r"\*\*对(🤖 )?\*\*", match_line), match_line  # team 对 team
    assert threads(env)[0].name.startswith("第1轮 · ")  # the thread named in Chinese too
    assert "规则：比赛 · " in "\n".join(texts(reg))  # the preset by its Chinese name
    assert_chinese(env, await cmd(env, alice, "pause"))
    assert_chinese(env, await cmd(env, alice, "pause"))  # already paused
    assert_chinese(env, await cmd(env, alice, "extend", minutes=2))
    standings = await env.until(
        lambda: next(
            (m for m in env.fake.channel_messages(env.world.tables) if m.embeds and m.attachments),
            None,
        )
    )
    assert_chinese(env, standings, "Cup")
    notes = [m for m in env.fake.channel_messages(env.world.tables) if m.content]
    assert notes and all(HAN.search(m.content) for m in notes)
    assert_chinese(env, await cmd(env, alice, "cancel"), "Cup")
