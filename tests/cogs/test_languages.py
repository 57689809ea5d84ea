"""A whole hand through Discord in Chinese and in English: what each player reads.

The hand is bid and played from the panels (DMs, and one player's **My hand**, his
DMs closed). Every text a player reads (replies, DMs, the table's messages, embed
titles and fields, button labels, menu placeholders and options) is collected from
every version the fake Discord delivered, each edit and the DMs deleted later too:
in Chinese it must hold no English word, with a small allow-list (card notation and
the players' names), nor English punctuation; in English no Chinese but the game's
own terms. The table's messages and
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
from bot.i18n import t
from fakediscord.state import Message
from renderers.labels import LABELS

from .helpers import Env, every_version

ENGLISH = re.compile(r"[A-Za-z]{2,}")
HAN = re.compile(r"[\u4e00-\u9fff]")
# English punctuation in Chinese text: a full stop or colon after Chinese, names joined by &
MARKS = re.compile(r"[\u4e00-\u9fff）](?:\*\*)?[.,:;!?]| & ")
ALLOWED = {"SJ", "BJ"}  # card codes; the players' names are added per test
# in English the game's own terms may stay (the jokers are BJ and SJ, as its guide says)
TERMS = "双升|托管|大光|小光|上台|无主|亮主|反主|自保|庄家|闲家|底牌|抠底|扣底|甩牌|拖拉机|级牌"


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
    """Alice bids from her panel during the deal (the others' panels offer overcalls), then
    buries and the hand is played from the panels; Dave's DMs are closed, so the table
    tells him and he plays from **My hand**, whose ephemeral panel follows his turns."""
    users = env.users
    dave = users[3]
    env.fake.close_dms(dave)
    match = await dealt(env)
    tid = env.table().id
    # the open panels during the deal, with their bid buttons; Alice bids from hers
    bidders = [s for s in range(3) if match.legal_bids(s)]
    assert 0 in bidders, "the deal seed gives Alice a bid"
    panels = {
        s: await env.until(lambda s=s: env.panel(users[s], f"sj:d:{tid}:{s}:")) for s in bidders
    }
    table_message = await env.until(
        lambda: next(
            (m for m in env.place_messages() if f"sj:t:{tid}:hand" in m.custom_ids()), None
        )
    )
    handle = env.driver.click(table_message, f"sj:t:{tid}:hand", dave)
    (hand,) = await handle.wait_followups(1)
    bid = next(c for c in panels[0].custom_ids() if c.startswith("sj:d:"))
    await env.driver.click(panels[0], bid, users[0]).wait_followups(1)
    await env.until(lambda: match.bids)
    await env.until(lambda: any("Alice" in m.content for m in env.fake.dms(users[1])))
    await env.tick(6)  # the bidding window closes
    await env.until(lambda: match.expecting()[0] != "end_bidding")
    hand_no = match.hand_no
    while match.hand_no == hand_no and match.phase in (Phase.KITTY, Phase.PLAY):
        seat = match.to_act
        panel = None
        if seat == 3:  # his ephemeral panel, redrawn for this turn
            prefix = f"sj:p:{tid}:3:{match.seq}:"
            panel = await env.until(
                lambda p=prefix: (
                    any(c.startswith(p) for c in env.fake.messages[hand.id].custom_ids())
                    and env.fake.messages[hand.id]
                )
            )
        await env.play_with_panel(seat, env.suggestion(seat), message=panel)
    await env.until(lambda: match.phase != Phase.PLAY)
    await env.reply(users[1], "rules", topic="throws")  # an embed in the player's language


class Reading:
    """Every text each version of each message showed, with the language it must be in:
    the reader's own for a DM or an ephemeral reply, the server's (``locale``) for the
    table's messages. Every edit and deleted message counts: a panel's must-play line,
    the bid buttons during the deal, the bury panel, a "your turn" DM deleted once read."""

    def __init__(self, env: Env, locale: str) -> None:
        self.locale = locale
        self.languages = {u.id: u.locale for u in env.users}
        self.texts: set[tuple[str, str]] = set()  # a text and its language
        self.versions = 0
        self.ids: set[int] = set()

    def read(self, message: Message, reader: int | None) -> None:
        if reader is not None and reader not in self.languages:
            return
        language = self.locale if reader is None else self.languages[reader]
        self.versions += 1
        self.ids.add(message.id)
        self.texts |= {(text, language) for text in texts(message)}


def _in_its_language(text: str, locale: str, allowed: set[str]) -> list[str]:
    """The words of ``text`` that are not in ``locale`` (the allowed ones aside)."""
    if locale == "zh-CN":
        return english_words(text, allowed) + MARKS.findall(text)
    return HAN.findall(re.sub(TERMS, "", text))


@pytest.mark.deal_seed(1)
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
    reading = Reading(env, locale)
    async with every_version(env.fake, reading.read):
        await _play_a_hand(env)
        await env.until(lambda: any(name == "render_kitty" for name, _, _ in renders))
        await env.until(
            lambda: any("kitty.png" in str(m.attachments) for m in env.place_messages())
        )
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
    # more versions than the messages that remain: the edits and deleted DMs were read,
    # among them the states that pass (the deal's bid buttons, the bury panel)
    final = sum(len(env.fake.dms(u) + env.fake.ephemerals(u)) for u in env.users)
    assert reading.versions > final + len(env.place_messages())
    assert any(env.fake.messages[i].deleted for i in reading.ids)
    lines = {line for text, _ in reading.texts for line in text.splitlines()}
    alice = players[0]
    assert {t(alice, "panel-bid-below"), t(alice, "panel-bury", count=8)} <= lines
    found: dict[str, list[str]] = {}
    for text, language in reading.texts:
        words = _in_its_language(text, language, allowed)
        if words:
            found[f"{language} {text[:80]}"] = words
    assert not found, "\n".join(f"{k!r}: {v}" for k, v in found.items())
