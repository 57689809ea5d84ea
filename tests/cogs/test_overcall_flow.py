"""The overcall round after burying (``overcall="after_bury"``, seed 000:43) played
through Discord: the real bot, the fake API, four people clicking their hand panels.

The round is held only once a dealer is known before the bids (from the second
hand), so the first hand is played through the service (nobody bids: no trump,
seat 0 deals); the second hand's bid, overcall, pass and a forged overcall go
through the panels' buttons, and the thread, in English and in Chinese, follows the
round (whose turn, who passed) in the deal message, also after a restart of the bot.

Each test runs in both languages with ``-m slow``; the default run takes one each,
the panels in Chinese and the restart in English, so both languages are read.
"""

from __future__ import annotations

import pytest

from bot.ai import suggest
from bot.game import Declare, Pass, Phase
from bot.i18n.rules import join
from bot.rules import RuleSet, parse_cards
from bot.store import GuildSettings

from .helpers import FAST, Env, restart
from .test_abuse import forged_click
from .test_languages import dealt

AFTER = RuleSet(bidding="joker", overcall="after_bury")

# What the thread says of the round, in the table's language: the deal message says
# the round, whose turn it is and who passed, edited in place; the table message
# comes once the trump is final, with the dealer to lead.
THREAD = {
    "en-US": {
        "round": "The kitty is buried: from the dealer's next seat round to the dealer, "
        "each player may overcall once (反主).",
        "turn": "▶ {} to overcall or pass <t:",
        "passed": "Passed: {}.",
        "overcall": (
            "2. Carol overcalls with BJ 2♥2♥ for ♥ hearts",
            "**Trump: ♥ hearts · level 2** · Bob deals",
        ),
        "lead": "▶ Bob to lead <t:",
        "head": "levels A 3 · B 2",  # the deal message's head: both levels
    },
    "zh-CN": {
        "round": "底牌已扣好：从庄家下家起到庄家，每人可依次反主一次。",
        "turn": "▶ 轮到{}反主或不反（<t:",
        "passed": "不反：{}。",
        "overcall": ("2. Carol反主：大王2♥2♥（♥ 红桃）", "**主：♥ 红桃 · 打2** · Bob坐庄"),
        "lead": "▶ 轮到Bob首出（<t:",
        "head": "级别：A队打3 · B队打2",
    },
}


async def _second_hand_dealt(env: Env) -> None:
    """Open a table of four people under AFTER and play its first hand through the service."""
    await env.store.save_guild_settings(env.world.guild.id, GuildSettings(AFTER, dict(FAST)))
    match = await dealt(env)
    assert match.rules.overcall == "after_bury"
    await env.tick(6)  # nobody bids: the hand is played in no trump, seat 0 deals
    await env.until(lambda: match.phase == Phase.KITTY)
    channel = env.table().channel_id
    while match.phase in (Phase.KITTY, Phase.PLAY):
        seat = match.to_act
        assert seat is not None
        action = suggest(match.view(seat))
        await env.bot.service.act(channel, env.seat_user(seat).id, action)
    assert match.phase == Phase.SCORED
    await env.tick(6)  # the pause after the summary
    await env.until(lambda: match.hand_no == 1 and match.dealt == match.deal_total)
    assert match.dealer == 2 and not match.contested  # the dealer's team won: Carol deals next


