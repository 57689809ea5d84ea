from bot.game import SYSTEM, Match, NextHand, Phase, fallback_action

from .helpers import to_play


def test_fallback_players_finish_a_hand() -> None:
    match = to_play(Match.new(3))
    while match.phase == Phase.PLAY:
        seat = match.to_act
        match.apply(seat, fallback_action(match.view(seat)))
    assert match.phase in (Phase.SCORED, Phase.OVER)
    assert match.result is not None
    if match.phase == Phase.SCORED:
        match.apply(SYSTEM, NextHand())
        assert match.hand_no == 1
