"""What a table looks like in words and scenes: pure builders shared by the presenter
and the hand panels (the strip, the bid history, the trick so far and who is
winning it, the buttons under the table messages)."""

from __future__ import annotations

import functools
import io
from datetime import UTC, datetime
from typing import Any, cast

import discord

from bot.game import Phase, SeatView, TrickRecord
from bot.i18n import guide, t
from bot.rules import RuleSet, partner_of, team_of, trick_side, trick_winner
from renderers import TrickScene

from .ids import LobbyButton, LobbyWhat, TableButton, TopicMenu, format_id
from .text import bid_text, cards_text, level_name, pair_text, rules_text


class Components:
    """Components to send, kept as the payload Discord reads. Clicks are routed by custom id
    in the cog, never by a view, so nothing is kept in discord.py's view store for the
    thousands of panels a busy bot sends, and buttons keep working after a restart.

    Not a ``discord.ui.View``: a view builds an object per button, select and option
    and draws random bytes and a future for each view, then turns them all back into
    this payload at every send; a panel with four menus of cards was rebuilt so at every
    turn (issue 14, load). discord.py takes any object with ``__discord_ui_view__``
    and these methods (``handle_message_parameters`` reads ``to_components``). Items
    are laid out as a view lays them: an explicit row, else the first row with room
    (a select fills a row, a button takes a fifth).
    """

    __discord_ui_view__ = True
    timeout: float | None = None  # read by discord.py for ephemeral messages

    def __init__(self) -> None:
        self._rows: list[list[dict[str, Any]]] = [[], [], [], [], []]
        self._widths = [0, 0, 0, 0, 0]
        self._payload: list[dict[str, Any]] | None = None

    def add(self, component: dict[str, Any], row: int | None = None, *, width: int = 1) -> None:
        """Add one component's payload (a button: width 1; a select: width 5)."""
        if row is None:
            row = next((i for i, w in enumerate(self._widths) if w + width <= 5), None)
            if row is None:
                raise ValueError("no room left for a component")
        elif self._widths[row] + width > 5:
            raise ValueError(f"row {row} is full")
        self._widths[row] += width
        self._rows[row].append(component)
        self._payload = None

    def add_item(self, item: discord.ui.Item[Any]) -> Components:
        """Add a ``discord.ui`` item (its payload, where a view would put it)."""
        self.add(dict(item.to_component_dict()), item.row, width=item.width)
        return self

    def button(
        self,
        label: str,
        custom_id: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
        row: int | None = None,
        emoji: str | None = None,
    ) -> None:
        """A button, as ``discord.ui.Button(...).to_component_dict()`` writes it."""
        payload: dict[str, Any] = {
            "type": 2,
            "style": style.value,
            "disabled": disabled,
            "label": label,
            "custom_id": custom_id,
        }
        if emoji is not None:
            payload["emoji"] = {"id": None, "name": emoji}
        self.add(payload, row)

    def to_components(self) -> list[dict[str, Any]]:
        if self._payload is None:
            self._payload = [{"type": 1, "components": r} for r in self._rows if r]
        return self._payload

    def custom_ids(self) -> list[str]:
        """Every component's custom id, row by row."""
        return [c["custom_id"] for r in self._rows for c in r if "custom_id" in c]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False


def as_view(components: Components) -> discord.ui.View:
    """``components`` where discord.py's signatures say ``View`` (it reads only what
    ``Components`` has: see there)."""
    return cast(discord.ui.View, components)


def when(deadline: float | None) -> str:
    if deadline is None:
        return ""
    return discord.utils.format_dt(datetime.fromtimestamp(deadline, tz=UTC), "R")


class ImageFile(discord.File):
    """A picture in memory, to upload: closing it leaves no cycle behind.

    ``discord.File`` stubs its buffer's ``close`` and, when closed after the upload,
    puts the buffer's own bound ``close`` back into the buffer's ``__dict__``: a cycle
    (buffer, its dict, its method), so every picture uploaded (one or two a play) kept
    its bytes until the garbage collector found them. Removing that attribute gives the
    buffer its class's ``close`` again; a buffer is not ours to close otherwise.
    """

    def close(self) -> None:
        vars(self.fp).pop("close", None)


def png(data: bytes, name: str) -> discord.File:
    return ImageFile(io.BytesIO(data), filename=name)


