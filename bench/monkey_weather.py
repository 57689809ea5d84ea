"""Weather: now and then Discord itself fails, as it does in production, mid-run.

One step of weather replaces the last (``Faults.clear``, so one at most is in the air)
with one of the failures ``fakediscord.faults`` and the gateway can make, aimed at a
route the bot used lately (a message post, an edit, a followup, a thread, a DM channel):

- a 500, 502 or 504 once or twice (discord.py waits and retries them);
- a 429 with ``retry_after`` a few times (discord.py waits and retries);
- a dropped connection, the request lost, or taken first and its answer lost
  (aiohttp's ``ServerDisconnectedError``, which discord.py does not retry);
- a slow answer (a second or two) to the next few requests;
- the gateway closes the connection or asks for a reconnect (discord.py resumes and the
  buffered events, interactions among them, come through);
- and, on the bot's side, another process (a backup, a ``sqlite3`` shell) holds the
  store's write lock for a few real seconds (``lock_store``): shorter than the store's
  five-second busy wait it only slows writes; longer, tables pause and resume by
  themselves. A restart lets it go once the old process has stopped (``Rig.unlock_store``).

The start-up's requests are left alone (see ``START_UP``). The interaction callback,
``POST /interactions/{id}/{token}/callback`` (acknowledgements, answers, suggestions),
meets every kind, as often as every other route together.
Everything else the bot must ride out with every invariant kept: nothing logged at
ERROR, no error shown, every interaction answered, no table frozen, no card leaked.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg

from .monkey_rig import Rig

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
# a start-up's requests (the login, the command sync): a Discord out of reach at start-up
# stops the process by design (``app.client``), which a process manager starts again
START_UP = {"/users/@me", "/gateway", "/gateway/bot", "/oauth2/applications/@me"}
FORECAST = (
    "server_error",
    "rate_limit",
    "disconnect",
    "disconnect_handled",
    "slow",
    "gateway",
    "store_lock",
)
LOCKS = (0.5, 2.0, 6.0, 9.0)  # real seconds another process may hold the store's write lock
RECENT = 200  # the requests a fault may be aimed at: the bot's latest


async def weather(rig: Rig) -> None:
    """Clear the last fault and set the next one in the air."""
    rng = rig.rng
    faults = rig.fake.faults
    felt(rig)
    faults.clear()
    kind = rng.choice(FORECAST)
    if kind == "store_lock":
        await lock_store(rig, rng.choice(LOCKS))
        return
    routes = sorted(
        {
            (r.method, r.route)
            for r in list(rig.fake.requests)[-RECENT:]
            if r.route not in (None, CALLBACK, *START_UP) and "/applications/" not in r.route
        }
    )
    if kind == "gateway" or not routes:
        rig.weather["gateway"] += 1
        if rng.random() < 0.5:
            rig.note("Discord drops the gateway connection")
            await rig.fake.gateway.disconnect()
        else:
            rig.note("Discord asks the bot to reconnect its gateway")
            rig.fake.gateway.request_reconnect()
        return
    method, route = rng.choice(routes)
    if rng.random() < 0.5:
        method, route = "POST", CALLBACK
    times = rng.randint(1, 2)
    if kind == "server_error":
        status = rng.choice((500, 502, 504))
        faults.server_error(method, route, status=status, times=times)
    elif kind == "rate_limit":
        times = rng.randint(1, 4)
        wait = rng.choice((0.05, 0.3, 1.0))
        faults.rate_limit(method, route, retry_after=wait, times=times)
    elif kind == "slow":
        times = rng.randint(1, 4)
        faults.delay(method, route, seconds=rng.choice((0.5, 1.0, 2.0)), times=times)
    else:
        faults.disconnect(method, route, handled=kind == "disconnect_handled")
        times = 1
    rig.note(f"Discord: {kind} on the next {times} {method} {route}")


def felt(rig: Rig) -> None:
    """Count the requests the faults in the air hit (by kind) into ``rig.weather``: called
    as they are cleared, and once at the end."""
    for rule in rig.fake.faults.rules:
        rig.weather[rule.name] += rule.hits


async def lock_store(rig: Rig, seconds: float) -> None:
    """Another connection takes the store's write lock (once the bot's write in flight
    ends) and lets it go ``seconds`` of real time later."""
    rig.unlock_store()
    path = rig.store.path  # None on PostgreSQL
    if path is None:
        release = await _lock_postgres(rig, rig.store.location)
    else:
        release = await _lock_sqlite(path)
    timer = asyncio.get_running_loop().call_later(seconds, rig.unlock_store)
    rig.store_lock = (timer, release)
    rig.weather["store_lock"] += 1
    rig.note(f"another process holds the store's write lock for {seconds} s")


async def _lock_sqlite(path: Path) -> Callable[[], None]:
    blocker = sqlite3.connect(path, isolation_level=None, timeout=60, check_same_thread=False)
    await asyncio.to_thread(blocker.execute, "BEGIN IMMEDIATE")  # off the loop: the bot's
    # own transaction may need the loop to finish

    def release() -> None:
        blocker.execute("ROLLBACK")
        blocker.close()

    return release


async def _lock_postgres(rig: Rig, url: str) -> Callable[[], None]:
    """Another session locks every table against writes (reads go on, as under SQLite's
    write lock); once in two it first ends the bot's own session, as a failover does."""
    blocker = await asyncpg.connect(url)
    if rig.rng.random() < 0.5:
        rig.note("PostgreSQL ends the bot's session")
        await blocker.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    tables = await blocker.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    )
    await blocker.execute("BEGIN")
    names = ", ".join(f'"{row[0]}"' for row in tables)
    try:
        await blocker.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
    except asyncpg.DeadlockDetectedError:  # met a transaction of the bot's: whichever
        # PostgreSQL ends, the bot must ride it out (a deadlock passes); here, the lock's
        rig.note("  (the lock met a transaction of the bot's in a deadlock and gave way)")
    return blocker.terminate  # the session ends, and its lock with it
