"""The one codec: every action, event, result and the match state round-trip through JSON,
and what earlier versions stored still loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.game import (
    SYSTEM,
    Deal,
    EndBidding,
    HandResult,
    HandScored,
    Match,
    NextHand,
    Phase,
    Play,
    TrickRecord,
    action_from_dict,
    action_to_dict,
    codec,
    event_from_dict,
    event_to_dict,
    fallback_action,
    replay,
)
from bot.game.codec import is_auto
from bot.game.events import EVENT_TYPES
from bot.rules import RuleSet, Trump, parse_cards

DATA = Path(__file__).parent / "data"


def _events_of_a_match(seed: int) -> list:
    match = Match.new(seed)
    events: list = []
    while match.hand_no < 2 and match.phase != Phase.OVER:
        kind, actor = match.expecting()
        if kind == "deal":
            events += match.apply(SYSTEM, Deal(9))
            if match.dealt == 36 and not match.bids and match.legal_bids(1):
                events += match.apply(
                    1,
                    action_from_dict(
                        {"kind": "declare", "cards": str(match.legal_bids(1)[0].cards[0])}
                    ),
                )
        elif kind == "end_bidding":
            events += match.apply(SYSTEM, EndBidding())
        elif kind == "next_hand":
            events += match.apply(SYSTEM, NextHand())
        else:
            events += match.apply(actor, fallback_action(match.view(actor)))
    return events


def test_every_event_round_trips_through_json() -> None:
    events = _events_of_a_match(21)
    kinds = {type(e) for e in events}
    assert len(kinds) >= 11  # the whole life of a hand, twice
    for event in events:
        data = json.loads(json.dumps(event_to_dict(event)))
        assert data["kind"] == event.kind
        assert event_from_dict(data) == event
    scored = next(e for e in events if isinstance(e, HandScored))
    assert event_to_dict(scored)["result"]["kitty"] == " ".join(map(str, scored.result.kitty))


def test_event_kinds_are_unique_and_cards_are_notation() -> None:
    assert len({cls.kind for cls in EVENT_TYPES}) == len(EVENT_TYPES)
    data = event_to_dict(_events_of_a_match(3)[0])
    assert data["kind"] == "dealt" and isinstance(data["cards"], str)


# stored action, the action
ACTIONS = [
    ({"kind": "deal", "count": 4}, Deal(4)),
    ({"kind": "deal"}, Deal(1)),  # the count was optional in the first logs
    ({"kind": "end_bidding"}, EndBidding()),
    ({"kind": "play", "cards": "AH AH KH"}, Play(tuple(parse_cards("AH AH KH")))),
    ({"kind": "next_hand"}, NextHand()),
]


@pytest.mark.parametrize("stored,action", ACTIONS, ids=[str(a) for _, a in ACTIONS])
def test_actions_read_as_stored(stored: dict, action: object) -> None:
    assert action_from_dict(stored) == action
    assert action_from_dict(action_to_dict(action)) == action


def test_an_action_the_computer_took_for_a_person_is_logged_so() -> None:
    """A timeout or 托管 play is the same play, marked ``auto`` in the log (the review
    leaves it out); logs from before the mark read as the person's own."""
    play = Play(tuple(parse_cards("AH")))
    logged = action_to_dict(play, auto=True)
    assert logged == {"kind": "play", "cards": "AH", "auto": True}
    assert action_from_dict(logged) == play and is_auto(logged)
    assert not is_auto(action_to_dict(play)) and not is_auto({"kind": "play", "cards": "AH"})


@pytest.mark.parametrize(
    "bad", [{"kind": "dance"}, {"cards": "AH"}, {"kind": "play", "cards": "AH", "colour": 1}]
)
def test_unknown_actions_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        action_from_dict(bad)


def test_result_and_trick_round_trip() -> None:
    cards = parse_cards
    result = HandResult(
        hand_no=3, dealer=1, trump=Trump("5", None), levels_before=("3", "5"),
        levels_after=("3", "7"), trick_points=30, kitty=tuple(cards("5H KH 2C")),
        kitty_points=15, multiplier=0, kitty_bonus=0, attacker_points=30, winner="dealer",
        levels_gained=2, next_dealer=3, last_trick_winner=1, failed_throws=((0, 10),),
        match_winner=None,
    )  # fmt: skip
    assert codec.decode(HandResult, json.loads(json.dumps(codec.encode(result)))) == result
    trick = TrickRecord(2, ((2, tuple(cards("AS AS"))), (3, tuple(cards("3S 4S")))), 2, 0)
    assert codec.encode(trick)["plays"] == [[2, "AS AS"], [3, "3S 4S"]]
    assert codec.decode(TrickRecord, codec.encode(trick)) == trick


def test_a_version_1_snapshot_still_loads() -> None:
    """Snapshots written before the codec (bids and trumps as lists) restore live tables."""
    stored = json.loads((DATA / "match_v1.json").read_text())
    assert stored["snapshot"]["version"] == 1
    match = Match.from_dict(stored["snapshot"])
    # played before ``first_dealer`` existed: under the rule the engine had then
    assert match.rules.first_dealer == "final_bid"
    assert match == replay(stored["seed"], stored["actions"], RuleSet(first_dealer="final_bid"))
    assert match.bids[-1].suit is None and match.result is not None
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    rules = RuleSet(decks=3, points_cap=200)
    assert codec.decode(RuleSet, codec.encode(rules)) == rules
