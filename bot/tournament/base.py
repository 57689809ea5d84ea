"""What every part of the tournament service shares: its collaborators, its cups, saving.

``TournamentService`` (``service``) is built from ``Registration`` (``registration``)
and ``Rounds`` (``rounds``), both on this base, so each part reads the same cups and
saves them the same way.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Coroutine
from typing import Any

from bot.service import Table, TableService, UserError, tried_while_passing
from bot.store import Store

from .cup import Cup, Slot, TournamentSink
from .records import cup_rows

log = logging.getLogger(__name__)
SAVE_AGAIN = (0.5, 2.0, 5.0)  # real seconds, as the store's busy wait counts


class ServiceBase:
    """The tournaments of this bot process, with the helpers every part uses."""

    def __init__(self, tables: TableService, store: Store, sink: TournamentSink) -> None:
        self.tables = tables
        self.store = store
        self.sink = sink
        self.clock = tables.clock
        self.cups: dict[int, Cup] = {}  # by channel id
        self.creating: set[int] = set()  # channels whose new tournament the store is saving
        self.finished: dict[int, Cup] = {}  # the last finished one per channel, for standings

    def _organiser(self, cup: Cup, user_id: int, manager: bool) -> None:
        if user_id != cup.organiser_id and not manager:
            raise UserError(
                "Only the organiser (or Manage Server / Manage Events) can do that.",
                key="tournament-organiser-only",
            )

    @staticmethod
    def _spawn(cup: Cup, work: Coroutine[Any, Any, None]) -> None:
        cup.tasks = [t for t in cup.tasks if not t.done()]
        task = asyncio.create_task(work)
        task.add_done_callback(functools.partial(_failed, cup))
        cup.tasks.append(task)

    def _table(self, slot: Slot) -> Table | None:
        table = self.tables.tables.get(slot.place_id)
        return table if table is not None and table.id == slot.table_id else None

    async def _save(self, cup: Cup, *, finished: bool = False) -> None:
        """The tournament as it is now. A store refusing in passing (another process
        holding SQLite's lock, beyond its own busy wait) is tried again after each of
        ``SAVE_AGAIN`` real seconds: the change is made here already, and a round moving
        on or a registration must not end in an error halfway."""
        await tried_while_passing(
            lambda: self.store.save_tournament(
                cup.id,
                cup.status,
                cup.to_state(),
                cup_rows(cup),
                finished_at=self.clock.now() if finished else None,
            ),
            SAVE_AGAIN,
            f"tournament {cup.id} not saved",
        )


def _failed(cup: Cup, task: asyncio.Task[None]) -> None:
    """A tournament's task that raised is logged when it ends, with its tournament, not
    as an exception "never retrieved" whenever the task happens to be collected."""
    if not task.cancelled() and (err := task.exception()) is not None:
        log.error("a task of tournament %s failed", cup.id, exc_info=err)
