"""What each table message says: updates turned into message content, with no I/O.

The presenter decides which message shows what and when; these builders say it
(in the table's language ``loc``): the lobby's embeds, the deal message, the
table message's text, the hand summary and a finished hand's panel line. They
read only the update's public view and the seats, so nothing private can reach a
table message from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.game import HandResult, Phase, SeatView
from bot.i18n import t
from bot.i18n.rules import join
from bot.rules import seat_number, team_of, trick_side
from bot.store import SeatInfo
from renderers import KittyScene, SummaryScene, TableScene, TrickScene

from .imagewords import kitty_words, summary_words
from .tableview import (
    bids_text,
    current_trick,
    finished_trick,
    plays_text,
    score_text,
    when,
    winning_now,
)
from .text import (
    cards_text,
    level_name,
    pair_text,
    result_line,
    result_text,
    suit_words,
    team_name,
    trump_text,
)

Names = tuple[str, str, str, str]


def lobby_embed(table_id: int, seats: Sequence[SeatInfo | None], loc: object) -> discord.Embed:
    """The lobby while seats fill: who sits where."""
    lines = []
    for seat, info in enumerate(seats):
        who = "—" if info is None else (info.name + (" 🤖" if info.kind == "bot" else ""))
        team = "AB"[team_of(seat)]
        lines.append(t(loc, "table-lobby-seat", seat=seat_number(seat), team=team, who=who))
    embed = discord.Embed(
        title=t(loc, "table-lobby-waiting", table=str(table_id)),
        description="\n".join(lines)[:4000],
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t(loc, "table-lobby-footer"))
    return embed


def lobby_state_embed(
    table_id: int, public: SeatView, names: Names, place_id: int | None, loc: object
) -> discord.Embed:
    """The lobby once the match is on (levels, hand number), or its result."""
    teams = "\n".join(
        t(
            loc,
            "table-lobby-team",
            team=team_name(k, loc),
            players=pair_text(names[k], names[k + 2], loc),
            level=t(loc, "table-level", level=level_name(public.levels[k])),
        )
        for k in (0, 1)
    )
    if public.match_winner is not None:
        k = public.match_winner
        title = t(loc, "table-lobby-won", table=str(table_id), team=team_name(k, loc))
        colour = discord.Colour.green()
    else:
        title = t(loc, "table-lobby-playing", table=str(table_id), hand=public.hand_no + 1)
        colour = discord.Colour.blurple()
    footer = t(loc, "table-lobby-in-thread", thread=f"<#{place_id}>") if place_id else ""
    return discord.Embed(title=title, description=f"{teams}\n{footer}", colour=colour)


def closed_embed(table_id: int, note: str, loc: object) -> discord.Embed:
    return discord.Embed(
        title=t(loc, "table-lobby-closed", table=str(table_id)),
        description=note or None,
        colour=discord.Colour.dark_grey(),
    )


def deal_content(
    public: SeatView,
    names: Names,
    deadline: float | None,
    loc: object,
) -> str:
    """The deal message: the deal, the bids in order, then the trump and the bury, and
    the overcall round after it (``overcall="after_bury"``): who passed, whose turn.

    All of it is read from the public view, so a restarted bot says the same: the
    hand's latest kitty draw (``kitty_draw_line``) stands above the redeal it caused
    (said while the new deal is open), or in place of the bids it stood in for; the
    round's overcalls are bids.
    """
    drawn = kitty_draw_line(public, names, loc)
    done = public.dealt >= public.deal_total
    a, b = (level_name(level) for level in public.levels)
    levels = t(loc, "table-deal-levels", a=a, b=b)
    lines = [t(loc, "table-deal-head", hand=public.hand_no + 1, levels=levels)]
    if public.phase == Phase.DEAL:
        lines.append(
            t(
                loc,
                "table-deal-progress",
                dealt=public.dealt,
                total=public.deal_total,
                level=level_name(public.level),
            )
        )
    if drawn:
        lines.append(drawn)
    if public.phase == Phase.DEAL and public.redeals:
        lines.append(t(loc, "table-redeal"))
    history = bids_text(public, names, loc)
    if history:
        lines += [t(loc, "table-deal-bids"), *history]
    elif public.phase == Phase.DEAL:
        lines.append(t(loc, "table-no-bid"))
    elif not drawn:  # over with no bid, and no kitty draw: the rules' no-bid case decided
        lines.append(t(loc, "table-no-bid-over"))
    if public.phase == Phase.DEAL and done and deadline is not None:
        lines.append(t(loc, "table-bidding-closes", when=when(deadline)))
    if public.trump is not None and public.dealer is not None:
        trump = trump_text(public.trump, loc)
        lines.append(t(loc, "table-deal-trump", trump=trump, dealer=names[public.dealer]))
        if public.phase == Phase.KITTY:
            lines.append(t(loc, "table-deal-burying", when=when(deadline)))
    if public.phase == Phase.OVERCALL and public.to_act is not None:
        lines.append(t(loc, "table-overcall-round"))
        if public.passed:
            players = join(loc, [names[seat] for seat in public.passed])
            lines.append(t(loc, "table-overcall-passed", players=players))
        player = names[public.to_act]
        lines.append(t(loc, "table-to-overcall", player=player, when=when(deadline)))
    return "\n".join(lines)[:2000]


def kitty_draw_line(public: SeatView, names: Names, loc: object) -> str:
    """The hand's kitty draw (``no_bid="kitty_draw"``), "" if none: the cards turned, in
    order, and what the last of them decided; the rules have it shown to everyone.

    A draw decided the deal when the trump has a suit and no bid set it: its last card
    names the suit and the dealer. Otherwise (the draw of a redeal, or the last one the
    redeals allow, played in no trump) none of its cards matched.
    """
    if not public.turned:
        return ""
    cards = " ".join(cards_text((card,), loc) for card in public.turned)
    trump, dealer = public.trump, public.dealer
    if public.bids or trump is None or trump.suit is None or dealer is None:
        return t(loc, "table-kitty-drawn-none", cards=cards)
    return t(
        loc,
        "table-kitty-drawn",
        cards=cards,
        card=cards_text(public.turned[-1:], loc),
        team=team_name(team_of(dealer), loc),
        dealer=names[dealer],
        suit=suit_words(trump.suit, loc),
    )


def table_content(
    public: SeatView,
    names: Names,
    seats: Sequence[SeatInfo | None],
    *,
    notes: Sequence[str],
    dm_closed: set[int],
    deadline: float | None,
    played_for: int | None,
    extra: str,
    loc: object,
) -> str:
    """The table message's text: the trick so far and whose turn (the strip is in the image).

    A player whose DMs are closed is mentioned at their turn (the thread is where
    they learn of it); ``played_for`` is a human seat the timer or 托管 played for.
    """
    trick_no = len(public.tricks) + (1 if public.trick or public.phase == Phase.PLAY else 0)
    lines = [t(loc, "table-trick-head", hand=public.hand_no + 1, trick=trick_no)]
    if public.trick:
        lines.append(plays_text(public.trick, names, loc, winning_now(public)))
    elif public.tricks:
        last = public.tricks[-1]
        plays = plays_text(last.plays, names, loc, last.winner)
        won = t(
            loc,
            "table-trick-won",
            player=names[last.winner],
            points=last.points,
            side=trick_side(last.winner, public.dealer),
            plays=plays,
        )
        lines.append(won)
    lines += notes
    if public.expecting == "play" and public.to_act is not None:
        seat = public.to_act
        info = seats[seat]
        who = names[seat]
        if info is not None and info.user_id is not None and info.user_id in dm_closed:
            who = f"<@{info.user_id}>"
        key = "table-to-lead" if not public.trick else "table-to-play"
        lines.append(t(loc, key, player=who, when=when(deadline)))
    if played_for is not None:
        info = seats[played_for]
        if info is not None and info.kind == "human":
            lines.append(t(loc, "table-played-for", player=names[played_for]))
    if extra:
        lines.append(extra)
    return "\n".join(lines)[:2000]


def table_scene(public: SeatView, names: Names, loc: object) -> TableScene | None:
    """The table image's scene: the trick on the table, the strip, the previous trick.

    Before the first lead the trick is empty and the seat to lead is marked; the
    previous trick is shown while a trick is in progress, unless the rules turn
    that help off (``assistance``).
    """
    if public.trump is None or public.dealer is None:
        return None
    trick = current_trick(public, names)
    if trick is None:
        leader = public.to_act if public.to_act is not None else public.dealer
        trick = TrickScene(names, leader, {}, public.trump, public.dealer, trick_no=1)
    last = None
    if public.trick and public.tricks and public.rules.assistance == "full":
        record = public.tricks[-1]
        last = finished_trick(record, names, public, len(public.tricks))
    d = public.dealer
    shown = len(public.tricks) + (1 if public.trick else 0)  # the trick the image shows
    trump_key = "table-img-no-trump" if public.trump.suit is None else "table-img-trump"
    return TableScene(
        trick=trick,
        head=t(loc, "table-img-head", hand=public.hand_no + 1, trick=max(1, shown)),
        teams=(
            t(loc, "table-img-dealer-team", level=level_name(public.levels[team_of(d)])),
            t(loc, "table-img-attackers", level=level_name(public.levels[team_of(d + 1)])),
        ),
        score=score_text(public, loc, image=True),
        trump_word=t(loc, trump_key),
        badges={
            "dealer": t(loc, "table-img-dealer"),
            "led": t(loc, "table-img-led"),
            "winning": t(loc, "table-img-winning"),
            "won": t(loc, "table-img-won"),
            "to_play": t(loc, "table-img-to-play"),
        },
        pair_word=t(loc, "img-and"),
        last=last,
        last_title=""
        if last is None
        else t(
            loc,
            "table-img-last",
            player=names[last.winner if last.winner is not None else 0],
            points=last.trick_points,
        ),
    )


def last_trick_scene(public: SeatView, names: Names, loc: object) -> TableScene | None:
    """The Previous trick button's image: the table image with the last finished trick."""
    scene = table_scene(public, names, loc)
    if scene is None or not public.tricks:
        return None
    n = len(public.tricks)
    return replace(
        scene,
        trick=finished_trick(public.tricks[-1], names, public, n),
        head=t(loc, "table-img-head", hand=public.hand_no + 1, trick=n),
        last=None,
        last_title="",
    )


