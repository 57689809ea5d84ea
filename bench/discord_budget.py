"""Discord budget: what one table costs Discord per hand, measured through the fake.

Run: ``python3 -m bench.discord_budget [--hands 2] [--seed 7] [--bot-delay 0.3]
[--slow-every 6] [--json]``

One process: the fake Discord (with Discord's per-route rate limits switched on
when the fake offers them), the real bot (``app.ShengjiBot``, real store file,
real renderers, production edit pacing) and two simulated humans in seats 0 and 1
who play from their DM panels (choose the cards in the menus, press Play), as a
person would. Seats 2 and 3 are computer players at ``--bot-delay`` seconds a
play (production is 1.2 s; the default here is four times faster, to stress the
edit coalescing). The deal seed is fixed. Every ``--slow-every``-th turn of a human
is thought over past the turn notice (posted after ``NOTICE_AFTER`` s here, 10 s in
production), so the notice's DM and its deletion after the play are counted too.

Counted per hand: new messages in the table's thread and in the channel, edits in
each, DMs posted and deleted, the most bot messages any DM channel holds at once
for the current hand (older hands' collapsed panels not counted), REST calls per
play (every REST request the bot makes, interaction answers included, divided by
the cards plays made) and 429s received. Targets (issue 10): at most 4 new thread
messages and 1 channel edit per hand (the one edit at Start, "the match is
on", is counted apart), at most 2 live DM messages per player, no
429, at most 6 REST calls per play. With ``--json`` the last line is one JSON
object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from app import ShengjiBot
from bot.ai import suggest
from bot.clock import SystemClock
from bot.game import Bury, Phase, Play
from bot.rules import RuleSet
from bot.store import GuildSettings, Store
from fakediscord import FakeDiscord, UserDriver
from fakediscord.harness import populate, start_bot
from fakediscord.state import Channel, Message

NOTICE_AFTER = 0.4  # the turn notice's wait here (production: cogs.pacing.PING_AFTER)
MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
TARGETS = {
    "thread_messages_per_hand": 4,
    "channel_edits_per_hand": 1,
    "max_live_dm_messages": 2,
    "http_429": 0,
    "rest_calls_per_play": 6,
}


def _fake() -> FakeDiscord:
    return FakeDiscord(rate_limits=True, max_log=200_000)


def _panel(fake: FakeDiscord, user: Any, prefix: str) -> Message | None:
    for message in reversed(fake.dms(user)):
        if any(c.startswith(prefix) for c in message.custom_ids()):
            return message
    return None


async def _play_from_panel(
    fake: FakeDiscord, driver: UserDriver, bot: ShengjiBot, user: Any
) -> None:
    """Play the suggested cards from the user's live panel: menus, then Play (or Bury, Confirm)."""
    table = next(iter(bot.service.tables.values()))
    match = table.match
    assert match is not None
    seat = table.seat_of(user.id)
    seq = match.seq
    prefix = f"sj:p:{table.id}:{seat}:{seq}:"
    message = await fake.wait_for(lambda: _panel(fake, user, prefix), timeout=30)
    action = suggest(match.view(seat))
    assert isinstance(action, Play | Bury), action  # the panel offers plays and buries
    wanted = [str(c) for c in action.cards]
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("type") != 3:
                continue
            values = []
            for option in comp["options"]:
                code = option["value"].split(".")[0]
                if code in wanted:
                    wanted.remove(code)
                    values.append(option["value"])
            if values:
                await driver.select(message, comp["custom_id"], values, user)
                cid = comp["custom_id"]
                message = await fake.wait_for(
                    lambda m=message, c=cid, v=values: _selected(fake.messages[m.id], c, v),
                    timeout=30,
                )
    verb = "bury" if match.expecting()[0] == "bury" else "play"
    await driver.click(message, f"sj:b:{table.id}:{seat}:{seq}:{verb}", user)
    if verb == "bury":
        confirm = f"sj:b:{table.id}:{seat}:{seq}:confirm"
        message = await fake.wait_for(
            lambda: confirm in fake.messages[message.id].custom_ids() and fake.messages[message.id],
            timeout=30,
        )
        await driver.click(message, confirm, user)
    await fake.wait_for(lambda: match.seq > seq, timeout=30)


