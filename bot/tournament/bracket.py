"""The bracket of a tournament (seed 000, 晋级规则): draw, byes, winners, advancing, podium.

Pure data and rules, no I/O: the CLI and the Discord service feed it each match's
``Outcome`` and ask it for the next round. Decisions where the seed is silent:

- **The draw** is a shuffle of the entrants by ``random.Random("draw/<seed>")``:
  anyone can re-check it from the stored seed. A team's place in that shuffle is its
  *draw position*, the last tie-break.
- **Pairing.** Teams are listed best first (round 1: in draw order) and paired best
  against worst (1 v n, 2 v n-1, ...). With an odd count the best-placed team gets
  the bye (轮空): it goes on to the next round whatever the others' figures, and is
  ranked on its figures of the match before, which earned it the bye (in the first
  round, where there is none, a win at level 2 with nothing gained). Counted as a win
  at level 2 everywhere, a bye put the best team last among the winners: off the
  podium, or out before it had played.
- **A match's winner** is the team that won it outright (defended A), else the team
  at the higher level, else the team holding the deal (the next dealer's team; seat
  0's team if no hand was finished).
- **Ranking** within a round: winners first, then the losers, each ordered by level
  reached (an outright win counts one step above A), then levels gained in the round
  (counted in full, even past A), then the team's attacking points per hand (each
  hand's as the rules count them: over ``points_cap`` as the cap, ``Tally.add``), then
  the draw position.
- **Rounds.** Each round's winners are ranked and the top ``advance`` (the bye's team
  among them) go on while the next round can still produce ``podium`` match winners;
  the last round's ranking gives the podium (winners first, so losers fill it only
  when there are fewer winners than podium places). ``podium`` is capped at the
  number of entrants.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules import LEVELS

BYE_LEVEL = "2"


class BracketError(ValueError):
    """A request the bracket cannot take (the message is for the organiser)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team: a unique name, its members (player ids or names), whether computer-played."""

    name: str
    members: tuple[str, ...] = ()
    computer: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "members": list(self.members), "computer": self.computer}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entrant:
        return cls(str(data["name"]), tuple(data.get("members", ())), bool(data["computer"]))


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One team's figures in one match."""

    level: str = BYE_LEVEL
    outright: bool = False  # won the match by defending A
    gained: int = 0  # levels gained in the match, counted past A
    attack_points: int = 0  # attackers' points over the hands it attacked
    attack_hands: int = 0

    @property
    def points_per_hand(self) -> float:
        return self.attack_points / self.attack_hands if self.attack_hands else 0.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished match: one ``TeamScore`` per team (one for a bye) and who holds the deal."""

    scores: tuple[TeamScore, ...]
    deal_team: int = 0
    hands: int = 0
    flags: tuple[str, ...] = ()  # e.g. a player replaced by a computer player

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": [
                [s.level, s.outright, s.gained, s.attack_points, s.attack_hands]
                for s in self.scores
            ],
            "deal_team": self.deal_team,
            "hands": self.hands,
            "flags": list(self.flags),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        scores = tuple(TeamScore(str(a), bool(b), c, d, e) for a, b, c, d, e in data["scores"])
        return cls(scores, data["deal_team"], data["hands"], tuple(data.get("flags", ())))


BYE = Outcome((TeamScore(),))


def match_winner(outcome: Outcome) -> int:
    """The winning side (0 or 1; 0 for a bye): outright, else higher level, else the deal."""
    scores = outcome.scores
    if len(scores) == 1:
        return 0
    for side, score in enumerate(scores):
        if score.outright:
            return side
    first, second = (LEVELS.index(s.level) for s in scores)
    if first != second:
        return 0 if first > second else 1
    return outcome.deal_team


def level_reached(score: TeamScore) -> int:
    """The level as a number (2 is 0, A is 12), an outright win one more."""
    return LEVELS.index(score.level) + (1 if score.outright else 0)


def draw(count: int, seed: str) -> list[int]:
    """Entrant indexes in draw order: the same ``seed`` always gives the same draw."""
    order = list(range(count))
    random.Random(f"draw/{seed}").shuffle(order)
    return order


def pair(ranked: Sequence[int]) -> list[tuple[int, ...]]:
    """Matches for teams listed best first: a bye for the best if odd, then 1 v n, 2 v n-1."""
    teams = list(ranked)
    games: list[tuple[int, ...]] = []
    if len(teams) % 2:
        games.append((teams.pop(0),))
    half = len(teams) // 2
    games.extend((teams[i], teams[-1 - i]) for i in range(half))
    return games


def plan(entrants: int, advance: int, podium: int) -> list[int]:
    """How many teams play each round: a round follows while it can still fill the podium."""
    if entrants < 2:
        raise BracketError("A tournament needs at least two teams.")
    if advance < 2:
        raise BracketError("At least two teams must advance from a round.")
    if podium < 1:
        raise BracketError("The podium needs at least one place.")
    sizes = [entrants]
    while True:
        following = min(advance, math.ceil(sizes[-1] / 2))
        if following < 2 or math.ceil(following / 2) < min(podium, entrants):
            return sizes
        sizes.append(following)


@dataclass(slots=True)
class Game:
    """One match of a round: two entrant indexes (one for a bye) and, once done, its outcome."""

    round_no: int
    index: int
    teams: tuple[int, ...]
    outcome: Outcome | None = None

    @property
    def bye(self) -> bool:
        return len(self.teams) == 1

    @property
    def winner(self) -> int | None:
        """The winning entrant's index, once the match is over."""
        if self.outcome is None:
            return None
        return self.teams[match_winner(self.outcome)]

    def score_of(self, team: int) -> TeamScore | None:
        if self.outcome is None:
            return None
        return self.outcome.scores[self.teams.index(team)]


