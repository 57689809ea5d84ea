"""The presenter: turns table updates into Discord messages, DMs and panels.

It implements the service's ``Sink``. Updates for one table arrive in order on
that table's publisher task, so messages go out in order; a Discord error here is
contained (logged, or handled as "DMs closed" / "channel gone") and never reaches
the game.

What goes where:

* the channel: the lobby message (edited as seats change), one message per hand
  for the deal and bids (edited, at most every few seconds), one message per trick
  (posted when the trick begins, edited as cards are played), the hand summary
  with the kitty, and the match result;
* each human's DMs: the hand panel, refreshed during the deal and posted anew
  when it is their turn (a new message notifies them; old panels go stale and say
  so when clicked). A user whose DMs are closed is told once in the channel and
  uses the **My hand** button, which answers with the same panel, ephemerally.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.game import (
    BidMade,
    Buried,
    DealProgress,
    HandScored,
    HandStarted,
    MatchOver,
    MatchStarted,
    Phase,
    Played,
    Redeal,
    SeatView,
    ThrowFailed,
    TrickRecord,
    TrickWon,
    TrumpSet,
)
from bot.rules import Bid, Card, team_of, trick_winner
from bot.service import CloseReason, Table, Update, UpdateKind
from renderers import (
    KittyScene,
    ScoreScene,
    SummaryScene,
    TrickScene,
    render_kitty,
    render_scoreboard,
    render_summary,
    render_trick,
)

from .ids import LobbyButton, TableButton, format_id
from .panels import Components, build_panel
from .text import TEAM_NAMES, bid_text, cards_text, level_name, result_text, trump_text

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)
DEAL_EDIT_EVERY = 2.5  # seconds between edits of the deal message and deal panels
Audit = Callable[[int | None, str, list[Card]], None]


@dataclass
class TableUI:
    """What the presenter remembers about one table (lost on restart, by design)."""

    lobby_message: int | None = None
    deal_message: int | None = None
    deal_edited: float = 0.0
    trick_message: int | None = None
    trick_no: int = 0
    trick_notes: list[str] = field(default_factory=list)
    dm_closed: set[int] = field(default_factory=set)
    deal_panels: dict[int, int] = field(default_factory=dict)  # seat -> DM message id
    panel_edited: dict[int, float] = field(default_factory=dict)
    turn_sent: dict[int, int] = field(default_factory=dict)  # seat -> seq of last turn panel
    staged: dict[int, tuple[int, dict[int, list[str]]]] = field(default_factory=dict)
    confirming: set[int] = field(default_factory=set)


def when(deadline: float | None) -> str:
    if deadline is None:
        return ""
    return discord.utils.format_dt(datetime.fromtimestamp(deadline, tz=UTC), "R")


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def table_buttons(table_id: int) -> Components:
    view = Components()
    view.add_item(
        discord.ui.Button(
            label="My hand",
            custom_id=format_id(TableButton(table_id, "hand")),
            style=discord.ButtonStyle.primary,
            emoji="🂠",
        )
    )
    view.add_item(
        discord.ui.Button(label="Last trick", custom_id=format_id(TableButton(table_id, "last")))
    )
    view.add_item(
        discord.ui.Button(label="Rules", custom_id=format_id(TableButton(table_id, "rules")))
    )
    return view


def lobby_buttons(table_id: int, started: bool = False) -> Components:
    view = Components()
    for label, what, style in (
        ("Join", "join", discord.ButtonStyle.success),
        ("Add computer", "bot", discord.ButtonStyle.secondary),
        ("Leave", "leave", discord.ButtonStyle.secondary),
        ("Start", "start", discord.ButtonStyle.primary),
    ):
        view.add_item(
            discord.ui.Button(
                label=label,
                custom_id=format_id(LobbyButton(table_id, what)),
                style=style,
                disabled=started,
            )
        )
    return view


def finished_trick(
    record: TrickRecord,
    names: tuple[str, str, str, str],
    view: SeatView,
    trick_no: int,
    viewer: int | None = None,
) -> TrickScene:
    """The scene of a finished trick; a failed throw shows what was taken back."""
    plays = dict(record.plays)
    failed = None
    if record.attempted is not None:
        back = list(record.attempted)
        for card in plays[record.leader]:
            back.remove(card)
        failed = (record.leader, record.attempted, back)
    assert view.trump is not None and view.dealer is not None
    return TrickScene(
        names=names,
        leader=record.leader,
        plays=plays,
        trump=view.trump,
        dealer=view.dealer,
        winner=record.winner,
        final=True,
        trick_points=record.points,
        failed_throw=failed,
        trick_no=trick_no,
        viewer=viewer,
    )


def plays_text(plays: Any, names: tuple[str, ...], winning: int | None = None) -> str:
    """``Alice A♥A♥ · Bob 3♥5♥`` with the winning play in bold."""
    parts = []
    for seat, cards in plays:
        text = f"{names[seat]} {cards_text(list(cards))}"
        parts.append(f"**{text}**" if seat == winning else text)
    return " · ".join(parts)


def names_of(seats: tuple[Any, ...]) -> tuple[str, str, str, str]:
    return (
        tuple(  # type: ignore[return-value]
            (s.name if s is not None else "(empty)")[:32] for s in seats
        )
        + ("",) * (4 - len(seats))
    )


class Presenter:
    """Posts what happens at the tables. ``audit`` sees every image's recipient and cards."""

    def __init__(self, client: discord.Client, audit: Audit | None = None) -> None:
        self.client = client
        self.service: TableService | None = None
        self.ui_by_table: dict[int, TableUI] = {}
        self.audit = audit
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")

    async def off_loop(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a render in the one render thread.

        One thread, not a pool: renders hold the GIL most of the time, and each
        extra busy thread takes a share of it from the event loop, which is what
        answers interactions within Discord's three seconds.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._renderer, functools.partial(fn, *args, **kwargs))

    def ui(self, table: Table) -> TableUI:
        return self.ui_by_table.setdefault(table.id, TableUI())

    # --- plumbing ------------------------------------------------------------------

    async def channel(self, table: Table) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(table.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def dm(self, user_id: int) -> discord.abc.Messageable:
        cached = self._dm_channels.get(user_id)
        if cached is not None:
            return cached
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = user.dm_channel or await user.create_dm()
        self._dm_channels[user_id] = channel
        return channel

    async def render(
        self, fn: Callable[..., bytes], scene: Any, to: int | None, cards: list[Card]
    ) -> bytes:
        if self.audit is not None:
            self.audit(to, type(scene).__name__, list(cards))
        return await self.off_loop(fn, scene)

    async def _post(self, table: Table, **kwargs: Any) -> discord.Message | None:
        try:
            channel = await self.channel(table)
            return await channel.send(**kwargs)
        except (discord.Forbidden, discord.NotFound) as err:
            await self._lost_channel(table, err)
            return None

    async def _edit(self, table: Table, message_id: int, **kwargs: Any) -> bool:
        try:
            channel = await self.channel(table)
            assert isinstance(channel, discord.abc.Messageable)
            await channel.get_partial_message(message_id).edit(**kwargs)  # type: ignore[attr-defined]
            return True
        except discord.NotFound:
            return False  # deleted by someone: post a new one next time
        except discord.Forbidden as err:
            await self._lost_channel(table, err)
            return False

    async def _lost_channel(self, table: Table, err: discord.HTTPException) -> None:
        log.warning("table %s lost its channel %s: %s", table.id, table.channel_id, err)
        for seat in table.humans:
            info = table.seats[seat]
            if info is not None and info.user_id is not None:
                await self._send_dm(
                    table,
                    seat,
                    info.user_id,
                    content="The bot can no longer post in the table's channel, "
                    "so the table was closed.",
                )
        if self.service is not None:
            asyncio.get_running_loop().create_task(self.service.channel_gone(table.channel_id))

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
            ui.dm_closed.add(user_id)
            await self._post(
                table,
                content=(
                    f"<@{user_id}>, I can't send you direct messages, so your hand is on the "
                    "**My hand** button of the table messages (only you can see it)."
                ),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
            return None
        except discord.HTTPException:
            log.exception("DM to %s failed", user_id)
            return None

    # --- updates -------------------------------------------------------------------

    async def publish(self, table: Table, update: Update) -> None:
        match update.kind:
            case UpdateKind.LOBBY:
                await self._lobby(table, update)
            case UpdateKind.CLOSED:
                await self._closed(table, update)
            case UpdateKind.WARNING:
                await self._warning(table, update)
            case UpdateKind.EVENTS:
                await self._events(table, update)
        await self._turn(table, update)

    async def _lobby(self, table: Table, update: Update) -> None:
        ui = self.ui(table)
        lines = []
        for seat, info in enumerate(update.seats):
            who = "—" if info is None else (info.name + (" 🤖" if info.kind == "bot" else ""))
            lines.append(f"**Seat {seat}** ({'AB'[team_of(seat)]}): {who}")
        embed = discord.Embed(
            title="双升 table — waiting for players",
            description="\n".join(lines)[:4000],
            colour=discord.Colour.gold(),
        )
        embed.set_footer(text="Partners sit opposite: seats 0 & 2 (A) against 1 & 3 (B).")
        view = lobby_buttons(table.id)
        if ui.lobby_message is None or not await self._edit(
            table, ui.lobby_message, embed=embed, view=view
        ):
            message = await self._post(table, embed=embed, view=view)
            ui.lobby_message = message.id if message else None

    async def _closed(self, table: Table, update: Update) -> None:
        ui = self.ui(table)
        if ui.lobby_message is not None and not table.started:
            await self._edit(table, ui.lobby_message, view=lobby_buttons(table.id, started=True))
        if update.note and update.reason is not CloseReason.CHANNEL_GONE:
            await self._post(table, content=update.note)
        self.ui_by_table.pop(table.id, None)

    async def _warning(self, table: Table, update: Update) -> None:
        seat = update.actor
        if seat is None:
            return
        info = table.seats[seat]
        if info is None or info.user_id is None:
            return
        text = f"⏰ {update.note} seconds left to play; then the computer plays for you."
        ui = self.ui(table)
        if info.user_id in ui.dm_closed:
            await self._post(
                table,
                content=f"<@{info.user_id}> {text}",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        else:
            await self._send_dm(table, seat, info.user_id, content=text)

    async def _events(self, table: Table, update: Update) -> None:
        names = names_of(update.seats)
        public = update.public
        for event in update.events:
            if event.to is not None:
                continue  # private facts reach players through their panels
            match event:
                case MatchStarted():
                    if self.ui(table).lobby_message is not None:
                        await self._edit(
                            table,
                            self.ui(table).lobby_message,
                            view=lobby_buttons(table.id, started=True),
                        )
                    await self._scoreboard(table, update, "The match begins!")
                case DealProgress():
                    await self._deal(table, update, force=False)
                case Redeal():
                    await self._post(
                        table, content="Nobody bid: the cards are shuffled and dealt again."
                    )
                    await self._deal(table, update, force=True)
                case HandStarted(hand_no=hand_no):
                    self.ui(table).deal_message = None
                    await self._scoreboard(table, update, f"Hand {hand_no + 1}")
                    await self._deal(table, update, force=True)
                case BidMade(seat=seat, cards=cards, suit=suit, strength=strength):
                    bid = Bid(seat, cards, suit, strength)
                    self.ui(table).trick_notes = [bid_text(bid, names[seat])]
                    await self._deal(table, update, force=True)
                case TrumpSet(dealer=dealer, bidder=bidder):
                    await self._trump(table, update, dealer, bidder)
                case Buried():
                    await self._new_trick(table, update)
                case ThrowFailed(seat=seat, taken_back=taken_back, penalty=penalty):
                    self.ui(table).trick_notes.append(
                        f"{names[seat]}'s throw failed: {cards_text(taken_back)} taken back, "
                        f"{penalty} points to the other side."
                    )
                case Played():
                    await self._trick(table, update, final=False)
                case TrickWon():
                    await self._trick(table, update, final=True)
                    assert public is not None
                    if public.phase == Phase.PLAY:
                        await self._new_trick(table, update)
                case HandScored():
                    await self._summary(table, update)
                case MatchOver(team=team):
                    await self._post(
                        table,
                        content=f"🏆 **{TEAM_NAMES[team]}** win the match: "
                        f"{names[team]} and {names[team + 2]}!",
                    )

    async def _scoreboard(self, table: Table, update: Update, title: str) -> None:
        public = update.public
        assert public is not None
        names = names_of(update.seats)
        scene = ScoreScene(
            names=names,
            levels=public.levels,
            dealer=public.dealer if public.dealer is not None else 0,
            trump=public.trump,
            points=public.attackers_points,
            hand_no=public.hand_no + 1,
            step=public.rules.step,
            total=public.rules.total_points,
        )
        image = await self.render(render_scoreboard, scene, None, [])
        dealer = "decided by the bids" if public.dealer is None else names[public.dealer]
        await self._post(
            table,
            content=f"**{title}** · levels A {level_name(public.levels[0])}, "
            f"B {level_name(public.levels[1])} · dealer: {dealer}",
            file=png(image, "scoreboard.png"),
        )

    async def _deal(self, table: Table, update: Update, *, force: bool) -> None:
        public = update.public
        assert public is not None
        ui = self.ui(table)
        loop = asyncio.get_running_loop()
        done = public.dealt >= public.deal_total
        if not force and not done and loop.time() - ui.deal_edited < DEAL_EDIT_EVERY:
            return
        ui.deal_edited = loop.time()
        names = names_of(update.seats)
        lines = [
            f"🃏 Dealing: {public.dealt}/{public.deal_total} cards · "
            f"level {level_name(public.level)}"
        ]
        if public.bids:
            bid = public.bids[-1]
            lines.append(bid_text(bid, names[bid.seat]))
        else:
            lines.append("No bid yet: show a level card from your hand panel to declare trump.")
        if done and update.deadline is not None:
            lines.append(f"Bidding closes {when(update.deadline)}.")
        content = "\n".join(lines)
        if ui.deal_message is None or not await self._edit(table, ui.deal_message, content=content):
            message = await self._post(table, content=content, view=table_buttons(table.id))
            ui.deal_message = message.id if message else None
        await self._deal_panels(table, update, force=force or done)

    async def _deal_panels(self, table: Table, update: Update, *, force: bool) -> None:
        ui = self.ui(table)
        names = names_of(update.seats)
        for seat, info in enumerate(update.seats):
            if info is None or info.kind != "human" or info.user_id is None or info.auto:
                continue
            if info.user_id in ui.dm_closed:
                continue
            view = update.views[seat]
            panel = await self.off_loop(build_panel, table.id, view, [], names=names)
            self._audit_panel(info.user_id, view)
            message_id = ui.deal_panels.get(seat)
            if message_id is not None:
                try:
                    channel = await self.dm(info.user_id)
                    await channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                        content=panel.content, attachments=[panel.file()], view=panel.view
                    )
                    continue
                except discord.HTTPException:
                    pass
            message = await self._send_dm(
                table, seat, info.user_id, content=panel.content, file=panel.file(), view=panel.view
            )
            if message is not None:
                ui.deal_panels[seat] = message.id

    def _audit_panel(self, user_id: int, view: SeatView) -> None:
        if self.audit is not None:
            self.audit(user_id, "HandScene", list(view.hand))

    async def _trump(self, table: Table, update: Update, dealer: int, bidder: int | None) -> None:
        public = update.public
        assert public is not None
        names = names_of(update.seats)
        ui = self.ui(table)
        ui.deal_panels.clear()
        by = "" if bidder is None else f" (bid by {names[bidder]})"
        await self._post(
            table,
            content=f"**Trump: {trump_text(public.trump)}**{by}. {names[dealer]} deals and is "
            f"burying the kitty {when(update.deadline)}.",
        )
        # everyone's hand, now sorted with the trump
        for seat, info in enumerate(update.seats):
            if info is None or info.kind != "human" or info.user_id is None or seat == dealer:
                continue
            view = update.views[seat]
            panel = await self.off_loop(
                build_panel, table.id, view, [], names=names, note="The trump is set. Your hand:"
            )
            self._audit_panel(info.user_id, view)
            await self._send_dm(
                table, seat, info.user_id, content=panel.content, file=panel.file(), view=panel.view
            )

    async def _new_trick(self, table: Table, update: Update) -> None:
        """Post the trick's message: text while it is played, the image once it is done.

        Text edits cost no upload and no render, which keeps a busy bot well inside
        Discord's request limits; the finished trick gets its picture.
        """
        public = update.public
        assert public is not None
        ui = self.ui(table)
        ui.trick_no = len(public.tricks) + 1
        ui.trick_notes = []
        message = await self._post(
            table,
            content=self._trick_text(table, update, names_of(update.seats)),
            view=table_buttons(table.id),
        )
        ui.trick_message = message.id if message else None

    def _trick_text(self, table: Table, update: Update, names: tuple[str, ...]) -> str:
        public = update.public
        assert public is not None
        ui = self.ui(table)
        lines = [
            f"**Trick {ui.trick_no}** · trump {trump_text(public.trump)} · "
            f"attackers {public.attackers_points} pts"
        ]
        if public.trick:
            order = [cards for _, cards in public.trick]
            winning = public.trick[trick_winner(order, public.trump, public.rules)][0]
            lines.append(plays_text(public.trick, names, winning))
        lines += ui.trick_notes
        if public.expecting == "play" and public.to_act is not None:
            seat = public.to_act
            info = table.seats[seat]
            who = names[seat]
            if info is not None and info.user_id is not None and info.user_id in ui.dm_closed:
                who = f"<@{info.user_id}>"
            verb = "to lead" if not public.trick else "to play"
            lines.append(f"▶ {who} {verb} {when(update.deadline)}")
        if (
            update.auto
            and update.actor is not None
            and any(isinstance(e, Played) for e in update.events)
        ):
            info = table.seats[update.actor]
            if info is not None and info.kind == "human":
                lines.append(f"({names[update.actor]} was played for by the computer.)")
        return "\n".join(lines)[:2000]

    async def _trick(self, table: Table, update: Update, *, final: bool) -> None:
        public = update.public
        assert public is not None
        ui = self.ui(table)
        names = names_of(update.seats)
        if not final:
            if public.trick:
                await self._show_trick(table, self._trick_text(table, update, names))
            return
        record: TrickRecord = public.tricks[-1]
        scene = finished_trick(record, names, public, ui.trick_no)
        shown = [c for _, cards in record.plays for c in cards]
        image = await self.render(render_trick, scene, None, shown)
        content = "\n".join(
            [
                f"**Trick {ui.trick_no}** won by {names[record.winner]} "
                f"({record.points} points) · attackers {public.attackers_points} pts",
                plays_text(record.plays, names, record.winner),
                *ui.trick_notes,
            ]
        )[:2000]
        await self._show_trick(table, content, png(image, "trick.png"))

    async def _show_trick(
        self, table: Table, content: str, image: discord.File | None = None
    ) -> None:
        ui = self.ui(table)
        kwargs: dict[str, Any] = {"content": content}
        if image is not None:
            kwargs["attachments"] = [image]
        if ui.trick_message is None or not await self._edit(table, ui.trick_message, **kwargs):
            extra = {"file": image} if image is not None else {}
            message = await self._post(
                table, content=content, view=table_buttons(table.id), **extra
            )
            ui.trick_message = message.id if message else None

    async def _summary(self, table: Table, update: Update) -> None:
        public = update.public
        assert public is not None and public.last_result is not None
        result = public.last_result
        names = names_of(update.seats)
        penalty = sum(
            p if team_of(result.dealer) == team_of(s) else -p for s, p in result.failed_throws
        )
        scene = SummaryScene(
            names=names,
            dealer=result.dealer,
            trick_points=result.trick_points - penalty,
            kitty_points=result.kitty_points,
            multiplier=result.multiplier or None,
            levels_before=result.levels_before,
            levels_after=result.levels_after,
            next_dealer=result.next_dealer,
            result=result_text(result.winner, result.levels_gained),
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
        summary_png = await self.render(render_summary, scene, None, [])
        kitty_png = await self.render(render_kitty, kitty, None, list(result.kitty))
        lines = [
            f"**Hand {result.hand_no + 1} is over.** Attackers: {result.attacker_points} points"
            + (
                f" (kitty ×{result.multiplier}: +{result.kitty_bonus})" if result.multiplier else ""
            ),
            result_text(result.winner, result.levels_gained) + ".",
            f"Levels: A {level_name(result.levels_after[0])}, "
            f"B {level_name(result.levels_after[1])}.",
        ]
        if result.match_winner is None:
            lines.append(f"Next hand: {names[result.next_dealer]} deals {when(update.deadline)}.")
        await self._post(
            table,
            content="\n".join(lines),
            files=[png(summary_png, "summary.png"), png(kitty_png, "kitty.png")],
        )

    async def _turn(self, table: Table, update: Update) -> None:
        """Send a fresh panel to the human whose turn it now is."""
        public = update.public
        if public is None or public.expecting not in ("play", "bury") or public.to_act is None:
            return
        seat = public.to_act
        info = update.seats[seat]
        if info is None or info.kind != "human" or info.auto or info.user_id is None:
            return
        ui = self.ui(table)
        if ui.turn_sent.get(seat) == public.seq or info.user_id in ui.dm_closed:
            return
        ui.turn_sent[seat] = public.seq
        view = update.views[seat]
        names = names_of(update.seats)
        panel = await self.off_loop(build_panel, table.id, view, [], names=names)
        self._audit_panel(info.user_id, view)
        await self._send_dm(
            table, seat, info.user_id, content=panel.content, file=panel.file(), view=panel.view
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

    async def panel_for(self, table: Table, seat: int, view: SeatView, note: str = "") -> Any:
        names = names_of(tuple(table.seats))
        staged = self.staged_values(table, seat, view.seq)
        confirm = seat in self.ui(table).confirming
        info = table.seats[seat]
        if info is not None and info.user_id is not None:
            self._audit_panel(info.user_id, view)
        return await self.off_loop(
            build_panel, table.id, view, staged, names=names, confirm=confirm, note=note
        )

    async def last_trick_image(self, table: Table, view: SeatView) -> bytes | None:
        if not view.tricks:
            return None
        record = view.tricks[-1]
        names = names_of(tuple(table.seats))
        scene = finished_trick(record, names, view, len(view.tricks), viewer=view.seat)
        shown = [c for _, cards in record.plays for c in cards]
        return await self.render(render_trick, scene, None, shown)