def summary_scenes(
    result: HandResult, public: SeatView, names: Names, loc: object
) -> tuple[SummaryScene, KittyScene]:
    """The hand summary's two images: the score sheet and the kitty."""
    penalty = sum(
        p if team_of(result.dealer) == team_of(s) else -p for s, p in result.failed_throws
    )
    scene = SummaryScene(
        names=names,
        dealer=result.dealer,
        trick_points=result.trick_points - penalty,
        kitty_points=result.kitty_points,
        multiplier=result.multiplier or None,
        levels_before=result.levels_before,
        levels_after=result.levels_after,
        next_dealer=result.next_dealer,
        result=result_text(result, loc),
        penalty=penalty,
        hand_no=result.hand_no + 1,
        step=public.rules.step,
        total=public.rules.total_points,
        words=summary_words(loc, result.hand_no + 1),
    )
    kitty = KittyScene(
        cards=result.kitty,
        trump=result.trump,
        dealer_name=names[result.dealer],
        multiplier=result.multiplier or None,
        words=kitty_words(loc, result.multiplier, result.kitty_bonus),
    )
    return scene, kitty


def summary_content(result: HandResult, names: Names, deadline: float | None, loc: object) -> str:
    """The hand summary's text: points, the result, both levels, then what comes next."""
    bonus = (
        t(loc, "table-summary-bonus", multiplier=result.multiplier, bonus=result.kitty_bonus)
        if result.multiplier
        else ""
    )
    levels = {"a": level_name(result.levels_after[0]), "b": level_name(result.levels_after[1])}
    lines = [
        t(
            loc,
            "table-summary-head",
            hand=result.hand_no + 1,
            points=result.attacker_points,
            bonus=bonus,
        ),
        result_line(result, loc),
        t(loc, "table-summary-levels", **levels),
    ]
    if result.match_winner is None:
        next_dealer = names[result.next_dealer]
        lines.append(t(loc, "table-next-hand", dealer=next_dealer, when=when(deadline)))
    else:
        k = result.match_winner
        players = pair_text(names[k], names[k + 2], loc)
        lines.append(t(loc, "table-match-won", team=team_name(k, loc), players=players))
    return "\n".join(lines)[:2000]


def old_panel_line(hand_no: int, result: HandResult | None, loc: object) -> str:
    """What last hand's panel shrinks to at a new hand."""
    if result is None:
        return t(loc, "table-panel-old", hand=hand_no)
    return t(loc, "table-panel-old-result", hand=hand_no, result=result_text(result, loc))


def closed_panel_line(public: SeatView, loc: object) -> str:
    """What the hand's panel shrinks to when the table closes: the hand's result if it was
    scored (a finished match), else that the table closed under it."""
    result = public.last_result
    if result is not None and result.hand_no == public.hand_no:
        return old_panel_line(public.hand_no + 1, result, loc)
    return t(loc, "table-panel-closed", hand=public.hand_no + 1)
