"""The presenter: turns table updates into a calm table on Discord.

It implements the service's ``Sink``. Updates for one table arrive in order on
that table's publisher task; every message is a ``LiveMessage`` (``cogs.live``),
edited in place with edits coalesced, so a fast table never floods a channel and
a Discord error never reaches the game.

Where things go (decisions for issue 10):

* **The channel** keeps only the lobby message, edited to show the table's state:
  seats while waiting, then levels and hand number while playing (one edit per
  hand, when the hand is scored), then the result.
* **The table's thread**, opened from the lobby message (``双升 #12 · host``), holds
  the rest. Where threads are not allowed (missing permission) or the server set
  ``table_place: channel``, the table plays in the channel and says so once. Per
  hand: one deal message (the deal, the bid history in order, then the trump and
  the dealer burying), one table message (the current trick as an image with the
  player winning it and whose turn it is, and a strip with both levels, the dealer
  and the attackers, the trump, the attackers' points, the cards left and the
  last trick) and the summary with the kitty: three new messages a hand.
* **Each human's DMs** hold one live panel per hand (the hand image, the picker or
  the bid buttons, and everything needed to play without looking at the thread),
  edited in place; when it is their turn a short "your turn" DM notifies them and
  is deleted once they have acted or the turn passed, so a DM channel holds at
  most two of the bot's messages for the current hand. At a new hand the old
  panel is collapsed to one line. A player whose DMs are closed is told once in
  the thread and uses **My hand**, whose ephemeral panel is refreshed through its
  interaction while the interaction's token is valid.
* A thread deleted or archived (by a moderator), or a place the bot may no longer
  post in, closes the table like a deleted channel; every human is told by DM,
  once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import discord

from bot.game import (
    BidMade,
    Buried,
    DealProgress,
    HandScored,
    HandStarted,
    MatchOver,
    MatchStarted,
    Played,
    Redeal,
    SeatView,
    ThrowFailed,
    TrickWon,
    TrumpSet,
)
from bot.i18n import pick, t
from bot.rules import Card
from bot.service import CloseReason, Table, Update, UpdateKind
from bot.store import UserPrefs
from renderers import (
    KittyScene,
    SummaryScene,
    render_kitty,
    render_summary,
    render_trick,
)

from .live import LiveMessage
from .panels import Panel, build_panel
from .tableview import (
    bids_text,
    current_trick,
    finished_trick,
    lobby_buttons,
    names_of,
    plays_text,
    png,
    strip_text,
    table_buttons,
    when,
    winning_now,
)
from .text import cards_text, level_name, result_text, team_name, trump_text

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

DEAL_EDIT_EVERY = 2.5  # seconds between deal-progress redraws of the deal message and panels
EPHEMERAL_TOKEN = 14 * 60.0  # an interaction token lasts 15 minutes; stop a minute early
Audit = Callable[[int | None, str, list[Card]], None]


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
    pings: dict[int, tuple[int, LiveMessage]] = field(default_factory=dict)  # seat -> (seq, DM)
    turn_seen: dict[int, int] = field(default_factory=dict)  # seat -> seq of its last turn
    ephemeral: dict[int, tuple[discord.Interaction, float]] = field(default_factory=dict)
    staged: dict[int, tuple[int, dict[int, list[str]]]] = field(default_factory=dict)
    confirming: set[int] = field(default_factory=set)
    redrawing: set[int] = field(default_factory=set)  # seats acting from their panel
    lost: bool = False
    table_image: bool = False  # the hand's table message already carries a picture


class Presenter:
    """Posts what happens at the tables. ``audit`` sees every image's recipient and cards."""

    def __init__(
        self, client: discord.Client, audit: Audit | None = None, *, edit_gap: float = 1.0
    ) -> None:
        self.client = client
        self.service: TableService | None = None
        self.ui_by_table: dict[int, TableUI] = {}
        self.audit = audit
        self.edit_gap = edit_gap
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        #: each player's display preferences (cogs.prefs forgets one on a change)
        self.prefs: dict[int, UserPrefs] = {}
        #: the language of each player's Discord client, from their last interaction
        self.client_locales: dict[int, str] = {}
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self.rendering = 0  # renders queued or running in the render thread

    async def off_loop(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a render in the one render thread.

        One thread, not a pool: renders hold the GIL most of the time, and each
        extra busy thread takes a share of it from the event loop, which is what
        answers interactions within Discord's three seconds.
        """
        loop = asyncio.get_running_loop()
        self.rendering += 1
        try:
            call = functools.partial(fn, *args, **kwargs)
            return await loop.run_in_executor(self._renderer, call)
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
                functools.partial(self._channel, table.channel_id),
                gap=self.edit_gap,
                on_error=functools.partial(self._place_error, table),
                message_id=int(lobby) if lobby else None,
            )
        return ui

    @staticmethod
    def locale(table: Table) -> object:
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

    def redraw_for(self, user_id: int) -> int:
        """Redraw this player's live panels at every table (after a preference change)."""
        if self.service is None:
            return 0
        redrawn = 0
        for table in list(self.service.tables.values()):
            match = table.match
            if table.closed or match is None:
                continue
            for seat, info in enumerate(table.seats):
                if info is None or info.user_id != user_id or seat not in self.ui(table).panels:
                    continue
                update = Update(
                    kind=UpdateKind.SEATS,
                    events=(),
                    public=match.view(None),
                    views=tuple(match.view(s) for s in range(4)),
                    seats=tuple(table.seats),
                    deadline=self.service.deadline(table),
                )
                self._show_panel(table, update, seat)
                redrawn += 1
        return redrawn

    def player_locale(self, table: Table, user_id: int, prefs: UserPrefs) -> str:
        """For what only this player reads: their setting, their client, the server."""
        return pick(prefs.locale, self.client_locales.get(user_id), self.locale(table))

    # --- plumbing ------------------------------------------------------------------

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def place(self, table: Table) -> discord.abc.Messageable:
        """Where the table plays: its thread, or its channel."""
        return await self._channel(self.ui(table).place_id or table.channel_id)

    async def dm(self, user_id: int) -> discord.abc.Messageable:
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

    def _live_in_place(self, table: Table) -> LiveMessage:
        return LiveMessage(
            functools.partial(self.place, table),
            gap=self.edit_gap,
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
                await self._send_dm(
                    table, seat, info.user_id, content=t(self.locale(table), "table-place-lost")
                )

    async def _send_dm(
        self, table: Table, seat: int, user_id: int, **kwargs: Any
    ) -> discord.Message | None:
        ui = self.ui(table)
        if user_id in ui.dm_closed:
            return None
        try:
            channel = await self.dm(user_id)
            return await channel.send(**kwargs)
        except discord.Forbidden:
            await self._dms_closed(table, user_id)
            return None
        except discord.HTTPException:
            log.exception("DM to %s failed", user_id)
            return None

    async def _dms_closed(self, table: Table, user_id: int) -> None:
        ui = self.ui(table)
        if user_id in ui.dm_closed:
            return
        ui.dm_closed.add(user_id)
        if not ui.lost:
            await self._post(
                table,
                content=t(self.locale(table), "table-dms-closed", user=f"<@{user_id}>"),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    def _dm_live(self, table: Table, user_id: int) -> LiveMessage:
        async def on_error(err: discord.HTTPException) -> None:
            if isinstance(err, discord.Forbidden):
                live.stopped = True
                await self._dms_closed(table, user_id)
            else:
                log.warning("DM to %s refused: %s", user_id, err)

        live = LiveMessage(functools.partial(self.dm, user_id), on_error=on_error)
        return live

    # --- updates -------------------------------------------------------------------

    async def publish(self, table: Table, update: Update) -> None:
        match update.kind:
            case UpdateKind.LOBBY:
                await self._lobby(table, update)
            case UpdateKind.CLOSED:
                await self._closed(table, update)
            case UpdateKind.WARNING:
                await self._warning(table, update)
            case UpdateKind.STORAGE:  # paused or resumed: said in the table's place
                key = "table-paused" if update.note == "paused" else "table-resumed"
                await self._post(table, content=t(self.locale(table), key))
            case UpdateKind.EVENTS:
                await self._events(table, update)
        await self._turn(table, update)

    async def _lobby(self, table: Table, update: Update) -> None:
        ui = self.ui(table)
        loc = self.locale(table)
        lines = []
        for seat, info in enumerate(update.seats):
            who = "—" if info is None else (info.name + (" 🤖" if info.kind == "bot" else ""))
            lines.append(t(loc, "table-lobby-seat", seat=seat, team="AB"[seat % 2], who=who))
        embed = discord.Embed(
            title=t(loc, "table-lobby-waiting", table=str(table.id)),
            description="\n".join(lines)[:4000],
            colour=discord.Colour.gold(),
        )
        embed.set_footer(text=t(loc, "table-lobby-footer"))
        kwargs = {"embed": embed, "view": lobby_buttons(table.id, loc)}
        assert ui.lobby is not None
        first = ui.lobby.message_id is None
        ui.lobby.show(functools.partial(_ready, kwargs))
        if first:
            await ui.lobby.settle()
            await self._open_place(table)

    async def _open_place(self, table: Table) -> None:
        """Open the table's thread from its lobby message (or say it plays in the channel)."""
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
            try:
                channel = await self._channel(table.channel_id)
                message = channel.get_partial_message(ui.lobby.message_id)  # type: ignore[attr-defined]
                thread = await message.create_thread(name=name, auto_archive_duration=1440)
                thread_id = thread.id
            except discord.HTTPException as err:
                log.info("table %s: no thread (%s); playing in the channel", table.id, err)
        ui.place_id = thread_id
        await self.service.remember_place(table, thread_id, ui.lobby.message_id)
        if thread_id is None:  # said once, in the channel the table plays in
            key = "table-place-channel-setting" if not wanted else "table-place-channel-no-thread"
            await self._post(table, content=t(loc, key))

    async def _closed(self, table: Table, update: Update) -> None:
        ui = self.ui(table)
        loc = self.locale(table)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
        for seat in list(ui.pings):
            await self._unping(table, seat)
        if update.reason is CloseReason.CHANNEL_GONE:
            await self._tell_closed(table)
        else:
            if update.reason is CloseReason.FAILED:
                await self._post(table, content=t(loc, "table-failed"))
            if update.note:
                await self._post(table, content=update.note)
            assert ui.lobby is not None
            embed = discord.Embed(
                title=t(loc, "table-lobby-closed", table=str(table.id)),
                description=update.note or None,
                colour=discord.Colour.dark_grey(),
            )
            ui.lobby.show(functools.partial(_ready, {"embed": embed, "view": None}))
            await ui.lobby.settle()
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
        text = t(self.locale(table), "table-warning", seconds=update.note)
        ping = ui.pings.get(seat)
        if ping is not None:
            ping[1].show(functools.partial(_ready, {"content": text}))
        elif info.user_id in ui.dm_closed:
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
                case DealProgress():
                    if self._show_deal(table, update, force=False):
                        self._refresh_panels(table, update)
                case BidMade() | Redeal():
                    if isinstance(event, Redeal):
                        ui.trick_notes = [t(loc, "table-redeal")]
                    self._show_deal(table, update, force=True)
                    self._refresh_panels(table, update)
                case TrumpSet(dealer=dealer):
                    self._show_deal(table, update, force=True)
                    self._refresh_panels(table, update, skip=dealer)
                case Buried():
                    ui.trick_notes = []
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
                    self._show_lobby_state(table, update)
                case MatchOver():
                    self._show_lobby_state(table, update)

    def _show_lobby_state(self, table: Table, update: Update) -> None:
        """The channel's lobby message: the match is on (levels, hand), or its result."""
        public = update.public
        ui = self.ui(table)
        if public is None or ui.lobby is None:
            return
        loc = self.locale(table)
        names = names_of(update.seats)
        teams = "\n".join(
            f"**{team_name(k, loc)}**: {names[k]} & {names[k + 2]} · "
            + t(loc, "table-level", level=level_name(public.levels[k]))
            for k in (0, 1)
        )
        if public.match_winner is not None:
            k = public.match_winner
            title = t(loc, "table-lobby-won", table=str(table.id), team=team_name(k, loc))
            colour = discord.Colour.green()
        else:
            title = t(loc, "table-lobby-playing", table=str(table.id), hand=public.hand_no + 1)
            colour = discord.Colour.blurple()
        place = ui.place_id
        footer = t(loc, "table-lobby-in-thread", thread=f"<#{place}>") if place else ""
        embed = discord.Embed(title=title, description=f"{teams}\n{footer}", colour=colour)
        ui.lobby.show(functools.partial(_ready, {"embed": embed, "view": None}))

    async def _new_hand(self, table: Table, update: Update) -> None:
        """A new hand: fresh deal and table messages; last hand's panels shrink to one line."""
        public = update.public
        assert public is not None
        ui = self.ui(table)
        for live in (ui.deal, ui.table):
            if live is not None:
                await live.settle()
        ui.hand_no = public.hand_no
        ui.deal = self._live_in_place(table)
        ui.table = None
        ui.table_image = False
        ui.trick_notes = []
        ui.deal_edited = 0.0
        ui.turn_seen.clear()
        old, ui.panels = ui.panels, {}
        result = public.last_result
        line = t(self.locale(table), "table-panel-old", hand=public.hand_no)
        if result is not None:
            line += " " + result_text(result.winner, result.levels_gained, self.locale(table)) + "."
        for live in old.values():  # last hand's panels shrink to one line
            live.show(functools.partial(_ready, {"content": line, "files": [], "view": None}))
        self._show_deal(table, update, force=True)

    def _show_deal(self, table: Table, update: Update, *, force: bool) -> bool:
        """The deal message: the deal, the bids in order, then the trump and the bury.

        Deal progress redraws at most every ``DEAL_EDIT_EVERY`` seconds; returns
        whether it redrew (the hand panels follow the same pace).
        """
        public = update.public
        ui = self.ui(table)
        if public is None:
            return False
        loop = asyncio.get_running_loop()
        done = public.dealt >= public.deal_total
        if not force and not done and loop.time() - ui.deal_edited < DEAL_EDIT_EVERY:
            return False
        ui.deal_edited = loop.time()
        if ui.deal is None:
            ui.deal = self._live_in_place(table)
        loc = self.locale(table)
        names = names_of(update.seats)
        lines = [
            t(
                loc,
                "table-deal-head",
                hand=public.hand_no + 1,
                levels=f"A {level_name(public.levels[0])} · B {level_name(public.levels[1])}",
            )
        ]
        if public.phase == "deal":
            lines.append(
                t(
                    loc,
                    "table-deal-progress",
                    dealt=public.dealt,
                    total=public.deal_total,
                    level=level_name(public.level),
                )
            )
        lines += [n for n in ui.trick_notes if public.phase == "deal"]
        history = bids_text(public, names, loc)
        lines += [t(loc, "table-deal-bids"), *history] if history else [t(loc, "table-no-bid")]
        if public.phase == "deal" and done and update.deadline is not None:
            lines.append(t(loc, "table-bidding-closes", when=when(update.deadline)))
        if public.trump is not None and public.dealer is not None:
            lines.append(
                t(
                    loc,
                    "table-deal-trump",
                    trump=trump_text(public.trump, loc),
                    dealer=names[public.dealer],
                )
            )
            if public.phase == "kitty":
                lines.append(t(loc, "table-deal-burying", when=when(update.deadline)))
        content = "\n".join(lines)[:2000]
        ui.deal.show(
            functools.partial(
                _ready,
                {"content": content, "view": table_buttons(table.id, table.rules.assistance, loc)},
            )
        )
        return True

    def _show_table(self, table: Table, update: Update, extra: str = "") -> None:
        """The hand's one table message: the trick image and the strip, edited in place."""
        public = update.public
        if public is None or public.trump is None:
            return
        ui = self.ui(table)
        if ui.table is None:
            ui.table = self._live_in_place(table)
        names = names_of(update.seats)
        loc = self.locale(table)
        lines = [
            t(
                loc,
                "table-trick-head",
                hand=public.hand_no + 1,
                trick=len(public.tricks) + (1 if public.trick or public.phase == "play" else 0),
            )
        ]
        winning = winning_now(public)
        if public.trick:
            lines.append(plays_text(public.trick, names, winning))
        elif public.tricks:
            last = public.tricks[-1]
            lines.append(
                t(
                    loc,
                    "table-trick-won",
                    player=names[last.winner],
                    points=last.points,
                    plays=plays_text(last.plays, names, last.winner),
                )
            )
        lines += ui.trick_notes
        if public.expecting == "play" and public.to_act is not None:
            seat = public.to_act
            info = table.seats[seat]
            who = names[seat]
            if info is not None and info.user_id is not None and info.user_id in ui.dm_closed:
                who = f"<@{info.user_id}>"
            key = "table-to-lead" if not public.trick else "table-to-play"
            lines.append(t(loc, key, player=who, when=when(update.deadline)))
        if update.auto and update.actor is not None:
            info = table.seats[update.actor]
            if info is not None and info.kind == "human":
                lines.append(t(loc, "table-played-for", player=names[update.actor]))
        lines += strip_text(public, names, loc)
        if extra:
            lines.append(extra)
        content = "\n".join(lines)[:2000]
        scene = current_trick(public, names)

        async def build() -> dict[str, Any]:
            buttons = table_buttons(table.id, table.rules.assistance, loc)
            kwargs: dict[str, Any] = {"content": content, "view": buttons}
            # A busy render thread (many tables) redraws the picture only when a
            # trick is complete; the text, always current, carries the plays between.
            busy = self.rendering > 0 and not (scene is not None and scene.final)
            if scene is not None and not (busy and ui.table_image):
                ui.table_image = True
                shown = [c for cards in scene.plays.values() for c in cards]
                image = await self.render(render_trick, scene, None, shown, loc)
                kwargs["files"] = [png(image, "trick.png")]
            return kwargs

        ui.table.show(build)

    async def _summary(self, table: Table, update: Update) -> None:
        public = update.public
        assert public is not None and public.last_result is not None
        ui = self.ui(table)
        if ui.table is not None:
            await ui.table.settle()
        result = public.last_result
        names = names_of(update.seats)
        loc = self.locale(table)
        penalty = sum(p if result.dealer % 2 == s % 2 else -p for s, p in result.failed_throws)
        scene = SummaryScene(
            names=names,
            dealer=result.dealer,
            trick_points=result.trick_points - penalty,
            kitty_points=result.kitty_points,
            multiplier=result.multiplier or None,
            levels_before=result.levels_before,
            levels_after=result.levels_after,
            next_dealer=result.next_dealer,
            result=result_text(result.winner, result.levels_gained, loc),
            penalty=penalty,
            hand_no=result.hand_no + 1,
            step=public.rules.step,
            total=public.rules.total_points,
        )
        kitty = KittyScene(
            cards=result.kitty,
            trump=result.trump,
            dealer_name=names[result.dealer],
            multiplier=result.multiplier or None,
        )
        summary_png = await self.render(render_summary, scene, None, [], loc)
        kitty_png = await self.render(render_kitty, kitty, None, list(result.kitty), loc)
        bonus = (
            t(loc, "table-summary-bonus", multiplier=result.multiplier, bonus=result.kitty_bonus)
            if result.multiplier
            else ""
        )
        lines = [
            t(
                loc,
                "table-summary-head",
                hand=result.hand_no + 1,
                points=result.attacker_points,
                bonus=bonus,
            ),
            result_text(result.winner, result.levels_gained, loc) + ".",
            t(
                loc,
                "table-summary-levels",
                a=level_name(result.levels_after[0]),
                b=level_name(result.levels_after[1]),
            ),
        ]
        if result.match_winner is None:
            lines.append(
                t(
                    loc,
                    "table-next-hand",
                    dealer=names[result.next_dealer],
                    when=when(update.deadline),
                )
            )
        else:
            k = result.match_winner
            lines.append(
                t(
                    loc,
                    "table-match-won",
                    team=team_name(k, loc),
                    players=f"{names[k]} & {names[k + 2]}",
                )
            )
        await self._post(
            table,
            content="\n".join(lines)[:2000],
            files=[png(summary_png, "summary.png"), png(kitty_png, "kitty.png")],
        )

    # --- private panels ------------------------------------------------------------

    def _refresh_panels(self, table: Table, update: Update, skip: int | None = None) -> None:
        """Redraw the panels of every human not in 托管 (the dealer's is skipped at the bury)."""
        for seat, info in enumerate(update.seats):
            if info is None or info.kind != "human" or info.user_id is None or info.auto:
                continue
            if seat != skip:
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

        async def build() -> dict[str, Any]:
            panel = await self.panel_for(table, seat, view, note=note, names=names)
            return {"content": panel.content, "files": [panel.file()], "view": panel.view}

        if user_id not in ui.dm_closed:
            live = ui.panels.get(seat)
            if live is None:
                live = ui.panels[seat] = self._dm_live(table, user_id)
            live.show(build)
        opened = ui.ephemeral.get(seat)
        if opened is not None:
            interaction, at = opened
            if time.monotonic() - at > EPHEMERAL_TOKEN:
                ui.ephemeral.pop(seat, None)
            else:
                asyncio.get_running_loop().create_task(self._refresh_ephemeral(interaction, build))

    @staticmethod
    async def _refresh_ephemeral(
        interaction: discord.Interaction, build: Callable[[], Any]
    ) -> None:
        try:
            kwargs = await build()
            await interaction.edit_original_response(
                content=kwargs["content"], attachments=kwargs["files"], view=kwargs["view"]
            )
        except discord.HTTPException as err:
            log.info("ephemeral panel not refreshed: %s", err)

    def acting_from_panel(self, table: Table, seat: int) -> None:
        """The seat acts by a click on its panel, which that click redraws."""
        self.ui(table).redrawing.add(seat)

    def opened_ephemeral(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        """My hand was opened: refresh that ephemeral panel at the player's turns."""
        self.ui(table).ephemeral[seat] = (interaction, time.monotonic())

    async def _unping(self, table: Table, seat: int) -> None:
        ping = self.ui(table).pings.pop(seat, None)
        if ping is not None:
            await ping[1].delete()

    async def _turn(self, table: Table, update: Update) -> None:
        """Whose turn it is: their panel redrawn, a short notice that goes once they act."""
        public = update.public
        ui = self.ui(table)
        if public is None:
            return
        acting = public.to_act if public.expecting in ("play", "bury", "overcall") else None
        for seat, (seq, _) in list(ui.pings.items()):
            if seat != acting or seq != public.seq:
                await self._unping(table, seat)
                if seat in ui.redrawing:
                    ui.redrawing.discard(seat)  # the panel's own click redraws it
                elif seat != acting:
                    self._show_panel(table, update, seat)  # played by /play or by the timer
        if acting is None or ui.turn_seen.get(acting) == public.seq:
            return
        info = update.seats[acting]
        if info is None or info.kind != "human" or info.auto or info.user_id is None:
            return
        ui.turn_seen[acting] = public.seq
        self._show_panel(table, update, acting)
        if info.user_id in ui.dm_closed:
            return
        prefs = await self.prefs_of(info.user_id)
        if not prefs.turn_dm:
            return
        loc = self.player_locale(table, info.user_id, prefs)
        key = "table-ping-bury" if public.expecting == "bury" else "table-ping-play"
        ping = self._dm_live(table, info.user_id)
        ui.pings[acting] = (public.seq, ping)
        ping.show(
            functools.partial(
                _ready, {"content": t(loc, key, table=str(table.id), when=when(update.deadline))}
            )
        )

    # --- panels on demand (for the cog) ----------------------------------------------

    def staged(self, table: Table, seat: int, seq: int) -> dict[int, list[str]]:
        """The staged selection of a seat for the panel of action ``seq``."""
        ui = self.ui(table)
        current = ui.staged.get(seat)
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
    ) -> Panel:
        names = names or names_of(tuple(table.seats))
        staged = self.staged_values(table, seat, view.seq)
        confirm = seat in self.ui(table).confirming
        info = table.seats[seat]
        prefs, loc = UserPrefs(), pick(self.locale(table))
        if info is not None and info.user_id is not None:
            self._audit_panel(info.user_id, view)
            prefs = await self.prefs_of(info.user_id)
            loc = self.player_locale(table, info.user_id, prefs)
        return await self.off_loop(
            build_panel,
            table.id,
            view,
            staged,
            names=names,
            confirm=confirm,
            note=note,
            locale=loc,
            prefs=prefs,
        )

    def _audit_panel(self, user_id: int, view: SeatView) -> None:
        if self.audit is not None:
            self.audit(user_id, "HandScene", list(view.hand))

    async def last_trick_image(self, table: Table, view: SeatView) -> bytes | None:
        if not view.tricks:
            return None
        record = view.tricks[-1]
        names = names_of(tuple(table.seats))
        scene = finished_trick(record, names, view, len(view.tricks), viewer=view.seat)
        shown = [c for _, cards in record.plays for c in cards]
        return await self.render(render_trick, scene, None, shown, self.locale(table))


async def _ready(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A builder for a state that needs no rendering."""
    return kwargs
