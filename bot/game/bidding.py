"""The first phases of a hand: the deal and its bids, the kitty, the overcall round.

Decisions taken here where RULES.md is silent:

* The first hand's deal starts at ``first_dealer`` (seat 0 unless given). If nobody
  bids on the first hand, that seat deals. Who may bid what, the dealer the bids
  decide and the hand's level follow ``bot.rules.Auction`` (the first or the final
  bidder deals a contested hand; joker bidding's takeover and the dealer's side's
  priority).
* With ``no_bid="redeal"``, and when a kitty draw turns up no level card, a hand is
  redealt at most ``MAX_REDEALS`` times, then played in no trump, so a table of
  players who never bid still ends. The kitty draw's cards are public (the views'
  ``turned``); a draw that found no level card stays there through its redeal, the
  reason the table reads for it, until the next draw or hand.
* The overcall round after burying is held only when a bid holds the deal (a hand
  decided by a kitty draw, or played in no trump because nobody bid, has no bid to
  overcall). The trump changes as each overcall is made; the dealer still leads.
"""

from __future__ import annotations

from bot.rules import MAX_REDEALS, Card, IllegalPlay, Trump, contains, kitty_draw, team_of

from .actions import SYSTEM
from .events import (
    BidMade,
    Buried,
    DealProgress,
    Dealt,
    Event,
    KittyBuried,
    KittyDrawn,
    KittyTaken,
    OvercallRound,
    Passed,
    Redeal,
    RoundOver,
    TrumpSet,
)
from .legal import GameError, NotYourTurn, check_bury, check_seat
from .phase import DEAL, KITTY, Phase
from .state import MatchState


class BiddingPhases(MatchState):
    """The handlers of ``deal``, ``kitty`` and ``overcall``: each checks, then changes."""

    def _deal(self, seat: int, count: int) -> list[Event]:
        if seat != SYSTEM:
            raise GameError("Only the table deals cards.", key="game-err-table-only")
        self._require(DEAL, "deal")
        if self.deal_done:
            raise GameError("All cards are dealt.", key="game-err-all-dealt")
        if count < 1:
            raise GameError("Deal at least one card.", key="game-err-deal-none")
        given: dict[int, list[Card]] = {}
        for _ in range(min(count, self.deal_total - self.dealt)):
            to = (self.deal_start + self.dealt) % 4
            card = self.stock[self.dealt]
            self.hands[to].append(card)
            given.setdefault(to, []).append(card)
            self.dealt += 1
        events: list[Event] = [Dealt(s, tuple(cards)) for s, cards in sorted(given.items())]
        events.append(DealProgress(self.dealt, self.deal_total))
        return events

    def _declare(self, seat: int, cards: list[Card]) -> list[Event]:
        check_seat(seat)
        if self.phase == Phase.OVERCALL:
            self._round_turn(seat)
        else:
            self._require(Phase.DEAL, "bid")
        if not contains(self.hands[seat], cards):
            raise IllegalPlay(
                "You can only show cards you have been dealt.", key="game-err-bid-not-dealt"
            )
        bid = self.auction.check(seat, cards)
        self.bids.append(bid)
        events: list[Event] = [BidMade(seat, bid.cards, bid.suit, bid.strength)]
        if self.phase == Phase.OVERCALL:
            assert self.trump is not None
            self.trump = Trump(self.trump.level, bid.suit)
            events.extend(self._round_step())
        return events

    def _pass(self, seat: int, auto: bool) -> list[Event]:
        check_seat(seat)
        self._round_turn(seat)
        self.passed.append(seat)
        return [Passed(seat, auto), *self._round_step()]

    def _round_turn(self, seat: int) -> None:
        self._require(Phase.OVERCALL, "overcall")
        if seat != self.to_act:
            raise NotYourTurn("It is not your turn.", self.to_act, key="game-err-not-your-turn")

    def _round_step(self) -> list[Event]:
        """One more player has spoken in the round; after the dealer the play starts."""
        assert self.trump is not None and self.dealer is not None
        self.round_done += 1
        if self.round_done < 4:
            return []
        self.phase = Phase.PLAY
        self.leader = self.dealer
        return [RoundOver(self.dealer, self.trump.level, self.trump.suit)]

    def _end_bidding(self, seat: int) -> list[Event]:
        if seat != SYSTEM:
            raise GameError("Only the table closes the bidding.", key="game-err-table-only")
        self._require(DEAL, "close")
        if not self.deal_done:
            raise GameError("The deal is not finished.", key="game-err-deal-unfinished")
        events: list[Event] = []
        if self.bids:
            dealer, level, suit = self.auction.settle()
            assert dealer is not None
            self.dealer = dealer
            self.trump = Trump(level, suit)
        else:
            start = self.deal_start if self.dealer is None else self.dealer
            suit, decided = None, False
            if self.rules.no_bid == "kitty_draw":
                levels = (self.levels[0], self.levels[1])
                turned, drawn, suit = kitty_draw(self.kitty, levels, start)
                self.turned = list(turned)
                decided = drawn is not None
                start = start if drawn is None else drawn
                events.append(KittyDrawn(turned, drawn, suit))
            redeal = self.rules.no_bid in ("redeal", "kitty_draw") and not decided
            if redeal and self.redeals < MAX_REDEALS:
                self.redeals += 1
                self._start_hand()
                return [*events, Redeal(self.redeals)]
            self.dealer = start
            self.trump = Trump(self.levels[team_of(start)], suit)
        dealer = self.dealer
        self.hands[dealer].extend(self.kitty)
        self.phase = KITTY
        bidder = self.bids[-1].seat if self.bids else None
        return [
            *events,
            TrumpSet(dealer, self.trump.level, self.trump.suit, bidder),
            KittyTaken(dealer, tuple(self.kitty)),
        ]

    def _bury(self, seat: int, cards: list[Card], auto: bool) -> list[Event]:
        check_seat(seat)
        self._require(KITTY, "bury")
        if seat != self.dealer:
            raise NotYourTurn(
                "Only the dealer buries the kitty.", self.dealer, key="game-err-dealer-buries"
            )
        check_bury(self.hands[seat], cards, self.rules)
        for card in cards:
            self.hands[seat].remove(card)
        self.kitty = list(cards)
        events: list[Event] = [Buried(seat, auto), KittyBuried(seat, tuple(cards))]
        if self.rules.overcall == "after_bury" and not self.contested and self.bids:
            self.phase = Phase.OVERCALL
            self.round_done = 0
            assert self.to_act is not None
            events.append(OvercallRound(self.to_act))
            return events
        self.phase = Phase.PLAY
        self.leader = seat
        return events
