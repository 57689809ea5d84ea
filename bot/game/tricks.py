"""The last phases of a hand: the tricks, the score and the next hand.

Decisions taken here where RULES.md is silent:

* After a race45 draw the next hand is contested like the first, its deal starting
  from the same seat.
* The failed-throw penalty moves the attackers' points (down for an attacker's
  throw, up for the dealer's side) as the throw happens; the level table reads
  the final total, floored at 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from bot.rules import (
    DEALER,
    DRAW,
    POINTS_OF,
    Card,
    advance,
    check_follow,
    hand_outcome,
    kitty_multiplier,
    match_over,
    next_dealer,
    points,
    resolve_throw,
    single_winner,
    team_of,
    trick_winner,
)

from .actions import SYSTEM
from .events import Event, HandScored, HandStarted, MatchOver, Played, ThrowFailed, TrickWon
from .legal import GameError, NotYourTurn, check_lead, check_seat
from .phase import OVER, PLAY, SCORED
from .state import MatchState
from .views import HandResult, TrickRecord

_TRICK_RECORD = tuple.__new__  # a TrickRecord from its fields in order, without __new__'s call
# the event of a single card played, by ``auto`` and seat, then card: an event is an
# immutable value, so each is made once (at most 432) instead of for most plays of every
# hand (looked up without building a key)
_SINGLE_PLAYED: tuple[tuple[dict[Card, Played], ...], ...] = tuple(
    tuple({} for _ in range(4)) for _ in (False, True)
)


class TrickPhases(MatchState):
    """The handlers of ``play`` and ``scored``: each checks, then changes."""

    def _play(self, seat: int, cards: Sequence[Card], auto: bool) -> list[Event]:
        trick = self.trick
        leader = self.leader
        # the seat, phase and turn checks in one test when all is well (every play of
        # every simulation passes here); otherwise the checks in their usual order
        if self.phase is not PLAY or leader is None or seat != (leader + len(trick)) % 4:
            check_seat(seat)
            self._require(PLAY, "play")
            raise NotYourTurn("It is not your turn.", self.to_act, key="game-err-not-your-turn")
        trump = self.trump
        assert trump is not None
        hand = self.hands[seat]
        try:
            at = hand.index(cards[0]) if len(cards) == 1 else -1
        except ValueError:  # not held: the general path refuses it, with reasons
            at = -1
        if at < 0:
            return self._play_cards(seat, hand, cards, auto)
        # a single card from the hand (most plays of a hand): always a legal lead, and a
        # legal follow to a single when of the led suit or when the seat has none of it;
        # ``check_follow`` asks the same first, and explains a refusal
        card = cards[0]
        if not trick:
            self.attempted = None
        else:
            lead = trick[0][1]
            order = self._order
            if order is None or self._order_of is not trump:
                order = self._compile_order(trump)
            led = order.suit_of[lead[0]]
            if len(lead) != 1 or (
                order.suit_of[card] != led and not order.members[led].isdisjoint(hand)
            ):
                check_follow(hand, lead, cards, trump, self.rules)  # raises
        del hand[at]
        made = _SINGLE_PLAYED[auto][seat]
        event = made.get(card)
        if event is None:
            event = made[card] = Played(seat, (card,), auto)
        trick.append((seat, event.cards))
        if len(trick) < 4:
            return [event]
        return [event, *self._finish_trick()]

    def _play_cards(
        self, seat: int, hand: list[Card], cards: Sequence[Card], auto: bool
    ) -> list[Event]:
        """A play of several cards (or of a card the hand lacks, which fails its check)."""
        trump = self.trump
        assert trump is not None
        trick = self.trick
        events: list[Event] = []
        if trick:
            check_follow(hand, trick[0][1], cards, trump, self.rules)
            played: Sequence[Card] = cards
        else:
            played = cards
            self.attempted = None
            # a pair or triple from the hand is one unit, always a legal lead; any other
            # lead is checked, and a throw (several units) against the other hands
            n = len(cards)
            identical = n > 1 and cards.count(cards[0]) == n <= hand.count(cards[0])
            if not identical and len(check_lead(hand, cards, trump, self.rules)) > 1:
                others = [self.hands[s] for s in range(4) if s != seat]
                played = resolve_throw(cards, others, trump, self.rules)
                if len(played) != len(cards):
                    back = list(cards)
                    for card in played:
                        back.remove(card)
                    penalty = self.rules.throw_penalty * len(back)
                    if self._attacking(seat):
                        self.attackers_points -= penalty
                    else:
                        self.attackers_points += penalty
                    self.failed_throws.append((seat, penalty))
                    self.attempted = tuple(cards)
                    events.append(
                        ThrowFailed(
                            seat,
                            tuple(cards),
                            tuple(played),
                            tuple(back),
                            penalty,
                            self.attackers_points,
                        )
                    )
        for card in played:
            hand.remove(card)
        cards_played = tuple(played)
        trick.append((seat, cards_played))
        events.append(Played(seat, cards_played, auto))
        if len(trick) == 4:
            events.extend(self._finish_trick())
        return events

    def _attacking(self, seat: int) -> bool:
        assert self.dealer is not None
        return team_of(seat) != team_of(self.dealer)

    def _finish_trick(self) -> list[Event]:
        trump, leader, dealer = self.trump, self.leader, self.dealer
        assert trump is not None and leader is not None and dealer is not None
        trick = self.trick
        if len(trick[0][1]) == 1:  # a single led, so four single cards: most tricks
            (_, (a,)), (_, (b,)), (_, (c,)), (_, (d,)) = trick
            order = self._order
            if order is None or self._order_of is not trump:
                order = self._compile_order(trump)
            winner = trick[single_winner(order, (a, b, c, d))][0]
            won = POINTS_OF[a] + POINTS_OF[b] + POINTS_OF[c] + POINTS_OF[d]
        else:
            plays = [cards for _, cards in trick]
            winner = trick[trick_winner(plays, trump, self.rules)][0]
            won = points(chain.from_iterable(plays))
        if won and team_of(winner) != team_of(dealer):
            self.attackers_points += won
        tricks = self.tricks
        tricks.append(
            _TRICK_RECORD(TrickRecord, (leader, tuple(trick), winner, won, self.attempted))
        )
        self._tricks_view = None
        self.trick = []
        self.attempted = None
        self.leader = winner
        done = TrickWon(len(tricks), winner, won, self.attackers_points)
        if self.hands[winner]:
            return [done]
        return [done, *self._score_hand()]

    def _score_hand(self) -> list[Event]:
        assert self.dealer is not None and self.trump is not None
        dealer = self.dealer
        last = self.tricks[-1]
        kitty_points = points(self.kitty)
        multiplier = 0
        if self._attacking(last.winner):
            multiplier = kitty_multiplier(last.lead, self.trump, self.rules)
        bonus = kitty_points * multiplier
        total = self.attackers_points + bonus
        winner, gained = hand_outcome(total, self._attacking(last.winner), self.rules)
        before = (self.levels[0], self.levels[1])
        if winner != DRAW:
            up = team_of(dealer) if winner == DEALER else 1 - team_of(dealer)
            self.levels[up] = advance(self.levels[up], gained)
        after = (self.levels[0], self.levels[1])
        following = next_dealer(dealer, winner)
        if match_over(before[team_of(dealer)], winner, after, self.rules):
            self.winner_team = (
                team_of(dealer)
                if self.rules.finish == "defend_a"
                else next(t for t in (0, 1) if after[t] == "A")
            )
        self.result = HandResult(
            hand_no=self.hand_no,
            dealer=dealer,
            trump=self.trump,
            levels_before=before,
            levels_after=after,
            trick_points=self.attackers_points,
            kitty=tuple(self.kitty),
            kitty_points=kitty_points,
            multiplier=multiplier,
            kitty_bonus=bonus,
            attacker_points=total,
            winner=winner,
            levels_gained=gained,
            next_dealer=following,
            last_trick_winner=last.winner,
            failed_throws=tuple(self.failed_throws),
            match_winner=self.winner_team,
        )
        self.phase = OVER if self.winner_team is not None else SCORED
        events: list[Event] = [HandScored(self.result)]
        if self.winner_team is not None:
            events.append(MatchOver(self.winner_team, after))
        return events

    def _next_hand(self, seat: int) -> list[Event]:
        if seat != SYSTEM:
            raise GameError("Only the table starts the next hand.", key="game-err-table-only")
        self._require(SCORED, "next")
        assert self.result is not None
        self.hand_no += 1
        self.redeals = 0
        self.turned = []  # a hand's draw stays through its redeals (the reason for them)
        # after a race45 draw the deal is contested again, starting from the same seat
        self.dealer = None if self.result.winner == DRAW else self.result.next_dealer
        self.deal_start = self.result.next_dealer
        self._start_hand()
        return [HandStarted(self.hand_no, self.deal_start, (self.levels[0], self.levels[1]))]
