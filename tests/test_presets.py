"""Presets are data: each loads as a valid RuleSet and changes what it says."""

from bot.presets import presets
from bot.rules import RuleSet


def test_every_preset_is_a_valid_ruleset_with_a_description() -> None:
    loaded = presets()
    assert loaded["standard"][0] == RuleSet()
    assert loaded["tournament"][0].bidding == "joker"
    assert loaded["three_decks"][0].decks == 3
    for name, (rules, about) in loaded.items():
        assert isinstance(rules, RuleSet) and about, name
        assert len(name) <= 100 and name.islower()
