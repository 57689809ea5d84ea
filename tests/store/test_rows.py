"""``hand_rows``: the rows a scored hand writes, checked without a database."""

from __future__ import annotations

import json

from bot.game import TrickRecord, codec
from bot.rules import ATTACKERS, DEALER, parse_cards
from bot.store.rows import hand_rows

from .helpers import BOT, HUMANS, TRICKS, result


def test_attackers_take_the_deal_with_a_kitty_bonus_and_a_failed_throw() -> None:
    # dealer seat 0 (team 0); the attackers (team 1) go up 2 levels, kitty bonus 40;
    # seat 1 failed a throw twice (10 + 20), seat 2 once (10).
    res = result(3, 0, ATTACKERS, 2, kitty_bonus=40, failed_throws=((1, 10), (2, 10), (1, 20)))
    rows = hand_rows(7, 42, 99, res, TRICKS, HUMANS, [5, -3, 0, 12], 1234.5)

    assert rows.hand.table_id == 7 and rows.hand.guild_id == 42 and rows.hand.seed == 99
    assert rows.hand.hand_no == 3 and rows.hand.played_at == 1234.5
    assert rows.hand.kitty == "3S 4S 5S 6S 7S 8S 9S JS"
    assert rows.hand.failed_throws == "[[1,10],[2,10],[1,20]]"
    assert (rows.hand.league_change, rows.hand.league_factor) == (4, 1)  # 2 + 2 levels, x1

    assert [p.role for p in rows.players] == ["dealer", "attacker", "partner", "attacker"]
    assert [p.team for p in rows.players] == [0, 1, 0, 1]
    assert [p.levels_gained for p in rows.players] == [0, 2, 0, 2]
    assert [p.kitty_bonus for p in rows.players] == [0, 40, 0, 40]
    assert [(p.failed_throws, p.throw_penalty) for p in rows.players] == [
        (0, 0),
        (2, 30),
        (1, 10),
        (0, 0),
    ]
    assert [p.league_before for p in rows.players] == [5, -3, 0, 12]
    assert [p.league_delta for p in rows.players] == [-4, 4, -4, 4]
    assert [p.user_id for p in rows.players] == [101, 102, 103, 104]

    assert [(s.user_id, s.league, s.kitty_bonuses, s.attacker_hands) for s in rows.stats] == [
        (101, -4, 0, 0),
        (102, 4, 1, 1),
        (103, -4, 0, 0),
        (104, 4, 1, 1),
    ]
    assert all(s.last_played == 1234.5 and s.guild_id == 42 for s in rows.stats)


def test_tricks_are_numbered_from_one_with_cards_in_notation() -> None:
    rows = hand_rows(1, 1, 1, result(0, 0, DEALER, 1), TRICKS * 2, HUMANS, [0] * 4, 0.0)
    assert [(t.trick_no, t.leader, t.winner, t.plays) for t in rows.tricks] == [
        (1, 0, 0, '[[0,"AH"],[1,"3H"]]'),
        (2, 0, 0, '[[0,"AH"],[1,"3H"]]'),
    ]
    assert rows.tricks[0].attempted is None


def test_all_humans_at_80_double_and_bots_are_unranked() -> None:
    doubled = hand_rows(1, 1, 1, result(0, 1, DEALER, 3), [], HUMANS, [80, 90, 300, 81], 0.0)
    # dealer's team (1) goes up 3 levels: min(2 + 2, 4) = 4, doubled
    assert (doubled.hand.league_change, doubled.hand.league_factor) == (4, 2)
    assert [p.league_delta for p in doubled.players] == [-8, 8, -8, 8]

    seats = [HUMANS[0], BOT, HUMANS[2], BOT]
    mixed = hand_rows(1, 1, 1, result(0, 1, DEALER, 3), [], seats, [500, None, 500, None], 0.0)
    assert mixed.hand.league_factor == 1  # a bot counts as 0 points
    assert [p.league_before for p in mixed.players] == [500, None, 500, None]
    assert [p.league_delta for p in mixed.players] == [-4, None, -4, None]
    assert [p.user_id for p in mixed.players] == [101, None, 103, None]
    assert [s.user_id for s in mixed.stats] == [101, 103]


def test_rows_hold_cards_in_the_codecs_forms() -> None:
    res = result(2, 3, ATTACKERS, 1, kitty_bonus=20, failed_throws=((0, 10),))
    plays = ((1, tuple(parse_cards("AH AH"))), (2, tuple(parse_cards("3S 4S"))))
    trick = TrickRecord(1, plays, 1, 0, tuple(parse_cards("AH KH")))
    rows = hand_rows(1, 1, 1, res, [trick, *TRICKS], HUMANS, [0] * 4, 0.0)
    coded = codec.encode(res)
    assert rows.hand.kitty == coded["kitty"]
    assert json.loads(rows.hand.failed_throws) == coded["failed_throws"]
    for row, t in zip(rows.tricks, [trick, *TRICKS], strict=True):
        assert json.loads(row.plays) == codec.encode(t)["plays"]
        assert row.attempted == codec.encode(t)["attempted"]
