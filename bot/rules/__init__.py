"""The rules of 双升 (Shengji / Tractor) as a pure library: no I/O, no asyncio.

Everything a table needs to enforce docs/RULES.md, with every variant a field of
``RuleSet``::

    >>> from bot.rules import parse_cards, Trump, check_follow, trick_winner
    >>> trump = Trump("T", "S")
    >>> check_follow(parse_cards("7H 7H 8H 3S"), parse_cards("QH QH"),
    ...              parse_cards("8H 7H"), trump)
    Traceback (most recent call last):
    ...
    bot.rules.errors.IllegalPlay: You must play a pair of hearts: you hold 7♥7♥.
    >>> trick_winner([parse_cards("5H 4H 4H"), parse_cards("9S 7S 7S")], trump)
    1

Errors subclass ``ValueError`` and their messages are written for players.
"""

from .bidding import (
    MAX_REDEALS,
    Auction,
    Bid,
    BidKind,
    bid_kind,
    check_bid,
    kitty_draw,
    possible_bids,
    read_bid,
)
from .cards import (
    ALL_CARDS,
    BIG_JOKER,
    POINTS_OF,
    RANKS,
    SMALL_JOKER,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    contains,
    deck,
    format_cards,
    parse_cards,
    points,
    pretty_cards,
    remove_cards,
)
from .errors import IllegalBid, IllegalPlay, NotationError, Reason, RulesError
from .follow import check_follow, follow_candidates, obligation, random_follow
from .ruleset import DEFAULT_RULES, RULES_BEFORE, RuleSet
from .scoring import (
    ATTACKERS,
    BIG_LIGHT_LEAGUE,
    DEALER,
    DRAW,
    advance,
    hand_outcome,
    kitty_multiplier,
    league_change,
    league_factor,
    level_outcome,
    match_over,
    next_dealer,
    trick_side,
)
from .seats import partner_of, seat_index, seat_number, team_of
from .throw import beatable_units, resolve_throw
from .trick import play_value, single_winner, trick_winner
from .trump import LEVELS, TRUMP, Order, Trump, order_for, suit_name
from .units import Unit, decompose, decompose_in, format_of, ladder

__all__ = [
    "ALL_CARDS",
    "ATTACKERS",
    "BIG_JOKER",
    "BIG_LIGHT_LEAGUE",
    "DEALER",
    "DEFAULT_RULES",
    "DRAW",
    "LEVELS",
    "MAX_REDEALS",
    "POINTS_OF",
    "RANKS",
    "RULES_BEFORE",
    "SMALL_JOKER",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "TRUMP",
    "Auction",
    "Bid",
    "BidKind",
    "Card",
    "IllegalBid",
    "IllegalPlay",
    "NotationError",
    "Order",
    "Reason",
    "RuleSet",
    "RulesError",
    "Trump",
    "Unit",
    "advance",
    "beatable_units",
    "bid_kind",
    "check_bid",
    "check_follow",
    "contains",
    "deck",
    "decompose",
    "decompose_in",
    "follow_candidates",
    "format_cards",
    "format_of",
    "hand_outcome",
    "kitty_draw",
    "kitty_multiplier",
    "ladder",
    "league_change",
    "league_factor",
    "level_outcome",
    "match_over",
    "next_dealer",
    "obligation",
    "order_for",
    "parse_cards",
    "partner_of",
    "play_value",
    "points",
    "possible_bids",
    "pretty_cards",
    "random_follow",
    "read_bid",
    "remove_cards",
    "resolve_throw",
    "seat_index",
    "seat_number",
    "single_winner",
    "suit_name",
    "team_of",
    "trick_side",
    "trick_winner",
]
