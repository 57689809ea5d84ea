"""``RuleSet``: every variant of docs/RULES.md as one field, defaults first.

Code branches on these fields, never on a preset's name: a preset is only a
named ``RuleSet``. The allowed values of every choice field are its ``Literal``
type, so a type checker sees a misspelt variant and ``__post_init__`` refuses
one at run time from the same source (``typing.get_args``).
"""

from __future__ import annotations

import types
import typing
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

Decks = Literal[1, 2, 3]
Bidding = Literal["standard", "joker"]
NoBid = Literal["notrump", "redeal", "kitty_draw"]
FirstDealer = Literal["first_bid", "final_bid"]
Overcall = Literal["deal", "after_bury"]
FollowShape = Literal["strict", "suit_only"]
KittyMultiplier = Literal["power", "doubling", "flat", "linear"]
Scoring = Literal["levels", "race45"]
Assistance = Literal["full", "none"]
PointsCap = Literal[200]
Finish = Literal["defend_a", "reach_a"]

#: For each field added since tables were first stored whose default differs from
#: what the engine did before it: that behaviour. Before the seed-000 variants
#: (30 Nov) the final overcaller dealt the first hand; now the first bidder does.
RULES_BEFORE: dict[str, Any] = {"first_dealer": "final_bid"}

# cards per hand and in the kitty, by deck count (RULES.md "Players, decks, deal")
_HAND = {1: 12, 2: 25, 3: 39}
_KITTY = {1: 6, 2: 8, 3: 6}
_YES = ("yes", "on", "true")
_NO = ("no", "off", "false")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules a table plays by. Field names and values follow RULES.md's table."""

    decks: Decks = 2
    bidding: Bidding = "standard"
    no_bid: NoBid = "notrump"
    first_dealer: FirstDealer = "first_bid"
    overcall: Overcall = "deal"
    fixed_two_trump: bool = False
    trump_chain_tractors: bool = True
    follow_shape: FollowShape = "strict"
    throw_penalty: int = 10
    kitty_multiplier: KittyMultiplier = "power"
    points_cap: PointsCap | None = None
    scoring: Scoring = "levels"
    assistance: Assistance = "full"
    finish: Finish = "defend_a"
    play_seconds: int = 30
    kitty_seconds: int = 60

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            # bool is an int subclass: compare types too, so decks=True is refused
            if not any(value == a and type(value) is type(a) for a in allowed):
                shown = ", ".join("none" if a is None else str(a) for a in allowed)
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

    @classmethod
    def of_table(cls, data: dict[str, Any]) -> RuleSet:
        """The rules a stored table was started under.

        A field added later reads as the rule the engine followed before it existed
        (``RULES_BEFORE``), not as today's default, so a table stored then replays
        its logged actions as they were played. Settings a server saves are read
        with ``from_dict``: its new tables take today's defaults.
        """
        return cls.from_dict({**RULES_BEFORE, **data})

    def replace(self, **changes: Any) -> RuleSet:
        return RuleSet.from_dict({**self.to_dict(), **changes})

    @staticmethod
    def choices(name: str) -> tuple[Any, ...] | None:
        """The allowed values of a field with a fixed set (None for free numbers)."""
        return _CHOICES.get(name)

    @staticmethod
    def parse_field(name: str, text: str) -> Any:
        """The value a person typed for field ``name`` (in a command or ``--rule``).

        Yes/no fields take yes/no, on/off or true/false; number fields a whole
        number; ``points_cap`` also ``none`` (or off/no); choice fields one of
        their words, in any case. The value is checked against the field's
        allowed set, so the ``ValueError`` raised for bad text is a sentence
        for the person who typed it (the caller may add the field's name).
        """
        if name not in _KINDS:
            known = ", ".join(_KINDS)
            raise ValueError(f"there is no rule called {name!r} (rules: {known})")
        kind = _KINDS[name]
        lowered = text.strip().lower()
        if kind is bool:
            if lowered in _YES or lowered in _NO:
                return lowered in _YES
            raise ValueError(f"{name} is yes or no, not {text.strip()!r}")
        allowed = _CHOICES.get(name, ())
        if None in allowed and lowered in ("none", *_NO):
            return None
        if kind is int:
            try:
                value: Any = int(lowered)
            except ValueError:
                raise ValueError(f"{name} takes a whole number, not {text.strip()!r}") from None
        else:
            value = lowered
        if allowed and value not in allowed:
            shown = ", ".join("none" if a is None else str(a) for a in allowed)
            raise ValueError(f"{name} must be one of {shown}, not {text.strip()!r}")
        return value


def _allowed(hint: Any) -> tuple[Any, ...] | None:
    """The values a field's type allows, or None when it is a free number."""
    if hint is bool:
        return (False, True)
    if typing.get_origin(hint) is Literal:
        return typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        parts = [_allowed(arg) for arg in typing.get_args(hint)]
        return (*(v for part in parts if part for v in part), None)
    return None


def _kind(hint: Any) -> type:
    """The Python type of a field's values (``int`` for an int ``Literal``)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _kind(next(a for a in typing.get_args(hint) if a is not type(None)))
    if typing.get_origin(hint) is Literal:
        return type(typing.get_args(hint)[0])
    return typing.cast(type, hint)


_HINTS = typing.get_type_hints(RuleSet)
_KINDS: dict[str, type] = {f.name: _kind(_HINTS[f.name]) for f in fields(RuleSet)}
_CHOICES: dict[str, tuple[Any, ...]] = {
    f.name: allowed for f in fields(RuleSet) if (allowed := _allowed(_HINTS[f.name])) is not None
}

DEFAULT_RULES = RuleSet()
"""The rules of RULES.md without variants: the one default every module shares."""
