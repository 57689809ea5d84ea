"""``python -m bot migrate-db --from FILE --to URL``: move a SQLite database to PostgreSQL.

Stop the bot first. The file is read, never changed; the copy is verified by the
row count of every table and rolled back whole on any difference (see
``transfer``). Afterwards set ``SHENGJI_DB`` to the URL and start the bot.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .models import StoreError
from .postgres import redact
from .transfer import copy_sqlite_to_postgres


def cmd_migrate_db(args: argparse.Namespace) -> int:
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(args.source, args.target))
    except StoreError as exc:
        print(f"migrate-db: {exc}")
        return 1
    width = max(len(name) for name in counts)
    for name, rows in counts.items():
        print(f"  {name:<{width}}  {rows:>9,} rows")
    print(f"copied {sum(counts.values()):,} rows from {args.source} to {redact(args.target)}")
    print("every table's row count matches the file; set SHENGJI_DB to the URL to use it")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``migrate-db`` command to ``python -m bot``'s subcommands."""
    cmd = subparsers.add_parser(
        "migrate-db",
        help="copy a SQLite database into PostgreSQL, verified by row counts",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--from", dest="source", required=True, metavar="FILE")
    cmd.add_argument("--to", dest="target", required=True, metavar="URL")
    cmd.set_defaults(func=cmd_migrate_db)
