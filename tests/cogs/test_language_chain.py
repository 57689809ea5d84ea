"""Which language each reader gets, one step of the chain at a time (issue 11).

What one player reads (ephemeral replies, DMs): their ``/shengji prefs`` language,
else their Discord client's, else the server's preferred locale, else English.
What the channel reads: the server's ``/shengji settings language``, else its
preferred locale. French is a language the bot does not speak, so a French
client or server passes the choice on to the next step.
"""

from __future__ import annotations

import re

import discord

from bot.rules import RuleSet
from bot.store import GuildSettings, UserPrefs
from bot.store.simulate import simulate

from .helpers import FAST, Env, restart
from .test_bad_input import _started
from .test_languages import TERMS
from .test_lifecycle import panels_to

HAN = re.compile(r"[\u4e00-\u9fff]")
# the game's terms may stay Chinese in English text (as in test_languages)
NAMES = re.compile(TERMS)


def chinese(text: str) -> bool:
    return bool(HAN.search(NAMES.sub("", text)))


NO_TABLE = {"en-US": "There is no table in this channel", "zh-CN": "本频道没有牌桌"}


async def _server(env: Env, preferred: str, setting: str | None = None) -> None:
    """The server's preferred locale (as Discord tells the bot) and its language setting."""
    timers: dict[str, object] = dict(FAST)
    if setting is not None:
        timers["language"] = setting
    await env.store.save_guild_settings(env.world.guild.id, GuildSettings(RuleSet(), timers))
    env.fake.set_preferred_locale(env.world.guild, preferred)
    wanted = discord.Locale(preferred)
    await env.until(lambda: env.bot.get_guild(env.world.guild.id).preferred_locale == wanted)


async def _no_table_reply(env: Env) -> str:
    text = await env.reply(env.users[0], "hint")
    for loc, words in NO_TABLE.items():
        if words in text:
            return loc
    raise AssertionError(f"neither language: {text!r}")


async def test_ephemeral_replies_walk_the_players_chain(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    alice.locale = "fr"
    await _server(env, "fr")
    assert await _no_table_reply(env) == "en-US"  # nothing the bot speaks: English
    await _server(env, "zh-CN", setting="en")
    # the server's preferred locale; its table language setting is not for replies
    assert await _no_table_reply(env) == "zh-CN"
    alice.locale = "en-US"
    assert await _no_table_reply(env) == "en-US"  # her Discord client's language first
    await env.store.save_user_prefs(alice.id, UserPrefs(locale="zh-CN"))
    env.bot.presenter.forget_prefs(alice.id)
    assert await _no_table_reply(env) == "zh-CN"  # her own setting before all


async def test_the_server_locale_is_the_one_each_interaction_carries(shengji: Env) -> None:
    """Discord sends the server's preferred locale with every interaction; the guild the
    bot cached may be older (a missed update), and the leaderboard, read by the whole
    channel, was in the cached one's language."""
    env = shengji
    alice = env.users[0]
    alice.locale = "fr"
    env.world.guild.preferred_locale = "zh-CN"  # no GUILD_UPDATE: the cache still says en-US
    assert env.bot.get_guild(env.world.guild.id).preferred_locale != discord.Locale.chinese
    assert await _no_table_reply(env) == "zh-CN"
    await simulate(env.store, hands=1, guild_id=env.world.guild.id)  # a hand on the board
    board = await (await env.slash(alice, "leaderboard")).wait_message()
    assert not board.ephemeral and chinese(board.embeds[0]["title"]), board.embeds


def _dm_texts(env: Env, user_index: int) -> list[str]:
    """A player's DMs, less the seats' names: a name is in its own script (a computer
    player's is in the table's language), whatever language the words around it are in."""
    texts = [m.content for m in env.fake.dms(env.users[user_index]) if m.content]
    assert texts, f"no DM to {env.users[user_index].name}"
    for seat in env.table().seats:
        if seat is not None:
            texts = [text.replace(seat.name, "") for text in texts]
    return texts


async def test_dms_follow_the_player_and_the_table_follows_the_server(shengji: Env) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    alice.locale = "fr"  # no client language the bot speaks: the server's preferred locale
    bob.locale = "en-US"
    await _server(env, "zh-CN", setting="en")  # tables in English, the server reads Chinese
    await _started(env, humans=2)
    match = env.match()
    await env.until(lambda: match.to_act in (0, 1))
    await env.fresh_panel(env.users[match.to_act], match.to_act)
    await env.until(lambda: env.fake.dms(alice) and env.fake.dms(bob))
    # before the fix, Alice's DMs fell back to the table's language (English)
    assert all(chinese(text) for text in _dm_texts(env, 0))
    assert not any(chinese(text) for text in _dm_texts(env, 1))
    # the table's messages: the server's setting (English), not its preferred locale
    lobby = env.fake.channel_messages(env.world.tables)[0]
    assert lobby.embeds and not chinese(lobby.embeds[0].get("title", ""))
    deal = env.place_messages()[0]
    assert deal.content and not chinese(deal.content)


async def test_without_a_setting_the_table_reads_the_servers_preferred_locale(
    shengji: Env,
) -> None:
    env = shengji
    for user in env.users:
        user.locale = "en-US"  # the players' clients do not decide the table's language
    await _server(env, "zh-CN")
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    await env.fresh_panel(env.users[0], 0)
    deal = env.place_messages()[0]
    assert chinese(deal.content)
    assert not any(chinese(text) for text in _dm_texts(env, 0))  # hers: English


async def test_after_a_restart_a_panel_is_in_the_language_of_the_players_client(
    shengji: Env,
) -> None:
    """The new process has seen no interaction of Alice's: her Discord client's language
    comes from the store, not from the server's preferred locale (English here)."""
    env = shengji
    alice = env.users[0]
    alice.locale = "zh-CN"  # no setting of her own: her client reads Chinese
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    prefix = f"sj:p:{env.table().id}:0:{match.seq}:"
    panel = await env.until(lambda: env.panel(alice, prefix))
    assert chinese(panel.content)
    await env.until(lambda: env.bot.service.panel_messages(env.table()).get(0))
    await env.fake.idle(quiet=0.3)  # the old process's panel has gone out
    edits = panel.edits
    running = await restart(env)
    try:
        # the new process redraws the player to act her panel, before any click of hers
        again = await env.until(lambda: panel.edits > edits and panels_to(env, alice)[-1])
        assert again.id == panel.id
        assert prefix in " ".join(again.custom_ids())
        assert chinese(again.content), again.content
    finally:
        await running.stop()
