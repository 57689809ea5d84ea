"""Presets are data: each loads as a valid RuleSet and changes what it says."""

import re
from pathlib import Path
from typing import Any

import pytest

from bot.presets import presets
from bot.rules import RuleSet
from tests.rules.test_table_ruleset import DEFAULTS


def test_every_preset_is_a_valid_ruleset_with_a_description() -> None:
    loaded = presets()
    assert loaded["standard"][0] == RuleSet()
    assert loaded["tournament"][0].bidding == "joker"
    assert loaded["three_decks"][0].decks == 3
    for name, (rules, about) in loaded.items():
        assert isinstance(rules, RuleSet) and about, name
        assert len(name) <= 100 and name.islower()


# What each preset changes, as the README's presets table says, and the seed it is from.
CHANGES: dict[str, dict[str, Any]] = {
    "standard": {},  # 001, 003
    "tournament": {  # 000 (002 for the points cap)
        "bidding": "joker",
        "overcall": "after_bury",
        "no_bid": "kitty_draw",
        "assistance": "none",
        "throw_penalty": 10,
        "kitty_multiplier": "power",
        "points_cap": 200,
    },
    "casual": {"follow_shape": "suit_only", "throw_penalty": 0, "play_seconds": 60},  # house rule
    "two_is_trump": {"fixed_two_trump": True},  # 001
    "three_decks": {"decks": 3, "kitty_multiplier": "linear"},  # 002
    "one_deck": {"decks": 1},  # 001
    "one_deck_race": {"decks": 1, "scoring": "race45", "finish": "reach_a"},  # 000 §四
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_each_preset_is_exactly_its_rule_set(name: str) -> None:
    """Every field of the preset's rules pinned, the ones it leaves alone too (the
    defaults of RULES.md, seeds 001 and 003, written out in ``DEFAULTS``)."""
    assert presets()[name][0].to_dict() == {**DEFAULTS, **CHANGES[name]}


def test_no_preset_goes_unpinned_and_the_readme_table_says_the_same() -> None:
    """The README's presets table is what players read: each row lists the same changes."""
    assert list(presets()) == list(CHANGES)
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*?) \| [^|]* \|$", readme, re.MULTILINE))
    for name, changes in CHANGES.items():
        pairs = re.findall(r"`(\w+): (\w+)`", rows[name])
        assert {field: RuleSet.parse_field(field, value) for field, value in pairs} == changes
