"""The presenter's Discord I/O: where a table's messages go and what happens when
Discord refuses them.

``Outlet`` finds the table's place (its thread, or its channel) and each
player's DM channel, posts and keeps ``LiveMessage``s there (``cogs.live``: the
coalescing queue, one request in flight per message), opens the table's thread
from its lobby message (the thread takes that message's id, saved before the thread
is asked for, so a restart in between finishes the opening rather than leaving an
empty thread behind: ``_open_place``), and turns Discord's refusals into table facts: a place
gone or archived closes the table (every human told once by DM), closed DMs are
said once in the thread. It also owns the one render thread, so every image
drawn for a table is audited (``audit`` sees each image's recipient and cards).
What the messages say is ``cogs.messages``; when they change is ``cogs.presenter``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.game import Phase
from bot.i18n import pick, t
from bot.rules import Card
from bot.service import Table
from bot.store import UserPrefs

from .common import thread_from
from .live import LiveMessage, Place, retry_wait
from .panels import ImageMemo
from .renderqueue import RenderQueue
from .tableview import names_of

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)
R = TypeVar("R")

#: seconds a turn waits, its panel shown, before the "your turn" DM is posted (``SeatPanels``)
PING_AFTER = 10.0
#: renders queued or running from which the render thread counts as crowded (hundreds of
#: tables at once): the tables' own messages then give way to the players' panels
CROWDED = 16
#: live tables in this process from which it counts as crowded too: the images got cheap
#: enough that the render thread no longer backs up at 400 tables, but sending every
#: table's every edit then kept the bot busy (6.6 requests a play instead of 3.4, ack p99
#: 750 ms, turn p99 2.5 s) and would run far past Discord's global limit of 50 requests a
#: second; past this many tables the tables' own messages give way to the players' panels
CROWDED_TABLES = 100
#: seconds between edits of a waiting player's DM panel in the deal and the bidding,
#: while crowded (bids are made from the panel while the cards arrive)
CROWDED_GAP = 3.0
#: seconds after an edit of a message in a table's place (the deal and table messages)
#: before the next, while crowded: the thread is the spectators' view (the players play
#: from their panels, which carry the trick in words), its picture is redrawn at most
#: every 5 s then (``cogs.presenter.TABLE_PICTURE_EVERY``) and its text went at every
#: other play at 3 s (0.7 of a play's 5 requests at 400 tables); a warning for a player
#: whose DMs are closed is not held back (``Presenter._show_table``)
CROWDED_PLACE_GAP = 5.0
#: seconds between edits of the DM panel of a player waiting while the tricks are played,
#: while crowded: at hundreds of tables the panel of a player who just played (their hand
#: shrank) and of one waiting (the trick goes on) were edited once or twice more per turn
#: than the panel of the player to act, most of the DM edits; with this gap those states
#: go with the player's next "your turn" panel (it preempts the wait) when turns come
#: round within it. Their play is confirmed at once by its reply, the trick is followed
#: on the table's message; the deal and the bidding keep ``CROWDED_GAP`` (bids are
#: made from the panel while the cards arrive).
CROWDED_PANEL_GAP = 6.0

Audit = Callable[[int | None, str, list[Card]], None]


@dataclass
class Ping:
    """A player's "your turn" notice for action ``seq``: posted once the turn has waited
    (``due``, the presenter's ``ping_after``), never if they act first, deleted when they act.
    """

    seq: int
    live: LiveMessage
    due: asyncio.Task[None] | None = None  # waiting to post it

    def call_off(self) -> None:
        """Stop waiting to post the notice.

        The task is let go before it is cancelled: a cancelled task keeps its
        ``CancelledError``, whose traceback holds the waiting frame, which holds this
        ``Ping``; were ``due`` still set, that cycle (about 500 objects with the notice's
        ``LiveMessage``, one per human turn) would wait for the garbage collector, whose
        pauses block the event loop at hundreds of tables (``app.client.GC_THRESHOLDS``).
        """
        due, self.due = self.due, None
        if due is not None:
            due.cancel()

    async def delete(self) -> None:
        self.call_off()
        await self.live.delete()


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
    kitty_drawn: str = ""  # the hand's latest kitty draw, said in the deal message
    passed: list[int] = field(default_factory=list)  # seats that passed in the overcall round
    dm_closed: set[int] = field(default_factory=set)
    panels: dict[int, LiveMessage] = field(default_factory=dict)  # seat -> DM panel
    bids_shown: dict[int, tuple[object, ...]] = field(default_factory=dict)  # seat -> its
    # panel's bids when last redrawn in the deal (the cards of each)
    hand_images: dict[int, ImageMemo] = field(default_factory=dict)  # seat -> last hand image
    panel_cells: dict[int, PanelCell] = field(default_factory=dict)  # seat -> newest panel
    pings: dict[int, Ping] = field(default_factory=dict)  # seat -> its turn notice
    turn_seen: dict[int, int] = field(default_factory=dict)  # seat -> seq of its last turn
    ephemeral: dict[int, tuple[discord.Interaction, float]] = field(default_factory=dict)
    staged: dict[int, tuple[int, dict[int, list[str]]]] = field(default_factory=dict)
    confirming: set[int] = field(default_factory=set)
    redrawing: set[int] = field(default_factory=set)  # seats acting from their panel
    lost: bool = False
    table_image: bool = False  # the hand's table message already carries a picture
    table_drawn: float = 0.0  # when its picture was last drawn (the event loop's clock)


class Outlet:
    """Messages of the tables on Discord, and the render thread that draws their images."""

    def __init__(
        self,
        client: discord.Client,
        audit: Audit | None = None,
        *,
        edit_gap: float = 1.0,
        ping_after: float = PING_AFTER,
    ) -> None:
        self.client = client
        self.service: TableService | None = None
        self.ui_by_table: dict[int, TableUI] = {}
        self.audit = audit
        self.edit_gap = edit_gap
        self.ping_after = ping_after
        self._dm_channels: dict[int, Place] = {}
        self._renderer = RenderQueue()
        self.rendering = 0  # renders queued or running in the render thread
        #: each player's display preferences (cogs.prefs forgets one on a change)
        self.prefs: dict[int, UserPrefs] = {}
        #: the language of each player's Discord client, from their last interaction
        self.client_locales: dict[int, str] = {}

    async def off_loop(
        self, fn: Callable[..., R], *args: Any, urgent: bool = False, **kwargs: Any
    ) -> R:
        """Run a render in the one render thread (``cogs.renderqueue``); ``urgent`` goes first."""
        self.rendering += 1
        try:
            return await self._renderer.run(functools.partial(fn, *args, **kwargs), urgent=urgent)
        finally:
            self.rendering -= 1

    def ui(self, table: Table) -> TableUI:
        ui = self.ui_by_table.get(table.id)
        if ui is None:
            ui = self.ui_by_table[table.id] = TableUI()
            thread = table.meta.get("thread_id")
            ui.place_id = int(thread) if thread else None
            lobby = table.meta.get("lobby_message")
            ui.lobby = LiveMessage(
                functools.partial(self._channel, table.channel_id, table.guild_id),
                gap=self.edit_gap,
                on_error=functools.partial(self._place_error, table),
                message_id=int(lobby) if lobby else None,
            )
        return ui

    @staticmethod
    def locale(table: Table) -> object:
        """For the table's messages: the server's setting, else its preferred locale (the
        table keeps what it started with)."""
        return table.meta.get("locale")

    async def prefs_of(self, user_id: int) -> UserPrefs:
        """A player's preferences, read from the store once and kept."""
        found = self.prefs.get(user_id)
        if found is None:
            found = UserPrefs()
            if self.service is not None:
                found = await self.service.store.user_prefs(user_id)
            self.prefs[user_id] = found
        return found

    def player_locale(self, table: Table, user_id: int, prefs: UserPrefs) -> str:
        """For what only this player reads: their setting, else their Discord client's,
        else the server's preferred locale (never the table's language setting), else
        English."""
        guild = self.client.get_guild(table.guild_id)
        server = guild.preferred_locale if guild is not None else None
        return pick(prefs.locale, self.client_locales.get(user_id), server)

    async def dm_locale(self, table: Table, user_id: int) -> str:
        return self.player_locale(table, user_id, await self.prefs_of(user_id))

    async def _channel(self, channel_id: int, guild_id: int) -> Place:
        """A channel or thread of the table's server: looked up in that server, since
        ``Client.get_channel`` walks every server the bot is in (at every edit)."""
        guild = self.client.get_guild(guild_id)
        found = guild.get_channel_or_thread(channel_id) if guild is not None else None
        channel = found if found is not None else await self.client.fetch_channel(channel_id)
        if not isinstance(channel, Place):
            raise TypeError(f"channel {channel_id} ({type(channel).__name__}) takes no messages")
        return channel

    async def place(self, table: Table) -> Place:
        """Where the table plays: its thread, or its channel."""
        return await self._channel(self.ui(table).place_id or table.channel_id, table.guild_id)

    async def dm(self, user_id: int) -> Place:
        cached = self._dm_channels.get(user_id)
        if cached is not None:
            return cached
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = user.dm_channel or await user.create_dm()
        self._dm_channels[user_id] = channel
        return channel

    async def render(
        self,
        fn: Callable[..., bytes],
        scene: Any,
        to: int | None,
        cards: list[Card],
        loc: object = None,
    ) -> bytes:
        """Render off the loop; the image's own labels in ``loc`` (the table's language)."""
        if self.audit is not None:
            self.audit(to, type(scene).__name__, list(cards))
        return await self.off_loop(fn, scene, lang="zh" if pick(loc) == "zh-CN" else "en")

    def crowded(self) -> bool:
        """Renders backing up, or more live tables than the bot edits at full pace."""
        tables = 0 if self.service is None else len(self.service.tables)
        return self.rendering >= CROWDED or tables >= CROWDED_TABLES

    def _place_gap(self) -> float:
        """After an edit of a message in a table's place (the deal and table messages)
        with a newer state waiting: ``edit_gap``, and ``CROWDED_PLACE_GAP`` at least while
        crowded, so that at hundreds of tables the tables' text edits (a request and a
        text each) leave more of the bot to the players' panels; the newest state wins
        at each edit."""
        return max(self.edit_gap, CROWDED_PLACE_GAP) if self.crowded() else self.edit_gap

    def _panel_gap(self, table: Table) -> float:
        """Between two edits of a player's DM panel: none, but while crowded
        ``CROWDED_GAP`` in the deal and bidding and ``CROWDED_PANEL_GAP`` once the
        tricks are played; the panel of the player to act (and a click's) preempts the
        wait, so only the panels of players waiting give way."""
        if not self.crowded():
            return 0.0
        match = table.match
        return CROWDED_PANEL_GAP if match is not None and match.phase is Phase.PLAY else CROWDED_GAP

    def _live_in_place(self, table: Table) -> LiveMessage:
        return LiveMessage(
            functools.partial(self.place, table),
            gap=self._place_gap,
            on_error=functools.partial(self._place_error, table),
        )

    async def _post(self, table: Table, **kwargs: Any) -> discord.Message | None:
        try:
            channel = await self.place(table)
            return await channel.send(**kwargs)
        except discord.HTTPException as err:
            await self._place_error(table, err)
            return None

    async def _place_error(self, table: Table, err: discord.HTTPException) -> None:
        """A refused post or edit: the place is gone (or archived), or something passing."""
        gone = isinstance(err, discord.Forbidden | discord.NotFound) or err.code == 50083
        if not gone:
            log.warning("table %s: Discord refused a message: %s", table.id, err)
            return
        log.warning("table %s lost its place %s: %s", table.id, self.ui(table).place_id, err)
        if self.service is not None:
            asyncio.get_running_loop().create_task(self.service.channel_gone(table.channel_id))

    async def _tell_closed(self, table: Table) -> None:
        """Tell every human, once, by DM that the table closed because its place is gone."""
        ui = self.ui(table)
        if ui.lost:
            return
        ui.lost = True
        for seat in table.humans:
            info = table.seats[seat]
            if info is not None and info.user_id is not None:
                loc = await self.dm_locale(table, info.user_id)
                await self._send_dm(table, seat, info.user_id, content=t(loc, "table-place-lost"))

    async def _send_dm(
        self, table: Table, seat: int, user_id: int, **kwargs: Any
    ) -> discord.Message | None:
        ui = self.ui(table)
        attempt = 0
        while user_id not in ui.dm_closed:
            try:
                channel = await self.dm(user_id)
                return await channel.send(**kwargs)
            except discord.Forbidden:
                await self._dms_closed(table, user_id)
            except discord.HTTPException as err:
                wait = retry_wait(err, attempt)
                if wait is None:
                    log.warning("DM to %s not sent: %s", user_id, err)
                    return None
                attempt += 1
                await asyncio.sleep(wait)
        return None

    async def _dms_closed(self, table: Table, user_id: int) -> None:
        ui = self.ui(table)
        if user_id in ui.dm_closed:
            return
        ui.dm_closed.add(user_id)
        if not ui.lost:
            loc = self.locale(table)
            await self._post(
                table,
                content=t(
                    loc,
                    "table-dms-closed",
                    user=f"<@{user_id}>",
                    button=t(loc, "table-button-hand"),
                ),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    def _dm_live(self, table: Table, user_id: int) -> LiveMessage:
        return LiveMessage(
            functools.partial(self.dm, user_id),
            gap=functools.partial(self._panel_gap, table),
            on_error=functools.partial(self._dm_refused, table, user_id),
        )

    async def _dm_refused(self, table: Table, user_id: int, err: discord.HTTPException) -> bool:
        """A refused DM; True (the message stops) when the player's DMs are closed."""
        if isinstance(err, discord.Forbidden):
            await self._dms_closed(table, user_id)
            return True
        log.warning("DM to %s refused: %s", user_id, err)
        return False

    async def _unping(self, table: Table, seat: int) -> None:
        ping = self.ui(table).pings.pop(seat, None)
        if ping is not None:
            await ping.delete()

    async def _open_place(self, table: Table) -> None:
        """Open the table's thread from its lobby message (or say it plays in the channel).

        The thread takes the lobby message's id, which is saved first (``opening_thread``): a
        restart before the thread is recorded finishes the opening from the same message
        (the restored lobby's first update: ``LifecycleMixin._adopt``)
        (``thread_from`` finds the thread if it was opened) instead of leaving an empty
        thread behind and opening a second one from a new lobby message.
        """
        ui = self.ui(table)
        assert ui.lobby is not None
        loc = self.locale(table)
        if ui.lobby.message_id is None or self.service is None:
            return
        settings = await self.service.guild_settings(table.guild_id)
        wanted = settings.timers.get("table_place", "thread") != "channel"
        thread_id: int | None = None
        if wanted:
            host = names_of(tuple(table.seats))[0]
            name = t(loc, "table-thread-name", table=str(table.id), host=host)[:100]
            await self.service.opening_thread(table, ui.lobby.message_id)
            try:
                channel = await self._channel(table.channel_id, table.guild_id)
                thread_id = await thread_from(channel, ui.lobby.message_id, name)
            except discord.HTTPException as err:
                log.info("table %s: no thread (%s); playing in the channel", table.id, err)
        ui.place_id = thread_id
        await self.service.remember_place(table, thread_id, ui.lobby.message_id)
        if thread_id is None:  # said once, in the channel the table plays in
            key = "table-place-channel-setting" if not wanted else "table-place-channel-no-thread"
            await self._post(table, content=t(loc, key))


async def ready(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A builder for a state that needs no rendering."""
    return kwargs
