"""The expert's own base policy: the heuristic's candidates, ranked with what the
expert holds back.

The expert searches the first few of these candidates and keeps the first unless
another is clearly better (``expert``), so this ranking is what it plays whenever
the search has too little time, and what every search starts from. It is the
heuristic's (``heuristic.ranked_candidates``) except that a lead holding a joker
costs ``HOLD_COST`` points while the leader has more than ``HOLD_CARDS`` cards:
jokers are the trumps nothing beats, and their worth is at the end of the hand
(the last trick and the kitty, a ruffed suit over-ruffed), not in drawing trumps
early. Measured against the heuristic (``arena --think-ms 1``, where the search
hardly ever overrules: 300 duplicate deals each of seeds 7, 11, 13 and 17, a loaded
machine), holding the jokers gained on every seed (+0.5, +0.6, +1.0, +0.3 points a
hand over the expert without it on the same deals). Holding them down to 2 cards
instead of 6 (1 Dec, ``think_ms`` 0: the pure base policy, deterministic, the same
300 deals of each seed) gained again on every seed (+0.93, +0.68, +0.18, +0.50,
+0.42, +0.15 on seeds 7, 11, 13, 17, 19, 23; only down to 9 cards lost -0.70; a
cost of 5 points instead of 3 changed nothing). Other re-rankings of leads and
follows, and the expert's own burials and bids, tried the same way measured nothing
beyond the noise; they are listed in ``docs/computer-players.md`` (the expert's base policy).

The heuristic itself (``normal``) is unchanged: it is the opponent the expert is
measured against.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules import BIG_JOKER, SMALL_JOKER, Card

from .context import Context
from .evaluate import lead_score
from .heuristic import lead_candidates
from .heuristic import ranked_candidates as heuristic_ranked

HOLD_CARDS = 2  # from this many cards in hand down, a joker may be led freely
HOLD_COST = 3.0  # points a lead with a joker costs before that

_JOKERS = frozenset((BIG_JOKER, SMALL_JOKER))


def ranked_candidates(ctx: Context) -> list[tuple[Card, ...]]:
    """The candidates for this decision, the expert's favourite first."""
    if ctx.view.trick:
        return heuristic_ranked(ctx)
    options = lead_candidates(ctx)
    scores = [lead_score(ctx, cand) - hold_cost(ctx, cand) for cand in options]
    order = sorted(range(len(options)), key=lambda i: -scores[i])
    return [options[i] for i in order]


def hold_cost(ctx: Context, cand: Sequence[Card]) -> float:
    """What leading ``cand`` now spends of the jokers' end-game worth."""
    if ctx.left <= HOLD_CARDS or _JOKERS.isdisjoint(cand):
        return 0.0
    return HOLD_COST
