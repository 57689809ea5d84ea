"""The quick ``__init__`` of the per-card events and actions keeps them frozen values."""

import dataclasses

import pytest

from bot.game import Play, Played, TrickWon, play
from bot.game.frozen import quick_init
from bot.rules import parse_cards


def test_quick_init_builds_the_same_frozen_values() -> None:
    cards = tuple(parse_cards("AH AH"))
    made = Played(2, cards, False)
    assert made == Played(seat=2, cards=cards, auto=False)
    assert (made.seat, made.cards, made.auto) == (2, cards, False)
    assert hash(made) == hash(Played(2, cards, auto=False))
    assert made != Played(2, cards, True)
    assert repr(TrickWon(3, 1, 20, 45)) == (
        "TrickWon(number=3, winner=1, points=20, attackers_points=45)"
    )
    assert play("AH AH") == Play(cards=cards)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seat = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Played(2, cards)  # type: ignore[call-arg]


def test_quick_init_refuses_fields_with_defaults() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithDefault:
        seat: int
        auto: bool = False

    with pytest.raises(TypeError, match="without defaults"):
        quick_init(WithDefault)
