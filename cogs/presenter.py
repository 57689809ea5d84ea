"""The presenter: turns table updates into a calm table on Discord.

It implements the service's ``Sink``. Updates for one table arrive in order on
that table's publisher task; every message is a ``LiveMessage`` (``cogs.live``),
edited in place with edits coalesced, so a fast table never floods a channel and
a Discord error never reaches the game. The rooms: what each message says is
``cogs.messages`` (pure), where it goes and Discord's refusals ``cogs.outlet``,
the players' panels ``cogs.seatpanels``, the hand's deal, table and summary messages
``cogs.handposts``, custom ids ``cogs.ids``; this module decides which message shows
what, and when.

Where things go (decisions for issue 10):

* **The channel** keeps only the lobby message, edited to show the table's state:
  seats while waiting, then levels and hand number while playing (one edit per
  hand, when the hand is scored), then the result.
* **The table's thread**, opened from the lobby message (``双升 #12 · host``), holds
  the rest. Where threads are not allowed (missing permission) or the server set
  ``table_place: channel``, the table plays in the channel and says so once (the bot
  needs both "Create Public Threads" and "Send Messages in Threads": a thread it
  could open but not post in would close the table at its first message). Per
  hand: one deal message (the deal, the bid history in order or the kitty draw that
  stood in for it, then the trump and the dealer burying, then the overcall round
  after burying: who passed, whose turn), one table message, posted once the trump
  is final (the current trick as an image with the player winning it and whose
  turn it is, and a strip with both levels, the dealer and the attackers, the
  trump, the attackers' points, the cards left and the last trick) and the summary
  with the kitty: three new messages a hand. The deal and table messages' ids are kept
  with the table (``TableService.remember_hand_message``, one write each a hand), so a
  bot restarted mid-hand edits them rather than posting the hand's messages again. A
  bot stopped between posting one and keeping its id is covered too: each is posted
  with a nonce made of the table, the hand and the kind (``LiveMessage.nonce``), which
  Discord enforces for a few minutes, so the restarted bot's post gives the message
  back, and it is edited to the hand's state.
* **Each human's DMs** hold one live panel for the match, its id kept with the table
  (``cogs.seatpanels``). The table's buttons are on one message of the thread, the
  hand's newest (``_unbutton``).
* **Under load** (issue 14) the table message's text stays current at every edit
  and its picture is what gives way: with renders waiting it is redrawn only for
  a completed trick, and with the render thread crowded (``CROWDED`` renders
  waiting: hundreds of tables) at most every ``TABLE_PICTURE_EVERY`` seconds per
  table, about every other trick at full speed, and a message of the thread is
  edited at most once every ``CROWDED_PLACE_GAP`` seconds, with the newest state
  (``cogs.pacing``; crowded also means ``CROWDED_TABLES`` live tables or more).
  Players play from their DM panels,
  which carry the trick in words; the thread is the spectators' view, and a
  picture of a trick two plays old is worth less than the player to act's panel.
  The table message is never starved: its renders keep a share of the render
  thread (``cogs.renderqueue``).
* A thread deleted or archived (by a moderator), or a place the bot may no longer
  post in, closes the table like a deleted channel; every human is told by DM,
  once, and where only the thread was lost the channel's lobby message says so.
* **The close is the table's last update**: its turn notices are deleted, its
  panels shrink to one line and its messages lose their buttons, and its UI state is
  dropped; nothing is posted or booked for it after that.
"""

from __future__ import annotations

import functools
import logging

from bot.game import (
    BidMade,
    Buried,
    DealProgress,
    HandScored,
    HandStarted,
    MatchOver,
    MatchStarted,
    Passed,
    Played,
    Redeal,
    RoundOver,
    ThrowFailed,
    TrickWon,
    TrumpSet,
)
from bot.i18n import t
from bot.service import CloseReason, Table, Update, UpdateKind

from .handposts import HandPosts
from .live import LiveMessage, ready
from .messages import (
    closed_embed,
    closed_panel_line,
    lobby_embed,
    lobby_state_embed,
    old_panel_line,
)
from .tableui import TableUI
from .tableview import (
    lobby_buttons,
    names_of,
)
from .text import cards_text

log = logging.getLogger(__name__)

