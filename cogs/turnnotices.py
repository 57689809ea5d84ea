"""Whose turn it is: the player to act's panel first, and the "your turn" notice.

When it is a player's turn a short "your turn" DM notifies them and is deleted once they
have acted or the turn passed, so a DM channel holds at most two of the bot's messages
for the table (the panel, ``cogs.seatpanels``, and the notice). The notice waits (issue
14, load): it is posted only once the turn has waited ``ping_after`` seconds (10,
``cogs.pacing.PING_AFTER``) with the panel shown, and never if the player acts first. A
player watching the live panel sees it change at once and needs no ping (Discord
notifies them of a DM edit no more than of a message they are reading); one who looked
away is pinged. Posting and deleting a notice for every turn was two of a play's five
Discord requests. The wait runs on the table service's clock, so tests move it; the
ten-seconds warning posts a notice still waiting at once. A player whose DMs are closed
is mentioned in the thread instead.

A notice posted is kept with the table until it is deleted (``TableService.
remember_notice``): a restart would otherwise leave it standing for good, its turn long
played, beside the new process's own. The restored table deletes those it finds.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import discord

from bot.i18n import t
from bot.service import Table, Update

from .common import in_background
from .live import Build, LiveMessage
from .seatpanels import SeatPanels
from .tableui import Ping, TableUI
from .tableview import when

log = logging.getLogger(__name__)


async def _notice(loc: str, key: str, table: str, deadline: float | None) -> dict[str, Any]:
    """The "your turn" notice's message, made when it is posted."""
    return {"content": t(loc, key, table=table, when=when(deadline))}


async def _thread_notice(loc: object, user_id: int, deadline: float | None) -> dict[str, Any]:
    """The notice of a player whose DMs are closed, in the thread: it mentions them alone."""
    content = t(
        loc,
        "table-ping-thread",
        user=f"<@{user_id}>",
        when=when(deadline),
        button=t(loc, "table-button-hand"),
    )
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)])
    return {"content": content, "allowed_mentions": mentions}


