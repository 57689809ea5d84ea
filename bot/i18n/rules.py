"""The rules library's errors and reasons in a player's language.

``bot.rules`` stays pure: its errors carry a key and parameters (see
``bot.rules.errors`` for the convention), and this module turns the parameters
into words of the locale before the catalog formats the sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, Protocol

from babel.lists import format_list

from bot.i18n import Arg, pick, t
from bot.rules import Card, pretty_cards
from bot.rules.units import shape_key

SUIT_KEYS = {
    "S": "rules-suit-S",
    "H": "rules-suit-H",
    "D": "rules-suit-D",
    "C": "rules-suit-C",
    "T": "rules-suit-T",
    "none": "rules-suit-none",
}
JOKER_KEYS = {"B": "rules-card-big-joker", "S": "rules-card-small-joker"}


class Explainable(Protocol):
    # read-only, so that a ``dict[str, Param]`` (``Reason``, ``RulesError``) conforms
    @property
    def key(self) -> str: ...
    @property
    def params(self) -> Mapping[str, object]: ...


def suit_name(locale: object, suit: str | None) -> str:
    """An effective suit's name: hearts / 红桃, trumps / 主牌, no trump / 无主."""
    return t(locale, SUIT_KEYS["none" if suit is None else suit])


def card_text(locale: object, cards: Iterable[Card]) -> str:
    """Cards as players of ``locale`` write them: ``A♥K♥K♥``, the jokers by their names
    there (大王 小王; BJ SJ in English, as its guide calls them and players type them)."""
    return pretty_cards(cards, t(locale, JOKER_KEYS["B"]), t(locale, JOKER_KEYS["S"]))


def join(locale: object, items: list[str], style: Literal["standard", "or"] = "standard") -> str:
    """A list in the locale's own words: ``a, b, and c`` / ``a、b和c``; ``style="or"``
    for a choice: ``a, b, or c`` / ``a、b或c``."""
    return format_list(items, style=style, locale=pick(locale).replace("-", "_")) if items else ""


def need_words(locale: object, need: tuple[tuple[int, int], ...]) -> str:
    """Shapes a follow must contain, in words: ``a 2-pair tractor and a pair``."""
    counts: dict[tuple[int, int], int] = {}
    for shape in need:
        counts[shape] = counts.get(shape, 0) + 1
    words = []
    for (width, length), n in sorted(counts.items(), key=lambda kv: shape_key(kv[0]), reverse=True):
        if length > 1:
            key = "rules-unit-tractor" if width == 2 else "rules-unit-triple-tractor"
            words.append(t(locale, key, count=n, length=length))
        else:
            key = "rules-unit-pair" if width == 2 else "rules-unit-triple"
            words.append(t(locale, key, count=n))
    return join(locale, words)


def _arg(locale: object, name: str, value: object) -> Arg:
    if name.endswith("suit"):
        return suit_name(locale, str(value))
    if name.endswith("need") and isinstance(value, tuple):
        return need_words(locale, value)
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return join(locale, [card_text(locale, group) for group in value])
        return card_text(locale, (card for card in value if isinstance(card, Card)))
    if isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"unexpected parameter {name}={value!r}")


def explain(locale: object, error: Explainable) -> str:
    """A ``RulesError`` (or ``Reason``) as the player reads it in ``locale``."""
    args = {name: _arg(locale, name, value) for name, value in error.params.items()}
    return t(locale, error.key, **args)
