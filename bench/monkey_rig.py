"""The monkey's world: the fake Discord, four people, the real bot on a file store.

What a person could not do is not done here either: every interaction goes through
``fakediscord.driver.UserDriver``, which refuses what a Discord client would not
send. Two of the people read Discord in Chinese, two in English; Alice may manage
the server (settings, kicks, tournaments), as a server's admin playing would.

The table service runs on a ``ManualClock`` that moves with the fake's own clock (the
interactions' 3 s and 15 min), so a tick ages every timer and every token together,
as time passing does.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app import ShengjiBot
from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import Limits, Table, Timers
from bot.service.reviews import BUDGET_S
from bot.store import GuildSettings, Store
from fakediscord import FakeDiscord, UserDriver
from fakediscord.harness import RunningBot, World, populate, start_bot
from fakediscord.state import Interaction, User

from .monkey_checks import Auditor, Broken, LostPlaces

# real seconds a deferred answer may take: a review may use its whole time budget, behind
# three others in its one worker (a burst: four people asked at once, a seat each), after
# that worker started (a new process). Seed 9814 queued three with two (55 s) allowed.
ANSWER_WAIT = 4 * BUDGET_S + 15.0
DEFERRED = 5  # the interaction response type of a "thinking…" acknowledgement
LOCALES = ("zh-CN", "en-US", "zh-CN", "en-US")  # alice, bob, carol, dave
MANAGE_GUILD = 1 << 5
# a quick table: no pause between deal rounds or computer plays; the windows on the clock
TIMERS = Timers(bid_window=5.0, deal_pace=0.0, deal_round=100, bot_delay=0.0, next_hand=5.0)


@dataclass
class Rig:
    fake: FakeDiscord
    world: World
    driver: UserDriver
    store: Store
    clock: ManualClock
    auditor: Auditor
    rng: random.Random
    seed: int
    bot: ShengjiBot | None = None
    running: RunningBot | None = None
    deals: random.Random = field(default_factory=random.Random)  # the tables' deal seeds
    trace: list[str] = field(default_factory=list)
    step: int = 0
    started_after: int = 0  # the newest interaction before this process started
    table_ids: set[int] = field(default_factory=set)  # every table opened, for the count
    panels: Counter[str] = field(default_factory=Counter)  # turns looked for on a panel, late
    cup_ids: set[int] = field(default_factory=set)  # every tournament the cup step saw
    lost: set[int] = field(default_factory=set)  # tables closed as their place was lost
    weather: Counter[str] = field(default_factory=Counter)  # Discord's failures felt, by kind
    # the write lock another process holds on the store (``monkey_weather.lock_store``):
    # the timer that lets it go, and how
    store_lock: tuple[asyncio.TimerHandle, Callable[[], None]] | None = None

    @property
    def users(self) -> list[User]:
        return list(self.world.users)

    @property
    def live(self) -> ShengjiBot:
        assert self.bot is not None
        return self.bot

    def unlock_store(self) -> None:
        if self.store_lock is not None:
            timer, release = self.store_lock
            self.store_lock = None
            timer.cancel()
            release()

    def note(self, text: str) -> None:
        self.trace.append(f"{self.step}: {text}")

    def tables(self) -> list[Table]:
        found = list(self.live.service.tables.values())
        self.table_ids |= {t.id for t in found}
        return found

    def main_table(self) -> Table | None:
        """The table in #tables, where the moves that play a match are aimed."""
        return self.live.service.tables.get(self.world.tables.id)

    def user(self, user_id: int | None) -> User | None:
        return next((u for u in self.users if u.id == user_id), None)

    async def tick(self, seconds: float) -> None:
        """Time passes for the bot and for Discord alike, once the bot's answers are out:
        an answer the bot works on for a few real seconds (a review) must not find its
        interaction's 15 minutes gone, which no person's wait could make happen. An answer
        still missing after ``ANSWER_WAIT`` real seconds is itself a failure, unless a
        table is paused for the store: it tries its write again on the bot's clock, and a
        command waiting behind that write (for the table's lock, for its meta's) is
        answered only once time passes (seed 10721: a lobby's thread id, refused while
        another process held the store's lock, held an abort vote and the joins after it;
        the monkey waited for their answers before it let time pass)."""
        with contextlib.suppress(TimeoutError):  # tables of computer players never go quiet
            await self.fake.idle(quiet=0.02, timeout=3.0)
        try:
            await self.fake.wait_for(
                lambda: not self.unanswered() or self.store_paused(), timeout=ANSWER_WAIT
            )
        except TimeoutError:
            late = [
                f"{i.id} ({i.command_name() or i.data.get('custom_id')})" for i in self.unanswered()
            ]
            raise Broken(f"commands acknowledged but never answered: {late}") from None
        await self.fake.clock.advance(seconds)
        await self.clock.advance(seconds)
        await asyncio.sleep(0.01)

    def store_paused(self) -> bool:
        """Whether a table of this process is paused, waiting to write to the store again."""
        return any(t.paused_since is not None and not t.closed for t in self.tables())

    def unanswered(self) -> list[Interaction]:
        """This process's deferred commands whose answer has not come (those a restart cut
        off are no longer expected, nor those whose thread a moderator locked, archived or
        deleted after the acknowledgement: Discord refuses that answer, and the command
        stays "thinking" for good, discord/discord-api-docs#6884)."""
        return [
            i
            for i in self.fake.interactions.values()
            if i.id > self.started_after
            and i.response_type == DEFERRED
            and i.original is not None
            and i.original.loading
            and not (i.channel.deleted or i.channel.archived or i.channel.locked)
        ]

    async def start(self) -> None:
        """A bot process on the store's file (a new one at each restart)."""
        self.bot = ShengjiBot(
            self.store,
            clock=self.clock,
            audit=self.auditor.image,
            guild_ready_timeout=0.01,
            edit_gap=0.0,
            ping_after=0.0,
            seed_source=lambda: self.deals.randrange(1 << 30),
            limits=Limits(commands=10_000),  # the monkey types faster than people
        )
        self.bot.service.hooks.append(self.auditor)
        self.bot.service.sink = LostPlaces(self.bot.service.sink, self.lost)
        self.started_after = max(self.fake.interactions, default=0)
        self.running = await start_bot(self.fake, self.bot, ready_timeout=30)

    async def restart(self) -> None:
        """Stop the process and start another on the same store, as a deploy does."""
        await self.stop_bot()  # under the weather's lock on the store, if one is held
        self.unlock_store()  # let go before the new process opens the file
        self.store = await Store.open(self.store.location)
        await self.start()

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.live.close()
        if self.running is not None:
            await self.running.stop()
        self.bot = self.running = None

    async def close(self) -> None:
        self.unlock_store()
        await self.stop_bot()
        await self.fake.stop()


async def open_rig(seed: int, store_at: Path | str) -> Rig:
    """A rig whose bot keeps its store at ``store_at``: a SQLite file, or a PostgreSQL URL."""
    fake = await FakeDiscord().start()
    world = populate(fake)
    for user, locale in zip(world.users, LOCALES, strict=True):
        user.locale = locale
    admins = fake.create_role(world.guild, "admins", MANAGE_GUILD)
    fake.add_member(world.guild, world.alice, [admins])
    store = await Store.open(store_at)
    # the expert thinks in real time: its shortest time, so that a table of them keeps pace
    settings = GuildSettings(RuleSet(), {**TIMERS.to_dict(), "think_ms": 20})
    await store.save_guild_settings(world.guild.id, settings)
    rig = Rig(
        fake,
        world,
        UserDriver(fake, timeout=15.0),
        store,
        ManualClock(),
        Auditor(),
        random.Random(seed),
        seed,
    )
    rig.deals.seed(seed)
    rig.auditor.source = lambda: rig.tables() if rig.bot is not None else []
    await rig.start()
    return rig
