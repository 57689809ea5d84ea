"""One candidate played out on one sampled deal: what the expert's search averages.

``outcome`` is a decision's value for the searching side (points and levels at the
hand's end); ``play_candidate`` plays the candidate, then the rest of the hand: the fast
policy of ``rollout`` for singles and pairs, ``endgame``'s general policy for a tractor
or a throw under way, and the heuristic's own leads where ``heuristic_leads`` asks for
them, each from what the leader would see of the sampled deal (``_lead_for``).
Split from ``expert`` (which samples, races and picks): the play-out is what
``truth`` checks against the real deal and ``bench.rollout_bench`` times.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import TrickRecord
from bot.rules import (
    DEALER,
    Card,
    kitty_multiplier,
    level_outcome,
    points,
    resolve_throw,
    trick_winner,
)
from bot.rules.units import decompose_in

from . import endgame, rollout
from .context import Context
from .evaluate import lead_score
from .heuristic import lead_candidates
from .world import World

LEVEL_WEIGHT = 5.0  # points a level is worth in the expert's objective
# the heuristic's leads in play-outs (``heuristic_leads``), off: the real-deal screen's best,
# two from more than 12 cards, cost four times a play-out (too few samples at 20 ms), and one
# from 7 down measured -0.1 points a hand at 20 samples (docs/computer-players.md, 1 Dec 06:15)
LEADS_EARLY, LEADS_LATE, LATE_CARDS = 0, 0, 7
# a leader holds more than ``endgame.ENDGAME_CARDS`` for the heuristic to lead (below, the
# heuristic searches; its ranking alone screened worse)
LEAD_MIN = endgame.ENDGAME_CARDS + 1


def outcome(
    ctx: Context,
    hands: Sequence[Sequence[Card]],
    kitty: float,
    cand: tuple[Card, ...],
    world: World | None = None,
) -> float:
    """My side's value of playing ``cand`` now on one sampled deal: points and levels.

    ``world``, the same deal ready for ``rollout`` (``deal``), saves building it again
    for each candidate.
    """
    gained = play_candidate(ctx, hands, kitty, cand, world)
    total = ctx.view.attackers_points + gained
    winner, levels = level_outcome(round(total), ctx.rules)
    level_value = -levels if winner == DEALER else levels
    value = total + LEVEL_WEIGHT * level_value
    return value if ctx.attacking else -value


def deal(ctx: Context, hands: Sequence[Sequence[Card]]) -> World:
    """A sampled deal as ``rollout`` plays it out."""
    return World(ctx.order, hands, ctx.attackers)


def play_candidate(
    ctx: Context,
    hands: Sequence[Sequence[Card]],
    kitty: float,
    cand: tuple[Card, ...],
    world: World | None = None,
) -> float:
    """The attackers' points from now to the end of the hand if I play ``cand``.

    ``hands`` is left as it is (every candidate is played on the same deal, a copy of
    ``world``): a single or a pair goes to ``rollout``, a tractor or a throw's trick is
    finished through the rules library (``_general_trick``).
    """
    view = ctx.view
    trump, rules = ctx.trump, ctx.rules
    attackers = ctx.attackers
    me = ctx.seat
    total = 0.0
    play = cand
    if not view.trick and len(cand) > 1 and len(decompose_in(ctx.order, cand)) > 1:
        others = [hands[s] for s in range(4) if s != me]
        forced = tuple(resolve_throw(cand, others, trump, rules))
        if len(forced) != len(cand):
            penalty = rules.throw_penalty * (len(cand) - len(forced))
            total += -penalty if attackers[me] else penalty
            play = forced
    trick: list[tuple[int, tuple[Card, ...]]] = [(s, tuple(c)) for s, c in view.trick]
    trick.append((me, play))
    world = deal(ctx, hands) if world is None else world.copy()
    world.take_cards(me, play)
    turns = heuristic_leads(ctx.left)
    if not turns and rollout.simple(trick[0][1]):
        return total + rollout.play_out(world, trick, trump, rules, kitty)
    # the heuristic leading next, or a tractor or throw under way (the general policy)
    return total + _play_on(ctx, world, trick, kitty, turns)


def heuristic_leads(left: int) -> int:
    """How many leads after a decision with ``left`` cards in hand the heuristic makes in
    each play-out (``_play_on``): ``LEADS_EARLY`` from more than 12 cards, ``LEADS_LATE``
    from ``LATE_CARDS`` down, none between (docs/computer-players.md, 1 Dec 06:15)."""
    if left > 12:
        return LEADS_EARLY
    return LEADS_LATE if left <= LATE_CARDS else 0


def _play_on(
    ctx: Context,
    world: World,
    trick: list[tuple[int, tuple[Card, ...]]],
    kitty: float,
    turns: int,
) -> float:
    """The attackers' points from ``trick`` (under way, any lead) to the hand's end, the
    heuristic making the next ``turns`` leads from the leader's view of the sampled deal
    (``_lead_for``) and the fast policy the rest: the heuristic's leads are what the fast
    policy imitates worst (the real-deal screen)."""
    view = ctx.view
    trump, rules = ctx.trump, ctx.rules
    att = world.att
    records = list(view.tricks)
    taken = view.attackers_points
    total = 0.0
    while True:
        if rollout.simple(trick[0][1]):
            winner, pts = rollout.play_trick(world, trick)
        else:
            winner, pts = _general_trick(ctx, world, trick)
        if att[winner]:
            total += pts
            taken += pts
        if world.empty(winner):
            if att[winner]:
                total += kitty * kitty_multiplier(trick[0][1], trump, rules)
            return total
        hand = world.cards(winner)
        if not turns or len(hand) < LEAD_MIN:
            return total + rollout.play_from(world, winner, trump, rules, kitty)
        turns -= 1
        records.append(TrickRecord(trick[0][0], tuple(trick), winner, pts))
        first = _lead_for(ctx, world, winner, hand, tuple(records), taken)
        world.take_cards(winner, first)
        trick = [(winner, first)]


def _general_trick(
    ctx: Context, world: World, trick: list[tuple[int, tuple[Card, ...]]]
) -> tuple[int, int]:
    """Finish a trick the fast policy does not play (a tractor or throw led): its winner
    and points, by ``endgame``'s general policy."""
    hands = [world.cards(s) for s in range(4)]
    attacker_set = {s for s in range(4) if world.att[s]}
    leader = trick[0][0]
    while len(trick) < 4:
        seat = (leader + len(trick)) % 4
        chosen = endgame._policy(ctx, hands, trick, seat, attacker_set)
        for card in chosen:
            hands[seat].remove(card)
        world.take_cards(seat, chosen)
        trick.append((seat, chosen))
    plays = [c for _, c in trick]
    winner = trick[trick_winner(plays, ctx.trump, ctx.rules)][0]
    return winner, sum(points(c) for c in plays)


def _lead_for(
    ctx: Context,
    world: World,
    seat: int,
    hand: list[Card],
    records: tuple[TrickRecord, ...],
    taken: int,
) -> tuple[Card, ...]:
    """The heuristic's lead for ``seat`` holding ``hand`` on the sampled deal, from what
    that seat would see (the dealer's kitty only when the searching seat is the dealer)."""
    view = ctx.view
    sizes = world.sizes
    seen = view._replace(
        seat=seat,
        hand=tuple(hand),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        to_act=seat,
        leader=seat,
        trick=(),
        tricks=records,
        attackers_points=taken,
        kitty=view.kitty if seat == view.dealer else None,
    )
    lead_ctx = Context(seen)
    return max(lead_candidates(lead_ctx), key=lambda cand: lead_score(lead_ctx, cand))
