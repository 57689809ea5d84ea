"""Scoring candidate plays: one expected-value formula for leads and follows.

Every candidate play gets a score in *points for my team*:

``sign × P(attackers win the trick) × points already committed``
  the points on the table and, on the last trick, the kitty times its multiplier;
  ``sign`` is +1 for the attackers and −1 for the dealer's side, so attackers grab
  points and defenders deny them with the same code.

``sign × (P(attackers win) − Q) × points drawn in``
  my own point cards and what the seats still to play are expected to add. A
  point card not played now would reach the attackers later with probability
  ``Q`` (higher for an attacker's card, which can wait for a trick the partner
  wins, than for a defender's); playing it into this trick moves it to this
  trick's odds. This is what makes a player feed 10 > K > 5 to a partner who wins
  securely, keep points away from an opponent's trick, and not lead a suit that
  pulls points into a trick the other side will take.

``− cost of the cards``
  what holding the cards would still be worth (``keep``: trumps and high cards
  much, low side cards little; pairs and tractors more than their cards). A card
  that wins the trick has done its job, so part of its value is "realized" (less
  for trumps: a ruff should be saved for a trick worth it).

``+ tempo``
  winning gives the next lead.

P(win) comes from ``Memory.p_beat`` for the seats still to play: the chance that
some opponent of the current winner can beat it by following higher or ruffing.
These figures are rough, but they only rank a few candidates, and they make the
classic rules of thumb fall out of one formula instead of a pile of special cases.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules import (
    POINTS_OF,
    TRUMP,
    Card,
    partner_of,
    play_value,
    points,
    trick_winner,
)
from bot.rules.units import Format

from .context import Context

Q_OTHERS = 0.45  # cards the seats still to play are drawn into the trick
TEMPO = 1.0  # worth of winning the lead, in points
DRAW_MIN, DRAW_SHARE, DRAW_BONUS = 6, 1.0, 2.0  # when a defender draws trumps, and how eagerly


def follow_score(ctx: Context, plays: Sequence[Sequence[Card]], cand: Sequence[Card]) -> float:
    """The score of following the trick ``plays`` (lead first) with ``cand``."""
    order = ctx.order
    frame = ctx.trick_figures(plays)
    led, fmt = frame.led, frame.fmt
    if frame.best is not None:  # the first of the highest single powers
        top, first = frame.best
        win = len(plays) if order.single_power[led][cand[0]] > top else first
    else:
        win = trick_winner([*plays, cand], ctx.trump, ctx.rules)
    seat_w = (frame.leader + win) % 4
    wplay = cand if win == len(plays) else plays[win]
    value = _value(ctx, wplay, fmt)
    ruffed = led != TRUMP and order.suit_of[wplay[0]] == TRUMP
    key = (seat_w, value, ruffed)
    p_att = frame.keep.get(key)
    if p_att is None:
        p_att = frame.keep[key] = _p_attackers_keep(
            ctx, frame.after, seat_w, led, fmt, value, ruffed
        )
    p_us = p_att if ctx.attacking else 1.0 - p_att
    table = frame.table
    mine = POINTS_OF[cand[0]] if len(cand) == 1 else points(cand)
    more = frame.more
    # a card realizes its value only by the win it adds: overtaking a partner who
    # holds the trick anyway (a joker on a safe ace) spends the card for nothing
    realized = (
        max(0.0, p_us - _p_partner_holds(ctx, plays, frame.after)) if seat_w == ctx.seat else 0.0
    )
    return (
        ctx.sign * (p_att * table + (p_att - ctx.q) * mine + (p_att - Q_OTHERS) * more)
        - ctx.cost(cand, realized)
        + TEMPO * p_us
        + ctx.void_bonus(cand)
    )


def _p_attackers_keep(
    ctx: Context,
    after: Sequence[int],
    seat_w: int,
    led: str,
    fmt: Format,
    value: int,
    ruffed: bool,
) -> float:
    """The chance that the attackers end up with the trick now won by ``seat_w``."""
    mem = ctx.mem
    attackers = ctx.attackers
    w_att = attackers[seat_w]
    keep = 1.0
    for seat in after:
        if attackers[seat] != w_att:
            keep *= 1.0 - mem.p_beat(seat, led, fmt[0], value, ruffed)
    return keep if w_att else 1.0 - keep


def _p_partner_holds(ctx: Context, plays: Sequence[Sequence[Card]], after: Sequence[int]) -> float:
    """The chance my partner, winning the trick before I play, keeps it if I do not win."""
    if ctx.partner_holds is None:
        ctx.partner_holds = _partner_holds(ctx, plays, after)
    return ctx.partner_holds


def _partner_holds(ctx: Context, plays: Sequence[Sequence[Card]], after: Sequence[int]) -> float:
    leader = ctx.view.leader
    assert leader is not None
    win = trick_winner(plays, ctx.trump, ctx.rules)
    if (leader + win) % 4 != ctx.partner:
        return 0.0
    led = ctx.order.suit_of[plays[0][0]]
    wplay = plays[win]
    fmt = ctx.lead_format(plays[0])
    ruffed = led != TRUMP and ctx.order.suit_of[wplay[0]] == TRUMP
    p_att = _p_attackers_keep(ctx, after, ctx.partner, led, fmt, _value(ctx, wplay, fmt), ruffed)
    return p_att if ctx.attacking else 1.0 - p_att


def lead_score(ctx: Context, cand: Sequence[Card]) -> float:
    """The score of leading ``cand`` (one unit, or a throw that cannot be beaten)."""
    mem, order = ctx.mem, ctx.order
    seat = ctx.seat
    n = len(cand)
    led = order.suit_of[cand[0]]
    fmt = ctx.lead_format(cand)
    value = _value(ctx, cand, fmt)
    left, partner, right = (seat + 1) % 4, partner_of(seat), (seat + 3) % 4
    keep = (1.0 - mem.p_beat(left, led, fmt[0], value, False)) * (
        1.0 - mem.p_beat(right, led, fmt[0], value, False)
    )
    rescue = 0.0
    if led != TRUMP and keep < 1.0:
        # partner ruffs what an opponent took, unless an opponent's ruff is higher: the
        # left one ruffs first, the right one over-ruffs last (the same for every lead
        # of a suit and shape: kept for the decision's other candidates)
        found = ctx.rescues.get((led, fmt[0]))
        if found is None:
            ruff = mem.p_void(partner, led) * mem.p_holds(partner, TRUMP, fmt[0], -1)
            found = (
                ruff * (1.0 - 0.5 * mem.p_void(left, led)) * (1.0 - 0.5 * mem.p_void(right, led))
            )
            ctx.rescues[(led, fmt[0])] = found
        rescue = found
    p_us = keep + (1.0 - keep) * rescue
    p_att = p_us if ctx.attacking else 1.0 - p_us
    kitty = 0.0
    if ctx.is_last_trick(n):
        kitty = ctx.kitty_points * ctx.multiplier(cand)
    mine = POINTS_OF[cand[0]] if len(cand) == 1 else points(cand)
    more = ctx.more_points((left, partner, right), led, n)
    score = (
        ctx.sign * (p_att * kitty + (p_att - ctx.q) * mine + (p_att - Q_OTHERS) * more)
        - ctx.cost(cand, p_us)
        + TEMPO * p_us
        + ctx.void_bonus(cand)
    )
    if led == TRUMP:
        score += _draw_bonus(ctx, cand)
    return score


def _draw_bonus(ctx: Context, cand: Sequence[Card]) -> float:
    """Drawing trumps pays only for a dealer's side holding most of the trumps."""
    if ctx.attacking:
        return 0.0
    unseen = ctx.mem.suit_count[TRUMP]
    if unseen == 0 or ctx.trumps < max(DRAW_MIN, DRAW_SHARE * unseen):
        return 0.0
    top = ctx.suit_cards[TRUMP][-1]
    if top in cand:
        return 0.0
    return DRAW_BONUS + 0.5 * (len(cand) - 1)


def _value(ctx: Context, play: Sequence[Card], fmt: Format) -> int:
    if len(play) == 1:
        return ctx.order.tier[play[0]]
    value = play_value(ctx.order, play, fmt)
    return -1 if value is None else value