#: what the table's place is told when it closes (a gone place is told nothing: its
#: players are, by DM); a failure is said on its own, not in the closed lobby message
CLOSED_KEYS = {
    CloseReason.FINISHED: "table-closed-over",
    CloseReason.TIME_UP: "table-closed-time-up",
    CloseReason.EVERYONE_LEFT: "table-closed-everyone-left",
    CloseReason.ABORTED: "table-closed-aborted",
    CloseReason.FAILED: "table-failed",
    CloseReason.BUG: "table-failed-bug",
}
FAILURES = (CloseReason.FAILED, CloseReason.BUG)


class Presenter(HandPosts):
    """Posts what happens at the tables: which message shows what, and when."""

    async def publish(self, table: Table, update: Update) -> None:
        # The player to act is served before anything else of the table (issue 14):
        # their panel is sent first, then the table's own messages. Not at a new
        # hand, whose panels and turn records ``_events`` starts afresh.
        first = update.kind is UpdateKind.EVENTS and not any(
            isinstance(event, HandStarted) for event in update.events
        )
        if first:
            await self._turn(table, update)
        match update.kind:
            case UpdateKind.LOBBY:
                await self._lobby(table, update)
            case UpdateKind.CLOSED:  # the last: nothing is posted or booked after it
                await self._closed(table, update)
                return
            case UpdateKind.HANDED_OVER:  # another process shows it now: not a word more
                self._forget(table)
                return
            case UpdateKind.WARNING:
                await self._warning(table, update)
            case UpdateKind.SEATS:  # someone left, or went on or off 托管
                await self._let_go(table, update)
            case UpdateKind.STORAGE:  # paused or resumed: said in the table's place
                key = "table-paused" if update.paused else "table-resumed"
                await self._post(table, content=t(self.locale(table), key))
            case UpdateKind.EVENTS:
                await self._events(table, update)
        if not first:
            await self._turn(table, update)

    async def _lobby(self, table: Table, update: Update) -> None:
        ui = self.ui(table)
        loc = self.locale(table)
        embed = lobby_embed(table.id, update.seats, loc)
        kwargs = {"embed": embed, "view": lobby_buttons(table.id, loc)}
        assert ui.lobby is not None
        first = ui.lobby.message_id is None
        ui.lobby.show(functools.partial(ready, kwargs))
        if first:
            await ui.lobby.settle()
            await self._open_place(table)
        elif table.meta.get("thread_opening"):  # a restart cut the opening short
            await self._open_place(table)

    async def _closed(self, table: Table, update: Update) -> None:
        """The table's last update: its notices go, the hand's panels (in DMs, and the My
        hand ones) shrink to one line, the hand's messages lose the table's buttons, the
        lobby says it closed (a finished match's keeps its result, and nothing is posted:
        the last summary says who won), and its UI state is dropped."""
        ui = self.ui(table)
        loc = self.locale(table)
        reason = update.reason
        if reason is not CloseReason.CHANNEL_GONE:
            _unbutton(ui)
        # the players' DMs first: a place that refuses (its edits tried again for seconds)
        # or a shutdown soon after (which waits only so long) must not leave a live picker
        public = update.public
        panels: list[LiveMessage] = []
        if public is not None:
            panels = await self._collapse_panels(
                table, functools.partial(closed_panel_line, public)
            )
        for seat in list(ui.pings):
            await self._unping(table, seat)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
        if reason is CloseReason.CHANNEL_GONE:
            await self._tell_closed(table)
            if self._lobby_stands(table):  # only the thread was lost: the lobby says so
                assert ui.lobby is not None
                embed = closed_embed(table.id, t(loc, "table-place-lost"), loc)
                ui.lobby.show(functools.partial(ready, {"embed": embed, "view": None}))
                await ui.lobby.settle()  # refused, it is logged (``_place_error``)
        elif reason is CloseReason.FINISHED:  # the last summary and the lobby say who won
            assert ui.lobby is not None
            await ui.lobby.settle()
        else:
            assert reason is not None and ui.lobby is not None
            said = t(loc, CLOSED_KEYS[reason])
            await self._post(table, content=said)
            embed = closed_embed(table.id, "" if reason in FAILURES else said, loc)
            ui.lobby.show(functools.partial(ready, {"embed": embed, "view": None}))
            await ui.lobby.settle()
        for live in panels:
            await live.settle()
        self.ui_by_table.pop(table.id, None)

    def _forget(self, table: Table) -> None:
        """Drop the table's UI state, its messages' queued edits and turn notices unsent."""
        ui = self.ui_by_table.pop(table.id, None)
        if ui is not None:
            ui.stop_sending()

    async def _warning(self, table: Table, update: Update) -> None:
        """Ten seconds left: said in the turn notice (edited), or on the table for closed DMs."""
        seat = update.actor
        if seat is None:
            return
        info = table.seats[seat]
        if info is None or info.user_id is None:
            return
        ui = self.ui(table)
        ping = ui.pings.get(seat)
        if ping is not None:  # their turn DM (posted now if it was still waiting): their language
            ping.call_off()
            loc = await self.dm_locale(table, info.user_id)
            text = t(loc, "table-warning", seconds=update.seconds)
            ping.live.show(functools.partial(ready, {"content": text}))
        elif info.user_id in ui.dm_closed:  # said in the thread instead: the table's language
            text = t(self.locale(table), "table-warning", seconds=update.seconds)
            self._show_table(table, update, extra=f"<@{info.user_id}> {text}")

    async def _events(self, table: Table, update: Update) -> None:
        names = names_of(update.seats)
        ui = self.ui(table)
        loc = self.locale(table)
        for event in update.events:
            if event.to is not None:
                continue  # private facts reach players through their panels
            match event:
                case MatchStarted():
                    self._show_lobby_state(table, update)
                case HandStarted():
                    await self._new_hand(table, update)
                    self._show_lobby_state(table, update)  # the hand it names
                case DealProgress():
                    if self._show_deal(table, update, force=False):
                        self._refresh_panels(table, update)
                    elif self.crowded():  # paced: only a player offered other bids now
                        self._refresh_panels(table, update, new_bids=True)
                case BidMade() | Redeal():
                    self._show_deal(table, update, force=True)
                    self._refresh_panels(table, update)
                case TrumpSet(dealer=dealer):
                    self._show_deal(table, update, force=True)
                    self._refresh_panels(table, update, skip=dealer)
                case Buried():
                    self._show_deal(table, update, force=True)
                    if not _overcalling(update):  # the round is said in the deal message
                        self._show_table(table, update)
                case Passed():
                    self._show_deal(table, update, force=True)
                case RoundOver():  # the table message comes once the trump is final
                    self._show_deal(table, update, force=True)
                    self._show_table(table, update)
                case ThrowFailed(seat=seat, taken_back=taken_back, penalty=penalty):
                    ui.trick_notes.append(
                        t(
                            loc,
                            "table-throw-failed",
                            player=names[seat],
                            cards=cards_text(taken_back, loc),
                            penalty=penalty,
                        )
                    )
                case Played():
                    self._show_table(table, update)
                case TrickWon():
                    ui.trick_notes = []
                    self._show_table(table, update)
                case HandScored():
                    await self._summary(table, update)
                case MatchOver():
                    self._show_lobby_state(table, update)

    def _show_lobby_state(self, table: Table, update: Update) -> None:
        """The channel's lobby message: the match is on (levels, hand), or its result.

        Shown at the match's start, at each hand's start (its number, and the levels the
        last hand's score left) and at the match's end: one edit a hand, the channel's
        budget (``bench.discord_budget``); the edits coalesce."""
        public = update.public
        ui = self.ui(table)
        if public is None or ui.lobby is None:
            return
        names = names_of(update.seats)
        embed = lobby_state_embed(table.id, public, names, ui.place_id, self.locale(table))
        ui.lobby.show(functools.partial(ready, {"embed": embed, "view": None}))

    async def _new_hand(self, table: Table, update: Update) -> None:
        """A new hand: fresh deal and table messages; last hand's panels, if still shown
        (its summary shrank them; a restart between may not have), shrink to one line
        until the deal redraws them."""
        public = update.public
        assert public is not None
        ui = self.ui(table)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
        _unbutton(ui)  # the buttons move to the new deal message
        ui.hand_no = public.hand_no
        ui.deal = self._hand_live(table, public.hand_no, "deal")
        ui.table = None
        ui.table_image = False
        ui.table_drawn = 0.0
        ui.trick_notes = []
        ui.deal_edited = 0.0
        ui.turn_seen.clear()
        ui.bids_shown = {}
        await self._collapse_panels(
            table, functools.partial(old_panel_line, public.hand_no, public.last_result)
        )
        self._show_deal(table, update, force=True)


def _unbutton(ui: TableUI) -> None:
    """The table's buttons leave the hand's newest message (the table message, else the
    deal message): one message of a thread carries them, so an old hand's Last trick is
    not there to show the current one."""
    newest = ui.table or ui.deal
    if newest is not None:
        newest.amend({"view": None})


def _overcalling(update: Update) -> bool:
    """The update leaves the table in the overcall round after burying."""
    return update.public is not None and update.public.expecting == "overcall"
