"""The kitty draw (``no_bid="kitty_draw"``, seeds 000 and 002) through Discord.

When nobody bids, the kitty's cards are turned up one at a time and "the turned
cards are shown to everyone" (RULES.md): the thread must say which cards were
turned and what they decided. The calm table keeps it in the hand's deal message
(edited in place), not in a message of its own. Nobody clicks a bid here, so the
deal seed fixes the draws: with seed 6 the first two draws find no level card
(each a redeal), the third turns up a 2 (the level of both teams in the first
hand: the first dealer's team keeps the deal). The draw is part of the hand's state,
so a restart of the bot does not lose it from the deal message.

With ``-m slow`` every case runs in both languages; the default run takes one language
a case, English for the draw's messages and the restart once the draw decided, Chinese
for the restart after a redeal.
"""

from __future__ import annotations

import pytest

from bot.game import Declare, Match, Phase
from bot.rules import RuleSet
from bot.store import GuildSettings

from .helpers import FAST, Env, restart
from .test_languages import dealt

DRAW = RuleSet(no_bid="kitty_draw")

# seed 6's first deal: no 2 in the kitty; its third: the 2♠ decides, the cards after it stay
# down (the small joker by its name in each language: SJ as the English guide calls it)
FIRST = {"en-US": "3♦ Q♣ Q♥ 10♣ SJ Q♠ Q♠ K♥", "zh-CN": "3♦ Q♣ Q♥ 10♣ 小王 Q♠ Q♠ K♥"}
LAST = {"en-US": "K♥ SJ 8♥ Q♠ 4♠ Q♠ 2♠", "zh-CN": "K♥ 小王 8♥ Q♠ 4♠ Q♠ 2♠"}

# the deal message's head names both levels, in the table's language
HEAD = {"en-US": "levels A 2 · B 2", "zh-CN": "级别：A队打2 · B队打2"}
# the table's language, then what the deal message says after the first draw
# (with the redeal it caused) and after the last one (with the trump it set)
CASES = [
    (
        "en-US",
        (
            f"Nobody bid, so the kitty was turned up card by card: {FIRST['en-US']}. "
            "No level card among them.",
            "Nobody bid: the cards were shuffled and dealt again.",
        ),
        (
            f"Nobody bid, so the kitty was turned up card by card: {LAST['en-US']}. "
            "2♠ is the level of Team A (seats 1 & 3): Alice deals, ♠ spades is trump.",
            "**Trump: ♠ spades · level 2** · Alice deals (庄家).",
        ),
    ),
    (
        "zh-CN",
        (
            f"没人亮主，逐张翻底牌定庄：{FIRST['zh-CN']}。没有翻到级牌。",
            "没人亮主：重新洗牌发牌。",
        ),
        (
            f"没人亮主，逐张翻底牌定庄：{LAST['zh-CN']}。"
            "2♠是A队（1、3号位）的级牌：Alice坐庄，♠ 黑桃为主。",
            "**主：♠ 黑桃 · 打2** · Alice坐庄。",
        ),
    ),
]


@pytest.mark.deal_seed(6)
@pytest.mark.parametrize(
    ("locale", "redealt", "decided"),
    [
        pytest.param(*case, id=case[0], marks=() if case[0] == "en-US" else pytest.mark.slow)
        for case in CASES
    ],
)
async def test_the_deal_message_names_the_turned_cards_and_what_they_decided(
    shengji: Env, locale: str, redealt: tuple[str, ...], decided: tuple[str, ...]
) -> None:
    env = shengji
    match = await _drawing(env, locale)
    deal = await env.until(
        lambda: next((m for m in env.place_messages() if HEAD[locale] in m.content), None)
    )  # the deal message, its head naming both levels
    before = len(env.place_messages())

    def says(*parts: str) -> bool:
        return all(part in env.fake.messages[deal.id].content for part in parts)

    await env.tick(6)  # the bidding window closes with no bid: the first draw, a redeal
    await env.until(lambda: match.redeals == 1 and says(*redealt))
    assert match.phase == Phase.DEAL
    await _no_bids_until_decided(env, match)
    assert match.redeals == 2 and match.dealer == 0 and match.trump is not None
    assert match.trump.suit == "S"
    await env.until(lambda: says(*decided))
    content = env.fake.messages[deal.id].content
    assert redealt[0] not in content, "only the draw that decided stays"
    # the draws were said in the deal message: no message of their own
    assert len(env.place_messages()) == before


