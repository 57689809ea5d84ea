"""What a match holds, and what each seat may read of it.

``MatchState`` is the state ``Match`` is made of: the attributes a snapshot stores, the
start of a hand (the shuffle), and the read-only questions every caller asks (who acts,
on what, which bids a seat could make, a seat's view). The phase handlers that change
it live in ``bidding`` (deal, bids, kitty, overcall round) and ``tricks`` (play and
scoring); ``match`` joins them behind ``Match.apply``.
"""

from __future__ import annotations

import random

from bot.rules import Auction, Bid, Card, Order, RuleSet, Trump, deck, order_for, team_of

from .actions import SYSTEM, Action
from .legal import wrong_phase
from .phase import DEAL, KITTY, OVERCALL, PLAY, SCORED, Expecting, Phase
from .views import HandResult, SeatView, TrickRecord

# a view's levels, level, bids and kitty (None: not known to the seat)
_Settled = tuple[tuple[str, str], str, tuple[Bid, ...], tuple[Card, ...] | None]
_SEAT_VIEW = tuple.__new__  # builds a SeatView from its fields in order, without __new__'s call


class MatchState:
    """A match's state for four seats, and the questions asked of it."""

    def __init__(self, rules: RuleSet, seed: int, first_dealer: int = 0) -> None:
        self.rules = rules
        self.deal_total = 4 * rules.hand_size  # cards dealt to the players each hand
        self.seed = seed
        self.first_dealer = first_dealer
        self.hand_no = 0
        self.redeals = 0
        self.levels = ["2", "2"]
        self.dealer: int | None = None
        self.phase = DEAL
        self.deal_start = first_dealer
        self.stock: list[Card] = []  # the shuffled deck of this hand (deal order, kitty last)
        self.dealt = 0
        self.hands: list[list[Card]] = [[], [], [], []]
        self.kitty: list[Card] = []
        self.bids: list[Bid] = []
        self.contested = True  # no dealer when the hand began: the bids decide it
        self.round_done = 0  # players who overcalled or passed in the after-bury round
        self.passed: list[int] = []  # the seats that passed in that round, in order
        # the hand's latest kitty draw, shown to everyone (kept through the redeal it caused)
        self.turned: list[Card] = []
        self.trump: Trump | None = None
        self.leader: int | None = None
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.attempted: tuple[Card, ...] | None = None
        self.tricks: list[TrickRecord] = []
        self._tricks_view: tuple[TrickRecord, ...] | None = None  # cached for views
        self._play_settled: dict[int | None, _Settled] = {}  # ``_settled`` of the play
        # ``_settled`` of the deal (no seat knows the kitty then), by what it is made of
        self._deal_settled: tuple[tuple[object, ...], _Settled] | None = None
        # the compiled order of ``_order_of`` (a trump), kept for the plays of a hand
        self._order_of: Trump | None = None
        self._order: Order | None = None
        self.attackers_points = 0
        self.failed_throws: list[tuple[int, int]] = []
        self.result: HandResult | None = None
        self.winner_team: int | None = None
        self.seq = 0  # accepted actions so far
        self.last_action: Action | None = None  # the last accepted action (not state)
        self.deck_override: list[Card] | None = None

    # --- a new hand ---------------------------------------------------------------

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
        self.phase = DEAL
        self.stock = self._shuffled()
        self.dealt = 0
        if self.dealer is not None:
            self.deal_start = self.dealer
        self.contested = self.dealer is None
        self.hands = [[], [], [], []]
        self.kitty = list(self.stock[4 * self.rules.hand_size :])
        self.bids = []
        self.round_done = 0
        self.passed = []
        self.trump = None
        self.leader = None
        self.trick = []
        self.attempted = None
        self.tricks = []
        self._tricks_view = None
        self._play_settled = {}
        self._deal_settled = None
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
        if phase is PLAY:
            return None if self.leader is None else (self.leader + len(self.trick)) % 4
        if phase is KITTY:
            return self.dealer
        if phase is OVERCALL:
            assert self.dealer is not None
            return (self.dealer + 1 + self.round_done) % 4
        return None

    def expecting(self) -> tuple[Expecting | None, int | None]:
        """What the match waits for: (``"deal"``, SYSTEM), (``"play"``, seat), …"""
        if self.phase is DEAL:
            return ("end_bidding" if self.deal_done else "deal", SYSTEM)
        if self.phase is KITTY:
            return ("bury", self.dealer)
        if self.phase == Phase.OVERCALL:
            return ("overcall", self.to_act)
        if self.phase == Phase.PLAY:
            return ("play", self.to_act)
        if self.phase is SCORED:
            return ("next_hand", SYSTEM)
        return (None, None)

    def legal_bids(self, seat: int) -> list[Bid]:
        """The bids ``seat`` could make right now (during the deal, or its overcall turn)."""
        if self.phase != Phase.DEAL and not (self.phase == Phase.OVERCALL and seat == self.to_act):
            return []
        return self.auction.options(self.hands[seat], seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know; ``None`` gives the spectator's (public) view.

        Built positionally from tuples the match keeps: computer players ask for a view
        at every decision, so this is on the hot path of every simulation. In the play
        phase the tuples that stay the same until the hand ends are made once a seat
        (``_settled``), and the finished tricks are re-tupled only when a trick ends.
        """
        phase = self.phase
        if phase is PLAY and self.leader is not None:  # the hot case
            settled = self._play_settled.get(seat)
            if settled is None:
                settled = self._play_settled[seat] = self._settled(seat)
            kind: Expecting | None = "play"
            actor: int | None = (self.leader + len(self.trick)) % 4
        elif phase is DEAL:  # a bid question after every card dealt: the same for all
            now = self.levels  # a list: its items go in the key, not the list
            key = (len(self.bids), self.dealer, self.deal_start, now[0], now[1], self.rules)
            found = self._deal_settled
            if found is None or found[0] != key:
                found = self._deal_settled = (key, self._settled(seat))
            settled = found[1]
            kind, actor = self.expecting()
        else:
            settled = self._settled(seat)
            kind, actor = self.expecting()
        levels, level, bids, kitty = settled
        hands = self.hands
        tricks = self._tricks_view
        if tricks is None:
            tricks = self._tricks_view = tuple(self.tricks)
        return _SEAT_VIEW(
            SeatView,
            (
                seat,
                self.rules,
                self.hand_no,
                phase,
                levels,
                self.dealer,
                level,
                self.trump,
                tuple(hands[seat]) if seat is not None else (),
                (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
                self.dealt,
                self.deal_total,
                bids,
                kitty,
                actor if actor != SYSTEM else None,
                kind,
                self.leader,
                tuple(self.trick),
                tricks,
                self.attackers_points,
                self.result,
                self.winner_team,
                self.seq,
                tuple(self.turned),
                tuple(self.passed),
                self.redeals,
            ),
        )

    def _settled(self, seat: int | None) -> _Settled:
        """The levels, the level, the bids and the kitty as ``seat`` may know them.

        None of them changes during the play phase (the bids and the buried kitty are
        settled before it, the levels move only once it is over), so ``view`` keeps
        them from a seat's first view of the play to the next ``_start_hand``.
        """
        phase, dealer = self.phase, self.dealer
        knows_kitty = (
            seat is not None
            and seat == dealer
            and (phase is KITTY or phase is PLAY or phase is Phase.OVERCALL)
        )
        return (
            (self.levels[0], self.levels[1]),
            self.level,
            tuple(self.bids),
            tuple(self.kitty) if knows_kitty else None,
        )

    def _compile_order(self, trump: Trump) -> Order:
        """``trump``'s order, kept for the hand's plays (compared by identity, not hashed)."""
        self._order_of = trump
        order = self._order = order_for(trump, self.rules)
        return order

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise wrong_phase(self.phase, what)
