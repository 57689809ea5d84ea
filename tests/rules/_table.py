"""Shared helpers for the table-driven rules tests (tests/rules/test_table_*.py).

The tables are written in the project notation (docs/RULES.md "Notation"), so every
case reads like a line of a game log. These helpers turn a table row into API calls.
The public API under test is imported here once and re-exported, so the test modules
import only from this module (their import blocks then lint the same whether or not
`bot/rules` exists in the checkout).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.rules import (
    Card,
    IllegalPlay,
    RuleSet,
    Trump,
    check_follow,
    decompose,
    format_cards,
    hand_outcome,
    kitty_multiplier,
    league_change,
    level_outcome,
    parse_cards,
    points,
    resolve_throw,
    trick_winner,
)

__all__ = [
    "CAP200",
    "DEFAULT",
    "DOUBLING",
    "FIXED2",
    "FLAT",
    "LINEAR3",
    "NOCHAIN",
    "ONE",
    "RACE",
    "SUIT_ONLY",
    "THREE",
    "Card",
    "IllegalPlay",
    "RuleSet",
    "Trump",
    "cards",
    "check_follow",
    "decompose",
    "format_cards",
    "hand_outcome",
    "ids",
    "kitty_multiplier",
    "league_change",
    "level_outcome",
    "ms",
    "parse_cards",
    "points",
    "resolve_throw",
    "rules",
    "trick_winner",
    "trump",
]

# RuleSet presets used in the tables' `rules` column (None = the default RuleSet()).
DEFAULT: dict[str, Any] | None = None
THREE = {"decks": 3}
ONE = {"decks": 1}
FIXED2 = {"fixed_two_trump": True}
NOCHAIN = {"trump_chain_tractors": False}
SUIT_ONLY = {"follow_shape": "suit_only"}
CAP200 = {"points_cap": 200}
DOUBLING = {"kitty_multiplier": "doubling"}
FLAT = {"kitty_multiplier": "flat"}
LINEAR3 = {"kitty_multiplier": "linear", "decks": 3}
RACE = {"scoring": "race45", "decks": 1}


def trump(level: str, suit: str | None) -> Trump:
    """Trump for a table row; suit "N" (or None) means no trump (无主)."""
    return Trump(level, None if suit in (None, "N") else suit)


def rules(preset: dict[str, Any] | None) -> RuleSet:
    return RuleSet(**preset) if preset else RuleSet()


def cards(text: str) -> list:
    return parse_cards(text)


def ms(played: Iterable) -> list[str]:
    """A multiset of cards as a sorted list of canonical strings (order-independent)."""
    return sorted(str(c) for c in played)


def ids(cases: Sequence[Sequence[Any]]) -> list[str]:
    """pytest ids: the `why` column, always the last one."""
    return [str(c[-1]) for c in cases]
