"""Post-hand review: a player's costliest decisions of a hand, judged fairly.

Given a hand's record (the match seed and its accepted actions, as the store and
``replay`` know them) and a seat, the review replays the hand and, at each of the
seat's plays, rebuilds **the seat's view at that moment**: its hand, the tricks so
far, the bids, its own kitty if it dealt, nothing else. The hands revealed after
the hand never enter: a play is judged by what the player could know then.

Each decision is judged like the expert judges its own (``expert``): the play
made and the heuristic's best candidates are played out on the same sampled
deals; an alternative that beats the play made clearly (by ``MARGIN`` paired
standard errors, so a lucky sample does not make a mistake) is what the expert
would have played, and the **expected points lost** is its mean minus the mean
of the play made (for the player's side: points plus levels, as the expert
counts them). A failed throw is judged as the throw the player tried. Plays the
computer made for the player (their turn timer ran out, or 托管: logged ``auto``)
are not theirs: they are counted, never judged.
The three largest losses are returned, costliest first.

Reproducible: the samples come from ``seed`` and the view, a fixed number of
them per decision (``worlds``), so the same record and seed give the same figures
on any machine. Background-friendly: ``budget_s`` bounds the whole review; when
it runs out, the decisions not yet judged are skipped and ``complete`` says so.
It is pure (no I/O, no asyncio): callers run it in a worker thread.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.game import Action, Match, Play, SeatView
from bot.game.codec import action_from_dict, is_auto
from bot.game.views import Plays
from bot.rules import Card, RuleSet, trick_winner

from .context import Context
from .expert import CANDIDATES, pick, search
from .heuristic import ranked_candidates

# samples per decision: a single ten dropped onto an opponent's winning trick named
# first in 9 of 12 deals at 64, 6 at 24, 8 at 128 (among the three in 11, 10, 11);
# about 1.6 s a hand here (0.8 at 24), in the bot's review worker, not on a table's way
WORLDS = 64
SHOWN = 3  # decisions reported
MIN_LOSS = 0.5  # smaller losses are noise, not mistakes


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed play: what was played, what the expert prefers, what it cost."""

    trick: int  # 1-based trick number within the hand
    played: tuple[Card, ...]  # the cards the player chose (a failed throw: as tried)
    better: tuple[Card, ...]  # the expert's play from the same view
    loss: float  # expected points lost against ``better``, for the player's side
    lead: bool  # the player led this trick
    # a follow: the trick before the player's play, (seat, cards) from the lead on, and
    # the seat winning it so far; a follow is judged by what it answered
    before: Plays = ()
    winning: int | None = None
    # the player's side: the attackers gain points, the dealer's side keeps them from
    # the attackers (the review's lines say which)
    attacking: bool = True


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    hand_no: int
    decisions: tuple[Decision, ...]  # the costliest first, at most ``SHOWN``
    judged: int  # decisions judged (those with a choice)
    complete: bool  # False when the time budget ran out first
    auto: int = 0  # plays the computer made for the player (托管, time out): not judged


def review_hand(
    seed: int,
    actions: Sequence[tuple[int, Action | dict[str, Any]]],
    seat: int,
    *,
    rules: RuleSet | None = None,
    hand_no: int | None = None,
    review_seed: int | str = 0,
    worlds: int = WORLDS,
    budget_s: float = 30.0,
    start: dict[str, Any] | None = None,
    **options: Any,
) -> Review:
    """Review ``seat``'s plays in hand ``hand_no`` (default: the last hand in ``actions``).

    ``seed``, ``actions``, ``rules`` and ``options`` rebuild the match as ``replay``
    does; or ``start``, a match's ``to_dict`` before ``actions``. ``review_seed``
    varies the samples (same seed, same figures).
    """
    points, auto = decision_points(
        seed, actions, seat, rules=rules, hand_no=hand_no, start=start, **options
    )
    deadline = time.perf_counter() + budget_s
    judged: list[Decision] = []
    count = 0
    complete = True
    for trick_no, view, played in points:
        if time.perf_counter() >= deadline:
            complete = False
            break
        decision = judge(view, played, trick_no, review_seed, worlds)
        if decision is None:
            continue
        count += 1
        if decision.loss >= MIN_LOSS:
            judged.append(decision)
    judged.sort(key=lambda d: -d.loss)
    shown = hand_no if hand_no is not None else (points[0][1].hand_no if points else 0)
    return Review(seat, shown, tuple(judged[:SHOWN]), count, complete, auto)


def decision_points(
    seed: int,
    actions: Sequence[tuple[int, Action | dict[str, Any]]],
    seat: int,
    *,
    rules: RuleSet | None = None,
    hand_no: int | None = None,
    start: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[list[tuple[int, SeatView, tuple[Card, ...]]], int]:
    """(trick number, the seat's view, the cards it chose) at each of its own plays, and
    how many plays the computer made for it (logged ``auto``: left out)."""
    decoded = [
        (s, action_from_dict(a), is_auto(a)) if isinstance(a, dict) else (s, a, False)
        for s, a in actions
    ]

    def fresh() -> Match:
        if start is not None:
            return Match.from_dict(start)
        return Match.new(seed, rules, **options)

    if hand_no is None:
        hand_no = _last_hand(fresh(), decoded)
    match = fresh()
    out: list[tuple[int, SeatView, tuple[Card, ...]]] = []
    auto_plays = 0
    for who, action, auto in decoded:
        if who == seat and isinstance(action, Play) and match.hand_no == hand_no:
            if auto:
                auto_plays += 1
            else:
                out.append((len(match.tricks) + 1, match.view(seat), tuple(action.cards)))
        match.apply(who, action)
    return out, auto_plays


def _last_hand(match: Match, actions: Sequence[tuple[int, Action, bool]]) -> int:
    last = 0
    for who, action, _ in actions:
        if isinstance(action, Play):
            last = match.hand_no
        match.apply(who, action)
    return last


def judge(
    view: SeatView, played: tuple[Card, ...], trick_no: int, seed: int | str, worlds: int
) -> Decision | None:
    """The expected loss of ``played`` from ``view``; None when there was no choice."""
    ctx = Context(view)
    order = ctx.order
    key = tuple(sorted(played, key=order.sort_key))
    candidates = [key]
    for cand in ranked_candidates(ctx)[:CANDIDATES]:
        cand = tuple(sorted(cand, key=order.sort_key))
        if cand != key:
            candidates.append(cand)
    if len(candidates) < 2:
        return None
    values = search(ctx, candidates, float("inf"), worlds=worlds, seed=f"review/{seed}")
    if values is None:
        return None
    # the play made is the baseline: only an alternative that is clearly better
    # (by the expert's own standard, ``pick``) counts as a loss
    best = pick(values)
    loss = (sum(values[best]) - sum(values[0])) / len(values[0])
    before, winning = tuple(view.trick), None
    if before:
        assert view.trump is not None  # a trick is played with the trump known
        won = trick_winner([cards for _, cards in before], view.trump, view.rules)
        winning = before[won][0]
    return Decision(
        trick_no, played, candidates[best], loss, not before, before, winning, ctx.attacking
    )