@pytest.mark.deal_seed(10)  # hand 2: Bob's SJ 2♠ takes the deal; Carol holds BJ 2♥2♥
@pytest.mark.parametrize("locale", ["zh-CN", pytest.param("en-US", marks=pytest.mark.slow)])
async def test_overcall_pass_and_a_forged_overcall_through_the_panels(
    shengji: Env, locale: str
) -> None:
    env = shengji
    env.world.guild.preferred_locale = locale  # the thread's language; the players' is English
    said = THREAD[locale]
    await _second_hand_dealt(env)
    match = env.match()
    tid = env.table().id
    alice, bob, carol, dave = env.users
    bid_id = f"sj:d:{tid}:1:SJ2S"
    panel = await env.until(lambda: env.panel(bob, bid_id))
    (reply,) = await env.driver.click(panel, bid_id, bob).wait_followups(1)
    assert reply.content.startswith("You bid") and reply.ephemeral
    await env.tick(6)  # the bidding window closes: Bob's bid (his team's level) takes the deal
    await env.until(lambda: match.phase == Phase.KITTY)
    assert match.dealer == 1
    await env.play_with_panel(1, env.suggestion(1))
    assert match.phase == Phase.OVERCALL and match.to_act == 2
    assert match.trump is not None and match.trump.suit == "S"
    posted = len(env.place_messages())

    def deal_says(*parts: str) -> bool:
        """The hand's deal message (its head names both levels) says all ``parts``."""
        return any(
            said["head"] in m.content and all(p in m.content for p in parts)
            for m in env.place_messages()
        )

    await env.until(lambda: deal_says(said["round"], said["turn"].format("Carol")))

    # Carol, first after the dealer: a button for her overcall, and Pass
    panel = await env.until(lambda: env.panel(carol, f"sj:d:{tid}:2:pass"))
    bids = [c for c in panel.custom_ids() if c.startswith(f"sj:d:{tid}:2:")]
    assert bids == [f"sj:d:{tid}:2:BJ2H2H", f"sj:d:{tid}:2:pass"]
    assert "overcall once" in panel.content
    (reply,) = await env.driver.click(panel, bids[0], carol).wait_followups(1)
    assert reply.content.startswith("You bid") and reply.ephemeral
    assert match.trump.suit == "H" and match.dealer == 1, "the suit changes, the dealer stays"
    assert [b.seat for b in match.bids] == [1, 2]
    # the thread's deal message lists both bids and the new trump, and whose turn it is
    await env.until(lambda: deal_says(*said["overcall"], said["turn"].format("Dave")))

    # Dave's turn: a forged overcall that does not beat the holding bid is refused
    # privately and changes nothing; so is Alice pressing Dave's Pass
    panel = await env.until(lambda: env.panel(dave, f"sj:d:{tid}:3:pass"))
    dm = env.fake.channels[panel.channel_id]
    seq = match.seq
    handle = forged_click(env, dave, dm, f"sj:d:{tid}:3:SJ2S")
    await handle
    (refused,) = await handle.wait_followups(1)
    assert refused.ephemeral and "does not beat the current bid" in refused.content
    alice_dm = env.fake.channels[env.fake.dms(alice)[-1].channel_id]
    handle = forged_click(env, alice, alice_dm, f"sj:d:{tid}:3:pass")
    await handle
    answer = await handle.wait_message()
    assert answer.ephemeral and "belongs to another player" in answer.content
    assert match.seq == seq and match.to_act == 3 and match.trump.suit == "H"
    assert [b.seat for b in match.bids] == [1, 2]

    (reply,) = await env.driver.click(panel, f"sj:d:{tid}:3:pass", dave).wait_followups(1)
    assert reply.ephemeral and match.to_act == 0
    # Alice and Bob (the dealer, last) pass too; the hand is played in hearts, Bob leads
    for seat, user, name, passed in (
        (0, alice, "Alice", ["Dave"]),
        (1, bob, "Bob", ["Dave", "Alice"]),
    ):
        players = join(locale, passed)
        turn = said["turn"].format(name)
        await env.until(lambda t=turn, p=players: deal_says(said["passed"].format(p), t))
        pass_id = f"sj:d:{tid}:{seat}:pass"
        panel = await env.until(lambda u=user, p=pass_id: env.panel(u, p))
        (reply,) = await env.driver.click(panel, pass_id, user).wait_followups(1)
        assert reply.ephemeral
    assert env.match().phase == Phase.PLAY and match.to_act == 1, "the dealer leads"
    assert match.trump.suit == "H" and match.trump.level == "2"
    # the round is over: the deal message keeps the bids and the trump, no turn; the
    # table message, the hand's first since the bury, has Bob to lead
    await env.until(lambda: len(env.place_messages()) == posted + 1)
    await env.until(lambda: said["lead"] in env.place_messages()[-1].content)
    assert deal_says(*said["overcall"]) and not deal_says(said["round"])


@pytest.mark.deal_seed(10)
@pytest.mark.parametrize("locale", ["en-US", pytest.param("zh-CN", marks=pytest.mark.slow)])
async def test_a_restart_mid_round_keeps_who_passed_in_the_deal_message(
    shengji: Env, locale: str
) -> None:
    """Bob's bid holds the deal, Carol overcalls, Dave passes; the bot restarts, Alice
    passes: the new process edits the hand's deal message (no new message in the thread),
    which names both who passed (the overcall is a bid, not a pass), as the round is the
    hand's state (the public view's ``passed``)."""
    env = shengji
    env.world.guild.preferred_locale = locale
    said = THREAD[locale]
    await _second_hand_dealt(env)
    match = env.match()
    alice, bob, carol, dave = env.users

    async def act(user_id: int, action: Declare | Pass) -> None:
        await env.bot.service.act(env.world.tables.id, user_id, action)

    await act(bob.id, Declare(tuple(parse_cards("SJ 2S"))))
    await env.tick(6)  # the bidding window closes: Bob deals
    await env.until(lambda: match.phase == Phase.KITTY)
    await env.play_with_slash(1, env.suggestion(1))
    await act(carol.id, Declare(tuple(parse_cards("BJ 2H 2H"))))
    await act(dave.id, Pass())
    assert match.phase == Phase.OVERCALL and match.to_act == 0

    def deal_messages() -> list[list[str]]:
        """The hand's deal messages (their head names both levels), each as its lines."""
        return [m.content.split("\n") for m in env.place_messages() if said["head"] in m.content]

    def last() -> list[str]:
        return (deal_messages() or [[]])[-1]

    await env.until(lambda: said["passed"].format("Dave") in last())
    await env.fake.idle(quiet=0.3)  # the old process's edits have gone out
    *before, turn = last()
    assert turn.startswith(said["turn"].format("Alice"))
    deal = next(m for m in reversed(env.place_messages()) if said["head"] in m.content)
    thread = len(env.place_messages())
    running = await restart(env)
    try:
        await act(alice.id, Pass())
        passed = said["passed"].format(join(locale, ["Dave", "Alice"]))
        now = [*before[:-1], passed]  # as before, with Alice passed too
        await env.until(lambda: env.fake.messages[deal.id].content.split("\n")[:-1] == now)
        assert last()[-1].startswith(said["turn"].format("Bob"))
        assert len(env.place_messages()) == thread  # the same deal message, edited
    finally:
        await running.stop()