async def _drawing(env: Env, locale: str) -> Match:
    """A table of four under DRAW in ``locale``, every card of its first deal dealt."""
    env.world.guild.preferred_locale = locale
    await env.store.save_guild_settings(env.world.guild.id, GuildSettings(DRAW, dict(FAST)))
    match = await dealt(env)
    assert match.rules.no_bid == "kitty_draw"
    return match


async def _no_bids_until_decided(env: Env, match: Match) -> None:
    """The bidding windows close with no bid, each deal's draw a redeal, until one decides."""
    while match.phase == Phase.DEAL:
        await env.until(lambda: match.dealt == match.deal_total or match.phase != Phase.DEAL)
        await env.tick(6)


# where the bot restarts, what the table does next (the new process edits the deal
# message for it) and how many of the deal message's first lines must read as before
RESTARTS = [
    ("decided", "bury", 3),  # the head, the draw, the trump (Alice was burying)
    ("redealt", "bid", 4),  # the head, the deal, the draw, the redeal (no bid yet)
]


# the default run's (restart, language) pairs; the other two run with ``-m slow``
EVERY_RUN = {("decided", "en-US"), ("redealt", "zh-CN")}


@pytest.mark.deal_seed(6)
@pytest.mark.parametrize(
    ("when", "then", "kept", "locale"),
    [
        pytest.param(
            when,
            then,
            kept,
            locale,
            id=f"{when}-{locale}",
            marks=() if (when, locale) in EVERY_RUN else pytest.mark.slow,
        )
        for when, then, kept in RESTARTS
        for locale in (c[0] for c in CASES)
    ],
)
async def test_a_restart_keeps_the_draw_in_the_deal_message(
    shengji: Env, locale: str, when: str, then: str, kept: int
) -> None:
    """The draw (and the redeal it caused) stays in the deal message a restarted bot
    edits (the same message: its id is kept with the table): it is the hand's state (the
    public view's ``turned``, ``redeals``), not something only the stopped process saw."""
    env = shengji
    match = await _drawing(env, locale)
    _, redealt, decided = next(c for c in CASES if c[0] == locale)
    if when == "decided":
        await _no_bids_until_decided(env, match)
        assert match.phase == Phase.KITTY and match.dealer == 0
    else:
        await env.tick(6)  # the first draw: no level card, a redeal
        await env.until(lambda: match.redeals == 1 and match.dealt == match.deal_total)

    def deal_messages() -> list[str]:
        return [m.content for m in env.place_messages() if HEAD[locale] in m.content]

    parts = decided if when == "decided" else redealt

    def shown() -> bool:  # the redeal's message may not be posted yet on a busy machine
        found = deal_messages()
        return bool(found) and all(part in found[-1] for part in parts)

    await env.until(shown)
    await env.fake.idle(quiet=0.3)  # the old process's edits have gone out
    deal = next(m for m in reversed(env.place_messages()) if HEAD[locale] in m.content)
    before = deal.content
    said = before.split("\n")[:kept]
    assert all(part in said for part in parts)
    posted = len(deal_messages())
    running = await restart(env)
    try:
        if then == "bury":
            await env.play_with_slash(0, env.suggestion(0))
        else:
            match = env.match()
            seat = next(s for s in range(4) if match.legal_bids(s))
            bid = Declare(match.legal_bids(seat)[0].cards)
            await env.bot.service.act(env.world.tables.id, env.seat_user(seat).id, bid)
        await env.until(lambda: env.fake.messages[deal.id].content != before)
        await env.until(lambda: env.fake.messages[deal.id].content.split("\n")[:kept] == said)
        assert len(deal_messages()) == posted  # edited: no second deal message for the hand
    finally:
        await running.stop()
