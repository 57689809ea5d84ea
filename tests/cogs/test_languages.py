"""A whole hand through Discord in Chinese and in English: what each player reads.

The hand is played from the DM panels. Every text a player reads (replies, DMs,
the table's messages, embed titles and fields, button labels, menu placeholders
and options) is collected as the fake Discord delivered it: in Chinese it must
hold no English word, with a small allow-list (card notation and the players'
names); in English no Chinese but the game's own terms. The table's messages and
images are in the server's language, what one player reads in their client's.

The default run plays one hand at a server in Chinese where two of the four play
in English (every text of both languages, the table's in Chinese); ``-m slow``
adds a hand where everyone and the server are in Chinese, and one all in English.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.game import Match, Phase
from fakediscord.state import Message
from renderers.labels import LABELS

from .helpers import Env

ENGLISH = re.compile(r"[A-Za-z]{2,}")
HAN = re.compile(r"[\u4e00-\u9fff]")
ALLOWED = {"SJ", "BJ"}  # card codes; the players' names are added per test
# in English, the jokers as cards show (大王, 小王) and the game's own terms may stay
TERMS = (
    "大王|小王|双升|托管|大光|小光|上台|无主|亮主|反主|自保|庄家|闲家|底牌|抠底|甩牌|拖拉机|级牌"
)


def texts(message: Message) -> list[str]:
    """Everything a person can read in a message."""
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.get("title", ""), embed.get("description", "")]
        out += [f.get("name", "") + " " + f.get("value", "") for f in embed.get("fields", [])]
        out.append(embed.get("footer", {}).get("text", ""))
    for row in message.components:
        for component in row.get("components", []):
            out.append(component.get("label", "") or "")
            out.append(component.get("placeholder", "") or "")
            out += [o.get("label", "") for o in component.get("options", [])]
    return [t for t in out if t]


def english_words(text: str, allowed: set[str]) -> list[str]:
    words = []
    for word in ENGLISH.findall(text):
        if word in allowed or re.fullmatch(r"(?:[2-9TJQKA][SHDC])+|[SB]J", word):
            continue
        words.append(word)
    return words


async def dealt(env: Env) -> Match:
    """Four humans at a started table, every card dealt (the bidding window open)."""
    match = await env.start_four()
    await env.until(lambda: match.dealt == match.deal_total)
    return match


async def _play_a_hand(env: Env) -> None:
    users = env.users
    match = await dealt(env)
    while match.expecting()[0] == "end_bidding":
        await env.tick(6)
        await env.until(lambda: match.expecting()[0] != "end_bidding" or match.bids)
    hand_no = match.hand_no
    while match.hand_no == hand_no and match.phase in (Phase.KITTY, Phase.PLAY):
        seat = match.to_act
        await env.play_with_panel(seat, env.suggestion(seat))
    await env.until(lambda: match.phase != Phase.PLAY)
    await env.reply(users[1], "rules", topic="throws")  # an embed in the player's language


def _everything_read(env: Env, locale: str) -> list[tuple[str, list[Message]]]:
    """What each player read, with the language it must be in: their own for their DMs and
    replies, the server's (``locale``) for the table's messages."""
    seen = [(u.locale, env.fake.dms(u) + env.fake.ephemerals(u)) for u in env.users]
    return [*seen, (locale, env.fake.channel_messages(env.world.tables) + env.place_messages())]


def _in_its_language(text: str, locale: str, allowed: set[str]) -> list[str]:
    """The words of ``text`` that are not in ``locale`` (the allowed ones aside)."""
    if locale == "zh-CN":
        return english_words(text, allowed)
    return HAN.findall(re.sub(TERMS, "", text))


@pytest.mark.parametrize(
    ("locale", "players"),
    [
        ("zh-CN", ("zh-CN", "en-US", "zh-CN", "en-US")),
        pytest.param("zh-CN", ("zh-CN",) * 4, marks=pytest.mark.slow),
        pytest.param("en-US", ("en-US",) * 4, marks=pytest.mark.slow),
    ],
)
async def test_a_whole_hand_reads_in_each_players_language(
    shengji: Env, locale: str, players: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    env.world.guild.preferred_locale = locale
    for user, language in zip(env.users, players, strict=True):
        user.locale = language
    renders: list[tuple[str, Any, dict[str, Any]]] = []
    presenter = env.bot.presenter
    off_loop = presenter.off_loop

    async def spy(fn: Any, *args: Any, **kwargs: Any) -> Any:
        renders.append((getattr(fn, "__name__", str(fn)), args[0] if args else None, kwargs))
        return await off_loop(fn, *args, **kwargs)

    monkeypatch.setattr(presenter, "off_loop", spy)
    await _play_a_hand(env)
    await env.until(lambda: any(name == "render_kitty" for name, _, _ in renders))
    await env.until(lambda: any("kitty.png" in str(m.attachments) for m in env.place_messages()))
    # the images: every table image drawn with the language's labels, every panel in it
    lang = "zh" if locale == "zh-CN" else "en"
    images = [(name, scene, kw) for name, scene, kw in renders if name.startswith("render_")]
    assert {name for name, _, _ in images} >= {"render_table", "render_summary", "render_kitty"}
    kitty = next(scene for name, scene, _ in images if name == "render_kitty")
    sheet = next(scene for name, scene, _ in images if name == "render_summary")
    drawn = [*sheet.words.values(), *kitty.words.values()]
    assert drawn and all(bool(HAN.search(w)) == (locale == "zh-CN") for w in drawn), drawn
    table = next(scene for name, scene, _ in images if name == "render_table")
    words = [table.head, *table.teams, table.score, table.trump_word, *table.badges.values()]
    assert all(bool(HAN.search(w)) == (locale == "zh-CN") for w in words), words
    assert all(kw["lang"] == lang for _, _, kw in images)
    panels = [kw for name, _, kw in renders if name == "build_panel"]
    assert panels and {kw["locale"] for kw in panels} == set(players)
    summary = next(scene for name, scene, _ in images if name == "render_summary")
    if locale == "zh-CN":
        assert HAN.search(summary.result)
    else:
        assert not HAN.search(re.sub(TERMS, "", summary.result))
    assert all(HAN.search(text) for text in LABELS["zh"].values() if ENGLISH.sub("", text))
    names = {w for u in env.users for w in ENGLISH.findall(u.name + " " + u.name.title())}
    allowed = ALLOWED | names
    found: dict[str, list[str]] = {}
    for language, messages in _everything_read(env, locale):
        for message in messages:
            for text in texts(message):
                words = _in_its_language(text, language, allowed)
                if words:
                    found[f"{language} {text[:80]}"] = words
    assert not found, "\n".join(f"{k!r}: {v}" for k, v in found.items())
