"""The heuristic player: bids, buries, leads and follows like a sensible human.

Leads and follows generate a small, varied set of legal candidates and keep the
one with the best score from ``evaluate`` (expected points for my side, minus what
the cards would still be worth in hand). Leads include each unit of each suit,
each single card, and a throw of a suit's boss units when nothing unseen can beat
any of them and no opponent is known to be void there. With three cards or fewer
left, the best few candidates are played out on sampled deals (``endgame``). The
chosen play is checked against the rules again before it leaves, and replaced by
the engine's safe fallback if a bug ever produced something illegal.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import Action, Bury, Declare, Pass, Play, SeatView
from bot.rules import TRUMP, Card, IllegalPlay, beatable_units, check_follow, follow_candidates
from bot.rules.units import counts_of, decompose_in

from . import endgame
from .bidding import choose_bid, choose_overcall
from .burying import choose_bury
from .context import Context
from .evaluate import follow_score, lead_score
from .memory import Memory
from .player import check_action, legal_or_fallback

FOLLOW_LIMIT = 48
ENDGAME = True  # play the last cards out on sampled deals (see ``endgame``)


class HeuristicPlayer:
    """The strong computer player (``ai``); deterministic, so duplicate deals are fair."""

    name = "ai"

    def __init__(self, *, strict: bool = False) -> None:
        # strict: raise on an illegal proposal instead of quietly falling back (tests)
        self.strict = strict
        # the card memory of the last play decided here: the next decision of the
        # same hand reads only the tricks completed since (``Memory`` checks that the
        # view continues it, else reads the view from the start)
        self.memory: Memory | None = None

    def act(self, view: SeatView) -> Action | None:
        kind = view.expecting
        if view.seat is None or view.match_winner is not None:
            return None
        if kind in ("deal", "end_bidding"):
            return self._checked(view, choose_bid(view))
        if view.to_act != view.seat:
            return None
        if kind == "bury":
            return self._checked(view, choose_bury(view))
        if kind == "play":
            ctx = Context(view, self.memory)
            self.memory = ctx.mem
            return self._checked(view, Play(tuple(play_for(ctx))))
        if kind == "overcall":
            return self._checked(view, choose_overcall(view) or Pass())
        return None

    def _checked(self, view: SeatView, action: Action | None) -> Action | None:
        if self.strict and action is not None:
            check_action(view, action)
            return action
        return legal_or_fallback(view, action)


def choose_play(view: SeatView) -> list[Card]:
    """The heuristic's lead or follow for the seat to act."""
    return play_for(Context(view))


def play_for(ctx: Context) -> list[Card]:
    """``choose_play`` from a decision's context."""
    ranked = ranked_candidates(ctx)
    if ENDGAME and ctx.left <= endgame.ENDGAME_CARDS and len(ranked) > 1:
        return list(endgame.choose(ctx, ranked))
    return list(ranked[0])


def ranked_candidates(ctx: Context) -> list[tuple[Card, ...]]:
    """The candidates for this decision, the heuristic's favourite first."""
    view = ctx.view
    if not view.trick:
        options = lead_candidates(ctx)
        scores = [lead_score(ctx, c) for c in options]
    else:
        plays = [cards for _, cards in view.trick]
        options = follow_options(ctx, plays[0])
        if len(options) == 1:
            return [tuple(options[0])]
        scores = [follow_score(ctx, plays, c) for c in options]
    # best first, ties in the candidates' order (a reversed sort stays stable)
    order = sorted(range(len(options)), key=scores.__getitem__, reverse=True)
    return [tuple(options[i]) for i in order]


def lead_candidates(ctx: Context) -> list[tuple[Card, ...]]:
    """Units, singles and safe throws, one list per decision (deduplicated)."""
    order, mem = ctx.order, ctx.mem
    seen: set[tuple[Card, ...]] = set()
    out: list[tuple[Card, ...]] = []

    def add(cards: Sequence[Card]) -> None:
        key = tuple(cards) if len(cards) == 1 else tuple(sorted(cards, key=order.sort_key))
        if key not in seen:
            seen.add(key)
            out.append(key)

    opponents = mem.opponents()
    for suit, cards in ctx.suit_cards.items():
        units = decompose_in(order, cards)
        for unit in units:
            add(unit.cards)
        for card in dict.fromkeys(cards):
            add((card,))
        if len(units) < 2:
            continue
        if suit != TRUMP and any(suit in mem.void[o] for o in opponents):
            continue
        boss = [u for u in units if mem.is_boss(u.cards)]
        if len(boss) < 2:
            continue
        throw = [c for u in boss for c in u.cards]
        pool = [c for c, k in mem.by_suit[suit].items() for _ in range(k)]
        if not beatable_units(throw, [pool], ctx.trump, ctx.rules):
            add(throw)
    return out


