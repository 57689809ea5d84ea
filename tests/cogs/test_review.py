"""The post-hand review through Discord: the Review button under the summary and
/shengji review, for the player who played, privately, in their language."""

from __future__ import annotations

import re

import pytest

from bot.ai.review import Decision, Review
from bot.game import Phase, TrickRecord
from bot.rules import Card, beatable_units, order_for, parse_cards
from bot.rules.units import decompose_in
from cogs.review import review_text
from cogs.text import cards_text
from fakediscord.state import Message

from .helpers import Env
from .test_bad_input import _started


def _failing_throw(env: Env) -> list[Card] | None:
    """Seat 0 leads a whole side suit that the others' real hands beat unit by unit."""
    match = env.match()
    view = match.view(0)
    if view.trick or len(view.tricks) < 1:
        return None
    order = order_for(view.trump, view.rules)
    for suit in "SHDC":
        cards = [c for c in view.hand if order.suit_of[c] == suit]
        if len(cards) < 4 or len(decompose_in(order, cards)) < 3:
            continue
        others = [match.hands[s] for s in (1, 2, 3)]
        if beatable_units(cards, others, view.trump, view.rules):
            return cards
    return None


async def _hand_with_a_blunder(env: Env) -> tuple[int, list[Card]]:
    """Alice (seat 0) plays the hint's play every time but once: a throw that fails."""
    await _started(env, humans=1)
    match = env.match()
    blunder: tuple[int, list[Card]] | None = None
    for _ in range(400):
        if match.phase == Phase.SCORED:
            break
        kind, seat = match.expecting()
        if seat == 0 and kind == "play":
            throw = None if blunder else _failing_throw(env)
            if throw is not None:
                blunder = (len(match.tricks) + 1, throw)
            await env.play_with_slash(0, throw or env.suggestion(0))
        else:
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s or match.phase == Phase.SCORED)
    assert match.phase == Phase.SCORED and blunder is not None, "the deal offered no throw"
    return blunder


# the seat that led a trick, as the review names it to seat 0, and how it says "led"
LED = {
    "en-US": {
        1: "the opponent on your right led ",
        2: "your partner led ",
        3: "the opponent on your left led ",
    },
    "zh-CN": {1: "下家首出", 2: "对家首出", 3: "上家首出"},
}


def _led(tricks: tuple[TrickRecord, ...], line: str, locale: str) -> str:
    """What ``line`` (a reviewed follow of seat 0's) must say about its trick's lead."""
    number = int(re.findall(r"\d+", line)[1])  # "2. Trick 13: ..." / "2. 第13轮：..."
    record = tricks[number - 1]
    leader, lead = record.plays[0]
    return LED[locale][leader] + cards_text(lead, locale)


def _summary(env: Env) -> Message | None:
    for message in reversed(env.fake.channel_messages(env.place())):
        if any(cid.startswith("sj:r:") for cid in message.custom_ids()):
            return message
    return None


@pytest.mark.deal_seed(4)
async def test_the_review_names_the_failed_throw_first(shengji: Env) -> None:
    env = shengji
    trick, throw = await _hand_with_a_blunder(env)
    tricks = tuple(env.match().tricks)
    alice, bob = env.users[0], env.users[1]
    summary: Message = await env.until(lambda: _summary(env))
    tid = env.table().id
    (hand_id,) = await env.store.hands_of_table(tid)
    record = await env.store.hand_record(hand_id)
    assert record is not None
    button = f"sj:r:{tid}:{record.hand_no}"
    labels = [c.get("label") for row in summary.components for c in row.get("components", [])]
    assert button in summary.custom_ids() and "Review" in labels

    handle = env.driver.click(summary, button, alice)
    await handle
    (answer,) = await handle.wait_followups(1, timeout=120)
    assert answer.ephemeral
    lines = answer.content.splitlines()
    assert lines[0].startswith(f"**Your review of hand {hand_id}**")
    assert lines[1].startswith(f"1. Trick {trick}: you led "), answer.content
    played = lines[1].split("you led ")[1].split(";")[0]
    assert sorted(map(str, parse_cards(played))) == sorted(map(str, throw))
    assert 2 <= len(lines) <= 4 and "points better" in lines[1]
    # a follow shows the trick it answered: who led what (seats named from Alice's)
    follows = [line for line in lines[2:] if "you played" in line]
    assert follows, answer.content
    for line in follows:
        assert _led(tricks, line, "en-US") in line, line

    # the command gives the same review (the last hand here, or by id), computed once
    handle = await env.slash(alice, "review")
    (again,) = await handle.wait_followups(1, timeout=60)
    assert again.ephemeral and again.content == answer.content
    handle = await env.slash(alice, "review", hand_id=hand_id)
    assert (await handle.wait_followups(1, timeout=60))[0].content == answer.content

    # in Chinese, with the players' words for the seats: 对家, 上家, 下家
    alice.locale = "zh-CN"
    handle = await env.slash(alice, "review")
    (chinese,) = await handle.wait_followups(1, timeout=60)
    lines = chinese.content.splitlines()
    assert lines[1].startswith(f"1. 第{trick}轮：你首出"), chinese.content
    follows = [line for line in lines[2:] if "你出了" in line]
    assert follows, chinese.content
    for line in follows:
        assert _led(tricks, line, "zh-CN") in line, line
    alice.locale = "en-US"

    # a spectator has nothing to review; a Chinese player reads it in Chinese
    bob.locale = "zh-CN"
    handle = env.driver.click(summary, button, bob)
    await handle
    (refused,) = await handle.wait_followups(1, timeout=60)
    assert refused.ephemeral and "你没有打这一局" in refused.content
    bob.locale = "en-US"
    handle = await env.slash(bob, "review", hand_id=hand_id + 100)
    assert "no such hand" in (await handle.wait_followups(1, timeout=60))[0].content


