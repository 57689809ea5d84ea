"""What the presenter keeps about each table: the messages of its current hand, and
each player's panel, turn notice and clicks in flight.

Split from ``cogs.outlet`` because this is state, not Discord I/O: the outlet, the
seat panels (``cogs.seatpanels``) and the presenter all read and write it, and none
of it makes a request of its own (a ``Ping`` deletes its notice through its
``LiveMessage``, whose queue does the request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store import UserPrefs

from .ephemeral import EphemeralLive
from .live import LiveMessage
from .panels import ImageMemo


@dataclass
class Ping:
    """A player's "your turn" notice for action ``seq``: posted once the turn has waited
    (``due``, the presenter's ``ping_after``), never if they act first, deleted when they act.
    """

    seq: int
    live: LiveMessage
    due: asyncio.Task[None] | None = None  # waiting to post it
    on_deleted: Callable[[int], None] | None = None  # told the id of the notice deleted

    def call_off(self) -> None:
        """Stop waiting to post the notice.

        The task is let go before it is cancelled: a cancelled task keeps its
        ``CancelledError``, whose traceback holds the waiting frame, which holds this
        ``Ping``; were ``due`` still set, that cycle (about 500 objects with the notice's
        ``LiveMessage``, one per human turn) would wait for the garbage collector, whose
        pauses block the event loop at hundreds of tables (``app.tuning.GC_THRESHOLDS``).
        """
        due, self.due = self.due, None
        if due is not None:
            due.cancel()

    async def delete(self) -> None:
        self.call_off()
        await self.live.settle()
        posted = self.live.message_id
        await self.live.delete()
        if posted is not None and self.on_deleted is not None:
            self.on_deleted(posted)


@dataclass
class PanelCell:
    """The newest state of a seat's DM panel (``SeatPanels._show_panel``).

    A panel's render reads ``args`` when the render thread reaches it, not when it
    was queued: under load the hand grows card by card during the deal faster than
    the queue turns, and only the newest hand is worth drawing. ``version`` counts
    the states shown, ``args`` is (version, ``build_panel``'s arguments) of the newest
    taken, ``make`` takes them (given the player's preferences), ``sent`` is the
    newest version drawn and sent: a later build finding its state sent sends nothing.
    """

    version: int = 0
    args: tuple[int, dict[str, Any]] | None = None
    make: Callable[[UserPrefs | None], dict[str, Any]] | None = None
    sent: int = 0


@dataclass
class TableUI:
    """What the presenter keeps about one table (messages of the current hand)."""

    place_id: int | None = None  # the thread (or the channel) the table plays in
    lobby: LiveMessage | None = None
    deal: LiveMessage | None = None
    table: LiveMessage | None = None
    deal_edited: float = 0.0
    hand_no: int = -1
    trick_notes: list[str] = field(default_factory=list)
    dm_closed: set[int] = field(default_factory=set)
    panels: dict[int, LiveMessage] = field(default_factory=dict)  # seat -> DM panel
    panel_owners: dict[int, int] = field(default_factory=dict)  # seat -> its panel's reader
    collapsed: set[int] = field(default_factory=set)  # seats whose panel shows one line
    bids_shown: dict[int, tuple[object, ...]] = field(default_factory=dict)  # seat -> its
    # panel's bids when last redrawn in the deal (the cards of each)
    hand_images: dict[int, ImageMemo] = field(default_factory=dict)  # seat -> last hand image
    panel_cells: dict[int, PanelCell] = field(default_factory=dict)  # seat -> newest panel
    pings: dict[int, Ping] = field(default_factory=dict)  # seat -> its turn notice
    turn_seen: dict[int, int] = field(default_factory=dict)  # seat -> seq of its last turn
    ephemeral: dict[int, EphemeralLive] = field(default_factory=dict)  # seat -> My hand panel
    staged: dict[int, tuple[int, dict[int, list[str]]]] = field(default_factory=dict)
    confirming: set[int] = field(default_factory=set)
    redrawing: set[int] = field(default_factory=set)  # seats acting from their panel
    # seat -> its panel's edits by a click, on their way (``SeatPanels.click_edit``)
    click_edits: dict[int, set[asyncio.Future[None]]] = field(default_factory=dict)
    lost: bool = False
    table_image: bool = False  # the hand's table message already carries a picture
    table_drawn: float = 0.0  # when its picture was last drawn (the event loop's clock)

    def live_messages(self) -> list[LiveMessage]:
        """Every message of the table kept current: its lobby, the hand's, the panels."""
        found = [m for m in (self.lobby, self.deal, self.table) if m is not None]
        return [*found, *self.panels.values(), *self.ephemeral.values()]

    def stop_sending(self) -> list[LiveMessage]:
        """Nothing more is sent, and a turn notice still waiting is never posted: the
        table's messages (those with a request on its way end once it is answered)."""
        for ping in self.pings.values():
            ping.call_off()
        lives = [*self.live_messages(), *(ping.live for ping in self.pings.values())]
        for live in lives:
            live.stop()
        return lives