def follow_options(ctx: Context, lead: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Legal follows worth comparing: every card for a single, else a varied set."""
    order = ctx.order
    if len(lead) == 1:
        suit = order.suit_of[lead[0]]
        in_suit = ctx.suit_cards.get(suit)
        pool = in_suit if in_suit else ctx.hand
        return [(c,) for c in dict.fromkeys(sorted(pool, key=order.sort_key))]
    options = [
        tuple(o)
        for o in follow_candidates(ctx.hand, lead, ctx.trump, ctx.rules, limit=FOLLOW_LIMIT)
    ]
    seen = {tuple(sorted(o, key=order.sort_key)) for o in options}
    for extra in _free_follows(ctx, lead):
        key = tuple(sorted(extra, key=order.sort_key))
        if key in seen:
            continue
        seen.add(key)
        try:
            check_follow(ctx.hand, lead, extra, ctx.trump, ctx.rules)
        except IllegalPlay:
            continue
        options.append(key)
    return options


def _free_follows(ctx: Context, lead: Sequence[Card]) -> list[list[Card]]:
    """Follows whose free cards are picked by value: a cheap one and a feeding one.

    The rules' generator fills free slots by rank and points; these fills also keep
    pairs whole (discarding both cards of a dead pair beats breaking two pairs).
    """
    n = len(lead)
    suit = ctx.order.suit_of[lead[0]]
    in_suit = ctx.suit_cards.get(suit, [])
    if len(in_suit) <= n:
        core, pool = list(in_suit), [c for c in ctx.hand if ctx.order.suit_of[c] != suit]
    elif ctx.rules.follow_shape != "strict" or len(set(lead)) == n:
        core, pool = [], list(in_suit)
    else:
        return []
    need = n - len(core)
    if need == 0:
        return []
    return [core + _fill(ctx, pool, need, feed) for feed in (False, True)]


def _fill(ctx: Context, pool: Sequence[Card], k: int, feed: bool) -> list[Card]:
    """``k`` cards of ``pool``, cheapest first by value, taking pairs whole when cheaper."""
    counts = counts_of(pool)
    items: list[tuple[float, int, int, Card]] = []
    for card, held in counts.items():
        base = ctx.keep(card) + (-1.0 if feed else 0.6) * card.points
        bonus = ctx.structure(card)
        if bonus and held >= 2:
            items.append((base + bonus / 2, 2, ctx.order.tier[card], card))
            items.append((base + bonus, 1, ctx.order.tier[card], card))
        else:
            items.extend((base, 1, ctx.order.tier[card], card) for _ in range(held))
    items.sort(key=lambda item: (item[0], item[2]))
    chosen: list[Card] = []
    used: dict[Card, int] = {}
    for _, size, _, card in items:
        room = k - len(chosen)
        if room == 0:
            break
        take = min(size, counts[card] - used.get(card, 0), room)
        if take < size:
            continue
        chosen.extend([card] * take)
        used[card] = used.get(card, 0) + take
    if len(chosen) < k:  # only blocks were left: take what remains, cheapest first
        for _, _, _, card in items:
            if len(chosen) == k:
                break
            if used.get(card, 0) < counts[card]:
                chosen.append(card)
                used[card] = used.get(card, 0) + 1
    return chosen


_PLAYER = HeuristicPlayer()


def suggest(view: SeatView) -> Bury | Play | Declare | Pass:
    """The heuristic's choice for the kitty or a play: hints, timeouts and 托管.

    Pass it as ``decide`` to ``Match.timeout``. Raises ``ValueError`` when the
    seat has nothing to play or bury (bids: see ``suggest_bid``).
    """
    if view.expecting not in ("bury", "play", "overcall") or view.to_act != view.seat:
        raise ValueError("nothing to suggest: this seat does not have to play or bury now")
    action = _PLAYER.act(view)
    assert isinstance(action, Bury | Play | Declare | Pass)
    return action


def suggest_cards(view: SeatView) -> tuple[Card, ...]:
    """The cards of ``suggest``'s choice (hints, the panel's Suggest, autocomplete); none
    for a pass."""
    action = suggest(view)
    return () if isinstance(action, Pass) else action.cards


def suggest_bid(view: SeatView) -> Declare | None:
    """The bid the heuristic would make now during the deal, or None."""
    if view.expecting not in ("deal", "end_bidding"):
        return None
    action = _PLAYER.act(view)
    return action if isinstance(action, Declare) else None
