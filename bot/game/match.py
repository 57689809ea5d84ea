"""One table's match, from level 2 to the end, as a state machine.

``Match.apply(seat, action)`` is the one way in: it checks the action against the
phase, the turn and the rules, changes the state only when everything is legal,
and returns the events that describe what happened (some meant for one seat
only). Illegal actions raise an error whose message a player can read.

Phases of a hand: ``deal`` (cards go out one at a time; anyone may bid, during the
deal and in the window after it) → ``kitty`` (the dealer buries) → with
``overcall="after_bury"`` once the dealer is known, ``overcall`` (each player once
in turn from the dealer's next seat overcalls or passes) → ``play`` → ``scored``
(the summary is up; ``NextHand`` starts the next deal) … ``over``.

Time is data: ``expecting()`` says who must act next and on what; the caller owns
the clock and sends ``Deal``/``EndBidding``/``NextHand`` as ``SYSTEM``, and calls
``timeout(seat, decide)`` when a player runs out of time.

Decisions taken here where RULES.md is silent:

* The first hand's deal starts at ``first_dealer`` (seat 0 unless given). If nobody
  bids on the first hand, that seat deals. Who may bid what, the dealer the bids
  decide and the hand's level follow ``bot.rules.Auction`` (the first or the final
  bidder deals a contested hand; joker bidding's takeover and the dealer's side's
  priority).
* With ``no_bid="redeal"``, and when a kitty draw turns up no level card, a hand is
  redealt at most ``MAX_REDEALS`` times, then played in no trump, so a table of
  players who never bid still ends. The kitty draw's cards are public.
* The overcall round after burying is held only when a bid holds the deal (a hand
  decided by a kitty draw, or played in no trump because nobody bid, has no bid to
  overcall). The trump changes as each overcall is made; the dealer still leads.
* After a race45 draw the next hand is contested like the first, its deal starting
  from the same seat.
* The failed-throw penalty moves the attackers' points (down for an attacker's
  throw, up for the dealer's side) as the throw happens; the level table reads
  the final total, floored at 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.rules import (
    DEALER,
    DEFAULT_RULES,
    DRAW,
    Auction,
    Bid,
    Card,
    IllegalPlay,
    RulesError,
    RuleSet,
    Trump,
    advance,
    check_follow,
    contains,
    deck,
    hand_outcome,
    kitty_draw,
    kitty_multiplier,
    match_over,
    next_dealer,
    order_for,
    points,
    resolve_throw,
    team_of,
    trick_winner,
)

from . import codec
from .actions import (
    SYSTEM,
    Action,
    Bury,
    Deal,
    Declare,
    EndBidding,
    NextHand,
    Pass,
    Play,
)
from .events import (
    BidMade,
    Buried,
    DealProgress,
    Dealt,
    Event,
    HandScored,
    HandStarted,
    KittyBuried,
    KittyDrawn,
    KittyTaken,
    MatchOver,
    OvercallRound,
    Passed,
    Played,
    Redeal,
    RoundOver,
    ThrowFailed,
    TrickWon,
    TrumpSet,
)
from .legal import (
    GameError,
    NotYourTurn,
    check_bury,
    check_lead,
    check_seat,
    wrong_phase,
)
from .phase import Phase
from .views import HandResult, SeatView, TrickRecord

MAX_REDEALS = 5
# the phases as module constants: an Enum class attribute costs several times a
# global lookup, and these checks run for every view (the simulations' hot path)
_DEAL, _KITTY, _OVERCALL, _PLAY, _SCORED, _OVER = (
    Phase.DEAL,
    Phase.KITTY,
    Phase.OVERCALL,
    Phase.PLAY,
    Phase.SCORED,
    Phase.OVER,
)
_SEAT_VIEW = tuple.__new__  # builds a SeatView from its fields in order, without __new__'s call
Decide = Callable[[SeatView], Action]


class Match:
    """A whole match for four seats. Build one with ``Match.new``."""

    def __init__(self, rules: RuleSet, seed: int, first_dealer: int = 0) -> None:
        self.rules = rules
        self.deal_total = 4 * rules.hand_size  # cards dealt to the players each hand
        self.seed = seed
        self.first_dealer = first_dealer
        self.hand_no = 0
        self.redeals = 0
        self.levels = ["2", "2"]
        self.dealer: int | None = None
        self.phase = _DEAL
        self.deal_start = first_dealer
        self.stock: list[Card] = []  # the shuffled deck of this hand (deal order, kitty last)
        self.dealt = 0
        self.hands: list[list[Card]] = [[], [], [], []]
        self.kitty: list[Card] = []
        self.bids: list[Bid] = []
        self.contested = True  # no dealer when the hand began: the bids decide it
        self.round_done = 0  # players who overcalled or passed in the after-bury round
        self.turned: list[Card] = []  # the kitty draw's cards, shown to everyone
        self.trump: Trump | None = None
        self.leader: int | None = None
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.attempted: tuple[Card, ...] | None = None
        self.tricks: list[TrickRecord] = []
        self._tricks_view: tuple[TrickRecord, ...] | None = None  # cached for views
        self.attackers_points = 0
        self.failed_throws: list[tuple[int, int]] = []
        self.result: HandResult | None = None
        self.winner_team: int | None = None
        self.seq = 0  # accepted actions so far
        self.last_action: Action | None = None  # the last accepted action (not state)
        self.deck_override: list[Card] | None = None

    # --- construction --------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seed: int,
        rules: RuleSet | None = None,
        *,
        first_dealer: int | None = None,
        levels: tuple[str, str] = ("2", "2"),
        deck_order: Sequence[Card] | None = None,
    ) -> Match:
        """A match ready to deal its first hand.

        ``first_dealer`` fixes the first dealer instead of letting the winning bid
        choose (duplicate-deal arenas need that); ``deck_order`` fixes the first
        hand's cards (stacked decks for tests and arenas).
        """
        match = cls(rules or DEFAULT_RULES, seed, first_dealer or 0)
        match.levels = list(levels)
        match.dealer = first_dealer
        if deck_order is not None:
            match.deck_override = list(deck_order)
        match._start_hand()
        return match

    def _shuffled(self) -> list[Card]:
        if self.deck_override is not None:
            cards, self.deck_override = self.deck_override, None
            if sorted(map(str, cards)) != sorted(map(str, deck(self.rules.decks))):
                raise ValueError("deck_order must hold exactly the cards of the decks in play")
            return cards
        cards = deck(self.rules.decks)
        random.Random(f"{self.seed}/{self.hand_no}/{self.redeals}").shuffle(cards)
        return cards

    def _start_hand(self) -> None:
        self.phase = _DEAL
        self.stock = self._shuffled()
        self.dealt = 0
        if self.dealer is not None:
            self.deal_start = self.dealer
        self.contested = self.dealer is None
        self.hands = [[], [], [], []]
        self.kitty = list(self.stock[4 * self.rules.hand_size :])
        self.bids = []
        self.round_done = 0
        self.turned = []
        self.trump = None
        self.leader = None
        self.trick = []
        self.attempted = None
        self.tricks = []
        self._tricks_view = None
        self.attackers_points = 0
        self.failed_throws = []

    # --- reading the state ---------------------------------------------------------

    @property
    def level(self) -> str:
        """This hand's level rank: that of the team that deals (as the bids stand)."""
        if self.phase is Phase.DEAL:
            return self.auction.level
        assert self.dealer is not None
        return self.levels[team_of(self.dealer)]

    @property
    def auction(self) -> Auction:
        """This hand's bids with what they allow (see ``bot.rules.Auction``)."""
        return Auction(
            (self.levels[0], self.levels[1]),
            self.dealer,
            tuple(self.bids),
            self.rules,
            self.phase is Phase.OVERCALL,
            self.deal_start,
        )

    @property
    def deal_done(self) -> bool:
        return self.dealt >= self.deal_total

    @property
    def to_act(self) -> int | None:
        phase = self.phase
        if phase is _PLAY:
            return None if self.leader is None else (self.leader + len(self.trick)) % 4
        if phase is _KITTY:
            return self.dealer
        if phase is _OVERCALL:
            assert self.dealer is not None
            return (self.dealer + 1 + self.round_done) % 4
        return None

    def expecting(self) -> tuple[str | None, int | None]:
        """What the match waits for: (``"deal"``, SYSTEM), (``"play"``, seat), …"""
        if self.phase is _DEAL:
            return ("end_bidding" if self.deal_done else "deal", SYSTEM)
        if self.phase is _KITTY:
            return ("bury", self.dealer)
        if self.phase == Phase.OVERCALL:
            return ("overcall", self.to_act)
        if self.phase == Phase.PLAY:
            return ("play", self.to_act)
        if self.phase is _SCORED:
            return ("next_hand", SYSTEM)
        return (None, None)

    def legal_bids(self, seat: int) -> list[Bid]:
        """The bids ``seat`` could make right now (during the deal, or its overcall turn)."""
        if self.phase != Phase.DEAL and not (self.phase == Phase.OVERCALL and seat == self.to_act):
            return []
        return self.auction.options(self.hands[seat], seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know; ``None`` gives the spectator's (public) view.

        Built positionally from tuples the match keeps (the finished tricks are
        re-tupled only when a trick ends): computer players ask for a view at every
        decision, so this is on the hot path of every simulation.
        """
        phase = self.phase
        dealer = self.dealer
        if phase is _PLAY and self.leader is not None and dealer is not None:  # the hot case
            kind: str | None = "play"
            actor: int | None = (self.leader + len(self.trick)) % 4
            knows_kitty = seat == dealer
            level = self.levels[team_of(dealer)]
        else:
            kind, actor = self.expecting()
            knows_kitty = (
                seat is not None
                and seat == dealer
                and (phase is _KITTY or phase is _PLAY or phase is Phase.OVERCALL)
            )
            level = self.level
        hands = self.hands
        if self._tricks_view is None:
            self._tricks_view = tuple(self.tricks)
        return _SEAT_VIEW(
            SeatView,
            (
                seat,
                self.rules,
                self.hand_no,
                phase,
                (self.levels[0], self.levels[1]),
                dealer,
                level,
                self.trump,
                tuple(hands[seat]) if seat is not None else (),
                (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
                self.dealt,
                self.deal_total,
                tuple(self.bids),
                tuple(self.kitty) if knows_kitty else None,
                actor if actor != SYSTEM else None,
                kind,
                self.leader,
                tuple(self.trick),
                self._tricks_view,
                self.attackers_points,
                self.result,
                self.winner_team,
                self.seq,
            ),
        )

    # --- the entry point -----------------------------------------------------------

    def apply(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Apply ``action`` by ``seat`` (or ``SYSTEM``); return the events, or raise.

        On an error nothing has changed. ``auto`` marks actions the computer took
        for a player (timeouts, 托管) in the events.
        """
        if isinstance(action, Play):
            events = self._play(seat, action.cards, auto)
        elif isinstance(action, Declare):
            events = self._declare(seat, list(action.cards))
        elif isinstance(action, Bury):
            events = self._bury(seat, list(action.cards), auto)
        elif isinstance(action, Deal):
            events = self._deal(seat, action.count)
        elif isinstance(action, EndBidding):
            events = self._end_bidding(seat)
        elif isinstance(action, NextHand):
            events = self._next_hand(seat)
        elif isinstance(action, Pass):
            events = self._pass(seat, auto)
        else:  # pragma: no cover - the Action union is closed
            raise GameError(f"Unknown action {action!r}.", key="game-err-unknown-action")
        self.seq += 1
        self.last_action = action
        return events

    def timeout(self, seat: int, decide: Decide) -> list[Event]:
        """Act for ``seat`` who ran out of time: ``decide`` (the AI) picks from the view.

        If ``decide`` errs or proposes something illegal, the safest legal action is
        taken instead, so a timeout always moves the game on. ``last_action`` then
        holds the action taken, for the caller's log.
        """
        kind, actor = self.expecting()
        if actor != seat or kind not in ("play", "bury", "overcall"):
            raise GameError("Nothing is waiting for that seat.", key="game-err-nothing-waiting")
        try:
            action = decide(self.view(seat))
            return self.apply(seat, action, auto=True)
        except (RulesError, ValueError, TypeError, KeyError, IndexError):
            return self.apply(seat, fallback_action(self.view(seat)), auto=True)

    # --- deal and bids -------------------------------------------------------------

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise wrong_phase(self.phase, what)

    def _deal(self, seat: int, count: int) -> list[Event]:
        if seat != SYSTEM:
            raise GameError("Only the table deals cards.", key="game-err-table-only")
        self._require(_DEAL, "deal")
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
        self._require(_DEAL, "close")
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
        self.phase = _KITTY
        bidder = self.bids[-1].seat if self.bids else None
        return [
            *events,
            TrumpSet(dealer, self.trump.level, self.trump.suit, bidder),
            KittyTaken(dealer, tuple(self.kitty)),
        ]

    def _bury(self, seat: int, cards: list[Card], auto: bool) -> list[Event]:
        check_seat(seat)
        self._require(_KITTY, "bury")
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

    # --- tricks --------------------------------------------------------------------

    def _play(self, seat: int, cards: Sequence[Card], auto: bool) -> list[Event]:
        trick = self.trick
        leader = self.leader
        # the seat, phase and turn checks in one test when all is well (every play of
        # every simulation passes here); otherwise the checks in their usual order
        if self.phase is not _PLAY or leader is None or seat != (leader + len(trick)) % 4:
            check_seat(seat)
            self._require(_PLAY, "play")
            raise NotYourTurn("It is not your turn.", self.to_act, key="game-err-not-your-turn")
        trump = self.trump
        assert trump is not None
        hand = self.hands[seat]
        events: list[Event] = []
        if not trick and len(cards) == 1 and cards[0] in hand:
            played = cards  # a single card from the hand: always a legal lead
            self.attempted = None
        elif not trick:
            units = check_lead(hand, cards, trump, self.rules)
            played = cards
            self.attempted = None
            if len(units) > 1:
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
        else:
            lead = trick[0][1]
            if len(lead) == 1 and len(cards) == 1 and cards[0] in hand:
                # a single led and a single played (most plays of a hand): the led suit if
                # held, else anything; ``check_follow`` asks the same first
                suit_of = order_for(trump, self.rules).suit_of
                led = suit_of[lead[0]]
                if suit_of[cards[0]] != led and any(suit_of[c] == led for c in hand):
                    check_follow(hand, lead, cards, trump, self.rules)  # raises, with reasons
            else:
                check_follow(hand, lead, cards, trump, self.rules)
            played = cards
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
        assert self.trump is not None and self.leader is not None
        trick = self.trick
        plays = [cards for _, cards in trick]
        winner = trick[trick_winner(plays, self.trump, self.rules)][0]
        won = points([card for cards in plays for card in cards])
        if won and self._attacking(winner):
            self.attackers_points += won
        record = TrickRecord(self.leader, tuple(trick), winner, won, self.attempted)
        self.tricks.append(record)
        self._tricks_view = None
        self.trick = []
        self.attempted = None
        self.leader = winner
        events: list[Event] = [TrickWon(len(self.tricks), winner, won, self.attackers_points)]
        if not self.hands[winner]:
            events.extend(self._score_hand())
        return events

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
        self.phase = _OVER if self.winner_team is not None else _SCORED
        events: list[Event] = [HandScored(self.result)]
        if self.winner_team is not None:
            events.append(MatchOver(self.winner_team, after))
        return events

    def _next_hand(self, seat: int) -> list[Event]:
        if seat != SYSTEM:
            raise GameError("Only the table starts the next hand.", key="game-err-table-only")
        self._require(_SCORED, "next")
        assert self.result is not None
        self.hand_no += 1
        self.redeals = 0
        # after a race45 draw the deal is contested again, starting from the same seat
        self.dealer = None if self.result.winner == DRAW else self.result.next_dealer
        self.deal_start = self.result.next_dealer
        self._start_hand()
        return [HandStarted(self.hand_no, self.deal_start, (self.levels[0], self.levels[1]))]

    # --- serialisation -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (includes hidden cards: store it privately)."""
        return {"version": STATE_VERSION, **codec.encode_attrs(self, _STATE)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match ``to_dict`` stored; version-1 states (before the codec) load too."""
        if data.get("version") not in (1, STATE_VERSION):
            raise ValueError(f"unsupported match state version {data.get('version')!r}")
        # attributes added since (the seed-000 variants): an older state has their defaults
        data = {"contested": data.get("dealer") is None, **_ADDED, **data}
        state = codec.decode_attrs(_STATE, data)
        match = cls(state["rules"], state["seed"], state["first_dealer"])
        for name, value in state.items():
            setattr(match, name, value)
        return match

    # defining __eq__ leaves Match unhashable (__hash__ is None), as mutable state should be
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_dict() == other.to_dict()


def replay(
    seed: int,
    actions: Sequence[tuple[int, Action | dict[str, Any]]],
    rules: RuleSet | None = None,
    **options: Any,
) -> Match:
    """Rebuild a match from its seed and accepted actions (dicts or ``Action`` values)."""
    match = Match.new(seed, rules, **options)
    for seat, action in actions:
        if isinstance(action, dict):
            action = codec.action_from_dict(action)
        match.apply(seat, action)
    return match


def fallback_action(view: SeatView) -> Action:
    """The safe legal action when no better decision is at hand (cheapest cards)."""
    from bot.rules import follow_candidates

    assert view.trump is not None or view.expecting == "bury"
    if view.expecting == "overcall":
        return Pass()
    if view.expecting == "bury":
        order = order_for(view.trump or Trump(view.level, None), view.rules)
        ranked = sorted(view.hand, key=lambda c: (order.is_trump(c), c.points, order.tier[c]))
        return Bury(tuple(ranked[: view.rules.kitty_size]))
    assert view.trump is not None
    order = order_for(view.trump, view.rules)

    def cost(cards: Sequence[Card]) -> tuple[int, int, int]:
        return (
            sum(order.is_trump(c) for c in cards),
            points(cards),
            sum(order.tier[c] for c in cards),
        )

    if view.lead is None:
        return Play((min(view.hand, key=lambda c: cost([c])),))
    candidates = follow_candidates(view.hand, view.lead, view.trump, view.rules)
    cheapest = min(candidates, key=cost)
    return Play(tuple(cheapest))


# The snapshot: every attribute that is state, with its type for the codec. Bids
# keep the suit and strength they had when made: after a hand is scored the level
# has moved on and the cards would no longer read as a bid.
STATE_VERSION = 2
_STATE: dict[str, Any] = {
    "rules": RuleSet,
    "seed": int,
    "first_dealer": int,
    "hand_no": int,
    "redeals": int,
    "levels": list[str],
    "dealer": int | None,
    "phase": Phase,
    "deal_start": int,
    "stock": list[Card],
    "dealt": int,
    "hands": list[list[Card]],
    "kitty": list[Card],
    "bids": list[Bid],
    "contested": bool,
    "round_done": int,
    "turned": list[Card],
    "trump": Trump | None,
    "leader": int | None,
    "trick": list[tuple[int, tuple[Card, ...]]],
    "attempted": tuple[Card, ...] | None,
    "tricks": list[TrickRecord],
    "attackers_points": int,
    "failed_throws": list[tuple[int, int]],
    "result": HandResult | None,
    "winner_team": int | None,
    "seq": int,
}
_ADDED: dict[str, Any] = {"round_done": 0, "turned": ""}
