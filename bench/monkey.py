"""Monkey test: four simulated people do random things a Discord client allows to the real bot.

Run: ``python3 -m bench.monkey --steps 2000 --seed 1 [--json] [--trace 40] [--postgres]``
(exit status 1 on a failure, with the seed, the step and the last actions).
``--postgres`` keeps the store on a PostgreSQL server of the run's own
(``bot.store.pglocal``) instead of a SQLite file; there the store's weather is another
session locking the store's tables against writes, once in two after ending the bot's
own sessions, as a failover does.

The real bot (``app.ShengjiBot``, a real SQLite file, real renderers) on the fake Discord
(``fakediscord``), its table service on a ``ManualClock``. Each step one of the four people
(two reading Discord in Chinese, two in English; Alice may manage the server) does one
thing: any ``/shengji`` command of the synced tree with random options within its schema,
a click or a menu choice on a message they see (the table's thread and channels, their
DMs, their ephemeral answers), or the next useful move at the table in #tables (so that
hands are played to their end: ``bench.monkey_play``) or for the tournament in #general
(``bench.monkey_cup``); now and then time passes, the turn timers run out, someone closes
(or opens again) their DMs, the bot restarts on the same file, or Discord itself fails
for a while (a 5xx, a 429, a dropped connection, a slow answer, a gateway reconnect), or
another process holds the store's write lock (``bench.monkey_weather``), or a moderator
archives, locks or deletes a table's thread or takes the bot's permissions in #tables for
a moment (``bench.monkey_moderator``); now and then two to four act at once (a
double click, two commands crossing). Every
interaction goes through ``fakediscord.driver``, which refuses what no client could send.

After every step (``bench.monkey_checks``): no log record at ERROR or above; no traceback
or "something went wrong" in anything the bot sent; every interaction acknowledged (the
driver's ``InteractionFailed``); no card shown to someone who may not know it; and, at
the steps where the turn timers are made to run out, every table with four seats and a
match moves on (its action number grows), and a tournament none of whose matches is
being played opens their tables, its next round or its podium: no table or tournament
freezes. The log, what was shown and the hidden cards are checked once more after the
last shutdown, which flushes the tables' messages and stops them; and then every table
must be calm (``monkey_checks.calm_tables``): its buttons on one message of its thread
(none once it closed), one DM panel with components a player (none once it closed), at
most one "your turn" notice standing a player (none once it closed). Messages the bot
could not edit are left out: in a thread deleted, archived or locked, or in the place of
a table that closed because it lost that place.

With ``--json`` the last line is one JSON object: the steps done, hands completed, tables
opened, restarts, commands, clicks, refused moves, stalls checked, seconds, the
tournaments seen by how far they came, the requests Discord's failures hit (by kind), and
the failure (null when every invariant held).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.store.pglocal import LocalPostgres
from fakediscord.driver import DriverError, InteractionFailed

from .monkey_checks import Broken, ErrorLog, Reader, calm_tables
from .monkey_cup import cup_moves_on, cup_progress
from .monkey_moderator import moderate
from .monkey_moves import burst, random_autocomplete, random_click, random_slash
from .monkey_play import done, progress
from .monkey_rig import Rig, open_rig
from .monkey_weather import felt, weather

# what a step is, by weight: the next useful move most often, so that hands end
STEP_KINDS = {
    "progress": 45.0,
    "cup": 6.0,
    "slash": 24.0,
    "click": 18.0,
    "autocomplete": 3.0,
    "tick": 6.0,
    "stall": 3.5,
    "restart": 0.5,
    "moderator": 0.3,
    "burst": 3.0,
    "dms": 0.5,
    "weather": 1.5,
}
TICKS = (0.5, 1, 3, 6, 11, 31, 61, 301)
SLOW_STEP = 1.0  # real seconds: a step this long is noted in the trace
STALL_WAIT = 10.0  # real seconds a table is given to move once its timer ran out


@dataclass
class Report:
    seed: int
    steps: int
    done_steps: int = 0
    hands: int = 0
    tables: int = 0
    restarts: int = 0
    stalls: int = 0
    refused: int = 0
    seconds: float = 0.0
    kinds: dict[str, str] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)  # each kind's first, and how many
    slow: list[str] = field(default_factory=list)  # steps over SLOW_STEP: their last action
    # turns a person looked for on their panel (DMs open or closed), and those not shown
    # within ``PANEL_WAIT`` (or, closed, at once): the person then typed the play instead
    panels: dict[str, int] = field(default_factory=dict)
    cups: dict[str, int] = field(default_factory=dict)  # the tournaments seen, by their end state
    weather: dict[str, int] = field(default_factory=dict)  # Discord's failures felt, by kind
    failure: str | None = None


async def step(rig: Rig, kind: str, report: Report) -> None:
    rng = rig.rng
    user = rng.choice(rig.users)
    if kind == "progress":
        await progress(rig)
    elif kind == "cup":
        await cup_progress(rig)
    elif kind == "slash":
        await done(rig, random_slash(rig, user))
    elif kind == "click":
        handle = random_click(rig, user)
        if handle is not None:
            await done(rig, handle)
    elif kind == "autocomplete":
        await done(rig, random_autocomplete(rig, user))
    elif kind == "tick":
        seconds = rng.choice(TICKS)
        rig.note(f"{seconds} s pass")
        await rig.tick(seconds)
    elif kind == "stall":
        report.stalls += await stall(rig)
    elif kind == "dms":  # Discord's privacy setting: DMs from the server's members
        closed = not user.dms_closed
        rig.note(f"{user.name} {'closes' if closed else 'opens'} their DMs")
        (rig.fake.close_dms if closed else rig.fake.open_dms)(user)
    elif kind == "weather":
        await weather(rig)
    elif kind == "moderator":
        await moderate(rig)
    elif kind == "burst":
        for handle in burst(rig):
            await done(rig, handle)
    elif kind == "restart":
        rig.note("the bot restarts")
        await rig.restart()
        report.restarts += 1


async def stall(rig: Rig) -> int:
    """Let every running table's timer run out: each must move on (or close), and a cup
    with no match being played must move on by itself (``cup_moves_on``)."""
    checked = await tables_move_on(rig)
    await cup_moves_on(rig, STALL_WAIT)
    return checked


async def tables_move_on(rig: Rig) -> int:
    service = rig.live.service
    # an action being committed holds its table's lock: its number is taken already, but its
    # turn timer starts once it is committed (seed 504 read the timer before and so waited
    # ten seconds too few, and the table "froze" short of its deadline)
    with contextlib.suppress(TimeoutError):
        await rig.fake.wait_for(lambda: not any(t.lock.locked() for t in rig.tables()), 3.0)
    running = [
        t
        for t in rig.tables()
        if t.match is not None and None not in t.seats and not t.closed and t.paused_since is None
    ]
    if not running:
        return 0
    now = rig.clock.now()
    waits = [(service.deadline(t) or now) - now for t in running]
    paces = [max(t.timers.deal_pace, t.timers.bot_delay) for t in running]
    seconds = max(0.0, *waits, *paces) + 1
    before = {t.id: (t.match, t.match.seq if t.match else 0) for t in running}
    rig.note(f"the timers run out: {seconds:.1f} s pass")
    await rig.tick(seconds)

    def moved(table: Any) -> bool:
        match, seq = before[table.id]
        now_table = service.tables.get(table.channel_id)
        return now_table is not table or table.closed or table.match is not match or match.seq > seq

    for table in running:
        try:
            await rig.fake.wait_for(lambda t=table: moved(t), timeout=STALL_WAIT)
        except TimeoutError:
            match = table.match
            state = match.expecting() if match else None
            raise Broken(
                f"table {table.id} froze: still at action {before[table.id][1]}, "
                f"waiting for {state}, {STALL_WAIT} s after its timer ran out\n"
                + frozen_state(rig, table)
            ) from None
    return len(running)


def frozen_state(rig: Rig, table: Any) -> str:
    """What a frozen table was doing: its timer, its lock, its seats, each task's stack
    (a task waiting on a clock, a lock, a thread or a store call says which)."""
    service = rig.live.service
    now = rig.clock.now()
    deadline = service.deadline(table)
    lines = [
        f"  clock {now:.1f}, deadline {deadline if deadline is None else round(deadline, 1)}, "
        f"lock {'held' if table.lock.locked() else 'free'}, paused {table.paused_since}, "
        f"closed {table.closed}",
        f"  seats {[(s.kind, s.auto) if s else None for s in table.seats]}",
    ]
    for task in table.tasks:
        state = "done" if task.done() else "running"
        if task.done() and not task.cancelled() and task.exception() is not None:
            state += f" with {task.exception()!r}"
        lines.append(f"  task {task.get_name()}: {state}")
        lines += [f"    {where}" for where in awaiting(task.get_coro())]
    return "\n".join(lines)


def awaiting(coro: Any) -> list[str]:
    """Where a suspended coroutine waits, outermost first, down the chain of awaits to
    the future at its end (``Task.get_stack`` gives only the outermost frame)."""
    found = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:  # a future, or a coroutine that has returned
            found.append(repr(coro)[:200])
            break
        found.append(
            f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno} {frame.f_code.co_name}"
        )
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return found


def check(rig: Rig, errors: ErrorLog, reader: Reader) -> None:
    problems = list(errors.records)
    errors.records.clear()
    if problems:
        raise Broken("logged an error: " + "\n".join(errors.describe(problems)))
    if reader.shown_errors:
        raise Broken("showed an error to a person: " + "\n".join(reader.shown_errors))
    if rig.auditor.violations:
        raise Broken("showed hidden cards: " + "\n".join(rig.auditor.violations))


async def run(steps: int, seed: int, store_at: Path | str) -> tuple[Report, list[str]]:
    report = Report(seed, steps)
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    started = time.monotonic()
    kinds: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    rig = await open_rig(seed, store_at)
    reader = Reader(rig.fake, rig.auditor, {u.id for u in rig.users})
    reader.start()
    try:
        for n in range(1, steps + 1):
            rig.step = rig.auditor.step = n
            rig.auditor.follow()
            kind = rig.rng.choices(list(STEP_KINDS), list(STEP_KINDS.values()))[0]
            kinds[kind] += 1
            began = time.monotonic()
            try:
                await step(rig, kind, report)
            except DriverError as err:  # the monkey's own idea, which no client allows
                rig.note(f"  (the client refuses: {err})")
                report.refused += 1
            except InteractionFailed as err:
                raise Broken(f"an interaction failed: {err}") from None
            took = time.monotonic() - began
            spent[kind] += took
            if took > SLOW_STEP:
                rig.note(f"  (step {n}, {kind}, took {took:.1f} s)")
                report.slow.append(f"{rig.trace[-2] if len(rig.trace) > 1 else ''} ({took:.1f} s)")
            rig.auditor.follow()
            reader.read_new()
            check(rig, errors, reader)
            report.done_steps = n
    except Broken as err:
        report.failure = f"seed {seed}, step {rig.step}: {err}"
    except Exception:
        report.failure = (
            f"seed {seed}, step {rig.step}: the monkey failed: {traceback.format_exc()}"
        )
    finally:
        await reader.stop()
        report.hands, report.tables = await hands_completed(rig)
        report.cups = await cups_reached(rig)
        live = rig.tables() if rig.bot is not None else []  # those the last shutdown stops
        await rig.close()
        gc.collect()  # a task that died unretrieved says so as it is collected
        logging.getLogger().removeHandler(errors)
    if report.failure is None:
        try:
            check(rig, errors, reader)  # what the last shutdown logged or showed
            calm = calm_tables(rig.fake, rig.users, live, rig.lost)
            if calm:
                raise Broken("left a table unquiet: " + "\n".join(calm))
        except Broken as err:
            report.failure = f"seed {seed}, at the last shutdown: {err}"
    report.seconds = round(time.monotonic() - started, 1)
    report.kinds = {k: f"{n} in {spent[k]:.1f} s" for k, n in kinds.items()}
    report.panels = dict(rig.panels)
    felt(rig)
    report.weather = dict(rig.weather)
    report.warnings = {f"{errors.examples[k]} (×{n})": n for k, n in errors.warnings.items()}
    return report, rig.trace


async def hands_completed(rig: Rig) -> tuple[int, int]:
    """The hands scored and recorded, over every table the run opened."""
    if rig.bot is None:
        return 0, len(rig.table_ids)
    rig.tables()
    counts = [len(await rig.store.hands_of_table(t)) for t in sorted(rig.table_ids)]
    return sum(counts), len(rig.table_ids)


async def cups_reached(rig: Rig) -> dict[str, int]:
    """How far the tournaments the cup step saw came: registration, running, finished..."""
    if rig.bot is None:  # stopped by a failure mid-restart: its store is closed
        return {}
    found = [await rig.store.tournament(cup_id) for cup_id in sorted(rig.cup_ids)]
    return dict(Counter(t.status for t in found if t is not None))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--trace", type=int, default=40, help="actions shown on a failure")
    parser.add_argument(
        "--postgres", action="store_true", help="the store on a PostgreSQL of its own"
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.postgres:
            server = LocalPostgres.start()
            stack.callback(server.stop)
            store_at: Path | str = server.url()
        else:
            store_at = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="monkey-")))
            store_at /= "monkey.sqlite3"
        report, trace = asyncio.run(run(args.steps, args.seed, store_at))
    print(
        f"monkey: seed {report.seed}, {report.done_steps} of {report.steps} steps, "
        f"{report.hands} hands completed at {report.tables} tables, {report.restarts} restarts, "
        f"{report.stalls} stalled tables checked, {report.refused} moves refused by the client, "
        f"{report.seconds} s"
    )
    if report.failure is not None:
        print("FAILED:", report.failure)
        print("last actions:")
        for line in trace[-args.trace :]:
            print("  ", line)
    if args.json:
        print(json.dumps(asdict(report)))
    return 1 if report.failure else 0


if __name__ == "__main__":
    sys.exit(main())