def _selected(message: Message, custom_id: str, values: list[str]) -> Message | None:
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("custom_id") == custom_id:
                chosen = {o["value"] for o in comp["options"] if o.get("default")}
                return message if set(values) <= chosen else None
    return None


def _live_dm_peak(fake: FakeDiscord, dm: Channel, hand_starts: list[int]) -> int:
    """The most bot messages ``dm`` held at once for the hand being played.

    Replayed from the request log; ``hand_starts`` are log positions where hands began.
    """
    posted: dict[int, int] = {}
    peak = 0
    for i, r in enumerate(fake.requests):
        if r.channel_id != dm.id or r.status >= 300:
            continue
        if r.method == "POST" and r.route == MESSAGES and isinstance(r.response, dict):
            posted[int(r.response["id"])] = i
        elif r.method == "DELETE" and r.route == MESSAGE:
            posted.pop(int(r.params["message_id"]), None)
        start = max((s for s in hand_starts if s <= i), default=0)
        peak = max(peak, sum(1 for at in posted.values() if at >= start))
    return peak


async def run(hands: int, seed: int, bot_delay: float, slow_every: int = 6) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp())
    fake = _fake()
    await fake.start()
    world = populate(fake)
    store = await Store.open(folder / "budget.sqlite3")
    timers = {
        "bid_window": 2.0,
        "deal_pace": 0.2,
        "deal_round": 8,
        "bot_delay": bot_delay,
        "next_hand": 2.0,
        "warn_before": 10.0,
    }
    rules = RuleSet(play_seconds=300, kitty_seconds=300)
    await store.save_guild_settings(world.guild.id, GuildSettings(rules, timers))
    bot = ShengjiBot(store, clock=SystemClock(), seed_source=lambda: seed, ping_after=NOTICE_AFTER)
    running = await start_bot(fake, bot, ready_timeout=30)
    driver = UserDriver(fake, timeout=60)
    alice, bob = world.users[0], world.users[1]
    hand_starts: list[int] = []
    plays = 0
    human_turns = 0
    try:
        await (await driver.send_slash("shengji new", alice, world.tables)).wait_message()
        await (await driver.send_slash("shengji join", bob, world.tables)).wait_message()
        for _ in range(2):
            await (await driver.send_slash("shengji addbot", alice, world.tables)).wait_message()
        await fake.wait_for(lambda: bot.presenter.ui_by_table, timeout=30)
        table = next(iter(bot.service.tables.values()))
        await fake.wait_for(lambda: "thread_id" in table.meta, timeout=30)
        await asyncio.sleep(bot.presenter.edit_gap + 0.2)
        await fake.idle(quiet=0.3)  # the lobby's last coalesced edit lands before the start
        start_requests = len(fake.requests)
        await driver.send_slash("shengji start", alice, world.tables)
        match = await fake.wait_for(lambda: table.match, timeout=30)
        await fake.wait_for(lambda: _channel_edits(fake, world, start_requests), timeout=30)
        after_start = len(fake.requests)
        humans = {0: alice, 1: bob}
        for hand in range(hands):
            await fake.wait_for(lambda h=hand: match.hand_no == h, timeout=120)
            hand_starts.append(len(fake.requests))
            print(f"hand {hand + 1} of {hands}...", file=sys.stderr, flush=True)
            while match.hand_no == hand and match.phase != Phase.SCORED:
                kind, seat = match.expecting()
                if kind in ("play", "bury") and seat in humans:
                    human_turns += 1
                    if slow_every and human_turns % slow_every == 0:
                        await asyncio.sleep(NOTICE_AFTER + 0.4)  # the notice comes first
                    await _play_from_panel(fake, driver, bot, humans[seat])
                else:
                    seq = match.seq
                    with contextlib.suppress(TimeoutError):
                        await fake.wait_for(
                            lambda s=seq: match.seq > s or match.phase == Phase.SCORED, timeout=60
                        )
            plays += sum(len(t.plays) for t in match.tricks)
            await fake.wait_for(
                lambda h=hand: (
                    sum("is over" in m.content for m in fake.channel_messages(_thread(fake, world)))
                    > h
                ),
                timeout=60,
            )
        end = len(fake.requests)  # the next hand's deal message is not this run's
        await asyncio.sleep(bot.presenter.edit_gap + 0.5)  # the last coalesced edits land
        thread = _thread(fake, world)
        requests = [r for i, r in enumerate(fake.requests) if i >= start_requests]
        rest = sum(1 for r in requests if not r.path.startswith("/gateway"))
        dms = [fake.dm_channel(u) for u in humans.values()]
        http_429 = getattr(fake, "http_429", None)
        if http_429 is None:
            http_429 = fake.count(status=429)
        figures: dict[str, Any] = {
            "hands": hands,
            "thread_messages_per_hand": _per(
                sum(
                    1
                    for i, r in enumerate(fake.requests)
                    if i < end
                    and r.method == "POST"
                    and r.route == MESSAGES
                    and r.channel_id == thread.id
                ),
                hands,
            ),
            "thread_edits_per_hand": _per(fake.count("PATCH", MESSAGE, channel=thread), hands),
            "channel_messages_per_hand": _per(
                sum(
                    1
                    for r in requests
                    if r.method == "POST"
                    and r.route == MESSAGES
                    and r.channel_id == world.tables.id
                ),
                hands,
            ),
            "channel_edits_at_start": _channel_edits(fake, world, start_requests)
            - _channel_edits(fake, world, after_start),
            "channel_edits_per_hand": _per(_channel_edits(fake, world, after_start), hands),
            "dms_posted_per_hand": _per(
                sum(fake.count("POST", MESSAGES, channel=d) for d in dms), hands
            ),
            "dm_edits_per_hand": _per(
                sum(fake.count("PATCH", MESSAGE, channel=d) for d in dms), hands
            ),
            "dms_deleted_per_hand": _per(
                sum(fake.count("DELETE", MESSAGE, channel=d) for d in dms), hands
            ),
            "max_live_dm_messages": max(_live_dm_peak(fake, d, hand_starts) for d in dms),
            "plays": plays,
            "rest_calls": rest,
            "rest_calls_per_play": round(rest / max(plays, 1), 2),
            "http_429": http_429,
            "rate_limits_modelled": getattr(fake, "rate_limits", None) is not None,
            "bot_delay": bot_delay,
            "slow_every": slow_every,
        }
    finally:
        await running.stop()
        await store.close()
        await fake.stop()
    return figures


def _channel_edits(fake: FakeDiscord, world: Any, since: int) -> int:
    """Edits in the table's channel (the lobby message) from log position ``since`` on."""
    return sum(
        1
        for i, r in enumerate(fake.requests)
        if i >= since
        and r.method == "PATCH"
        and r.route == MESSAGE
        and r.channel_id == world.tables.id
    )


def _thread(fake: FakeDiscord, world: Any) -> Channel:
    threads = [c for c in fake.channels.values() if c.parent_id == world.tables.id]
    return threads[-1] if threads else world.tables


def _per(count: int, hands: int) -> float:
    return round(count / max(hands, 1), 2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--slow-every", type=int, default=6, help="0: every turn at once")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    figures = asyncio.run(run(args.hands, args.seed, args.bot_delay, args.slow_every))
    print(f"{'figure':28} {'value':>10}  target")
    for key, value in figures.items():
        target = TARGETS.get(key)
        verdict = ""
        if target is not None:
            verdict = f"<= {target} " + ("ok" if value <= target else "MISSED")
        print(f"{key:28} {value!s:>10}  {verdict}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
