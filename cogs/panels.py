"""The private hand panel: the hand image plus the card picker or the bid buttons.

One builder serves the DM panel and the ephemeral fallback. The picker fits
Discord's limits: at most four multi-select menus (one per effective suit, the
trumps first; a group over 25 cards is split and small groups are merged) and one
row of buttons. Each copy of a card is its own option (``AH.0``, ``AH.1``), and the
staged selection lives on the server, so every legal play is reachable and a
stale panel is recognised by the action number in its ``custom_id``.

Custom ids are written and read by one codec, ``cogs.ids``.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Literal

import discord

from bot.game import Phase, SeatView
from bot.game.legal import check_cards
from bot.i18n import pick, t
from bot.i18n.rules import card_text, explain, suit_name
from bot.rules import (
    TRUMP,
    Card,
    RulesError,
    Trump,
    obligation,
    order_for,
)
from bot.store import UserPrefs
from renderers import HandScene, render_hand

from .ids import PASS_CODE, BidButton, PanelButton, PickerMenu, format_id
from .imagewords import hand_words
from .lang import DEFAULT_PREFS
from .tableview import Components, bids_text, plays_text, png, strip_text, winning_now
from .text import bid_label, cards_text, result_line, trump_text

MAX_MENUS = 4
MAX_OPTIONS = 25


@dataclass
class Panel:
    content: str
    image: bytes
    view: Components

    def file(self) -> discord.File:
        return png(self.image, "hand.png")


def option_values(hand: tuple[Card, ...]) -> list[tuple[str, Card]]:
    """A value per card copy: ``AH.0`` and ``AH.1`` for the two aces of hearts."""
    seen: dict[Card, int] = {}
    values = []
    for card in hand:
        k = seen.get(card, 0)
        seen[card] = k + 1
        values.append((f"{card}.{k}", card))
    return values


def cards_for(view: SeatView, values: list[str]) -> list[Card]:
    """The cards behind staged option values (unknown values are dropped)."""
    if not values:
        return []
    known = dict(option_values(view.hand))
    return [known[v] for v in values if v in known]


def menus_for(view: SeatView) -> list[list[tuple[str, Card]]]:
    """Group the hand's options into at most four menus of at most 25."""
    trump = view.trump or Trump(view.level, None)
    order = order_for(trump, view.rules)
    ordered = sorted(view.hand, key=order.sort_key, reverse=True)
    groups: dict[str, list[tuple[str, Card]]] = {}
    valued = option_values(tuple(ordered))
    for value, card in valued:
        key = order.suit_of[card] if view.trump is not None else card.suit
        groups.setdefault(key, []).append((value, card))
    keys = sorted(groups, key=lambda k: (k != TRUMP, "SHCDJ".find(k)))
    menus: list[list[tuple[str, Card]]] = []
    for key in keys:
        group = groups[key]
        for i in range(0, len(group), MAX_OPTIONS):
            menus.append(group[i : i + MAX_OPTIONS])
    while len(menus) > MAX_MENUS:
        # merge the adjacent pair with the fewest options (33 cards always fit)
        best = min(range(len(menus) - 1), key=lambda i: len(menus[i]) + len(menus[i + 1]))
        menus[best : best + 2] = [menus[best] + menus[best + 1]]
    return menus


def menu_choice(view: SeatView, menu: int, values: object) -> list[str] | None:
    """The option values chosen in the panel's ``menu``-th picker, or None when no
    client could have sent them (forged): a menu the panel does not have, a value that
    menu does not offer, or one twice (so never more than its ``max_values``, which is
    its number of options)."""
    menus = menus_for(view)
    if not isinstance(values, list) or not 0 <= menu < len(menus):
        return None
    offered = {value for value, _ in menus[menu]}
    chosen = [v for v in values if isinstance(v, str) and v in offered]
    if len(chosen) != len(values) or len(set(chosen)) != len(chosen):
        return None
    return chosen


def _menu_label(view: SeatView, options: list[tuple[str, Card]], loc: str = "en-US") -> str:
    # each group named once: a panel is rebuilt at every turn
    if view.trump is not None:
        suit_of = order_for(view.trump, view.rules).suit_of
        groups = dict.fromkeys(suit_of[card] for _, card in options)
    else:
        groups = dict.fromkeys(card.suit for _, card in options)  # jokers: "J"
    return " / ".join(dict.fromkeys(_group_name(loc, g) for g in groups))


@functools.lru_cache(maxsize=64)
def _group_name(loc: str, group: str) -> str:
    return t(loc, "panel-jokers") if group == "J" else suit_name(loc, group)


