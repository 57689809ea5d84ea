"""The DM panel carries everything needed to play without the channel, read off the match.

Checked through the fake Discord at a moment in the middle of a hand: a trick
finished, another under way, and the player to act bound to follow. The two teams
play at different levels, so a level named for the wrong team shows. The table
message in the thread counts the turn down in each reader's own time.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from bot.game import Match, Phase
from bot.i18n.rules import explain
from bot.rules import obligation, trick_winner
from cogs.tableview import names_of
from cogs.text import cards_text, level_name, trump_text

from .helpers import Env, record_hand_scenes, start_matches_at
from .test_bad_input import _started

LEVELS = ("5", "J")  # team A (seats 0 and 2) at 5, team B at J


@pytest.fixture
def at_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    start_matches_at(monkeypatch, LEVELS)


def _telling_moment(match: Match, humans: set[int]) -> bool:
    """A human to act and bound to follow, a trick not led by the card winning it, and
    points already taken by the attackers: every line of the panel says something."""
    seat = match.to_act
    trump, dealer = match.trump, match.dealer
    if seat not in humans or not match.tricks or not match.trick or trump is None:
        return False
    assert dealer is not None
    order = [cards for _, cards in match.trick]
    if trick_winner(order, trump, match.rules) == 0:
        return False
    if not any(r.points and r.winner % 2 != dealer % 2 for r in match.tricks):
        return False
    view = match.view(seat)
    assert view.lead is not None
    return obligation(view.hand, view.lead, trump, match.rules) is not None


@pytest.mark.deal_seed(1)
async def test_a_mid_hand_panel_says_all_a_player_needs(
    shengji: Env, at_levels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    scenes = record_hand_scenes(monkeypatch)
    await _started(env, humans=2)
    match = env.match()
    for _ in range(200):
        if _telling_moment(match, {0, 1}) or match.phase != Phase.PLAY:
            break
        seat, seq = match.to_act, match.seq
        if seat in (0, 1):
            await env.play_with_slash(seat, env.suggestion(seat))
        else:
            await env.until(lambda s=seq: match.seq > s or match.phase != Phase.PLAY)
    assert _telling_moment(match, {0, 1}), "no such moment in the first hand"
    seat, dealer, trump = match.to_act, match.dealer, match.trump
    assert seat is not None and dealer is not None and trump is not None
    names = names_of(tuple(env.table().seats))
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)
    lines = panel.content.splitlines()

    def line(start: str) -> str:
        found = [text for text in lines if text.startswith(start)]
        assert len(found) == 1, (start, panel.content)
        return found[0]

    def plays(record: Any, winner: int) -> str:
        """``Alice 3♥ · **Bob A♥**``: each seat's cards in play order, the winner's in bold."""
        parts = [(s, f"{names[s]} {cards_text(list(cards), 'en-US')}") for s, cards in record]
        return " · ".join(f"**{p}**" if s == winner else p for s, p in parts)

    # the role
    attacker = seat % 2 != dealer % 2
    line("You are an attacker (闲家)" if attacker else "You are on the dealer's team (庄家)")
    # both levels, each with its team
    teams = line("Dealer's team (庄家)")
    assert f"{names[dealer]} & {names[(dealer + 2) % 4]} at {level_name(LEVELS[dealer % 2])}" in (
        teams
    )
    attackers = f"{names[(dealer + 1) % 4]} & {names[(dealer + 3) % 4]}"
    assert f"{attackers} at {level_name(LEVELS[(dealer + 1) % 2])}" in teams
    # the trump, and the attackers' points as the tricks they won add up
    assert line("**Trump:**") == f"**Trump:** {trump_text(trump, 'en-US')}"
    won = sum(r.points for r in match.tricks if r.winner % 2 != dealer % 2)
    assert line("Attackers' points").startswith(f"Attackers' points **{won}** · ")
    assert sum(trump_text(trump, "en-US") in text for text in lines) == 1  # said once
    # the previous trick, its winner in bold, and whose its points are
    last = match.tricks[-1]
    previous = line("Previous trick:")
    if not last.points:
        assert previous.endswith(plays(last.plays, last.winner))
    elif last.winner % 2 != dealer % 2:
        assert previous.endswith(f"(attackers +{last.points})")
    else:
        assert previous.endswith(f"({last.points} kept by the dealer's team)")
    assert plays(last.plays, last.winner) in previous
    # the trick so far, the card winning it now in bold
    order = [cards for _, cards in match.trick]
    winning = match.trick[trick_winner(order, trump, match.rules)][0]
    assert line("On the table:") == "On the table: " + plays(match.trick, winning)
    # what the player must play
    view = match.view(seat)
    assert view.lead is not None
    duty = obligation(view.hand, view.lead, trump, match.rules)
    assert duty is not None
    assert line("**Your turn** to follow") == f"**Your turn** to follow: {explain('en-US', duty)}."
    # the image: the player's own cards, sorted under this trump, none marked
    drawn = [s for s in scenes if Counter(s.cards) == Counter(match.hands[seat])]
    assert drawn and drawn[-1].trump == trump and not drawn[-1].marked
    # the table message counts down to the end of the turn in the reader's own time
    deadline = env.bot.service.deadline(env.table())
    assert deadline is not None
    countdown = f"▶ {names[seat]} to play <t:{int(deadline)}:R>"
    table = await env.until(
        lambda: next((m for m in env.place_messages() if countdown in m.content), None)
    )
    assert re.search(r"\*\*Hand 1 · trick \d+\*\*", table.content)
