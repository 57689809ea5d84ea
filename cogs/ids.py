"""The one codec for component custom ids: typed on the way in and out.

Every button and menu the bot sends carries its whole meaning in its custom id,
so clicks are routed without stored views and keep working after a restart. The
wire format (all ids start with ``sj:``, at most 100 characters):

=================================================  ==================================
``sj:l:{table}:{what}``                            lobby buttons (join, bot, leave, start)
``sj:t:{table}:{what}``                            table buttons (hand, last, rules)
``sj:d:{table}:{seat}:{cards}``                    a bid button (cards as ``AHAH``)
``sj:p:{table}:{seat}:{seq}:{menu}``               a picker menu of a hand panel
``sj:b:{table}:{seat}:{seq}:{what}``               a hand panel button
``sj:r:{table}:{hand_no}``                         Review under a hand's summary
``sj:g:{table}``                                   the rules topics menu (value: a topic)
``sj:c:{tournament}:{what}``                       a tournament's buttons and partner menu
=================================================  ==================================

``parse_id`` returns ``None`` for anything else (junk, a word this version no longer
knows); the router answers such a click with a short "that didn't work". Tournament
ids (``parse_cup_id``) go to their own router (``cogs.tournament``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

LobbyWhat = Literal["join", "bot", "leave", "start"]
TableWhat = Literal["hand", "last", "rules"]
PanelWhat = Literal["play", "bury", "confirm", "back", "suggest", "clear"]
# register, withdraw, confirm (the partner), the partner menu, check-in at a match
CupWhat = Literal["reg", "wd", "ok", "partner", "here"]
PREFIX = "sj"
CUP_PREFIX = "sj:c:"  # tournament buttons and menus (``cogs.cupview``), routed by their cog
# the words as read from an id, typed: a word not in its table is not one of ours
LOBBY_WORDS: dict[str, LobbyWhat] = {w: w for w in get_args(LobbyWhat)}
TABLE_WORDS: dict[str, TableWhat] = {w: w for w in get_args(TableWhat)}
PANEL_WORDS: dict[str, PanelWhat] = {w: w for w in get_args(PanelWhat)}
CUP_WORDS: dict[str, CupWhat] = {w: w for w in get_args(CupWhat)}


@dataclass(frozen=True)
class LobbyButton:
    table_id: int
    what: LobbyWhat


@dataclass(frozen=True)
class TableButton:
    table_id: int
    what: TableWhat


@dataclass(frozen=True)
class BidButton:
    table_id: int
    seat: int
    cards: str  # card codes run together, parsed by the rules library


PASS_CODE = "pass"  # a BidButton's code for "no overcall" in the round after burying


@dataclass(frozen=True)
class PickerMenu:
    table_id: int
    seat: int
    seq: int
    menu: int


@dataclass(frozen=True)
class PanelButton:
    table_id: int
    seat: int
    seq: int
    what: PanelWhat


@dataclass(frozen=True)
class ReviewButton:
    table_id: int
    hand_no: int


@dataclass(frozen=True)
class TopicMenu:
    """The menu of rules topics under the Rules answer; the topic is the chosen value,
    checked against the guide's topics when it arrives."""

    table_id: int


@dataclass(frozen=True)
class CupComponent:
    """A tournament's registration buttons, its partner menu and a match's check-in."""

    cup_id: int
    what: CupWhat


# a table's components (``parse_id``); a tournament's are ``CupComponent`` (``parse_cup_id``)
ComponentId = (
    LobbyButton | TableButton | BidButton | PickerMenu | PanelButton | ReviewButton | TopicMenu
)


def format_id(cid: ComponentId | CupComponent) -> str:
    """The custom id string of a component."""
    match cid:
        case LobbyButton(table_id, what):
            return f"{PREFIX}:l:{table_id}:{what}"
        case TableButton(table_id, what):
            return f"{PREFIX}:t:{table_id}:{what}"
        case BidButton(table_id, seat, cards):
            return f"{PREFIX}:d:{table_id}:{seat}:{cards}"
        case PickerMenu(table_id, seat, seq, menu):
            return f"{PREFIX}:p:{table_id}:{seat}:{seq}:{menu}"
        case PanelButton(table_id, seat, seq, what):
            return f"{PREFIX}:b:{table_id}:{seat}:{seq}:{what}"
        case ReviewButton(table_id, hand_no):
            return f"{PREFIX}:r:{table_id}:{hand_no}"
        case TopicMenu(table_id):
            return f"{PREFIX}:g:{table_id}"
        case CupComponent(cup_id, what):
            return f"{CUP_PREFIX}{cup_id}:{what}"
    raise TypeError(f"not a component id: {cid!r}")


def _int(text: str) -> int | None:
    """A non-negative integer below 2**53: ids, seqs and hand numbers are far below it, and
    a forged one past it would overflow the store's 64-bit integers in a lookup."""
    if not (text.isascii() and text.isdigit() and len(text) < 17):
        return None
    value = int(text)
    return value if value < 2**53 else None


def _seat(text: str) -> int | None:
    seat = _int(text)
    return seat if seat is not None and seat < 4 else None


def parse_id(custom_id: str) -> ComponentId | None:
    """The typed id behind ``custom_id``, or ``None`` when it is not one of ours."""
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX:
        return None
    kind, table_id, rest = parts[1], _int(parts[2]), parts[3:]
    if table_id is None:
        return None
    if kind == "g" and not rest:
        return TopicMenu(table_id)
    if kind == "l" and len(rest) == 1 and rest[0] in LOBBY_WORDS:
        return LobbyButton(table_id, LOBBY_WORDS[rest[0]])
    if kind == "t" and len(rest) == 1 and rest[0] in TABLE_WORDS:
        return TableButton(table_id, TABLE_WORDS[rest[0]])
    if kind == "r" and len(rest) == 1:
        hand_no = _int(rest[0])
        return None if hand_no is None else ReviewButton(table_id, hand_no)
    if kind == "d" and len(rest) == 2:
        seat = _seat(rest[0])
        if seat is not None and rest[1].isalnum():
            return BidButton(table_id, seat, rest[1])
        return None
    if kind in ("p", "b") and len(rest) == 3:
        seat, seq = _seat(rest[0]), _int(rest[1])
        if seat is None or seq is None:
            return None
        if kind == "p":
            menu = _int(rest[2])
            return None if menu is None else PickerMenu(table_id, seat, seq, menu)
        if rest[2] in PANEL_WORDS:
            return PanelButton(table_id, seat, seq, PANEL_WORDS[rest[2]])
    return None


def parse_cup_id(custom_id: str) -> CupComponent | None:
    """The tournament component behind ``custom_id``, or ``None`` (forged, or not one)."""
    parts = custom_id.split(":")
    if len(parts) != 4 or f"{parts[0]}:{parts[1]}:" != CUP_PREFIX:
        return None
    cup_id, what = _int(parts[2]), CUP_WORDS.get(parts[3])
    return None if cup_id is None or what is None else CupComponent(cup_id, what)
