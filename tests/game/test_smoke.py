from bot.game import OVER, PLAY, SCORED, SYSTEM, Match, NextHand, fallback_action

from .helpers import to_play


def test_fallback_players_finish_a_hand() -> None:
    match = to_play(Match.new(3))
    while match.phase == PLAY:
        seat = match.to_act
        match.apply(seat, fallback_action(match.view(seat)))
    assert match.phase in (SCORED, OVER)
    assert match.result is not None
    if match.phase == SCORED:
        match.apply(SYSTEM, NextHand())
        assert match.hand_no == 1