def selection_problem(view: SeatView, cards: list[Card], loc: str = "en-US") -> str | None:
    """Why the staged cards can't be played or buried now (None: they can).

    The rules' verdict is ``bot.game.legal``'s; only an empty or short selection
    gets the panel's own words (the player is still choosing).
    """
    if view.expecting == "bury":
        size = view.rules.kitty_size
        if len(cards) != size:
            return t(loc, "panel-select-bury", count=size, chosen=len(cards))
    elif not cards:
        return t(loc, "panel-select-play")
    try:
        check_cards(view, cards)
    except RulesError as err:
        return explain(loc, err)
    return None


#: cards per row with ``card_size: large``: a narrower image, so a phone (which fits
#: an image to its width) shows every card larger (the normal hand has at most nine)
LARGE_PER_ROW = 6


class ImageMemo:
    """The last hand image drawn for one seat, kept to be reused while nothing in it changed.

    A seat's panel is redrawn several times with the same cards (when the turn
    comes to it, after a preference or a staged card elsewhere...); drawing and
    encoding the image is most of a panel's cost, so the same scene gives back
    the same ``bytes`` object, which also tells ``LiveMessage`` the picture need
    not be uploaded again. One per seat: memory stays one image a seat.
    """

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.image = b""


def hand_image(
    view: SeatView,
    selected: list[Card],
    title: str,
    prefs: UserPrefs | None = None,
    loc: str = "en-US",
    *,
    marked: tuple[Card, ...] = (),
    memo: ImageMemo | None = None,
) -> bytes:
    """The hand as the player chose to see it: theme, four colours, language, size."""
    prefs = prefs or DEFAULT_PREFS
    per_row = LARGE_PER_ROW if prefs.card_size == "large" else 13
    lang: Literal["en", "zh"] = "zh" if loc == "zh-CN" else "en"
    key = (
        tuple(view.hand),
        view.trump,
        tuple(selected),
        title,
        per_row,
        tuple(marked),
        prefs.theme,
        prefs.four_color,
        lang,
    )
    if memo is not None and memo.key == key:
        return memo.image
    scene = HandScene(
        cards=view.hand,
        trump=view.trump,
        selected=selected,
        title=title,
        per_row=per_row,
        marked=marked,
        words=hand_words(loc, view.hand, selected),
    )
    image = render_hand(scene, theme=prefs.theme, four_color=prefs.four_color, lang=lang)
    if memo is not None:
        memo.key, memo.image = key, image
    return image


@functools.cache
def _option_label(card: Card, loc: object) -> str:
    """A card's line in a menu (``A♥ (AH)``, ``BJ``): 54 cards a language, made once each."""
    shown = card_text(loc, (card,))
    return shown if shown == str(card) else t(loc, "panel-option", card=shown, code=str(card))


def kitty_values(view: SeatView) -> set[str]:
    """The option values of the cards the dealer took from the kitty (their last copies)."""
    held = Counter(view.hand)
    taken = Counter(view.kitty or ())
    return {f"{card}.{k}" for card, n in taken.items() for k in range(held[card] - n, held[card])}


def status_lines(view: SeatView, names: tuple[str, ...], loc: str) -> list[str]:
    """Everything to play without looking at the table: role, levels, points, last trick."""
    seat = view.seat
    if view.dealer is None or seat is None or view.trump is None:
        return []
    role = "table-panel-role-attacker" if view.is_attacker(seat) else "table-panel-role-dealer"
    return [t(loc, role), *strip_text(view, names, loc)]


