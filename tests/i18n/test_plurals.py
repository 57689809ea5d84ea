"""Counts read as English says them: "1 card left", never "1 cards left".

Plural forms belong to the catalog (``{ $n -> [one] ... *[other] ... }``), so a count
written straight before its noun reads wrong at 1. Every count in the English catalog
is found by scanning it for a placeholder followed by a plural noun, then formatted
with 1 and 2: at 1 the noun must be singular.
"""

from __future__ import annotations

import functools
import re

import pytest

from bot import i18n

from .test_catalog import _refs, _source, _text

#: the nouns a count precedes in the catalogs (English plurals; abbreviations too)
NOUNS = (
    "cards",
    "points",
    "pts",
    "seconds",
    "decisions",
    "choices",
    "teams",
    "tables",
    "votes",
    "hands",
    "levels",
    "rounds",
    "minutes",
    "decks",
    "pairs",
    "triples",
    "tractors",
    "times",
    "wins",
    "matches",
)
COUNT = re.compile(rf"\{{ \$(\w+) \}}[ -]({'|'.join(NOUNS)})\b")

#: the rules for players, whose counts are the rule set's sizes (a kitty of 8, a hand of
#: 25, a level step of 40 points, a throw penalty of 0 or a multiple of 5), never 1:
#: their wording is the rules text's own (guide.ftl), kept apart from the sweep
NEVER_ONE = {
    ("guide-overview", "hand"),
    ("guide-overview", "take"),
    ("guide-kitty", "kitty"),
    ("guide-throws", "penalty"),
    ("guide-levels", "step"),
    ("guide-race", "target"),
    ("guide-race", "draw"),
    ("guide-band-dealer", "points"),
    ("guide-band-attackers", "points"),
    ("guide-variant-decks", "hand"),
    ("guide-variant-decks", "total"),
    ("guide-variant-throw", "penalty"),
    ("guide-bidding-none", "redeals"),  # MAX_REDEALS, 5
}

#: counts that must be found, so that a scan finding nothing cannot pass: the ones
#: players met as "1 cards left" and "after 1 decisions"
KNOWN = {
    ("table-strip-score", "left"),
    ("table-img-score", "left"),
    ("review-partial", "judged"),
    ("review-clean", "judged"),
    ("cli-review-none", "judged"),
    ("table-warning", "seconds"),
    ("panel-bury", "count"),
}


@functools.cache
def _english() -> dict[str, tuple[str, frozenset[str]]]:
    """Every English message: key -> (its source text, the variables it reads)."""
    return {
        key: (_text(message), frozenset(_refs(message).variables))
        for key, (_, message) in _source().items()
        if message.value is not None
    }


def _counts() -> list[tuple[str, str, str]]:
    """(key, placeholder, noun) for every count written before a plural noun."""
    found = {
        (key, name, noun)
        for key, (text, _) in _english().items()
        for name, noun in COUNT.findall(text)
    }
    return sorted(c for c in found if (c[0], c[1]) not in NEVER_ONE)


def test_the_scan_finds_the_counts() -> None:
    found = {(key, name) for key, name, _ in _counts()}
    assert found >= KNOWN, sorted(KNOWN - found)
    keys = set(_english())
    assert {key for key, _ in NEVER_ONE} <= keys, "a key of NEVER_ONE is gone: drop it"


@pytest.mark.parametrize(("key", "name", "noun"), _counts())
def test_one_of_a_count_reads_singular(key: str, name: str, noun: str) -> None:
    _, names = _english()[key]
    for n in (1, 2):
        args: dict[str, i18n.Arg] = dict.fromkeys(names, 3)
        args[name] = n
        text = i18n.t(i18n.DEFAULT, key, **args)
        if n == 1:
            assert not re.search(rf"(?<![\d.,]){n}[ -]{noun}\b", text), text
        else:
            assert re.search(rf"\b{n}[ -]{noun}", text), text
