"""The presenter's Discord I/O: where a table's messages go and what happens when
Discord refuses them.

``Outlet`` finds the table's place (its thread, or its channel) and each player's DM
channel, posts and keeps ``LiveMessage``s there (``cogs.live``: the coalescing queue,
one request in flight per message), opens the table's thread from its lobby message
(the thread takes that message's id, saved before the thread is asked for, so a restart
in between finishes the opening rather than leaving an empty thread behind:
``_open_place``), and turns Discord's refusals into table facts: a place gone or
archived closes the table (every human told once by DM), closed DMs are said once in
the thread. It also owns the one render thread, so every image drawn for a table is
audited (``audit`` sees each image's table, its recipient, its cards and the hand it
shows: a late image of the hand before is told from the new hand's, and one table's
from another's). What the messages say is ``cogs.messages``; when they change is
``cogs.presenter``; each player's preferences and language ``cogs.playerprefs``; what
it keeps about each table ``cogs.tableui``; how often a busy bot edits ``cogs.pacing``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.game import Phase
from bot.i18n import pick, t
from bot.rules import Card
from bot.service import Table
from bot.service.faults import tried_while_passing
from bot.store import UserPrefs

from . import pacing
from .common import THREAD_SHUT, finished, in_background, thread_from
from .live import LiveMessage, Place, retry_wait, send_once
from .pacing import PING_AFTER
from .playerprefs import PlayerPrefs
from .renderqueue import RenderQueue
from .tableui import TableUI
from .tableview import names_of

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)
R = TypeVar("R")
# real seconds between reads of the server's settings while the store refuses them in passing
SETTINGS_AGAIN = (0.5, 1.0, 2.0)
#: players' DM channels kept (looking one up again is one request)
DM_CHANNELS_KEPT = 4096

# the image's table, its reader (None: the table), the scene's kind, its cards, its hand
Audit = Callable[[int, int | None, str, list[Card], int], None]


class Outlet(PlayerPrefs):
    """Messages of the tables on Discord, and the render thread that draws their images."""

    def __init__(
        self,
        client: discord.Client,
        audit: Audit | None = None,
        *,
        edit_gap: float = 1.0,
        ping_after: float = PING_AFTER,
    ) -> None:
        super().__init__()
        self.client = client
        self.service: TableService | None = None
        self.ui_by_table: dict[int, TableUI] = {}
        self.audit = audit
        self.edit_gap = edit_gap
        self.ping_after = ping_after
        self._dm_channels: dict[int, Place] = {}
        self._renderer = RenderQueue()
        # hand messages' ids being stored, tables whose place was lost being closed
        self._keeping: set[asyncio.Task[None]] = set()
        self.rendering = 0  # renders queued or running in the render thread

    async def off_loop(
        self, fn: Callable[..., R], *args: Any, urgent: bool = False, **kwargs: Any
    ) -> R:
        """Run a render in the one render thread (``cogs.renderqueue``); ``urgent`` goes first."""
        self.rendering += 1
        try:
            return await self._renderer.run(functools.partial(fn, *args, **kwargs), urgent=urgent)
        finally:
            self.rendering -= 1

    async def close(self, timeout: float) -> threading.Thread | None:
        """At shutdown, once the tables are stopped: nothing is sent again (a retry would
        build its state from a closed store); within ``timeout`` seconds a request on its
        way is answered (Discord acts on it all the same: a message it posts must be known
        after a restart), then the work in the background, which may ask Discord too (a
        notice a restart left, deleted). The render thread ends once the renders queued so
        far are drawn; the thread, to wait for."""
        lives = [live for ui in self.ui_by_table.values() for live in ui.stop_sending()]
        await finished(timeout, lives=lives, keeping=self._keeping)
        return self._renderer.close()

    async def kept(self, timeout: float | None) -> None:
        """Wait (so long) for the work in the background (a message's id being kept)."""
        await finished(timeout, keeping=self._keeping)

    def ui(self, table: Table) -> TableUI:
        ui = self.ui_by_table.get(table.id)
        if ui is None:
            ui = self.ui_by_table[table.id] = TableUI()
            ui.dm_closed = {int(user) for user in table.meta.get("dms_closed") or ()}
            thread = table.meta.get("thread_id")
            ui.place_id = int(thread) if thread else None
            lobby = table.meta.get("lobby_message")
            ui.lobby = LiveMessage(
                functools.partial(self._channel, table.channel_id, table.guild_id),
                gap=self.edit_gap,
                on_error=functools.partial(self._place_error, table),
                message_id=int(lobby) if lobby else None,
            )
            if self.service is not None and table.match is not None:
                # restored mid-hand: its messages are edited, not posted again
                kept = self.service.hand_messages(table)
                ui.hand_no = table.match.hand_no
                if "deal" in kept:
                    ui.deal = self._hand_live(table, ui.hand_no, "deal", kept["deal"])
                if "table" in kept:
                    ui.table = self._hand_live(table, ui.hand_no, "table", kept["table"])
                for seat, (user_id, message_id) in self.service.panel_messages(table).items():
                    self._panel_live(table, seat, user_id, message_id)
        return ui

    @staticmethod
    def locale(table: Table) -> object:
        """The table's language: its server's setting, else preferred locale, at its start."""
        return table.meta.get("locale")

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
        if len(self._dm_channels) >= DM_CHANNELS_KEPT:  # the longest kept goes first
            del self._dm_channels[next(iter(self._dm_channels))]
        self._dm_channels[user_id] = channel
        return channel

    async def render(
        self,
        fn: Callable[..., bytes],
        scene: Any,
        to: int | None,
        cards: list[Card],
        loc: object = None,
        prefs: UserPrefs | None = None,
        *,
        table: Table,
        hand: int,
    ) -> bytes:
        """Render off the loop; the image's own labels in ``loc`` (the table's language).
        An image only one player sees is drawn with their ``prefs`` (theme, four colours);
        one the table sees, in the default look. ``hand``: the number of the hand of
        ``table`` it shows (a paced redraw, or a summary that waited for the table's
        message, may come after the next hand has begun)."""
        if self.audit is not None:
            self.audit(table.id, to, type(scene).__name__, list(cards), hand)
        lang = "zh" if pick(loc) == "zh-CN" else "en"
        if prefs is None:
            return await self.off_loop(fn, scene, lang=lang)
        return await self.off_loop(
            fn, scene, lang=lang, theme=prefs.theme, four_color=prefs.four_color
        )

    def crowded(self) -> bool:
        """Renders backing up, or more tables than the bot edits at full pace (``pacing``)."""
        tables = 0 if self.service is None else self.service.live_table_count()
        return pacing.crowded(self.rendering, tables)

    def _place_gap(self) -> float:
        """The wait after an edit of a message in the table's place (``cogs.pacing``)."""
        return pacing.place_gap(self.edit_gap, self.crowded())

    def _panel_gap(self, table: Table) -> float:
        """The wait between two edits of a player's DM panel (``cogs.pacing``)."""
        match = table.match
        return pacing.panel_gap(self.crowded(), match is not None and match.phase is Phase.PLAY)

    def _live_in_place(self, table: Table) -> LiveMessage:
        return LiveMessage(
            functools.partial(self.place, table),
            gap=self._place_gap,
            on_error=functools.partial(self._place_error, table),
        )

    def _hand_live(
        self, table: Table, hand_no: int, kind: str, message_id: int | None = None
    ) -> LiveMessage:
        """The hand's deal or table message (``kind``), its id kept with the table once
        posted (``TableService.remember_hand_message``): a restarted bot edits it."""
        live = self._live_in_place(table)
        live.message_id = message_id
        live.on_posted = functools.partial(self._posted, table, hand_no, kind)
        live.nonce = f"sj{table.id}h{hand_no}{kind}"  # the same after a restart (Discord: 25 max)
        return live

    def _posted(self, table: Table, hand_no: int, kind: str, message_id: int) -> None:
        """Keep a hand message's id, in the background: the message's edits wait for no
        store write (nor for the table's lock, held while an action commits)."""
        if self.service is None:
            return
        work = self.service.remember_hand_message(table, hand_no, kind, message_id)
        in_background(self._keeping, work)

    async def _post(self, table: Table, **kwargs: Any) -> discord.Message | None:
        """A message in the table's place that is not kept current (``live.send_once``)."""
        try:
            return await send_once(functools.partial(self.place, table), kwargs)
        except discord.HTTPException as err:
            await self._place_error(table, err)
            return None

    async def _place_error(self, table: Table, err: discord.HTTPException) -> None:
        """A refused post or edit: the place is gone (or its thread archived or locked), or
        something passing."""
        gone = isinstance(err, discord.Forbidden | discord.NotFound) or err.code in THREAD_SHUT
        if not gone or table.closed:  # closed: the channel may hold a new table by now
            log.warning("table %s: Discord refused a message: %s", table.id, err)
            return
        log.warning("table %s lost its place %s: %s", table.id, self.ui(table).place_id, err)
        if self.service is not None:
            in_background(self._keeping, self.service.channel_gone(table.channel_id, table))

    def _lobby_stands(self, table: Table) -> bool:
        """The table lost its thread, not its channel: the lobby message is still there."""
        ui = self.ui(table)
        guild = self.client.get_guild(table.guild_id)
        return (
            ui.lobby is not None
            and ui.place_id not in (None, table.channel_id)
            and guild is not None
            and guild.get_channel(table.channel_id) is not None
        )

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
                await self._send_dm(table, info.user_id, content=t(loc, "table-place-lost"))

    async def _send_dm(self, table: Table, user_id: int, **kwargs: Any) -> discord.Message | None:
        ui = self.ui(table)
        attempt = 0
        while user_id not in ui.dm_closed:
            try:
                return await send_once(functools.partial(self.dm, user_id), kwargs)
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
        ui = self.ui_by_table.get(table.id)
        if ui is None or user_id in ui.dm_closed:  # None: closed, its state dropped
            return
        ui.dm_closed.add(user_id)
        if self.service is not None:  # a restarted bot says it once more otherwise
            in_background(self._keeping, self.service.remember_dms_closed(table, user_id))
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

    def _panel_live(
        self, table: Table, seat: int, user_id: int, message_id: int | None = None
    ) -> LiveMessage:
        """The seat's DM panel, one a match: its id kept with the table once posted
        (``TableService.remember_panel``), so a restarted bot edits it; its nonce the
        same after a restart (Discord's own check: a post a crash cut short comes back)."""
        ui = self.ui_by_table[table.id]
        live = ui.panels[seat] = self._dm_live(table, user_id)
        ui.panel_owners[seat] = user_id
        live.message_id = message_id
        live.nonce = "sjp" + hashlib.sha1(f"{table.id}:{seat}:{user_id}".encode()).hexdigest()[:16]
        if self.service is not None:
            keep = functools.partial(self.service.remember_panel, table, seat, user_id)
            live.on_posted = lambda posted: in_background(self._keeping, keep(posted))
        return live

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

    def _threads_allowed(self, table: Table) -> bool:
        """Whether the bot may open a public thread in the table's channel and post in it.

        Asked before opening one: a thread the bot could open but not post in (no "Send
        Messages in Threads") would close the table at its first message, where the
        channel could have held it. A channel not in the cache is left to Discord's answer.
        """
        guild = self.client.get_guild(table.guild_id)
        channel = guild.get_channel(table.channel_id) if guild is not None else None
        if guild is None or not isinstance(channel, discord.TextChannel):
            return True
        perms = channel.permissions_for(guild.me)
        return perms.create_public_threads and perms.send_messages_in_threads

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
        wanted = await self._threads_wanted(table)
        thread_id: int | None = None
        if wanted and self._threads_allowed(table):
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

    async def _threads_wanted(self, table: Table) -> bool:
        """The server's ``table_place`` setting, tried again while the store refuses it in
        passing; a thread (the default) if it still cannot be read, for the table must
        open somewhere."""
        assert self.service is not None
        service = self.service
        try:
            settings = await tried_while_passing(
                lambda: service.guild_settings(table.guild_id),
                SETTINGS_AGAIN,
                f"table {table.id}: the server's settings not read",
            )
        except Exception as exc:
            log.warning("table %s: the server's settings unread (%s); a thread", table.id, exc)
            return True
        return bool(settings.timers.get("table_place", "thread") != "channel")
