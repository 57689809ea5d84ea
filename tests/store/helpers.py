"""Helpers for store tests: seats, synthetic hand results, playing a table."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence

from bot.game import HandResult, Match, TrickRecord, action_to_dict, team_of
from bot.rules import DEALER, Trump, advance, parse_cards
from bot.store import SeatInfo, Store, computer_action

GUILD = 42
HUMANS = [
    SeatInfo.human(101, "Ann"),
    SeatInfo.human(102, "Bo"),
    SeatInfo.human(103, "Cy"),
    SeatInfo.human(104, "Di"),
]
BOT = SeatInfo.bot("Robot")


def state_hash(match: Match) -> str:
    """A fingerprint of the whole match state (hidden cards included)."""
    text = json.dumps(match.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def result(
    hand_no: int,
    dealer: int,
    winner: str,
    levels_gained: int,
    *,
    levels_before: tuple[str, str] = ("2", "2"),
    kitty_bonus: int = 0,
    failed_throws: tuple[tuple[int, int], ...] = (),
    match_winner: int | None = None,
) -> HandResult:
    """A consistent synthetic ``HandResult`` (for league arithmetic tests)."""
    up = team_of(dealer) if winner == DEALER else 1 - team_of(dealer)
    after = list(levels_before)
    after[up] = advance(after[up], levels_gained)
    attackers = 120 + 40 * levels_gained if winner != DEALER else 20
    return HandResult(
        hand_no=hand_no,
        dealer=dealer,
        trump=Trump(levels_before[team_of(dealer)], "H"),
        levels_before=levels_before,
        levels_after=(after[0], after[1]),
        trick_points=attackers - kitty_bonus,
        kitty=tuple(parse_cards("3S 4S 5S 6S 7S 8S 9S JS")),
        kitty_points=5,
        multiplier=kitty_bonus // 5,
        kitty_bonus=kitty_bonus,
        attacker_points=attackers,
        winner=winner,
        levels_gained=levels_gained,
        next_dealer=(dealer + 2) % 4 if winner == DEALER else (dealer + 1) % 4,
        last_trick_winner=(dealer + 1) % 4 if kitty_bonus else dealer,
        failed_throws=failed_throws,
        match_winner=match_winner,
    )


TRICKS = [
    TrickRecord(0, ((0, tuple(parse_cards("AH"))), (1, tuple(parse_cards("3H")))), 0, 0),
]


async def play_until(
    store: Store,
    table: int,
    match: Match,
    rng: random.Random,
    seats: Sequence[SeatInfo],
    *,
    actions: int | None = None,
    hands: int | None = None,
) -> list[int]:
    """Drive ``match`` with computer players, logging and recording as the service would.

    Stops after ``actions`` actions or ``hands`` scored hands (whichever first), or at
    the end of the match. Returns the ids of the hands recorded.
    """
    recorded: list[int] = []
    done = 0
    while (actions is None or done < actions) and (hands is None or len(recorded) < hands):
        step = computer_action(match, rng)
        if step is None:
            break
        seat, action = step
        events = match.apply(seat, action)
        await store.append_action(table, match.seq, seat, action_to_dict(action), 0.0)
        done += 1
        if any(e.kind == "hand_scored" for e in events):
            assert match.result is not None
            recorded.append(await store.record_hand(table, match.result, match.tricks, seats, 1.0))
        if any(e.kind == "hand_started" for e in events):
            await store.save_snapshot(table, match.seq, match.to_dict())
    return recorded
