"""The table service: drives every live table, owns their clocks, never loses a game.

Rooms: ``table`` (a table's record and runtime, the update and result types),
``runtime`` (commit-before-tell, presenter queues, closing), ``lifecycle``
(restore, shutdown, retention), ``faults``
(store failures: pause and retry, or close), ``lobby`` (seating
and its permission rules), ``driver`` (the service's timing around
``bot.game.driver``), ``records`` (lookups and records queries), ``service``
(the facade, ``TableService``).
"""

from bot.service.faults import store_passing, tried_while_passing
from bot.service.service import TableService
from bot.service.table import (
    AbortOutcome,
    CloseReason,
    LeaveOutcome,
    Limits,
    SeatSignal,
    Sink,
    Table,
    TableHooks,
    TableRecord,
    Timers,
    Update,
    UpdateKind,
    UserError,
)

__all__ = [
    "AbortOutcome",
    "CloseReason",
    "LeaveOutcome",
    "Limits",
    "SeatSignal",
    "Sink",
    "Table",
    "TableHooks",
    "TableRecord",
    "TableService",
    "Timers",
    "Update",
    "UpdateKind",
    "UserError",
    "store_passing",
    "tried_while_passing",
]
