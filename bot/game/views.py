"""What a seat may know: per-seat views, finished tricks and hand results.

Views are named tuples built from the match's own immutable pieces (tuples of
tuples), so making one per decision costs a few microseconds; computer players
decide from views only, never from the match, which keeps them honest about hidden
cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from bot.rules import Auction, Bid, Card, RuleSet, Trump, team_of

from .frozen import quick_init
from .phase import Expecting, Phase

Plays = tuple[tuple[int, tuple[Card, ...]], ...]  # (seat, cards) in play order


class TrickRecord(NamedTuple):
    """A finished trick. ``attempted`` is the leader's failed throw, if there was one."""

    leader: int
    plays: Plays
    winner: int
    points: int
    attempted: tuple[Card, ...] | None = None

    @property
    def lead(self) -> tuple[Card, ...]:
        return self.plays[0][1]


@quick_init  # made at the end of every simulated and searched hand
@dataclass(frozen=True, slots=True)
class HandResult:
    """The score of one hand: everything the summary, the records and the AI need."""

    hand_no: int
    dealer: int
    trump: Trump
    levels_before: tuple[str, str]
    levels_after: tuple[str, str]
    trick_points: int  # attackers' points from tricks, with throw penalties
    kitty: tuple[Card, ...]
    kitty_points: int
    multiplier: int  # 0 when the dealer's side won the last trick
    kitty_bonus: int
    attacker_points: int  # trick_points + kitty_bonus: what the level table reads
    winner: str  # "dealer" or "attackers"
    levels_gained: int
    next_dealer: int
    last_trick_winner: int
    failed_throws: tuple[tuple[int, int], ...]  # (seat, penalty points)
    match_winner: int | None  # team 0 (seats 0, 2) or 1 (seats 1, 3) when the match ended


class SeatView(NamedTuple):
    """Exactly what one seat may know (``seat=None``: a spectator, public facts only).

    ``hand`` is the seat's own cards; ``kitty`` is set only for the dealer once they
    have taken it (they know what they buried). Nothing here reveals another hand.
    """

    seat: int | None
    rules: RuleSet
    hand_no: int
    phase: Phase
    levels: tuple[str, str]
    dealer: int | None
    level: str
    trump: Trump | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    dealt: int
    deal_total: int
    bids: tuple[Bid, ...]
    kitty: tuple[Card, ...] | None
    to_act: int | None
    expecting: Expecting | None
    leader: int | None
    trick: Plays
    tricks: tuple[TrickRecord, ...]
    attackers_points: int
    last_result: HandResult | None
    match_winner: int | None
    seq: int = 0  # accepted actions so far: tells a stale button from a fresh one
    # the hand's kitty draw (``no_bid="kitty_draw"``): the cards turned, public by the rules;
    # after a redeal, the draw that caused it until the next draw
    turned: tuple[Card, ...] = ()
    passed: tuple[int, ...] = ()  # the seats that passed in the overcall round, in order
    redeals: int = 0  # the hand's new deals after nobody bid (``no_bid``: redeal, kitty_draw)

    @property
    def current_bid(self) -> Bid | None:
        return self.bids[-1] if self.bids else None

    @property
    def auction(self) -> Auction:
        """This hand's bids and what they allow: ``auction.options(hand, seat)`` are the
        bids a seat may make now (during the deal, or in the round after burying)."""
        return Auction(
            self.levels, self.dealer, self.bids, self.rules, self.phase == Phase.OVERCALL
        )

    @property
    def lead(self) -> tuple[Card, ...] | None:
        return self.trick[0][1] if self.trick else None

    @property
    def dealer_team(self) -> int | None:
        return None if self.dealer is None else team_of(self.dealer)

    def is_attacker(self, seat: int) -> bool:
        return self.dealer is not None and team_of(seat) != team_of(self.dealer)