class TurnNotices(SeatPanels):
    """The turn: the acting player's panel redrawn first, their notice after a wait."""

    def ui(self, table: Table) -> TableUI:
        """The table's UI state; made for a restored table (a match under way), what an
        earlier process left is tidied, closed or not (a table restored and closed at
        once, its round's time up, too): its notices are deleted, and a message that may
        still carry the table's buttons loses them: an earlier hand's (that process began
        a hand and stopped before showing it), or this hand's deal message once the table
        message is posted (that process stopped before the edit moving them was sent)."""
        restored = table.id not in self.ui_by_table and table.match is not None
        ui = super().ui(table)
        if restored and self.service is not None:
            for seat, notice in self.service.kept_notices(table).items():
                in_background(self._keeping, self._delete_left(table, seat, *notice))
            left = self.service.left_hand_message(table)
            if left is not None:
                in_background(self._keeping, self._unbutton_left(table, left))
            if ui.deal is not None and ui.table is not None:
                ui.deal.amend({"view": None})
        return ui

    async def _unbutton_left(self, table: Table, message_id: int) -> None:
        """Take the table's buttons off a message an earlier process left them on: an edit
        of its buttons only (``amend``: never a post), kept with the work a stop waits for
        (``Outlet.close``), or the next hand's message, kept meanwhile, would hide it."""
        left = LiveMessage(functools.partial(self.place, table), message_id=message_id)
        left.amend({"view": None})
        await left.settle()

    async def _delete_left(
        self, table: Table, seat: int, user_id: int, message_id: int, where: str
    ) -> None:
        """Delete a notice an earlier process left (its turn is over, or this process
        posts its own), then forget it: a dropped connection is tried again and a refusal
        is a warning (``LiveMessage.delete``), as is a failure to find its channel."""
        dm = functools.partial(self.dm, user_id)
        left = LiveMessage(functools.partial(self.place, table) if where == "place" else dm)
        left.message_id = message_id
        try:
            await left.delete()
        except Exception as err:  # the shutdown's closed session, a place not found
            log.warning("table %s: a notice left by a restart not deleted: %r", table.id, err)
            return
        if self.service is not None:
            await self.service.forget_notice(table, seat, message_id)

    async def _unping(self, table: Table, seat: int) -> None:
        ping = self.ui(table).pings.pop(seat, None)
        if ping is not None:
            await ping.delete()

    async def _turn(self, table: Table, update: Update) -> None:
        """Whose turn it is: their panel redrawn, a short notice that goes once they act."""
        public = update.public
        ui = self.ui(table)
        if public is None:
            return
        acting = public.to_act if public.expecting in ("play", "bury", "overcall") else None
        passed = [
            (seat, ui.pings.pop(seat))
            for seat, ping in list(ui.pings.items())
            if seat != acting or ping.seq != public.seq
        ]
        for seat, ping in passed:
            if seat == acting:  # their older notice (the bury, then the lead) goes first:
                await ping.delete()  # a DM channel holds at most two of the bot's messages
        await self._your_turn(table, update, acting)  # first: the player to act is waiting
        for seat, ping in passed:
            if seat in ui.redrawing:
                ui.redrawing.discard(seat)  # the panel's own click redraws it
            elif seat != acting:
                self._show_panel(table, update, seat)  # played by /play or by the timer
            if seat != acting:
                await ping.delete()

    async def _your_turn(self, table: Table, update: Update, acting: int | None) -> None:
        """The acting player's panel redrawn and their notice posted, once per turn.

        The table's other messages wait until that panel is sent (its render goes
        ahead of every other in the render thread, ``cogs.renderqueue``), so the
        player to act is never queued behind the table's pictures (issue 14).
        """
        public = update.public
        ui = self.ui(table)
        if public is None or acting is None or ui.turn_seen.get(acting) == public.seq:
            return
        info = update.seats[acting]
        if info is None or info.kind != "human" or info.auto or info.user_id is None:
            return
        ui.turn_seen[acting] = public.seq
        self._show_panel(table, update, acting)
        panel = ui.panels.get(acting)
        if panel is not None:
            await panel.settle()
        prefs = await self.prefs_of(info.user_id)
        if not prefs.turn_dm:
            return
        # its words made only if it is posted: most turns are played before it is due
        where = "place" if info.user_id in ui.dm_closed else "dm"
        if where == "place":  # in the thread, a mention Discord notifies of (the table
            loc = self.locale(table)  # message's edits notify no one)
            live = self._live_in_place(table)
            state = functools.partial(_thread_notice, loc, info.user_id, update.deadline)
        else:
            loc = self.player_locale(table, prefs)
            key = "table-ping-bury" if public.expecting == "bury" else "table-ping-play"
            live = self._dm_live(table, info.user_id)
            state = functools.partial(_notice, loc, key, str(table.id), update.deadline)
        ping = ui.pings[acting] = Ping(public.seq, live)
        if self.service is not None:  # kept until deleted: a restart deletes one left behind
            keep = functools.partial(self.service.remember_notice, table, acting, info.user_id)
            live.on_posted = lambda posted: in_background(self._keeping, keep(posted, where))
            forget = functools.partial(self.service.forget_notice, table, acting)
            ping.on_deleted = lambda gone: in_background(self._keeping, forget(gone))
        if self.ping_after <= 0:
            ping.live.show(state)
        else:
            ping.due = asyncio.get_running_loop().create_task(self._ping_later(ping, state))

    async def _ping_later(self, ping: Ping, state: Build) -> None:
        """Post the notice once the turn has waited ``ping_after`` seconds (on the service's
        clock); the task is cancelled if the player acts first (``Ping.delete``)."""
        if self.service is not None:
            await self.service.clock.sleep(self.ping_after)
        else:
            await asyncio.sleep(self.ping_after)
        ping.due = None
        ping.live.show(state)
