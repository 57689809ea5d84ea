"""What every candidate of one decision is scored against (``evaluate``): the seat's view,
its card memory, and the figures they share (the trump order, the suits held, what a
card is worth kept), each worked out once per decision and kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import Phase, SeatView
from bot.rules import (
    TRUMP,
    Card,
    kitty_multiplier,
    partner_of,
    points,
    team_of,
)
from bot.rules.units import Format, Shape, counts_of, decompose_in, format_of

from .memory import Memory

# chance that a point card kept in hand ends with the attackers anyway: an attacker
# can save it for a trick the partner wins, a defender for one the dealer's side wins
Q_ATTACKER = 0.6
Q_DEFENDER = 0.3
REALIZE_PLAIN = 0.8  # share of a winning side card's value used up by winning now
REALIZE_TRUMP = 0.3  # the same for trumps: ruffs are saved for tricks worth them
FEED_FOLLOW = 1.2  # points a follower adds, in units of the suit's point density,
AVOID_FOLLOW = 0.4  #   when their side wins the trick / when it does not
FEED_DISCARD = 2.0  # the same for a follower who is void and discards
AVOID_DISCARD = 0.2

# ``SeatView.is_attacker`` of the four seats, by dealer (None: no dealer yet)
_SIDES: dict[int | None, tuple[bool, ...]] = {
    dealer: tuple(dealer is not None and team_of(s) != team_of(dealer) for s in range(4))
    for dealer in (None, 0, 1, 2, 3)
}


class Trick:
    """What every follow to one trick shares: the seats after mine, the lead's format,
    the points at stake, what the seats after me add, the winner so far (a single
    card's lead) and the attackers' odds by who wins with what (most candidates
    leave the winner as it is)."""

    __slots__ = ("after", "best", "fmt", "keep", "leader", "led", "more", "plays", "table")

    def __init__(self, ctx: Context, plays: tuple[Sequence[Card], ...]) -> None:
        order = ctx.order
        lead = plays[0]
        n = len(lead)
        self.plays = plays
        self.led = led = order.suit_of[lead[0]]
        leader = ctx.view.leader
        assert leader is not None
        self.leader = leader
        self.after = after = [(leader + i) % 4 for i in range(len(plays) + 1, 4)]
        self.fmt = ctx.lead_format(lead)
        table: float = sum(map(points, plays))  # the kitty counts as an expectation
        if ctx.is_last_trick(n):
            table += ctx.kitty_points * ctx.multiplier(lead)
        self.table = table
        self.more = ctx.more_points(after, led, n)
        # a single card's lead: the highest single power so far and the first play
        # holding it (a candidate wins only above it: what ``trick_winner`` finds)
        self.best: tuple[int, int] | None = None
        if n == 1:
            values = [order.single_power[led][p[0]] for p in plays]
            top = max(values)
            self.best = (top, values.index(top))
        self.keep: dict[tuple[int, int, bool], float] = {}


class Context:
    """Everything one decision needs, computed once from the view."""

    def __init__(self, view: SeatView, previous: Memory | None = None) -> None:
        """``previous``: the seat's memory at an earlier decision (see ``Memory``)."""
        assert view.seat is not None and view.trump is not None
        self.view = view
        self.rules = view.rules
        self.trump = view.trump
        self.mem = mem = Memory(view, previous)
        self.order = order = mem.order
        self.seat = view.seat
        self.partner = partner_of(view.seat)
        self.attackers = _SIDES[view.dealer]
        self.attacking = self.attackers[view.seat]
        self.sign = 1.0 if self.attacking else -1.0
        self.q = Q_ATTACKER if self.attacking else Q_DEFENDER
        self.hand = list(view.hand)
        self.left = len(self.hand)
        suit_of = order.suit_of
        self.suit_cards: dict[str, list[Card]] = {}
        for card in sorted(self.hand, key=order.sort_key):
            self.suit_cards.setdefault(suit_of[card], []).append(card)
        self.trumps = len(self.suit_cards.get(TRUMP, ()))
        # structure, per suit when first asked (a follow rarely asks about every suit):
        # identities in pairs (or wider) and in tractors
        self._structure: dict[str, tuple[set[Card], set[Card]]] = {}
        self._keep: dict[Card, float] = {}
        # per card: ``keep``, ``structure`` and the share of its value a win uses (``cost``)
        self._spent: dict[Card, tuple[float, float, float]] = {}
        # candidates of one decision share leads and seats still to play: each
        # format and expected feed is worked out once
        self._formats: dict[tuple[Card, ...], Format] = {}
        self._more: dict[tuple[tuple[int, ...], str, int], float] = {}
        self._multipliers: dict[tuple[Card, ...], int] = {}
        # the endgame's legal follows by hand and lead (``endgame._options``)
        self.follows: dict[tuple[tuple[Card, ...], tuple[Card, ...]], list[tuple[Card, ...]]]
        self.follows = {}
        self.partner_holds: float | None = None  # see ``_p_partner_holds`` (one trick)
        self.trick_frame: Trick | None = None  # see ``trick_figures`` (one trick)
        self.rescues: dict[tuple[str, Shape], float] = {}  # see ``lead_score``
        self.kitty_points = self._kitty_points()
        self.reserve = self._reserve()

    # --- values of cards -------------------------------------------------------------

    def keep(self, card: Card) -> float:
        """What holding ``card`` is still worth, in points (before structure)."""
        value = self._keep.get(card)
        if value is None:
            higher = self.mem.higher_unseen(card)
            if self.order.suit_of[card] == TRUMP:
                value = 3.5 + 8.0 / (1 + higher)
            else:
                value = 4.0 / (1 + higher)
            self._keep[card] = value
        return value

    def structure(self, card: Card) -> float:
        """What ``card``'s pair (and tractor) adds on top of its cards, 0 for a single."""
        suit = self.order.suit_of[card]
        sets = self._structure.get(suit)
        if sets is None:
            sets = self._structure[suit] = self._units_of(suit)
        in_pair, in_tractor = sets
        if card not in in_pair:
            return 0.0
        value = (1.5 if suit == TRUMP else 1.0) + 0.6 * self.keep(card)
        if card in in_tractor:
            value += 1.5
        return value

    def _units_of(self, suit: str) -> tuple[set[Card], set[Card]]:
        """The identities of my ``suit`` in pairs (or wider), and in tractors."""
        in_pair: set[Card] = set()
        in_tractor: set[Card] = set()
        cards = self.suit_cards.get(suit)
        if not cards or len(set(cards)) == len(cards):
            return in_pair, in_tractor  # a pair or wider needs two copies of a card
        for unit in decompose_in(self.order, cards):
            if unit.width >= 2:
                in_pair.update(unit.cards)
                if unit.length >= 2:
                    in_tractor.update(unit.cards)
        return in_pair, in_tractor

    def cost(self, cards: Sequence[Card], realized: float) -> float:
        """The worth of the hand lost by playing ``cards``.

        ``realized`` is the chance that these cards win the trick for my side: that
        share of their value (mostly for side cards) is used, not lost.
        """
        spent = self._spent
        if len(cards) == 1:  # most candidates: the loop below without a dict of one
            card = cards[0]
            keep, structure, realize = spent.get(card) or self._spent_of(card)
            value = keep + structure
            if realized:
                value *= 1.0 - realize * realized
            if self.reserve:
                value += self._reserve_cost({card: 1})
            return value
        total = 0.0
        played = counts_of(cards)
        for card, n in played.items():
            keep, structure, realize = spent.get(card) or self._spent_of(card)
            # a pair is spent whether one or both copies go
            value = keep * n + structure
            if realized:
                value *= 1.0 - realize * realized
            total += value
        if self.reserve:
            total += self._reserve_cost(played)
        return total

    def _spent_of(self, card: Card) -> tuple[float, float, float]:
        """``cost``'s figures of ``card`` (kept): its keep, its structure and the share of
        its value that a win uses."""
        trump = self.order.suit_of[card] == TRUMP
        found = self._spent[card] = (
            self.keep(card),
            self.structure(card),
            REALIZE_TRUMP if trump else REALIZE_PLAIN,
        )
        return found

    # --- the kitty and the last tricks -------------------------------------------------

    def _kitty_points(self) -> float:
        view = self.view
        if view.kitty is not None and view.phase == Phase.PLAY:
            return float(points(view.kitty))
        mem = self.mem
        total = mem.unseen_total
        return mem.kitty_size * mem.unseen_points / total if total else 0.0

    def _reserve(self) -> dict[Card, float]:
        """Cards to keep for the last trick, and what spending them would cost.

        The dealer's side keeps a sure last-trick winner (its top trump once no unseen
        trump beats it); the attackers keep a boss trump pair, which would multiply
        the kitty by 4 or more. The horizon grows with what the kitty is worth.
        """
        stake = self.kitty_points * 2
        horizon = min(8, 3 + stake / 15)
        if self.left > horizon or self.left <= 1 or stake <= 0:
            return {}
        trumps = self.suit_cards.get(TRUMP)
        if not trumps:
            return {}
        mem = self.mem
        if not self.attacking:
            top = trumps[-1]
            if mem.higher_unseen(top) == 0:
                return {top: min(0.5 * stake, 40.0)}
            return {}
        for card in reversed(trumps):
            if trumps.count(card) >= 2 and mem.is_boss([card, card]):
                return {card: min(0.6 * self.kitty_points * 4, 60.0)}
        return {}

    def _reserve_cost(self, played: dict[Card, int]) -> float:
        cost = 0.0
        for card, value in self.reserve.items():
            n = played.get(card, 0)
            if n and (self.attacking or n >= self.hand.count(card)):
                cost += value
        return cost

    def multiplier(self, lead: Sequence[Card]) -> int:
        """``kitty_multiplier`` of a last trick led by ``lead`` (asked again and again
        by the endgame's play-outs)."""
        key = tuple(lead)
        value = self._multipliers.get(key)
        if value is None:
            value = self._multipliers[key] = kitty_multiplier(key, self.trump, self.rules)
        return value

    def is_last_trick(self, lead_size: int) -> bool:
        return self.left == lead_size and all(
            size in (lead_size, 0) for size in self.view.hand_sizes
        )

    # --- expected contributions of the seats still to play ----------------------------

    def more_points(self, seats: Sequence[int], led: str, n: int) -> float:
        """Points the ``seats`` still to play will add if the attackers win the trick."""
        key = (tuple(seats), led, n)
        expected = self._more.get(key)
        if expected is None:
            expected = self._more[key] = self._more_points(seats, led, n)
        return expected

    def _more_points(self, seats: Sequence[int], led: str, n: int) -> float:
        mem = self.mem
        count = mem.suit_count[led]
        dens = mem.suit_points[led] / count if count else 0.0
        total = mem.unseen_total
        dens_all = mem.unseen_points / total if total else 0.0
        expected = 0.0
        for seat in seats:
            feeding = self.attackers[seat]
            void = mem.p_void(seat, led)
            follow = FEED_FOLLOW if feeding else AVOID_FOLLOW
            discard = FEED_DISCARD if feeding else AVOID_DISCARD
            expected += n * ((1.0 - void) * dens * follow + void * dens_all * discard)
        return expected

    def void_bonus(self, cards: Sequence[Card]) -> float:
        """Emptying a side suit lets me ruff it later (worth it only with trumps left)."""
        if self.trumps < 2:
            return 0.0
        suit_of = self.order.suit_of
        worth = 0.8 + 0.15 * min(self.trumps, 8)  # of each side suit emptied
        if len(cards) == 1:  # one suit, one card of it
            suit = suit_of[cards[0]]
            empties = suit != TRUMP and len(self.suit_cards.get(suit, ())) == 1
            return worth if empties and self.left > 1 else 0.0
        bonus = 0.0
        for suit in {suit_of[c] for c in cards}:
            if suit == TRUMP:
                continue
            held = self.suit_cards.get(suit, ())
            if len(held) == sum(1 for c in cards if suit_of[c] == suit) and self.left > len(cards):
                bonus += worth
        return bonus

    def lead_format(self, lead: Sequence[Card]) -> Format:
        """The format of a lead (its units' shapes), kept per lead."""
        if len(lead) == 1:
            return ((1, 1),)
        key = tuple(lead)
        fmt = self._formats.get(key)
        if fmt is None:
            fmt = self._formats[key] = format_of(decompose_in(self.order, lead))
        return fmt

    def trick_figures(self, plays: Sequence[Sequence[Card]]) -> Trick:
        """The ``Trick`` of ``plays``, made once for the candidates of a decision."""
        key = tuple(plays)
        frame = self.trick_frame
        if frame is None or frame.plays != key:
            frame = self.trick_frame = Trick(self, key)
        return frame
