"""Each human's private panel at a table: one live DM for the match.

Decisions for issue 10: each human's DMs hold one live panel (the hand image, the
picker or the bid buttons, and everything needed to play without looking at the
thread), edited in place, and the "your turn" notice (``cogs.turnnotices``). The panel
is the player's for the whole match: at a hand's end it shrinks to the result, and the
next hand's deal edits it again, so a hand posts no DM (Discord notifies of a new one,
and a match of fifteen hands left fifteen lines); its id is kept with the table, so a
restart edits it too. A player whose DMs are closed is told once in the thread and uses
**My hand**, whose ephemeral panel is refreshed through its interaction while the
interaction's token is valid, coalesced like the DM panel (``cogs.ephemeral.EphemeralLive``),
and shrunk with the hand's DM panels when the table closes. The panel's content is
``cogs.panels``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord

from bot.game import Phase, SeatView
from bot.i18n import pick, t
from bot.service import Table, Update, UpdateKind
from bot.store import UserPrefs

from .ephemeral import EphemeralLive
from .lang import DEFAULT_PREFS
from .live import LiveMessage, ready
from .outlet import Outlet
from .panels import ImageMemo, Panel, build_panel
from .tableui import PanelCell
from .tableview import names_of

log = logging.getLogger(__name__)
#: seconds a panel's shrinking waits for a click's edit of it on its way
CLICK_EDIT_WAIT = 5.0


def _draw_newest(cell: PanelCell) -> tuple[Panel, int]:
    """In the render thread: the newest state of a panel when its turn comes, and which."""
    assert cell.args is not None
    version, args = cell.args  # replaced whole on the event loop: read once
    return build_panel(**args), version


def _panel_message(panel: Panel) -> dict[str, Any]:
    return {
        "content": panel.content,
        "files": [panel.file()],
        "view": panel.view,
        "files_key": panel.image,  # the same image object: not uploaded again
    }


EPHEMERAL_TOKEN = 14 * 60.0  # an interaction token lasts 15 minutes; stop a minute early


def _shrink(live: LiveMessage, line: str) -> None:
    """A panel shrinks to one line: its picture and its buttons go."""
    live.show(functools.partial(ready, {"content": line, "files": [], "view": None}))


class SeatPanels(Outlet):
    """The players' panels: redrawn at their turns, and on demand for the cog."""

    def redraw_for(self, user_id: int) -> int:
        """Redraw this player's live panels at every table (after a preference change)."""
        if self.service is None:
            return 0
        redrawn = 0
        for table in self.service.tables_of_user(user_id):
            if table.match is None:
                continue
            for seat, info in enumerate(table.seats):
                ui = self.ui(table)
                if info is None or info.user_id != user_id or seat not in ui.panels:
                    continue
                if seat in ui.collapsed:  # the hand is over: its line stays
                    continue
                self._show_panel(table, self.now_at(table), seat)
                redrawn += 1
        return redrawn

    def now_at(self, table: Table) -> Update:
        """The table as it stands, as an update (for redrawing outside the table's updates)."""
        match = table.match
        assert match is not None and self.service is not None
        return Update(
            kind=UpdateKind.SEATS,
            events=(),
            public=match.view(None),
            views=tuple(match.view(s) for s in range(4)),
            seats=tuple(table.seats),
            deadline=self.service.deadline(table),
        )

    def _refresh_panels(
        self, table: Table, update: Update, skip: int | None = None, *, new_bids: bool = False
    ) -> None:
        """Redraw the panels of every human not in 托管 (the dealer's is skipped at the bury);
        ``new_bids``: only those whose bids changed since their panel was last redrawn in
        the deal (the deal's progress while crowded, between its paced redraws)."""
        ui = self.ui(table)
        dealing = update.public is not None and update.public.phase is Phase.DEAL
        for seat, info in enumerate(update.seats):
            if info is None or info.kind != "human" or info.user_id is None or info.auto:
                continue
            if seat == skip:
                continue
            if dealing:
                view = update.views[seat]
                bids = tuple(bid.cards for bid in view.auction.options(view.hand, seat))
                if new_bids and ui.bids_shown.get(seat) == bids:
                    continue
                ui.bids_shown[seat] = bids
            elif new_bids:
                continue
            self._show_panel(table, update, seat)

    def _show_panel(self, table: Table, update: Update, seat: int, note: str = "") -> None:
        """Redraw a player's live DM panel (and their ephemeral one while its token lasts)."""
        ui = self.ui(table)
        info = update.seats[seat]
        if info is None or info.user_id is None:
            return
        user_id = info.user_id
        view = update.views[seat]
        names = names_of(update.seats)
        urgent = view.to_act == seat and view.expecting in ("play", "bury", "overcall")

        # the newest state, taken now (the render reads it when it starts: a state shown
        # while an older one waits in the render queue is the one drawn)
        cell = ui.panel_cells.setdefault(seat, PanelCell())
        cell.version += 1
        mine = cell.version
        cell.make = functools.partial(self._panel_args, table, seat, view, note, names)
        cached = self.cached_prefs(user_id)
        if cached is not None:
            cell.args = (mine, cell.make(cached))
        # else the older state stays for a render of it already queued (which reads
        # ``args`` when it starts), and this one's build takes them once the prefs are read

        def sent(drawn: int) -> None:
            cell.sent = max(cell.sent, drawn)

        async def build() -> dict[str, Any] | None:
            if cell.sent >= mine:
                return None  # an earlier build drew this state (or a newer one) and sent it
            prefs = await self.prefs_of(user_id)
            if cell.args is None or cell.args[0] < cell.version:
                assert cell.make is not None  # set with every version
                cell.args = (cell.version, cell.make(prefs))
            panel, drawn = await self.off_loop(_draw_newest, cell, urgent=urgent)
            return {**_panel_message(panel), "on_sent": functools.partial(sent, drawn)}

        async def build_ephemeral() -> dict[str, Any] | None:
            panel = await self.panel_for(table, seat, view, note=note, names=names, urgent=urgent)
            return _panel_message(panel)

        ui.collapsed.discard(seat)  # its panels show this hand again
        if user_id not in ui.dm_closed:
            live = ui.panels.get(seat)
            if live is None or ui.panel_owners.get(seat) != user_id:
                live = self._panel_live(table, seat, user_id)
            live.show(build, preempt=urgent)
        opened = self._ephemeral(table, seat)
        if opened is not None:
            opened.show(build_ephemeral, preempt=urgent)

    def shrunk(self, table: Table, seat: int, hand_no: int) -> bool:
        """Whether the seat's panel of hand ``hand_no`` has shrunk to its one line: the
        table closed, that hand is over, or a later one began."""
        match = table.match
        if table.closed or match is None or match.hand_no != hand_no:
            return True
        ui = self.ui_by_table.get(table.id)
        return ui is not None and seat in ui.collapsed

    def _ephemeral(self, table: Table, seat: int) -> EphemeralLive | None:
        """The seat's My hand panel while its interaction's token lasts and its reader
        has not dismissed it."""
        ui = self.ui(table)
        opened = ui.ephemeral.get(seat)
        if opened is not None and (
            opened.stopped or time.monotonic() - opened.opened > EPHEMERAL_TOKEN
        ):
            del ui.ephemeral[seat]
            return None
        return opened

    @contextlib.asynccontextmanager
    async def click_edit(self, table: Table, seat: int) -> AsyncIterator[None]:
        """Around a click's edit of its panel (its check of ``shrunk`` included): the
        panel's shrinking waits for it and goes after it. Sent before the shrinking, the
        edit could reach Discord after it (each request on its own connection) and arm
        the panel's picker again for good."""
        ui = self.ui_by_table.get(table.id)  # none: closed, and ``shrunk`` says so
        done = asyncio.get_running_loop().create_future()
        edits = ui.click_edits.setdefault(seat, set()) if ui is not None else set()
        edits.add(done)
        try:
            yield
        finally:
            done.set_result(None)
            edits.discard(done)

    def acting_from_panel(self, table: Table, seat: int) -> None:
        """The seat acts by a click on its panel, which that click redraws."""
        self.ui(table).redrawing.add(seat)

    def panel_refused(self, table: Table, seat: int) -> None:
        """The click's action was refused: the panel is redrawn as usual when the seat acts."""
        self.ui(table).redrawing.discard(seat)

    def opened_ephemeral(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        """My hand was opened: refresh that ephemeral panel at the player's turns."""
        self.ui(table).ephemeral[seat] = EphemeralLive(interaction, time.monotonic())

    # --- panels on demand (for the cog) ----------------------------------------------

    def staged(self, table: Table, seat: int, seq: int) -> dict[int, list[str]]:
        """The staged selection of a seat for the panel of action ``seq``.

        A panel of an older action, redrawn late (the bot catching up with earlier
        moves while the player already picks cards for the current one), gets an empty
        selection of its own and leaves the newer one alone: the next Play finds the
        cards the player picked."""
        ui = self.ui(table)
        current = ui.staged.get(seat)
        if current is not None and current[0] > seq:
            return {}
        if current is None or current[0] != seq:
            current = (seq, {})
            ui.staged[seat] = current
            ui.confirming.discard(seat)
        return current[1]

    def staged_values(self, table: Table, seat: int, seq: int) -> list[str]:
        return [v for values in self.staged(table, seat, seq).values() for v in values]

    async def panel_for(
        self,
        table: Table,
        seat: int,
        view: SeatView,
        note: str = "",
        names: tuple[str, str, str, str] | None = None,
        *,
        urgent: bool = True,
    ) -> Panel:
        """The panel of ``seat``; ``urgent`` (a click, the player to act) renders first."""
        info = table.seats[seat]
        prefs = None
        if info is not None and info.user_id is not None:
            prefs = await self.prefs_of(info.user_id)
        args = self._panel_args(table, seat, view, note, names, prefs)
        return await self.off_loop(build_panel, urgent=urgent, **args)

    def _panel_args(
        self,
        table: Table,
        seat: int,
        view: SeatView,
        note: str,
        names: tuple[str, str, str, str] | None,
        prefs: UserPrefs | None,
    ) -> dict[str, Any]:
        """``build_panel``'s arguments for this state, taken now (on the event loop: the
        staged selection changes under it), with the player's ``prefs`` (None: no player)."""
        info = table.seats[seat]
        loc = pick(self.locale(table))
        if info is not None and info.user_id is not None:
            self._audit_panel(table, info.user_id, view)
            loc = self.player_locale(table, prefs or DEFAULT_PREFS)
        return {
            "table_id": table.id,
            "view": view,
            "staged": self.staged_values(table, seat, view.seq),
            "names": names or names_of(tuple(table.seats)),
            "confirm": seat in self.ui(table).confirming,
            "note": note,
            "locale": loc,
            "prefs": prefs or DEFAULT_PREFS,
            "memo": self.ui(table).hand_images.setdefault(seat, ImageMemo()),
        }

    def _audit_panel(self, table: Table, user_id: int, view: SeatView) -> None:
        if self.audit is not None:
            self.audit(table.id, user_id, "HandScene", list(view.hand), view.hand_no)

    async def _let_go(self, table: Table, update: Update) -> None:
        """The panels of players who left mid-match (a computer player has the seat) shrink
        to one line now, their picker gone: no later redraw reaches them, and a restart
        would not know them (``TableService.panel_messages``)."""
        ui = self.ui(table)
        public = update.public
        for seat, live in list(ui.panels.items()):
            info, owner = update.seats[seat], ui.panel_owners[seat]
            if info is not None and info.kind == "human" and info.user_id == owner:
                continue
            del ui.panels[seat]
            if seat not in ui.collapsed and public is not None:
                line = t(
                    await self.dm_locale(table, owner), "table-panel-left", hand=public.hand_no + 1
                )
                _shrink(live, line)
            ui.collapsed.discard(seat)

    async def _collapse_panels(
        self, table: Table, line: Callable[[object], str]
    ) -> list[LiveMessage]:
        """The hand's panels, in DMs and My hand, shrink to ``line`` (in each player's
        language), their buttons gone: at the hand's score, at a new hand (those a restart
        left), and at the close. A DM panel stays the player's for the match (the next
        hand's deal edits it: no new DM a hand), and a My hand panel stays open: the
        next hand redraws them. Returns them (being edited)."""
        ui = self.ui(table)
        dm = [(seat, live) for seat, live in ui.panels.items() if seat not in ui.collapsed]
        ui.collapsed.update(ui.panels)
        ui.panel_cells = {}  # the hand's renders still queued draw the hand's panels
        opened = ((seat, self._ephemeral(table, seat)) for seat in list(ui.ephemeral))
        shrinking = [*dm, *((seat, live) for seat, live in opened if live is not None)]
        clicks = [edit for seat, _ in shrinking for edit in ui.click_edits.get(seat, ())]
        if clicks:  # a click's redraw on its way goes first (``click_edit``)
            await asyncio.wait(clicks, timeout=CLICK_EDIT_WAIT)
        for seat, live in shrinking:
            info = table.seats[seat]
            loc = self.locale(table)
            if info is not None and info.user_id is not None:
                loc = await self.dm_locale(table, info.user_id)
            _shrink(live, line(loc))
        return [live for _, live in shrinking]
