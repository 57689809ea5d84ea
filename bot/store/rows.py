"""The rows a scored hand writes, computed without I/O.

``hand_rows`` is the whole arithmetic of ``Store.record_hand`` (roles, levels
gained, kitty bonus, failed throws, league points) as a pure function, so it is
tested on its own and the store only reads the players' league points before
and inserts what it returns. The tuples' fields are the tables' columns, in order.

Cards and plays are written in the forms of the game's codec (``bot.game.codec``,
which reads them back in ``queries``), spelled out here because encoding 25
tricks through the codec's type walk costs milliseconds at every hand's end; a
test holds the two to the same forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.game import HandResult, TrickRecord, team_of
from bot.rules import (
    BIG_LIGHT_LEAGUE,
    DEALER,
    LEVELS,
    format_cards,
    league_change,
    league_factor,
    partner_of,
)

from .base import dumps
from .models import SeatInfo


class HandRow(NamedTuple):
    """A ``hands`` row without its ``hand_id`` (the database assigns it)."""

    table_id: int
    guild_id: int
    hand_no: int
    seed: int
    dealer: int
    trump_level: str
    trump_suit: str | None
    level_before_0: str
    level_before_1: str
    level_after_0: str
    level_after_1: str
    trick_points: int
    attacker_points: int
    kitty: str
    kitty_points: int
    multiplier: int
    kitty_bonus: int
    winner: str
    levels_gained: int
    next_dealer: int
    last_trick_winner: int
    match_winner: int | None
    failed_throws: str
    league_change: int
    league_factor: int
    played_at: float


class TrickRow(NamedTuple):
    """A ``tricks`` row without its ``hand_id``."""

    trick_no: int
    leader: int
    winner: int
    points: int
    plays: str
    attempted: str | None


class HandPlayerRow(NamedTuple):
    """A ``hand_players`` row without its ``hand_id``."""

    seat: int
    kind: str
    user_id: int | None
    name: str
    role: str
    team: int
    levels_gained: int
    kitty_bonus: int
    last_trick: int
    failed_throws: int
    throw_penalty: int
    league_before: int | None
    league_delta: int | None


class StatRow(NamedTuple):
    """What one hand adds to a human's ``player_stats`` row (see ``records.STATS_UPSERT``)."""

    guild_id: int
    user_id: int
    dealer_hands: int
    partner_hands: int
    attacker_hands: int
    levels_gained: int
    kitty_bonuses: int
    kitty_bonus_points: int
    failed_throws: int
    throw_penalty_points: int
    league: int
    last_played: float
    name: str  # the player's name as this server shows it (migration 0009)


@dataclass(frozen=True, slots=True)
class HandRows:
    hand: HandRow
    tricks: list[TrickRow]
    players: list[HandPlayerRow]
    stats: list[StatRow]


def role_of(seat: int, dealer: int) -> str:
    if seat == dealer:
        return "dealer"
    return "partner" if seat == partner_of(dealer) else "attacker"


def hand_rows(
    table_id: int,
    guild_id: int,
    seed: int,
    result: HandResult,
    tricks: Sequence[TrickRecord],
    seats: Sequence[SeatInfo],
    league_before: Sequence[int | None],
    at: float,
    big_light: int = BIG_LIGHT_LEAGUE,
) -> HandRows:
    """Every row a scored hand writes, given the seats' league points before it.

    League points (seed 001): ``league_change(winner, levels_gained)`` times
    ``league_factor`` of the four players' points before the hand; the team that
    went up gains it, the other team loses it. Computer players hold no league
    points (``league_before`` is None for them), count as 0 for the factor (so only
    all-human tables are doubled or tripled) and are not ranked. Points may go
    below zero: the seed sets no floor. ``big_light`` is the server's league points
    for a 大光 result (seed 001 特殊房间配置).
    """
    if len(seats) != 4 or len(league_before) != 4:
        raise ValueError(f"a hand has 4 seats, not {len(seats)}")
    dealer = result.dealer
    dealer_team = team_of(dealer)
    up_team = dealer_team if result.winner == DEALER else 1 - dealer_team
    base = league_change(result.winner, result.levels_gained, big_light)
    factor = league_factor([p or 0 for p in league_before])
    change = base * factor
    hand = HandRow(
        table_id=table_id,
        guild_id=guild_id,
        hand_no=result.hand_no,
        seed=seed,
        dealer=dealer,
        trump_level=result.trump.level,
        trump_suit=result.trump.suit,
        level_before_0=result.levels_before[0],
        level_before_1=result.levels_before[1],
        level_after_0=result.levels_after[0],
        level_after_1=result.levels_after[1],
        trick_points=result.trick_points,
        attacker_points=result.attacker_points,
        kitty=format_cards(result.kitty),
        kitty_points=result.kitty_points,
        multiplier=result.multiplier,
        kitty_bonus=result.kitty_bonus,
        winner=result.winner,
        levels_gained=result.levels_gained,
        next_dealer=result.next_dealer,
        last_trick_winner=result.last_trick_winner,
        match_winner=result.match_winner,
        failed_throws=dumps([list(x) for x in result.failed_throws]),
        league_change=base,
        league_factor=factor,
        played_at=at,
    )
    trick_rows = [
        TrickRow(
            trick_no=n,
            leader=t.leader,
            winner=t.winner,
            points=t.points,
            plays=dumps([[s, format_cards(c)] for s, c in t.plays]),
            attempted=None if t.attempted is None else format_cards(t.attempted),
        )
        for n, t in enumerate(tricks, start=1)
    ]
    players: list[HandPlayerRow] = []
    stats: list[StatRow] = []
    for seat, info in enumerate(seats):
        team = team_of(seat)
        role = role_of(seat, dealer)
        gained = LEVELS.index(result.levels_after[team]) - LEVELS.index(result.levels_before[team])
        bonus = result.kitty_bonus if team != dealer_team else 0
        throws = [p for s, p in result.failed_throws if s == seat]
        delta = (change if team == up_team else -change) if info.ranked else None
        players.append(
            HandPlayerRow(
                seat=seat,
                kind=info.kind,
                user_id=info.user_id if info.ranked else None,
                name=info.name,
                role=role,
                team=team,
                levels_gained=gained,
                kitty_bonus=bonus,
                last_trick=int(result.last_trick_winner == seat),
                failed_throws=len(throws),
                throw_penalty=sum(throws),
                league_before=league_before[seat] if info.ranked else None,
                league_delta=delta,
            )
        )
        if info.ranked and info.user_id is not None and delta is not None:
            stats.append(
                StatRow(
                    guild_id=guild_id,
                    user_id=info.user_id,
                    dealer_hands=int(role == "dealer"),
                    partner_hands=int(role == "partner"),
                    attacker_hands=int(role == "attacker"),
                    levels_gained=gained,
                    kitty_bonuses=int(bonus > 0),
                    kitty_bonus_points=bonus,
                    failed_throws=len(throws),
                    throw_penalty_points=sum(throws),
                    league=delta,
                    last_played=at,
                    name=info.name,
                )
            )
    return HandRows(hand, trick_rows, players, stats)
