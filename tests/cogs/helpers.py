"""A running shengji bot on the fake Discord, and the moves of simulated players.

The bot is the real ``ShengjiBot`` (real store file, real renderers) talking to
the fake over HTTP and the gateway. Its table service runs on a ``ManualClock``,
so timers (bidding window, turn timers, the pause between hands) move only when a
test says so; everything else happens in real time over the loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from app import ShengjiBot
from bot.ai import suggest_cards
from bot.clock import ManualClock
from bot.game import Match
from bot.rules import Card, RuleSet, format_cards
from bot.service import Limits, Table
from bot.store import GuildSettings, Store
from cogs import panels
from fakediscord.driver import InteractionHandle, UserDriver
from fakediscord.harness import RunningBot, World, start_bot
from fakediscord.server import FakeDiscord
from fakediscord.state import Channel, Message, User
from renderers import HandScene, render_hand

FAST = {
    "bid_window": 5.0,
    "deal_pace": 0.0,
    "deal_round": 100,
    "bot_delay": 0.0,
    "next_hand": 5.0,
    "warn_before": 10.0,
}


@dataclass
class Env:
    fake: FakeDiscord
    world: World
    driver: UserDriver
    bot: ShengjiBot
    store: Store
    clock: ManualClock
    audit: list[tuple[int, int | None, str, list[Card], int]] = field(default_factory=list)

    @property
    def users(self) -> list[User]:
        return [self.world.alice, self.world.bob, self.world.carol, self.world.dave]

    def place(self) -> Channel:
        """Where the table plays: its thread (the channel when it has none)."""
        threads = [c for c in self.fake.channels.values() if c.parent_id == self.world.tables.id]
        return threads[-1] if threads else self.world.tables

    def place_messages(self) -> list[Message]:
        return self.fake.channel_messages(self.place())

    def buttoned(self) -> list[Message]:
        """The place's messages carrying a table's buttons (My hand, Rules)."""
        return [
            m for m in self.place_messages() if any(c.startswith("sj:t:") for c in m.custom_ids())
        ]

    async def with_button(self, custom_id: str) -> Message:
        """The newest message of the place carrying ``custom_id``, looked up when it is
        clicked: the table's buttons move from the deal message to the table message."""
        return await self.until(
            lambda: next(
                (m for m in reversed(self.buttoned()) if custom_id in m.custom_ids()), None
            )
        )

    def table_rules(self) -> RuleSet:
        return RuleSet()

    def table(self) -> Table:
        return self.bot.service.tables[self.world.tables.id]

    def match(self) -> Match:
        match = self.table().match
        assert match is not None
        return match

    async def slash(self, user: User, name: str, **options: Any) -> InteractionHandle:
        handle = self.driver.send_slash(f"shengji {name}", user, self.world.tables, options or None)
        await handle
        return handle

    async def reply(self, user: User, name: str, **options: Any) -> str:
        handle = await self.slash(user, name, **options)
        message = await handle.wait_message()
        return message.content

    async def until(self, predicate: Callable[[], Any], timeout: float = 15.0) -> Any:
        return await self.fake.wait_for(predicate, timeout=timeout)

    async def start_four(self, **new_options: Any) -> Match:
        """The first user opens a table (``new_options`` for ``/shengji new``), the other
        three join, it starts: the match, its deal under way."""
        await self.reply(self.users[0], "new", **new_options)
        for user in self.users[1:]:
            await self.reply(user, "join")
        await self.reply(self.users[0], "start")
        match: Match = await self.until(lambda: self.table().match)
        return match

    async def tick(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await asyncio.sleep(0.01)

    async def tick_until(
        self, predicate: Callable[[], Any], step: float, timeout: float = 30.0
    ) -> Any:
        """Move the clock ``step`` seconds at a time until ``predicate()`` holds: for what a
        timer decides after work done in real time (the store's thread), which a fixed
        count of ticks can outrun on a busy machine (a backoff then waits past the last)."""
        give_up = time.monotonic() + timeout
        while not (result := predicate()):
            assert time.monotonic() < give_up, "tick_until: never held"
            await self.tick(step)
        return result

    def seat_user(self, seat: int) -> User:
        info = self.table().seats[seat]
        assert info is not None and info.user_id is not None
        return next(u for u in self.users if u.id == info.user_id)

    def panel(self, user: User, prefix: str) -> Message | None:
        """The newest DM to ``user`` carrying a component whose id starts with ``prefix``."""
        for message in reversed(self.fake.dms(user)):
            if any(cid.startswith(prefix) for cid in message.custom_ids()):
                return message
        return None

    async def fresh_panel(self, user: User, seat: int) -> Message:
        """Wait for the panel of the current decision (its ids carry the action number)."""
        seq = self.match().seq
        prefix = f"sj:p:{self.table().id}:{seat}:{seq}:"
        return await self.until(lambda: self.panel(user, prefix))

    async def play_with_panel(
        self, seat: int, cards: list[Card], message: Message | None = None, *, accepted: bool = True
    ) -> InteractionHandle:
        """Select ``cards`` in the menus of the seat's panel, then press Play (or Bury, Confirm);
        with ``accepted``, wait until the table took it (else the last click's handle tells)."""
        user = self.seat_user(seat)
        # the match itself, not looked up again: a match's last play closes its table
        match = self.match()
        seq = match.seq
        message = message or await self.fresh_panel(user, seat)
        wanted = list(cards)
        for component in _selects(message):
            values = []
            for option in component["options"]:
                code = option["value"].split(".")[0]
                card = next((c for c in wanted if str(c) == code), None)
                if card is not None:
                    wanted.remove(card)
                    values.append(option["value"])
            if values:
                handle = self.driver.select(message, component["custom_id"], values, user)
                await handle
                # the panel is redrawn after the acknowledgement: wait for the selection
                message = await self.until(
                    lambda m=message, c=component["custom_id"], v=values: _shows(
                        self.fake.messages[m.id], c, v
                    )
                )
        assert not wanted, f"cards not offered in the panel: {wanted}"
        tid = self.table().id
        burying = match.expecting()[0] == "bury"
        verb = "bury" if burying else "play"
        clicked = await self.driver.click(message, f"sj:b:{tid}:{seat}:{seq}:{verb}", user)
        if burying:
            confirm = f"sj:b:{tid}:{seat}:{seq}:confirm"
            message = await self.until(
                lambda m=message: (
                    confirm in self.fake.messages[m.id].custom_ids() and self.fake.messages[m.id]
                )
            )
            clicked = await self.driver.click(message, confirm, user)
        if accepted:
            await self.until(lambda: match.seq > seq)
        return clicked

    async def play_with_slash(self, seat: int, cards: list[Card]) -> str:
        match = self.match()  # kept: a match's last play closes its table
        seq = match.seq
        text = await self.reply(self.seat_user(seat), "play", cards=format_cards(cards))
        await self.until(lambda: match.seq > seq)
        return text

    def suggestion(self, seat: int) -> list[Card]:
        return list(suggest_cards(self.match().view(seat)))


async def restart(env: Env) -> RunningBot:
    """Stop the bot; a new process (a new client and store on the same database file and
    clock, configured as the first) takes over; returns its runner for ``stop()``."""
    await env.bot.close()
    store = await Store.open(env.store.path)
    bot = ShengjiBot(
        store,
        clock=env.clock,
        guild_ready_timeout=0.01,
        edit_gap=0.0,
        limits=Limits(commands=10_000),
    )
    running = await start_bot(env.fake, bot)
    env.bot, env.store = bot, store
    return running


def record_hand_scenes(monkeypatch: pytest.MonkeyPatch) -> list[HandScene]:
    """Every hand image the panels draw from now on, as its scene (what the image shows:
    the cards, the trump, the kitty's marks), drawn for real all the same."""
    scenes: list[HandScene] = []

    def recording(scene: HandScene, **kwargs: Any) -> bytes:
        scenes.append(scene)
        return render_hand(scene, **kwargs)

    monkeypatch.setattr(panels, "render_hand", recording)
    return scenes


def start_matches_at(monkeypatch: pytest.MonkeyPatch, levels: tuple[str, str]) -> None:
    """Every match started from now on (the table's, and the store's replays of it)
    starts with the teams at ``levels``: near its end, or with the two teams apart."""
    new = Match.new

    def at_levels(seed: int, rules: RuleSet | None = None, **options: Any) -> Match:
        return new(seed, rules, **{**options, "levels": levels})

    monkeypatch.setattr(Match, "new", staticmethod(at_levels))


@contextlib.asynccontextmanager
async def every_version(
    fake: FakeDiscord, read: Callable[[Message, int | None], object]
) -> AsyncIterator[None]:
    """While open, ``read(message, reader)`` sees each message the bot sends and each edit
    of it, deleted or not, as it reaches the fake; ``reader`` is the one person who sees it
    (the DM's recipient, the ephemeral's user), None for a channel's message.

    What a player read on the way matters, not only the final state (a panel's must-play
    line, a DM deleted once read), so the messages are read at each change: the fake wakes
    its waiters at every change of its state (a poll read more often the busier the
    machine was). The messages sent before it opened are read at its first pass, the last
    changes on leaving; an error in ``read`` is raised there, and nothing is read after it.
    """
    seen: dict[int, int] = {}

    def read_new() -> bool:
        """Never done (False): it reads until it is cancelled."""
        for message in list(fake.messages.values()):
            if message.author.id != fake.bot_user.id or seen.get(message.id) == message.edits:
                continue
            seen[message.id] = message.edits
            read(message, _reader(fake, message))
        return False

    watcher = asyncio.create_task(fake.notifier.wait_for(read_new, timeout=3600))
    try:
        yield
    finally:
        if not watcher.done():
            read_new()
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


def _reader(fake: FakeDiscord, message: Message) -> int | None:
    if message.ephemeral:
        return message.ephemeral_for
    channel = fake.channels.get(message.channel_id)
    if channel is not None and channel.is_dm and channel.recipient is not None:
        return channel.recipient.id
    return None


def _shows(message: Message, custom_id: str, values: list[str]) -> Message | None:
    """``message`` once its menu ``custom_id`` shows ``values`` selected."""
    for component in _selects(message):
        if component["custom_id"] == custom_id:
            chosen = {o["value"] for o in component["options"] if o.get("default")}
            return message if set(values) <= chosen else None
    return None


def _selects(message: Message) -> list[dict[str, Any]]:
    return [
        c for row in message.components for c in row.get("components", []) if c.get("type") == 3
    ]


@pytest.fixture
async def shengji(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    fake_discord: FakeDiscord,
    world: World,
    driver: UserDriver,
    bot_client: Any,
    new_sqlite: Callable[[Path], Path],
) -> AsyncIterator[Env]:
    """The bot on the fake; ``@pytest.mark.deal_seed(n)`` fixes the tables' deal seed."""
    store = await Store.open(new_sqlite(tmp_path / "shengji.sqlite3"))
    await store.save_guild_settings(world.guild.id, GuildSettings(RuleSet(), dict(FAST)))
    clock = ManualClock()
    audit: list[tuple[int, int | None, str, list[Card], int]] = []
    marker = request.node.get_closest_marker("deal_seed")
    seed = (lambda: marker.args[0]) if marker else None
    bot = ShengjiBot(
        store,
        clock=clock,
        audit=lambda *a: audit.append(a),
        guild_ready_timeout=0.01,
        edit_gap=0.0,
        ping_after=0.0,  # the turn notice at once; its wait is tested on its own
        seed_source=seed,
        limits=Limits(commands=10_000),  # tests send commands faster than people can
    )
    # simulated players type far faster than people: the per-user command limit
    # (tested on its own in test_abuse) would slow them down
    bot.service.limits = replace(bot.service.limits, commands=10_000)
    await bot_client(bot)
    yield Env(fake_discord, world, driver, bot, store, clock, audit)