async def test_no_review_where_the_rules_allow_no_assistance(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    await env.reply(alice, "new", preset="tournament")
    for _ in range(3):
        await env.reply(alice, "addbot")
    await env.reply(alice, "start")
    match = await env.until(lambda: env.table().match)
    await env.reply(alice, "auto")
    for _ in range(200):  # the computer plays for Alice too: the hand runs on the clock
        if match.result is not None:
            break
        await env.tick(6)
    assert match.result is not None
    await env.until(
        lambda: any(
            "summary.png" in str(m.attachments) for m in env.fake.channel_messages(env.place())
        )
    )
    assert _summary(env) is None, "no Review button under the summary"
    handle = await env.slash(alice, "review")
    (refused,) = await handle.wait_followups(1, timeout=60)
    assert refused.ephemeral and "Reviews are off at that table" in refused.content


#: a review's words at the edges of its numbers: one decision judged, a loss written by
#: the locale (so with its grouping), never a count glued to a plural
REVIEW_TEXTS = [
    (
        "en-US",
        Review(0, 0, (), judged=1, complete=False),
        [
            "**Your review of hand 7**: your costliest decisions, judged from what you knew "
            "at the time.",
            "No costly decision found in your one choice this hand.",
            "Time ran out after 1 decision; the later ones were not judged.",
        ],
    ),
    (
        "en-US",
        Review(0, 0, (), judged=2, complete=False),
        [
            "**Your review of hand 7**: your costliest decisions, judged from what you knew "
            "at the time.",
            "No costly decision found in your 2 choices this hand.",
            "Time ran out after 2 decisions; the later ones were not judged.",
        ],
    ),
    (
        "en-US",
        Review(0, 0, (Decision(3, (Card("A", "H"),), (Card("5", "H"),), 1234.56, True),), 9, True),
        [
            "**Your review of hand 7**: your costliest decisions, judged from what you knew "
            "at the time.",
            "1. Trick 3: you led A♥; the expert would play 5♥ (about 1,234.6 points better).",
        ],
    ),
    (
        "zh-CN",
        Review(
            0,
            0,
            (
                Decision(
                    3,
                    (Card("A", "H"),),
                    (Card("5", "H"),),
                    1.0,
                    False,
                    before=((2, (Card("K", "H"),)),),
                    winning=2,
                ),
            ),
            1,
            False,
        ),
        [
            "**第7局复盘**：按你当时所知判断，代价最大的几次出牌。",
            "1. 第3轮：对家首出K♥，对家大；你出了A♥；高手会出5♥（约多得1.0分）。",
            "时间用完：只评判了1次选择，之后的没有评判。",
        ],
    ),
    # plays the computer made for the player (托管, a timeout) are counted, not judged;
    # with nothing of their own to judge, no "nothing costly found"
    (
        "en-US",
        Review(0, 0, (), judged=0, complete=True, auto=1),
        [
            "**Your review of hand 7**: your costliest decisions, judged from what you knew "
            "at the time.",
            "One play the computer made for you (托管, or your time ran out) is not judged.",
        ],
    ),
    (
        "zh-CN",
        Review(0, 0, (), judged=4, complete=True, auto=21),
        [
            "**第7局复盘**：按你当时所知判断，代价最大的几次出牌。",
            "本局你的4次选择中没有发现代价大的失误。",
            "有21次出牌是电脑替你出的（托管或超时），不作评判。",
        ],
    ),
]


@pytest.mark.parametrize(("locale", "review", "lines"), REVIEW_TEXTS)
def test_review_counts_and_losses_go_through_the_catalog(
    locale: str, review: Review, lines: list[str]
) -> None:
    assert review_text(locale, 7, review).splitlines() == lines
