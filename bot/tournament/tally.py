"""A match's running figures for the bracket, from its hands' results as they end.

The table keeps a ``Tally`` per match (it is saved with the tournament, so a restart
loses nothing) and turns it into the bracket's ``Outcome`` when the match stops:
by an outright win, or when the round's time is up and the hand in progress ends.
Team 0 of the match (seats 0 and 2) is the first team of the bracket's game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.game import HandResult, team_of
from bot.rules import DEALER

from .bracket import Outcome, TeamScore


@dataclass(slots=True)
class Tally:
    levels: list[str] = field(default_factory=lambda: ["2", "2"])
    gained: list[int] = field(default_factory=lambda: [0, 0])
    attack_points: list[int] = field(default_factory=lambda: [0, 0])
    attack_hands: list[int] = field(default_factory=lambda: [0, 0])
    hands: int = 0
    deal_team: int = 0
    outright: int | None = None
    flags: list[str] = field(default_factory=list)

    def add(self, result: HandResult, points_cap: int | None = None) -> None:
        """Count one scored hand; its attacking points as the rules count them
        (``RuleSet.points_cap``: points over the cap count as the cap, seed 002, "to stop
        score-padding"): uncapped, one 64-fold kitty outweighed every other hand in the
        bracket's points-per-hand tie-break."""
        dealers = team_of(result.dealer)
        attackers = 1 - dealers
        points = result.attacker_points
        self.attack_points[attackers] += points if points_cap is None else min(points, points_cap)
        self.attack_hands[attackers] += 1
        self.gained[dealers if result.winner == DEALER else attackers] += result.levels_gained
        self.levels = list(result.levels_after)
        self.deal_team = team_of(result.next_dealer)
        self.outright = result.match_winner
        self.hands += 1

    def flag(self, note: str) -> None:
        if note not in self.flags:
            self.flags.append(note)

    def outcome(self) -> Outcome:
        return Outcome(
            tuple(
                TeamScore(
                    self.levels[t],
                    self.outright == t,
                    self.gained[t],
                    self.attack_points[t],
                    self.attack_hands[t],
                )
                for t in (0, 1)
            ),
            self.deal_team,
            self.hands,
            tuple(self.flags),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "levels": list(self.levels),
            "gained": list(self.gained),
            "attack_points": list(self.attack_points),
            "attack_hands": list(self.attack_hands),
            "hands": self.hands,
            "deal_team": self.deal_team,
            "outright": self.outright,
            "flags": list(self.flags),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tally:
        return cls(**data)