@dataclass(slots=True)
class Round:
    number: int
    games: list[Game]

    @property
    def done(self) -> bool:
        return all(game.outcome is not None for game in self.games)

    @property
    def teams(self) -> list[int]:
        return [team for game in self.games for team in game.teams]


@dataclass(slots=True)
class Tournament:
    """The whole bracket; ``start``, ``record`` each outcome, ``close_round``, repeat."""

    entrants: list[Entrant]
    seed: str
    advance: int = 8
    podium_size: int = 3
    order: list[int] = field(default_factory=list)  # the draw, set by ``start``
    rounds: list[Round] = field(default_factory=list)
    podium: list[int] | None = None

    def __post_init__(self) -> None:
        names = [e.name.casefold() for e in self.entrants]
        if len(set(names)) != len(names):
            raise BracketError("Two teams have the same name.")
        plan(len(self.entrants), self.advance, self.podium_size)  # validates the figures

    @property
    def sizes(self) -> list[int]:
        """Teams per round, planned from the entrants, ``advance`` and ``podium``."""
        return plan(len(self.entrants), self.advance, self.podium_size)

    @property
    def total_rounds(self) -> int:
        return len(self.sizes)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        return self.podium is not None

    def start(self) -> Round:
        """The draw and the first round."""
        if self.rounds:
            raise BracketError("The tournament has already started.")
        self.order = draw(len(self.entrants), self.seed)
        return self._new_round(self.order)

    def _new_round(self, ranked: Sequence[int]) -> Round:
        number = len(self.rounds) + 1
        games = [Game(number, i, teams) for i, teams in enumerate(pair(ranked))]
        for game in games:
            if game.bye:
                game.outcome = BYE
        round_ = Round(number, games)
        self.rounds.append(round_)
        return round_

    def game(self, round_no: int, index: int) -> Game:
        try:
            return self.rounds[round_no - 1].games[index]
        except IndexError:
            raise BracketError(f"There is no match {index + 1} in round {round_no}.") from None

    def record(self, round_no: int, index: int, outcome: Outcome) -> Game:
        """Store a finished match's outcome (only in the current round, only once)."""
        game = self.game(round_no, index)
        if game.round_no != len(self.rounds) or self.finished:
            raise BracketError("That round is over.")
        if game.outcome is not None:
            raise BracketError("That match already has a result.")
        if len(outcome.scores) != len(game.teams):
            raise BracketError("The outcome does not fit the match.")
        game.outcome = outcome
        return game

    def standing(self, game: Game, team: int) -> TeamScore:
        """The figures ``team`` is ranked on in ``game``: a bye's are those of the team's
        match before (the first round's bye: level 2, nothing gained)."""
        if game.bye and game.round_no > 1:
            before = self.rounds[game.round_no - 2].games
            return self.standing(next(g for g in before if team in g.teams), team)
        score = game.score_of(team)
        assert score is not None
        return score

    def key(self, game: Game, team: int) -> tuple[int, int, float, int]:
        """Sort key (larger is better) of ``team`` in ``game``."""
        score = self.standing(game, team)
        return (
            level_reached(score),
            score.gained,
            score.points_per_hand,
            -self.order.index(team),
        )

    def ranking(self, round_: Round) -> list[int]:
        """A finished round's teams, best first: winners, then losers."""
        if not round_.done:
            raise BracketError(f"Round {round_.number} is still being played.")
        winners = [g.winner for g in round_.games]
        placed = [(g, t) for g in round_.games for t in g.teams]
        placed.sort(key=lambda gt: (gt[1] in winners, self.key(*gt)), reverse=True)
        return [team for _, team in placed]

    def winners(self, round_: Round) -> list[int]:
        """The round's match winners, best first."""
        won = {g.winner for g in round_.games}
        return [t for t in self.ranking(round_) if t in won]

    def advancing(self, round_: Round) -> list[int]:
        """The teams of a finished round that go on, best first: the top ``advance``
        winners, the bye's team always among them."""
        byes = {g.teams[0] for g in round_.games if g.bye}
        winners = self.winners(round_)
        others = [team for team in winners if team not in byes][: self.advance - len(byes)]
        return [team for team in winners if team in byes or team in others]

    def close_round(self) -> Round | None:
        """After the current round: the next round, or None with the podium set."""
        round_ = self.current
        if round_ is None:
            raise BracketError("The tournament has not started.")
        if self.finished:
            raise BracketError("The tournament is over.")
        if not round_.done:
            raise BracketError(f"Round {round_.number} is still being played.")
        if round_.number >= self.total_rounds:
            self.podium = self.ranking(round_)[: min(self.podium_size, len(self.entrants))]
            return None
        return self._new_round(self.advancing(round_))

    def eliminated_in(self, team: int) -> int | None:
        """The round a team left in (None while still in, or when on the podium)."""
        for round_ in self.rounds:
            if team not in round_.teams:
                return round_.number - 1
        if self.finished and self.podium is not None and team not in self.podium:
            return self.rounds[-1].number
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "entrants": [e.to_dict() for e in self.entrants],
            "seed": self.seed,
            "advance": self.advance,
            "podium_size": self.podium_size,
            "order": list(self.order),
            "rounds": [
                [[list(g.teams), g.outcome.to_dict() if g.outcome else None] for g in round_.games]
                for round_ in self.rounds
            ],
            "podium": self.podium,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        tournament = cls(
            [Entrant.from_dict(e) for e in data["entrants"]],
            data["seed"],
            data["advance"],
            data["podium_size"],
            list(data["order"]),
        )
        for number, games in enumerate(data["rounds"], start=1):
            tournament.rounds.append(
                Round(
                    number,
                    [
                        Game(number, i, tuple(teams), Outcome.from_dict(o) if o else None)
                        for i, (teams, o) in enumerate(games)
                    ],
                )
            )
        tournament.podium = data["podium"]
        return tournament
