"""The presenter: turns table updates into a calm table on Discord.

It implements the service's ``Sink``. Updates for one table arrive in order on
that table's publisher task; every message is a ``LiveMessage`` (``cogs.live``),
edited in place with edits coalesced, so a fast table never floods a channel and
a Discord error never reaches the game. The rooms: what each message says is
``cogs.messages`` (pure), where it goes and Discord's refusals ``cogs.outlet``,
the players' panels ``cogs.seatpanels``, custom ids ``cogs.ids``; this module
decides which message shows what, and when.

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
* **Each human's DMs** hold one live panel per hand (``cogs.seatpanels``).
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
  hand's panels shrink to one line (their buttons gone) and its UI state is
  dropped; nothing is posted or booked for it after that.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

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
    SeatView,
    ThrowFailed,
    TrickWon,
    TrumpSet,
)
from bot.i18n import t
from bot.service import CloseReason, Table, Update, UpdateKind
from bot.store import UserPrefs
from renderers import render_kitty, render_summary, render_table

from .live import LiveMessage
from .messages import (
    closed_embed,
    closed_panel_line,
    deal_content,
    last_trick_scene,
    lobby_embed,
    lobby_state_embed,
    old_panel_line,
    summary_content,
    summary_scenes,
    table_content,
    table_scene,
)
from .outlet import ready
from .review import review_buttons
from .seatpanels import SeatPanels
from .tableview import (
    lobby_buttons,
    names_of,
    png,
    table_buttons,
)
from .text import cards_text

log = logging.getLogger(__name__)

DEAL_EDIT_EVERY = 2.5  # seconds between deal-progress redraws of the deal message and panels
#: seconds between the deal's progress redraws (the deal message and the players' panels)
#: while crowded (``cogs.pacing``), instead of ``DEAL_EDIT_EVERY``: each redraw was a new
#: hand image and a DM edit for every human, six or seven a hand each before any card is
#: played. A player whose panel would offer other bids (a card they may bid with arrived)
#: is not kept waiting: their panel is redrawn at that deal step (``_refresh_panels``)
CROWDED_DEAL_EVERY = 6.0
#: with the render thread crowded (``cogs.pacing.CROWDED``: hundreds of tables), the table
#: message's picture is redrawn at most every TABLE_PICTURE_EVERY seconds
TABLE_PICTURE_EVERY = 5.0
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


class Presenter(SeatPanels):
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
            case UpdateKind.WARNING:
                await self._warning(table, update)
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
        hand ones) shrink to one line (their buttons with them), the lobby says it closed,
        and its UI state is dropped."""
        ui = self.ui(table)
        loc = self.locale(table)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
        for seat in list(ui.pings):
            await self._unping(table, seat)
        public = update.public
        panels: list[LiveMessage] = []
        if public is not None:
            panels = await self._collapse_panels(
                table, functools.partial(closed_panel_line, public)
            )
        reason = update.reason
        if reason is CloseReason.CHANNEL_GONE:
            await self._tell_closed(table)
            if self._lobby_stands(table):  # only the thread was lost: the lobby says so
                assert ui.lobby is not None
                embed = closed_embed(table.id, t(loc, "table-place-lost"), loc)
                ui.lobby.show(functools.partial(ready, {"embed": embed, "view": None}))
                await ui.lobby.settle()  # refused, it is logged (``_place_error``)
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
                            cards=cards_text(taken_back),
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
        (its summary shrank them; a restart between may not have), shrink to one line."""
        public = update.public
        assert public is not None
        ui = self.ui(table)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
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

    async def _collapse_panels(
        self, table: Table, line: Callable[[object], str]
    ) -> list[LiveMessage]:
        """The hand's panels, in DMs and My hand, shrink to ``line`` (in each player's
        language), their buttons gone: at the hand's score, at a new hand (those a restart
        left), and at the close. A My hand panel stays open: the next hand redraws it.
        Returns them (being edited)."""
        ui = self.ui(table)
        old, ui.panels = ui.panels, {}
        ui.panel_cells = {}  # the hand's renders still queued draw the hand's panels
        opened = ((seat, self._ephemeral(table, seat)) for seat in list(ui.ephemeral))
        shrinking = [*old.items(), *((seat, live) for seat, live in opened if live is not None)]
        for seat, live in shrinking:
            info = table.seats[seat]
            loc = self.locale(table)
            if info is not None and info.user_id is not None:
                loc = await self.dm_locale(table, info.user_id)
            live.show(functools.partial(ready, {"content": line(loc), "files": [], "view": None}))
        return [live for _, live in shrinking]

    def _show_deal(self, table: Table, update: Update, *, force: bool) -> bool:
        """The deal message: the deal, the bids in order, then the trump and the bury.

        Deal progress redraws at most every ``DEAL_EDIT_EVERY`` seconds (while crowded
        ``CROWDED_DEAL_EVERY``); returns whether it redrew (the hand panels
        follow the same pace).
        """
        public = update.public
        ui = self.ui(table)
        if public is None:
            return False
        loop = asyncio.get_running_loop()
        done = public.dealt >= public.deal_total
        every = CROWDED_DEAL_EVERY if self.crowded() else DEAL_EDIT_EVERY
        if not force and not done and loop.time() - ui.deal_edited < every:
            return False
        ui.deal_edited = loop.time()
        if ui.deal is None:
            ui.deal = self._hand_live(table, public.hand_no, "deal")
        loc = self.locale(table)
        names = names_of(update.seats)
        content = deal_content(public, names, update.deadline, loc)
        buttons = table_buttons(table.id, table.rules.assistance, loc)
        ui.deal.show(functools.partial(ready, {"content": content, "view": buttons}))
        return True

    def _show_table(self, table: Table, update: Update, extra: str = "") -> None:
        """The hand's one table message: the trick image and the strip, edited in place."""
        public = update.public
        if public is None or public.trump is None:
            return
        ui = self.ui(table)
        if ui.table is None:
            ui.table = self._hand_live(table, public.hand_no, "table")
        names = names_of(update.seats)
        loc = self.locale(table)
        seats, notes, closed = tuple(table.seats), tuple(ui.trick_notes), set(ui.dm_closed)

        async def build() -> dict[str, Any]:
            # Made here, for a state that is sent: a busy table's edits are coalesced
            # and most of its states are replaced before they go (the inputs are
            # this moment's, copied above).
            content = table_content(
                public,
                names,
                seats,
                notes=notes,
                dm_closed=closed,
                deadline=update.deadline,
                played_for=update.actor if update.auto else None,
                extra=extra,
                loc=loc,
            )
            buttons = table_buttons(table.id, table.rules.assistance, loc)
            kwargs: dict[str, Any] = {"content": content, "view": buttons}
            # A busy render thread (many tables) redraws the picture only when a
            # trick is complete; the text, always current, carries the plays between.
            # A crowded one (hundreds of tables) at most every TABLE_PICTURE_EVERY s.
            # The scene is made only for a picture drawn (most edits under load have none).
            now = asyncio.get_running_loop().time()
            final = not public.trick and bool(public.tricks)  # the scene shows a finished trick
            paced = self.crowded() and now - ui.table_drawn < TABLE_PICTURE_EVERY
            busy = self.rendering > 0 and not (final and not paced)
            scene = None if busy and ui.table_image else table_scene(public, names, loc)
            if scene is not None:
                ui.table_image = True
                ui.table_drawn = now
                tricks = (scene.trick, scene.last) if scene.last else (scene.trick,)
                shown = [c for trick in tricks for cards in trick.plays.values() for c in cards]
                image = await self.render(render_table, scene, None, shown, loc)
                kwargs["files"] = [png(image, "table.png")]
            return kwargs

        ui.table.show(build, preempt=bool(extra))  # a warning (DMs closed) is not held back

    async def _summary(self, table: Table, update: Update) -> None:
        """The hand's summary in the thread; the hand's panels shrink to its result now,
        not at the next hand: until then they would show a finished trick's "waiting"."""
        public = update.public
        assert public is not None and public.last_result is not None
        ui = self.ui(table)
        if ui.table is not None:
            await ui.table.settle()
        result = public.last_result
        await self._collapse_panels(
            table, functools.partial(old_panel_line, public.hand_no + 1, result)
        )
        names = names_of(update.seats)
        loc = self.locale(table)
        scene, kitty = summary_scenes(result, public, names, loc)
        summary_png = await self.render(render_summary, scene, None, [], loc)
        kitty_png = await self.render(render_kitty, kitty, None, list(result.kitty), loc)
        extra: dict[str, Any] = {}
        if table.rules.assistance == "full":  # seed 000's rules allow no looking back
            extra["view"] = review_buttons(table.id, result.hand_no, loc)
        await self._post(
            table,
            content=summary_content(result, names, update.deadline, loc),
            files=[png(summary_png, "summary.png"), png(kitty_png, "kitty.png")],
            **extra,
        )

    async def last_trick_image(
        self, table: Table, view: SeatView, loc: object, prefs: UserPrefs
    ) -> bytes | None:
        """The last trick for one viewer (an ephemeral reply), labelled in their language
        and drawn as they chose (theme, four colours)."""
        scene = last_trick_scene(view, names_of(tuple(table.seats)), loc)
        if scene is None:
            return None
        shown = [c for cards in scene.trick.plays.values() for c in cards]
        return await self.render(render_table, scene, None, shown, loc, prefs)


def _overcalling(update: Update) -> bool:
    """The update leaves the table in the overcall round after burying."""
    return update.public is not None and update.public.expecting == "overcall"
