"""What a table looks like in words and scenes: pure builders shared by the presenter
and the hand panels (the strip, the bid history, the trick so far and who is
winning it, the buttons under the table messages)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import discord

from bot.game import SeatView, TrickRecord
from bot.i18n import t
from bot.rules import trick_winner
from renderers import TrickScene

from .ids import LobbyButton, LobbyWhat, TableButton, format_id
from .text import bid_text, cards_text, level_name, trump_text


class Components(discord.ui.View):
    """Components to send. Clicks are routed by custom id in the cog, never by a view,

    so nothing is kept in discord.py's view store for the thousands of panels a
    busy bot sends, and buttons keep working after a restart.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def when(deadline: float | None) -> str:
    if deadline is None:
        return ""
    return discord.utils.format_dt(datetime.fromtimestamp(deadline, tz=UTC), "R")


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def table_buttons(table_id: int, assistance: str = "full", loc: object = "en-US") -> Components:
    """My hand, Last trick (not with ``assistance="none"``: seed 000) and Rules."""
    view = Components()
    view.add_item(
        discord.ui.Button(
            label=t(loc, "table-button-hand"),
            custom_id=format_id(TableButton(table_id, "hand")),
            style=discord.ButtonStyle.primary,
            emoji="🂠",
        )
    )
    if assistance == "full":
        view.add_item(
            discord.ui.Button(
                label=t(loc, "table-button-last"),
                custom_id=format_id(TableButton(table_id, "last")),
            )
        )
    view.add_item(
        discord.ui.Button(
            label=t(loc, "table-button-rules"), custom_id=format_id(TableButton(table_id, "rules"))
        )
    )
    return view


def lobby_buttons(table_id: int, loc: object = "en-US") -> Components:
    view = Components()
    buttons: tuple[tuple[str, LobbyWhat, discord.ButtonStyle], ...] = (
        ("table-button-join", "join", discord.ButtonStyle.success),
        ("table-button-bot", "bot", discord.ButtonStyle.secondary),
        ("table-button-leave", "leave", discord.ButtonStyle.secondary),
        ("table-button-start", "start", discord.ButtonStyle.primary),
    )
    for key, what, style in buttons:
        label = t(loc, key)
        view.add_item(
            discord.ui.Button(
                label=label,
                custom_id=format_id(LobbyButton(table_id, what)),
                style=style,
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


def winning_now(view: SeatView) -> int | None:
    """The seat winning the trick in progress, if any card is on the table."""
    if not view.trick or view.trump is None:
        return None
    order = [cards for _, cards in view.trick]
    return view.trick[trick_winner(order, view.trump, view.rules)][0]


def current_trick(view: SeatView, names: tuple[str, str, str, str]) -> TrickScene | None:
    """The trick in progress as a scene (the last finished one when none has started)."""
    if view.trump is None or view.dealer is None:
        return None
    if not view.trick:
        if not view.tricks:
            return None
        return finished_trick(view.tricks[-1], names, view, len(view.tricks))
    points = sum(c.points for _, cards in view.trick for c in cards)
    return TrickScene(
        names=names,
        leader=view.trick[0][0],
        plays=dict(view.trick),
        trump=view.trump,
        dealer=view.dealer,
        winner=winning_now(view),
        trick_points=points,
        trick_no=len(view.tricks) + 1,
    )


def plays_text(plays: Any, names: tuple[str, ...], winning: int | None = None) -> str:
    """``Alice A♥A♥ · Bob 3♥5♥`` with the winning play in bold."""
    parts = []
    for seat, cards in plays:
        text = f"{names[seat]} {cards_text(list(cards))}"
        parts.append(f"**{text}**" if seat == winning else text)
    return " · ".join(parts)


def names_of(seats: tuple[Any, ...]) -> tuple[str, str, str, str]:
    names = [(s.name if s is not None else "(empty)")[:32] for s in seats]
    names += [""] * (4 - len(names))
    return names[0], names[1], names[2], names[3]


def strip_text(view: SeatView, names: tuple[str, ...], loc: object) -> list[str]:
    """The strip under the table: both levels, dealer and attackers, trump, points, last trick."""
    lines = []
    if view.dealer is not None:
        d = view.dealer
        lines.append(
            t(
                loc,
                "table-strip-teams",
                dealer=names[d],
                partner=names[(d + 2) % 4],
                dealer_level=level_name(view.levels[d % 2]),
                attackers=f"{names[(d + 1) % 4]} & {names[(d + 3) % 4]}",
                attackers_level=level_name(view.levels[(d + 1) % 2]),
            )
        )
    lines.append(
        t(
            loc,
            "table-strip-score",
            trump=trump_text(view.trump, loc),
            points=view.attackers_points,
            left=max(view.hand_sizes),
        )
    )
    if view.tricks and view.trick and view.rules.assistance == "full":
        last = view.tricks[-1]
        lines.append(
            t(
                loc,
                "table-strip-last",
                plays=plays_text(last.plays, names, last.winner),
                points=last.points,
            )
        )
    return lines


def bids_text(view: SeatView, names: tuple[str, ...], loc: object = "en-US") -> list[str]:
    """The bid history, in order: who showed what."""
    return [f"{i}. {bid_text(bid, names[bid.seat], loc)}" for i, bid in enumerate(view.bids, 1)]
