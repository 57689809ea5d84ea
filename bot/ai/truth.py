"""How well the expert's play-outs predict the heuristic's continuation: the real-deal screen.

Run by ``python3 -m bench.rollout_truth make FILE --deals 120 --seed 1000`` (the ground
truth, about 40 minutes per 60 hands at a load of 10), then ``python3 -m bench.rollout_truth screen
FILE`` (about 15 s).

The expert judges a candidate by playing the rest of the hand out with the fast
policy of ``rollout`` on sampled deals. Its estimates are only as good as that
policy's imitation of the players it meets, the heuristic. ``make`` records, at
every decision of four heuristics playing whole hands, the heuristic's best
``CANDIDATES`` and what each is really worth: the hand continued by four heuristics
on the real deal (points and levels, as ``playout.outcome`` counts them). ``screen``
plays each candidate out once with the fast policy on the same real deal (every
hand known, so only the policy differs) and reports, by kind of decision, how the
gains over the heuristic's choice correlate with the real ones. The changes that
raised this figure so far raised the sampled estimates' correlation too, if less
(the search notes in `docs/computer-players.md` record both); none has yet shown in the arena, which
needs far more time to see anything.

A record is one JSON line: the match before the decision (``Match.to_dict``), the
seat, the candidates and their real values.

``python3 -m bench.rollout_truth overrules FILE --worlds 20`` runs the expert's own search
(sampled deals, the race) at each record and reports, by side and margin, how often it
overrules the heuristic's choice and what those overrules really gain: the figure that set
``expert.MARGIN``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

from bot.ai import expert, playout
from bot.ai.arena import deal_cards
from bot.ai.context import Context
from bot.ai.heuristic import HeuristicPlayer, ranked_candidates
from bot.ai.table import play_hand
from bot.game import Match, Phase, Play
from bot.rules import DEALER, DEFAULT_RULES, Card, format_cards, level_outcome, parse_cards, points

CANDIDATES = 4

Record = dict[str, object]
Estimate = Callable[[Match, int, list[tuple[Card, ...]]], list[float]]


def value(match: Match, seat: int) -> float:
    """The finished hand's worth for ``seat``'s side, as the expert counts it."""
    result = match.result
    assert result is not None
    total = result.attacker_points
    winner, levels = level_outcome(round(total), match.rules)
    worth = total + playout.LEVEL_WEIGHT * (-levels if winner == DEALER else levels)
    return worth if match.view(seat).is_attacker(seat) else -worth


def finish(match: Match, player: HeuristicPlayer) -> None:
    """Four heuristics play the hand to its end."""
    while match.phase is Phase.PLAY:
        _, seat = match.expecting()
        assert seat is not None
        action = player.act(match.view(seat))
        assert action is not None
        match.apply(seat, action)


def make(seed: int, deals: int, limit: int | None = None) -> list[Record]:
    """Ground-truth records of ``deals`` heuristic hands (at most ``limit`` records)."""
    player = HeuristicPlayer()
    found: list[Record] = []
    deal = [0]

    def hook(match: Match, seat: int, action: object) -> None:
        if isinstance(action, Play) and (limit is None or len(found) < limit):
            record = _record(match, seat, player, deal[0])
            if record is not None:
                found.append(record)

    for index in range(deals):
        deal[0] = index
        cards = deal_cards(seed, index, DEFAULT_RULES)
        match = Match.new(seed + index, DEFAULT_RULES, first_dealer=0, deck_order=cards)
        play_hand(match, [player] * 4, on_action=hook)
        if limit is not None and len(found) >= limit:
            break
    return found


def _record(match: Match, seat: int, player: HeuristicPlayer, deal: int) -> Record | None:
    """The heuristic's best candidates now and what each is really worth (None without
    a choice)."""
    ranked = ranked_candidates(Context(match.view(seat)))[:CANDIDATES]
    if len(ranked) < 2:
        return None
    state = match.to_dict()
    truth = []
    for cand in ranked:
        after = Match.from_dict(state)
        after.apply(seat, Play(cand))
        finish(after, player)
        truth.append(value(after, seat))
    return {
        "deal": deal,
        "state": state,
        "seat": seat,
        "candidates": [format_cards(c) for c in ranked],
        "truth": truth,
    }


def play_out(match: Match, seat: int, candidates: list[tuple[Card, ...]]) -> list[float]:
    """Each candidate's worth by one fast play-out on the real deal (``playout.outcome``)."""
    ctx = Context(match.view(seat))
    kitty = float(points(match.kitty))
    ready = playout.deal(ctx, match.hands)
    return [
        playout.outcome(ctx, [list(h) for h in match.hands], kitty, tuple(c), ready)
        for c in candidates
    ]


def overrules(
    records: list[Record], worlds: int, margins: Sequence[float]
) -> dict[tuple[str, float], tuple[int, float]]:
    """By side ("dealer" or "attackers") and margin: how many decisions the expert's search
    at ``worlds`` samples overrules (``expert.pick``) and the sum of their real gains."""
    out: dict[tuple[str, float], tuple[int, float]] = {}
    for record in records:
        match = Match.from_dict(record["state"])  # type: ignore[arg-type]
        seat = record["seat"]
        assert isinstance(seat, int)
        ctx = Context(match.view(seat))
        candidates = [tuple(parse_cards(c)) for c in record["candidates"]]  # type: ignore[attr-defined]
        truth: list[float] = record["truth"]  # type: ignore[assignment]
        values = expert.search(ctx, candidates, math.inf, worlds, seed="truth", race=True)
        side = "attackers" if ctx.attacking else "dealer"
        for margin in margins:
            best = expert.pick(values, margin) if values is not None else 0
            count, gain = out.get((side, margin), (0, 0.0))
            if best:
                count, gain = count + 1, gain + truth[best] - truth[0]
            out[side, margin] = (count, gain)
    return out


def kind(match: Match, seat: int) -> str:
    """A decision's kind: lead or follow, and how many cards the seat holds."""
    left = len(match.hands[seat])
    size = ">12" if left > 12 else ("6-12" if left >= 6 else "<=5")
    return ("follow " if match.trick else "lead ") + size


def screen(records: list[Record], estimate: Estimate = play_out) -> dict[str, tuple[int, float]]:
    """By kind of decision (and ``all``): how many challengers, and the correlation of
    their estimated gains over the heuristic's choice with their real gains."""
    pairs: dict[str, tuple[list[float], list[float]]] = {}
    for record in records:
        match = Match.from_dict(record["state"])  # type: ignore[arg-type]
        seat = record["seat"]
        assert isinstance(seat, int)
        candidates = [tuple(parse_cards(c)) for c in record["candidates"]]  # type: ignore[attr-defined]
        truth: list[float] = record["truth"]  # type: ignore[assignment]
        values = estimate(match, seat, candidates)
        for group in ("all", kind(match, seat)):
            xs, ys = pairs.setdefault(group, ([], []))
            for i in range(1, len(candidates)):
                xs.append(values[i] - values[0])
                ys.append(truth[i] - truth[0])
    out = {}
    for group, (xs, ys) in sorted(pairs.items()):
        flat = len(set(xs)) < 2 or len(set(ys)) < 2
        out[group] = (len(xs), 0.0 if flat else statistics.correlation(xs, ys))
    return out