def build_panel(
    table_id: int,
    view: SeatView,
    staged: list[str],
    *,
    names: tuple[str, str, str, str],
    confirm: bool = False,
    note: str = "",
    locale: object = None,
    prefs: UserPrefs | None = None,
    memo: ImageMemo | None = None,
) -> Panel:
    """The panel for ``view.seat`` right now, in ``locale`` as ``prefs`` ask.

    Call in a worker thread (it renders, unless ``memo`` holds this very image).
    """
    loc = pick(locale)
    seat = view.seat
    assert seat is not None
    seq = view.seq
    components = Components()
    selected = cards_for(view, staged)
    lines = [note] if note else []
    lines.append(t(loc, "panel-trump", trump=trump_text(view.trump, loc)))
    lines += status_lines(view, names, loc)
    acting = view.to_act == seat and view.expecting in ("play", "bury")
    if view.phase == Phase.DEAL:
        current = view.bids[-1] if view.bids else None
        bids = view.auction.options(view.hand, seat)
        lines.append(t(loc, "panel-dealt", dealt=len(view.hand), total=view.rules.hand_size))
        if current is not None:
            shown = cards_text(current.cards, loc)
            lines.append(t(loc, "panel-current-bid", cards=shown, name=names[current.seat]))
            lines += bids_text(view, names, loc)
        lines.append(t(loc, "panel-bid-below" if bids else "panel-no-bid"))
        # every bid (at most 16 with three decks), five a row: a message holds 25 buttons
        for bid in bids[:25]:
            code = "".join(str(c) for c in bid.cards)
            components.button(
                bid_label(bid, current, loc)[:80],
                format_id(BidButton(table_id, seat, code)),
                discord.ButtonStyle.primary,
            )
    elif view.expecting == "overcall" and view.to_act == seat:
        # the round after burying (seed 000:43): one button per legal overcall, and Pass
        lines.append(t(loc, "panel-overcall"))
        lines += bids_text(view, names, loc)
        bids = view.auction.options(view.hand, seat)[:24]  # and Pass: 25 buttons at most
        for bid in bids:
            code = "".join(str(c) for c in bid.cards)
            components.button(
                bid_label(bid, view.current_bid, loc)[:80],
                format_id(BidButton(table_id, seat, code)),
                discord.ButtonStyle.primary,
            )
        components.button(  # on a row of its own below the bids while there is one
            t(loc, "panel-button-pass"),
            format_id(BidButton(table_id, seat, PASS_CODE)),
            row=min(math.ceil(len(bids) / 5), 4),
        )
    elif acting:
        burying = view.expecting == "bury"
        problem = selection_problem(view, selected, loc)
        if burying:
            lines.append(t(loc, "panel-bury", count=view.rules.kitty_size))
        elif view.lead is None:
            lines.append(t(loc, "panel-lead"))
        else:
            assert view.trump is not None  # a trick is led only once trump is known
            duty = obligation(view.hand, view.lead, view.trump, view.rules)
            table = plays_text(view.trick, names, loc, winning_now(view))
            lines.append(t(loc, "panel-on-table", plays=table))
            if duty:
                lines.append(t(loc, "panel-follow-duty", duty=explain(loc, duty)))
            else:
                lines.append(t(loc, "panel-follow"))
        if selected:
            lines.append(t(loc, "panel-selected", cards=cards_text(selected, loc)))
        if problem and selected:
            lines.append(f"⚠️ {problem}")
        if confirm and burying and problem is None:
            lines.append(t(loc, "panel-bury-confirm", cards=cards_text(selected, loc)))
            components.button(
                t(loc, "panel-button-confirm"),
                format_id(PanelButton(table_id, seat, seq, "confirm")),
                discord.ButtonStyle.danger,
            )
            components.button(
                t(loc, "panel-button-back"), format_id(PanelButton(table_id, seat, seq, "back"))
            )
        else:
            staged_set = set(staged)
            from_kitty = kitty_values(view) if burying else set()
            kitty_note = " · " + t(loc, "table-panel-from-kitty")
            for i, options in enumerate(menus_for(view)):
                groups = _menu_label(view, options, loc)
                # a select's payload as ``discord.ui.Select(...).to_component_dict()`` writes it
                menu = {
                    "type": 3,
                    "custom_id": format_id(PickerMenu(table_id, seat, seq, i)),
                    "min_values": 0,
                    "max_values": len(options),
                    "disabled": False,
                    "required": True,
                    "placeholder": t(loc, "panel-menu", groups=groups, count=len(options))[:150],
                    "options": [
                        {
                            "label": _option_label(card, loc)
                            + (kitty_note if value in from_kitty else ""),
                            "value": value,
                            "default": value in staged_set,
                        }
                        for value, card in options
                    ],
                }
                components.add(menu, i, width=5)
            verb = t(loc, "panel-button-bury" if burying else "panel-button-play")
            components.button(
                verb,
                format_id(PanelButton(table_id, seat, seq, "bury" if burying else "play")),
                discord.ButtonStyle.success,
                disabled=problem is not None,
                row=4,
            )
            if view.rules.assistance == "full":  # assistance none: no suggestion (seed 000)
                components.button(
                    t(loc, "panel-button-suggest"),
                    format_id(PanelButton(table_id, seat, seq, "suggest")),
                    row=4,
                )
            components.button(
                t(loc, "panel-button-clear"),
                format_id(PanelButton(table_id, seat, seq, "clear")),
                row=4,
            )
    elif view.expecting in ("play", "bury", "overcall") and view.to_act is not None:
        lines.append(t(loc, "panel-waiting", name=names[view.to_act]))
    elif view.phase == Phase.SCORED and view.last_result is not None:  # My hand between hands
        lines.append(result_line(view.last_result, loc))
    title = t(loc, "panel-title")  # the image counts the cards under it
    marked = (view.kitty or ()) if acting and view.expecting == "bury" else ()
    image = hand_image(view, selected, title, prefs, loc, marked=marked, memo=memo)
    return Panel("\n".join(lines)[:2000], image, components)
