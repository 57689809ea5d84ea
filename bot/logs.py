"""Every log line says which shard and which table it is about.

With several processes, each running some shards, an operator greps one table's
story across restarts and take-overs, or one shard's trouble, by two fields that
every record carries (one format, ``FORMAT``)::

    2026-11-30 15:02:11,512 WARNING bot.service shard=1 table=812: the store refused ...

``table`` is the table the code is working for and ``shard`` that table's shard
(its guild's, ``(guild_id >> 22) % shard_count``); outside any table, ``shard``
is the process's shard range (``0-3``) and ``table`` is ``-``. Unsharded, the
shard is ``-``. Both come from a context variable, so they follow the work:
a table's driver and publisher tasks are started bound to it (``table_context``)
and a command is bound once it has found its table (``bind_table``), without
passing ids to every ``log`` call. A record factory adds the fields, so every
handler (pytest's ``caplog`` included) sees them.
"""

from __future__ import annotations

import contextvars
import logging
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s shard=%(shard)s table=%(table)s: %(message)s"

_table: contextvars.ContextVar[tuple[int, int | None] | None] = contextvars.ContextVar(
    "shengji_log_table", default=None
)
_process_shards = "-"
_base_factory = logging.getLogRecordFactory()


def bind_table(table_id: int, shard: int | None) -> None:
    """The rest of the current task's records are about this table (on this shard)."""
    _table.set((table_id, shard))


def table_context(table_id: int, shard: int | None) -> contextvars.Context:
    """A context for a table's own tasks (``asyncio.create_task(..., context=...)``)."""
    context = contextvars.copy_context()
    context.run(_table.set, (table_id, shard))
    return context


def _record(*args: Any, **kwargs: Any) -> logging.LogRecord:
    record = _base_factory(*args, **kwargs)
    bound = _table.get()
    if bound is None:
        record.shard, record.table = _process_shards, "-"
    else:
        record.table = bound[0]
        record.shard = "-" if bound[1] is None else bound[1]
    return record


def install(process_shards: str = "-") -> None:
    """Add ``shard`` and ``table`` to every record from now on (idempotent)."""
    global _process_shards
    _process_shards = process_shards
    logging.setLogRecordFactory(_record)


def configure(level: str, process_shards: str = "-") -> None:
    """The bot's logging: ``FORMAT`` on stderr at ``level``."""
    install(process_shards)
    logging.basicConfig(level=getattr(logging, level, logging.INFO), format=FORMAT)
