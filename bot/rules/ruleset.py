"""``RuleSet``: every variant of docs/RULES.md as one field, defaults first.

Code branches on these fields, never on a preset's name: a preset is only a
named ``RuleSet``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

_CHOICES: dict[str, tuple[Any, ...]] = {
    "decks": (2, 1, 3),
    "bidding": ("standard", "joker"),
    "no_bid": ("notrump", "redeal"),
    "fixed_two_trump": (False, True),
    "trump_chain_tractors": (True, False),
    "follow_shape": ("strict", "suit_only"),
    "kitty_multiplier": ("power", "doubling", "flat"),
    "points_cap": (None, 200),
    "finish": ("defend_a", "reach_a"),
}

# cards per hand and in the kitty, by deck count (RULES.md "Players, decks, deal")
_HAND = {1: 12, 2: 25, 3: 39}
_KITTY = {1: 6, 2: 8, 3: 6}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules a table plays by. Field names and values follow RULES.md's table."""

    decks: int = 2
    bidding: str = "standard"
    no_bid: str = "notrump"
    fixed_two_trump: bool = False
    trump_chain_tractors: bool = True
    follow_shape: str = "strict"
    throw_penalty: int = 10
    kitty_multiplier: str = "power"
    points_cap: int | None = None
    finish: str = "defend_a"
    play_seconds: int = 30
    kitty_seconds: int = 60

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            # bool is an int subclass: compare types too, so decks=True is refused
            if not any(value == a and type(value) is type(a) for a in allowed):
                shown = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"{name} must be one of {shown}, not {value!r}")
        if type(self.throw_penalty) is not int or self.throw_penalty < 0 or self.throw_penalty % 5:
            raise ValueError(
                f"throw_penalty must be 0 or a multiple of 5, not {self.throw_penalty!r}"
            )
        for name in ("play_seconds", "kitty_seconds"):
            value = getattr(self, name)
            if type(value) is not int or not 5 <= value <= 3600:
                raise ValueError(f"{name} must be a whole number of seconds from 5 to 3600")

    @property
    def hand_size(self) -> int:
        return _HAND[self.decks]

    @property
    def kitty_size(self) -> int:
        return _KITTY[self.decks]

    @property
    def total_points(self) -> int:
        return 100 * self.decks

    @property
    def step(self) -> int:
        """Points per level step: 20 per deck; the attackers take the deal at 2 steps."""
        return 20 * self.decks

    @property
    def max_width(self) -> int:
        """Copies of each card in play: the widest unit (pair with 2 decks, triple with 3)."""
        return self.decks

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build from stored settings; unknown keys are refused so typos surface."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule fields: {', '.join(sorted(unknown))}")
        return cls(**data)

    def replace(self, **changes: Any) -> RuleSet:
        return RuleSet.from_dict({**self.to_dict(), **changes})

    @staticmethod
    def choices(name: str) -> tuple[Any, ...] | None:
        """The allowed values of a field with a fixed set (None for free numbers)."""
        return _CHOICES.get(name)
