"""What the offline commands share: rules from options, cards as terminal text."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from bot.i18n import LOCALES, normalize, t
from bot.i18n.rules import card_text, suit_name
from bot.rules import DEFAULT_RULES, Card, RuleSet, Trump, order_for


def parse_rules(decks: int, settings: Sequence[str]) -> RuleSet:
    """A ``RuleSet`` from ``--decks`` and ``--rule KEY=VALUE`` options.

    The values are read by ``RuleSet.parse_field``, as the bot's settings command
    reads them; a ``ValueError`` says what is wrong in a sentence.
    """
    data: dict[str, Any] = {"decks": decks}
    for item in settings:
        key, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"--rule takes KEY=VALUE, not {item!r}")
        data[key.strip()] = RuleSet.parse_field(key.strip(), text)
    return DEFAULT_RULES.replace(**data)


def rule_option(item: str) -> str:
    """argparse ``type`` of ``--rule``: refuse a bad setting with a usage error."""
    try:
        parse_rules(DEFAULT_RULES.decks, [item])
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return item


# --- showing cards --------------------------------------------------------------------


def supports_symbols(stream: TextIO) -> bool:
    """Whether ``stream`` can print suit symbols and the jokers' names."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣大王小王".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Printer:
    """Cards, hands and seats as text in one language, with suit symbols or plain ASCII."""

    def __init__(self, symbols: bool, locale: str = "en-US") -> None:
        self.symbols = symbols
        self.locale = locale

    def card(self, card: Card) -> str:
        return card_text(self.locale, (card,)) if self.symbols else str(card)

    def text(self, text: str) -> str:
        """``text`` as the terminal can show it (the rules' messages use symbols)."""
        if self.symbols:
            return text
        for symbol, plain in _PLAIN.items():
            text = text.replace(symbol, plain)
        return text.encode("ascii", "replace").decode("ascii")

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def hand(self, cards: Sequence[Card], trump: Trump) -> str:
        """The hand sorted as players hold it: by suit, trumps last, low to high."""
        order = order_for(trump)
        groups: dict[str, list[Card]] = {}
        for card in sorted(cards, key=order.sort_key):
            groups.setdefault(order.suit_of[card], []).append(card)
        parts = [
            t(self.locale, "cli-suit-group", suit=suit_name(self.locale, suit), cards=self.cards(g))
            for suit, g in groups.items()
        ]
        return (
            "\n".join("  " + p for p in parts) if parts else "  " + t(self.locale, "cli-no-cards")
        )

    def trump(self, trump: Trump) -> str:
        level = "10" if trump.level == "T" else trump.level
        if trump.suit is None:
            return t(self.locale, "cli-trump-none", level=level)
        return t(
            self.locale, "cli-trump-suit", level=level, suit=suit_name(self.locale, trump.suit)
        )

    def seat(self, seat: int, me: int) -> str:
        """Seats named from the player's chair: you are South, your partner North, and
        play goes counter-clockwise (seed 003: 逆时针), so the next seat is East."""
        return t(self.locale, SEAT_KEYS[(seat - me) % 4])


_PLAIN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "大王": "BJ", "小王": "SJ", "托管": "auto"}
SEAT_KEYS = ("cli-seat-you", "cli-seat-east", "cli-seat-north", "cli-seat-west")


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--decks`` and ``--rule KEY=VALUE``, read by ``parse_rules``."""
    parser.add_argument("--decks", type=int, choices=(1, 2, 3), default=2)
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=rule_option,
        help="a RuleSet field from docs/RULES.md, e.g. --rule kitty_multiplier=flat",
    )


def language(value: str) -> str:
    """The catalog locale ``--lang`` names (``zh``, ``zh-CN``, ``en`` ...). One the
    catalogs lack is a usage error: played in English without a word, a player asking
    for French would not know the option did nothing."""
    found = normalize(value)
    if found is None:
        short = " or ".join(locale.split("-")[0] for locale in LOCALES)
        raise argparse.ArgumentTypeError(
            f"no language {value!r}: use {short} (the catalogs: {', '.join(LOCALES)})"
        )
    return found
