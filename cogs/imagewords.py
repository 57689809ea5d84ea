"""The words drawn on the images, from the catalogs, in the reader's language.

Renderers import nothing of the bot (``renderers`` sees only ``bot.rules``), so
each scene carries its labels as ``words`` (label key -> text), built here from
``data/locales/*/img.ftl``; a new language needs only its catalog.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.i18n import pick, t
from bot.rules import Card

Words = dict[str, str]


def trump_words(loc: object) -> Words:
    return {
        "trump": t(loc, "img-trump"),
        "no_trump": t(loc, "img-no-trump"),
        "trump_unset": t(loc, "img-trump-unset"),
    }


def hand_words(loc: object, cards: Sequence[Card], selected: Sequence[Card]) -> Words:
    """The hand image's words: one dict per language and counts, shared (the renderers
    only read it), as the hand image is drawn at nearly every play."""
    return _hand_words(pick(loc), len(cards), len(selected))


@functools.lru_cache(maxsize=256)  # two languages, at most 33 cards and as many selected
def _hand_words(loc: str, cards: int, selected: int) -> Words:
    return {
        **trump_words(loc),
        "your_hand": t(loc, "img-your-hand"),
        "cards_n": t(loc, "img-cards-n", n=cards),
        "selected_n": t(loc, "img-selected-n", n=selected),
    }


def kitty_words(loc: object, multiplier: int | None, bonus: int) -> Words:
    return {
        **trump_words(loc),
        "kitty": t(loc, "img-kitty"),
        "buried_by": t(loc, "img-buried-by", name="{name}"),  # the image fits the name in
        "kitty_points": t(loc, "img-kitty-points"),
        "kitty_to_attackers": t(loc, "img-kitty-to-attackers", m=multiplier or 0, bonus=bonus),
        "kitty_kept": t(loc, "img-kitty-kept"),
    }


def summary_words(loc: object, hand_no: int | None) -> Words:
    return {
        "hand_n": t(loc, "img-hand-n", n=hand_no or 0),
        "from_tricks": t(loc, "img-from-tricks"),
        "penalty": t(loc, "img-penalty"),
        "kitty_bonus": t(loc, "img-kitty-bonus"),
        "kitty_kept": t(loc, "img-kitty-kept"),
        "total": t(loc, "img-total"),
        "next_dealer": t(loc, "img-next-dealer"),
        "defenders": t(loc, "img-defenders"),
        "attackers": t(loc, "img-attackers"),
        "level": t(loc, "img-level"),
        "and": t(loc, "img-and"),
    }