@functools.lru_cache(maxsize=4096)
def table_buttons(table_id: int, assistance: str = "full", loc: object = "en-US") -> Components:
    """My hand, Previous trick (not with ``assistance="none"``: seed 000) and Rules.

    One per table and language, shared by every message that shows them (nothing
    changes a ``Components`` once made): the table message is edited at every play."""
    view = Components()
    view.button(
        t(loc, "table-button-hand"),
        format_id(TableButton(table_id, "hand")),
        discord.ButtonStyle.primary,
        emoji="🂠",
    )
    if assistance == "full":
        view.button(t(loc, "table-button-last"), format_id(TableButton(table_id, "last")))
    view.button(t(loc, "table-button-rules"), format_id(TableButton(table_id, "rules")))
    return view


def rules_embed(loc: str, topic: str, rules: RuleSet) -> discord.Embed:
    """A rules topic as ``/shengji rules`` and the Rules button show it (one embed)."""
    return discord.Embed(
        title=guide.title(loc, topic), description=rules_text(topic, rules, loc)[:4000]
    )


def topic_menu(table_id: int, shown: str, loc: object) -> Components:
    """Every rules topic in one menu under the Rules answer, the one shown chosen.

    A select rather than a button per topic: nine topics fit one row, and the
    value it sends is checked against the guide's topics (``cogs.components``)."""
    view = Components()
    menu = {  # a select's payload as ``discord.ui.Select(...).to_component_dict()`` writes it
        "type": 3,
        "custom_id": format_id(TopicMenu(table_id)),
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "placeholder": t(loc, "table-rules-topics"),
        "options": [
            {"label": guide.title(loc, topic), "value": topic, "default": topic == shown}
            for topic in guide.TOPICS
        ],
    }
    view.add(menu, width=5)
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
        view.button(t(loc, key), format_id(LobbyButton(table_id, what)), style)
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


def plays_text(plays: Any, names: tuple[str, ...], loc: object, winning: int | None = None) -> str:
    """``Alice A♥A♥ · Bob 3♥5♥`` with the winning play in bold."""
    parts = []
    for seat, cards in plays:
        text = f"{names[seat]} {cards_text(list(cards), loc)}"
        parts.append(f"**{text}**" if seat == winning else text)
    return " · ".join(parts)


def names_of(seats: tuple[Any, ...]) -> tuple[str, str, str, str]:
    """The four seats' names; an empty seat (a lobby's) as a dash, in any language."""
    names = [(s.name if s is not None else "—")[:32] for s in seats]
    names += [""] * (4 - len(names))
    return names[0], names[1], names[2], names[3]


def score_text(view: SeatView, loc: object, *, image: bool = False) -> str:
    """The attackers' points, and the cards each player holds once every hand has the
    same size (before a trick's first play; a trick under way is counted from its
    start). Not while the cards go out or the dealer buries: the dealer then holds
    the kitty too (33 cards against 25), so no one count is everyone's."""
    if view.phase in (Phase.DEAL, Phase.KITTY):
        key = "table-img-points" if image else "table-strip-points"
        return t(loc, key, points=view.attackers_points)
    key = "table-img-score" if image else "table-strip-score"
    return t(loc, key, points=view.attackers_points, left=max(view.hand_sizes))


def strip_text(view: SeatView, names: tuple[str, ...], loc: object) -> list[str]:
    """The panel's strip: both levels, dealer and attackers, points, last trick (the
    trump has the panel's first line)."""
    lines = []
    if view.dealer is not None:
        d = view.dealer
        lines.append(
            t(
                loc,
                "table-strip-teams",
                dealer=names[d],
                partner=names[partner_of(d)],
                dealer_level=level_name(view.levels[team_of(d)]),
                attackers=pair_text(names[(d + 1) % 4], names[(d + 3) % 4], loc),
                attackers_level=level_name(view.levels[team_of(d + 1)]),
            )
        )
    lines.append(score_text(view, loc))
    if view.tricks and view.trick and view.rules.assistance == "full":
        last = view.tricks[-1]
        lines.append(
            t(
                loc,
                "table-strip-last",
                plays=plays_text(last.plays, names, loc, last.winner),
                points=last.points,
                side=trick_side(last.winner, view.dealer),
            )
        )
    return lines


def bids_text(view: SeatView, names: tuple[str, ...], loc: object = "en-US") -> list[str]:
    """The bid history, in order: who showed what."""
    # each bid and the one it was made over (the second sequence is one longer)
    pairs = zip(view.bids, (None, *view.bids), strict=False)
    return [
        f"{i}. {bid_text(bid, before, names[bid.seat], loc)}"
        for i, (bid, before) in enumerate(pairs, 1)
    ]
