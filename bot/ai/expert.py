"""The expert computer player: the heuristic's candidates, judged by sampled play-outs.

At each lead or follow the expert

1. at a lead, or a follow with ``FOLLOW_CARDS`` cards or fewer in hand (every
   follow since the play-outs keep pairs and the kitty is drawn like a dealer buries:
   on 7,500 decisions of heuristic hands, each candidate continued by the heuristic
   on the real deal, early follows' estimated gains track the real ones best of all
   decisions, and searching every follow measured +1.4 and +2.0 points a hand on
   100 deals of two seeds against 5 cards),
   asks the heuristic for its candidates (leads by unit, follows by intent: see
   ``heuristic``) and keeps its best ``CANDIDATES``, so a decision stays bounded;
2. samples deals consistent with what the seat has seen (``Sampler``: the unseen
   cards dealt to the other hands and, for everyone but the dealer, the kitty,
   respecting shown voids, cards known from bids and failed throws, and pairs a seat
   showed it lacks; the hidden kitty is drawn like a dealer buries, rarely trumps,
   points, aces or kings: drawn uniformly it held three times the points of a real
   one, which overstated every last trick's stake);
3. plays every candidate out on each sampled deal (``playout``, over ``rollout``: a
   fast perfect-information policy, same deal for every candidate, so the comparison
   is paired; ``playout.LEADS_EARLY`` and ``LEADS_LATE`` make the next leads the
   heuristic's own, from the leader's view of the sampled deal), scoring the hand's
   end for its side: points plus ``playout.LEVEL_WEIGHT`` per level gained or
   conceded (the staircase, not only the 80 line);
4. keeps the heuristic's choice unless another candidate's mean beats it by more
   than ``MARGIN`` paired standard errors: with few samples (a short ``think_ms``)
   the expert is the heuristic, with many it overrules it where the play-outs agree.
   The candidates race: from ``RACE_AFTER`` samples on, a challenger trailing the
   heuristic's choice by a standard error is no longer played out, so the time goes
   to those that might still overrule it (measured at 20 ms and 250 ms: the same
   strength or better, and most searches end well before the budget).

It stops sampling at ``think_ms`` (250 ms at a table by default, set per table and
in the arena; checked before each sample and between candidates, a sample cut
short being dropped whole), always answers with a legal play (checked like every
player), and with fewer than ``MIN_WORLDS`` samples in its time plays the first
candidate. Bids and the burial are the heuristic's; the candidates are ranked by
``expert_policy`` (the heuristic's ranking, jokers held back from early leads), so
"the heuristic's choice" above is that ranking's first. It sees only the seat's view:
the sampler is seeded from the view, so with a fixed number of samples (``worlds``) a
decision is a pure function of the view, whatever the hidden cards are.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.game import Action, Play, SeatView
from bot.rules import Card, format_cards

from . import endgame
from .context import Context
from .expert_policy import ranked_candidates
from .heuristic import HeuristicPlayer, play_for
from .playout import deal, outcome
from .sampler import Sampler

# the heuristic's best candidates that are played out: 6 over 4 and 8 on four seeds at 20 ms
# (docs/computer-players.md, 1 Dec, the afternoon); more costs samples per candidate, fewer
# misses the move
CANDIDATES = 6
FOLLOW_CARDS = 999  # follows are searched from this many cards in hand: every one (leads always)
MIN_WORLDS = 8  # fewer samples than this: the heuristic's choice stands
# a challenger must beat the heuristic's choice by this many standard errors, on either
# side: the dealer's side's overrules gain most on the ground truth, yet a margin of 1 or
# 0.5 for it gained in the arena on one seed of two (docs/computer-players.md, 1 Dec 03:45)
MARGIN = 2.0
RACE_AFTER = 4  # samples before a trailing challenger is dropped from the expert's search
THINK_MS = 250


class ExpertPlayer(HeuristicPlayer):
    """Searches its plays (``expert``); ``think_ms`` bounds each decision.

    ``worlds`` caps the samples per decision (tests and reviews use it to make a
    decision reproducible whatever the machine's speed); ``follow_cards`` and
    ``seed`` as in ``FOLLOW_CARDS`` and ``search``.
    """

    name = "expert"

    def __init__(
        self,
        think_ms: float = THINK_MS,
        *,
        worlds: int | None = None,
        follow_cards: int = FOLLOW_CARDS,
        seed: str = "",
        strict: bool = False,
    ) -> None:
        super().__init__(strict=strict)
        self.think_ms = think_ms
        self.worlds = worlds
        self.follow_cards = follow_cards  # follows are searched from this many cards
        self.seed = seed  # varies the samples (the view seeds them too)
        # when a list, each search's ``Trace`` is added to it (``bench.ai_bench``)
        self.traces: list[Trace] | None = None

    def due(self) -> float:
        """The deadline of a decision asked now (a ``perf_counter`` time)."""
        return time.perf_counter() + self.think_ms / 1000.0

    def act(self, view: SeatView, deadline: float | None = None) -> Action | None:
        """``deadline`` (``due()`` when asked, by default now): a table asks when the
        turn comes and its job may wait for a free thinker (``bot.service.driver``); the
        wait comes out of the search, so an answer never takes much more than
        ``think_ms`` from the question, and one asked too long ago is the base policy's."""
        if view.expecting != "play" or view.seat is None or view.to_act != view.seat:
            return super().act(view)
        if view.match_winner is not None:
            return None
        if deadline is None:
            deadline = self.due()
        # the card memory kept from this seat's last decision, as the heuristic keeps it
        ctx = Context(view, self.memory)
        self.memory = ctx.mem
        return self._checked(view, Play(tuple(self.choose(ctx, deadline))))

    def choose(self, ctx: Context, deadline: float) -> tuple[Card, ...]:
        """The expert's play for the seat to act (the context's seat)."""
        ranked = ranked_candidates(ctx)
        if len(ranked) == 1:
            return ranked[0]
        if ctx.view.trick and ctx.left > self.follow_cards:
            return ranked[0]
        trace = None
        if self.traces is not None:
            trace = Trace(deadline - self.think_ms / 1000.0)
            self.traces.append(trace)
        values = search(
            ctx, ranked[:CANDIDATES], deadline, self.worlds, self.seed, race=True, trace=trace
        )
        if values is None:
            return tuple(play_for(ctx)) if ctx.left <= endgame.ENDGAME_CARDS else ranked[0]
        return ranked[pick(values)]


def search(
    ctx: Context,
    candidates: Sequence[tuple[Card, ...]],
    deadline: float,
    worlds: int | None = None,
    seed: str = "",
    race: bool = False,
    trace: Trace | None = None,
) -> list[list[float]] | None:
    """Each candidate's value on each sampled deal, or None without enough samples.

    Sampling stops at ``deadline`` (a ``perf_counter`` time) or after ``worlds``
    samples; a sample is only started when the last one says it fits in the time left.
    With ``race`` (the expert's own decisions), from ``RACE_AFTER`` samples on a
    challenger that trails the heuristic's choice by a standard error is no longer
    played out (its list stops growing), so the time goes to the ones that might
    overrule it; when none is left the search ends. ``trace`` is told how it went.
    """
    view = ctx.view
    rng = random.Random(
        f"{seed}|{ctx.seat}|{format_cards(view.hand)}|{len(view.tricks)}|"
        f"{[format_cards(c) for _, c in view.trick]}"
    )
    sampler = Sampler(ctx)
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    sums = [0.0] * len(candidates)
    squares = [0.0] * len(candidates)
    limit = worlds if worlds is not None else 10_000
    start = time.perf_counter()
    done = 0
    ended = "samples"
    while done < limit:
        now = time.perf_counter()
        if (done and now + (now - start) / done > deadline) or (not done and now >= deadline):
            ended = "time"
            break
        world = sampler.sample(rng)
        if world is None:
            ended = "no deal"
            break
        hands, kitty = world
        ready = deal(ctx, hands)
        late = False
        for k, i in enumerate(alive):
            # past the deadline inside a sample (a slow one, a busy machine): the
            # sample is dropped whole, so the candidates stay paired
            if k and time.perf_counter() > deadline:
                for j in alive[:k]:
                    values[j].pop()
                late = True
                break
            values[i].append(outcome(ctx, hands, kitty, candidates[i], ready))
        if late:
            ended = "cut"
            break
        done += 1
        if race:
            # each challenger's paired differences summed as they come: the race asks after
            # every sample, where ``_gain`` reads them all (quadratic in the samples)
            for i in alive[1:]:
                d = values[i][-1] - values[0][-1]
                sums[i] += d
                squares[i] += d * d
            if done >= RACE_AFTER:
                alive = [0, *(i for i in alive[1:] if _keeps(sums[i], squares[i]))]
                if len(alive) == 1:
                    ended = "race"
                    break
    few = done < min(MIN_WORLDS, limit) and len(alive) > 1
    if trace is not None:
        trace.setup_ms = (start - trace.started) * 1000
        trace.samples, trace.ended, trace.too_few = done, ended, few
    return None if few else values


#: what may end a search (``Trace.ended``)
ENDINGS = ("race", "time", "cut", "samples", "no deal")


@dataclass(slots=True)
class Trace:
    """How one decision's search went, for the benchmark (``bench.ai_bench``)."""

    started: float  # the decision's start (``perf_counter``)
    setup_ms: float = 0.0  # from there to the first sample: memory, candidates, sampler
    samples: int = 0
    # what ended it: "samples" (``worlds``), "time" (the next sample would not fit),
    # "cut" (the deadline fell inside a sample, dropped), "race" (no challenger left),
    # "no deal" (no deal fits the memory)
    ended: str = ""
    too_few: bool = False  # under ``MIN_WORLDS`` samples: the heuristic's choice


def pick(values: Sequence[Sequence[float]], margin: float = MARGIN) -> int:
    """The candidate to play: the heuristic's (index 0) unless one is clearly better.

    Candidates dropped by the race (fewer values than the heuristic's) are out.
    """
    base = values[0]
    best, best_gain = 0, 0.0
    for i in range(1, len(values)):
        if len(values[i]) != len(base):
            continue
        gain = _gain(base, values[i], margin)
        if gain is not None and gain > best_gain:
            best, best_gain = i, gain
    return best


def _gain(base: Sequence[float], other: Sequence[float], margin: float) -> float | None:
    """The mean paired gain of ``other`` over ``base`` (the same deals, in order) when it
    is above ``margin`` standard errors, else None (and below two samples: no spread to
    judge by). The race asks the same from running sums (``_keeps``)."""
    n = len(other)
    if n < 2:
        return None
    diffs = [a - b for a, b in zip(other, base[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean if mean > margin * math.sqrt(var / n) else None


def _keeps(total: float, squares: float) -> bool:
    """Whether a challenger whose paired differences to the heuristic's choice sum to
    ``total`` (their squares to ``squares``) is within one standard error of it: the
    race's ``_gain(base, other, -1.0) is not None``, from the sums. The mean ``T/n`` is
    above minus the standard error ``sqrt((S - T*T/n) / (n - 1) / n)`` exactly when
    ``T > 0`` or ``T*T < S``; exact, where a variance from the sums would round a tie
    (the values are whole points) either way."""
    return total > 0 or total * total < squares
