"""Records: league points, ratings, leaderboards, stats, history, settings, simulate."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sqlite3
from pathlib import Path

import pytest

from bot.game import Match
from bot.rules import ATTACKERS, DEALER, DRAW, RuleSet
from bot.store import GuildSettings, SeatInfo, Store, StoreError, simulate_into
from bot.store import ratings as rating_model

from .helpers import BOT, GUILD, HUMANS, TRICKS, play_until, result

A, B, C, D = (s.user_id for s in HUMANS)  # seats 0 and 2 are team 0, seats 1 and 3 team 1


async def _table(store: Store, seats: list[SeatInfo] = HUMANS, channel: int = 1) -> int:
    return await store.create_table(GUILD, channel, 101, RuleSet(), 1, seats, 0, 0.0)


async def _set_league(store: Store, points: dict[int, int]) -> None:
    """Give players league points directly (reaching 80 or 300 by play takes long)."""
    async with store._write() as db:
        await db.executemany(
            "INSERT INTO player_stats (guild_id, user_id, league) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET league = excluded.league",
            [(GUILD, uid, pts) for uid, pts in points.items()],
        )


async def _league(store: Store, uid: int) -> int:
    stats = await store.player_stats(GUILD, uid)
    assert stats is not None
    return stats.league


# --- league points (seed 001) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "levels", "change"),
    [
        (ATTACKERS, 0, 2),  # 80-119: take the deal
        (ATTACKERS, 1, 3),
        (ATTACKERS, 3, 5),
        (DEALER, 1, 2),
        (DEALER, 2, 3),
        (DEALER, 3, 4),  # 大光, the most
    ],
)
async def test_league_change_per_hand(store: Store, winner: str, levels: int, change: int) -> None:
    table = await _table(store)
    await store.record_hand(table, result(0, 0, winner, levels), TRICKS, HUMANS, 1.0)
    dealer_team = change if winner == DEALER else -change  # dealer is seat 0: team 0
    assert [await _league(store, uid) for uid in (A, B, C, D)] == [
        dealer_team,
        -dealer_team,
        dealer_team,
        -dealer_team,
    ]


async def test_a_race45_draw_is_recorded_and_moves_nobody(store: Store) -> None:
    """000 §四: exactly 40 without the last trick is a draw (nobody moves, no league
    points). The hands table refused the word, and the table closed as if the store had
    failed for good (found by the monkey test)."""
    table = await _table(store)
    draw = dataclasses.replace(
        result(0, 0, DRAW, 0), attacker_points=40, trick_points=40, next_dealer=0
    )
    await store.record_hand(table, draw, TRICKS, HUMANS, 1.0)
    assert [await _league(store, uid) for uid in (A, B, C, D)] == [0, 0, 0, 0]
    stats = await store.player_stats(GUILD, A)
    assert stats is not None and stats.hands == 1 and stats.levels_gained == 0
    (hand_id,) = await store.hands_of_table(table)
    record = await store.hand_record(hand_id)
    assert record is not None and record.result.winner == DRAW


async def test_a_servers_big_light_points_times_the_factor(store: Store) -> None:
    """Seed 001:182: 大光积分配置为庄家+6分 at a table of 400s: tripled to 18."""
    await _set_league(store, {A: 400, B: 400, C: 400, D: 400})
    table = await _table(store)
    await store.record_hand(table, result(0, 0, DEALER, 3), TRICKS, HUMANS, 1.0, 6)
    assert [await _league(store, uid) for uid in (A, B, C, D)] == [418, 382, 418, 382]


@pytest.mark.parametrize(
    ("points", "factor"),
    [
        ({A: 79, B: 200, C: 200, D: 200}, 1),
        ({A: 80, B: 80, C: 80, D: 80}, 2),  # all between 80 and 300: doubled
        ({A: 300, B: 300, C: 300, D: 300}, 2),
        ({A: 301, B: 301, C: 301, D: 301}, 3),  # all above 300: tripled
        ({A: 301, B: 150, C: 400, D: 999}, 2),  # mixed, all >= 80: doubled (league_factor)
        ({A: -5, B: 400, C: 400, D: 400}, 1),
    ],
)
async def test_league_factor_from_the_four_players(
    store: Store, points: dict[int, int], factor: int
) -> None:
    await _set_league(store, points)
    table = await _table(store)
    hand = await store.record_hand(table, result(0, 1, ATTACKERS, 2), TRICKS, HUMANS, 1.0)
    change = 4 * factor  # attackers (team 0) +2 levels: 2 + 2
    assert await _league(store, A) == points[A] + change
    assert await _league(store, B) == points[B] - change
    record = await store.hand_record(hand)
    assert record is not None
    assert (record.league_change, record.league_factor) == (4, factor)
    assert [p.league_before for p in record.players] == [points[u] for u in (A, B, C, D)]
    assert [p.league_delta for p in record.players] == [change, -change, change, -change]


async def test_bots_hold_no_league_points_and_count_as_zero(store: Store) -> None:
    await _set_league(store, {A: 200, B: 200, C: 200})
    seats = [HUMANS[0], HUMANS[1], HUMANS[2], BOT]
    table = await _table(store, seats)
    hand = await store.record_hand(table, result(0, 0, DEALER, 1), TRICKS, seats, 1.0)
    assert [await _league(store, uid) for uid in (A, B, C)] == [202, 198, 202]  # factor 1
    record = await store.hand_record(hand)
    assert record is not None
    bot = record.players[3]
    assert (bot.kind, bot.user_id, bot.league_before, bot.league_delta) == ("bot", None, None, None)
    assert await store.player_stats(GUILD, 104) is None  # never sat down in this guild


async def test_league_points_are_per_guild(store: Store) -> None:
    table = await _table(store)
    other = await store.create_table(GUILD + 1, 2, 101, RuleSet(), 1, HUMANS, 0, 0.0)
    await store.record_hand(table, result(0, 0, DEALER, 3), TRICKS, HUMANS, 1.0)
    await store.record_hand(other, result(0, 1, DEALER, 1), TRICKS, HUMANS, 1.0)
    assert await _league(store, A) == 4
    other_stats = await store.player_stats(GUILD + 1, A)
    assert other_stats is not None and other_stats.league == -2


# --- per-player hand records and stats --------------------------------------------------


async def test_player_stats_count_roles_levels_kitty_and_throws(store: Store) -> None:
    table = await _table(store)
    # hand 0: seat 0 deals, attackers (team 1) take the deal +1 with a kitty bonus of 40;
    # seat 1 failed a throw (10) and seat 3 two (20, 10)
    first = result(0, 0, ATTACKERS, 1, kitty_bonus=40, failed_throws=((1, 10), (3, 20), (3, 10)))
    await store.record_hand(table, first, TRICKS, HUMANS, 1.0)
    # hand 1: seat 1 deals at level 3 and holds +2
    second = result(1, 1, DEALER, 2, levels_before=("2", "3"))
    await store.record_hand(table, second, TRICKS, HUMANS, 2.0)
    await store.record_match_end(table, 1, 3.0)

    a = await store.player_stats(GUILD, A)
    b = await store.player_stats(GUILD, B)
    d = await store.player_stats(GUILD, D)
    assert a is not None and b is not None and d is not None
    assert (a.hands, a.dealer_hands, a.partner_hands, a.attacker_hands) == (2, 1, 0, 1)
    assert (b.hands, b.dealer_hands, b.partner_hands, b.attacker_hands) == (2, 1, 0, 1)
    assert (d.dealer_hands, d.partner_hands, d.attacker_hands) == (0, 1, 1)
    assert (a.levels_gained, b.levels_gained) == (0, 3)
    assert (b.kitty_bonuses, b.kitty_bonus_points, a.kitty_bonuses) == (1, 40, 0)
    assert (b.failed_throws, b.throw_penalty_points) == (1, 10)
    assert (d.failed_throws, d.throw_penalty_points) == (2, 30)
    assert (a.matches, a.wins, b.matches, b.wins) == (1, 0, 1, 1)
    assert (a.league, b.league) == (-3 - 3, 3 + 3)  # attackers +1: 3; dealer +2: 3
    assert a.name == "Ann" and b.rated_matches == 1
    assert await store.player_stats(GUILD, 999) is None


async def test_hand_record_round_trips_a_real_hand(store: Store) -> None:
    rules = RuleSet()
    match = Match.new(21, rules)
    seats = [HUMANS[0], BOT, HUMANS[2], HUMANS[3]]
    table = await store.create_table(GUILD, 1, 101, rules, 21, seats, None, 0.0)
    (hand_id,) = await play_until(store, table, match, random.Random(2), seats, hands=1)
    assert match.result is not None
    record = await store.hand_record(hand_id)
    assert record is not None
    assert record.result == match.result
    assert record.tricks == match.tricks
    assert (record.table_id, record.guild_id, record.hand_no, record.seed) == (table, GUILD, 0, 21)
    assert [p.name for p in record.players] == ["Ann", "Robot", "Cy", "Di"]
    assert sum(p.role == "dealer" for p in record.players) == 1
    assert [p.last_trick for p in record.players].count(True) == 1
    assert await store.hands_of_table(table) == [hand_id]
    assert await store.hand_record(hand_id + 1000) is None


async def test_record_hand_is_idempotent(store: Store) -> None:
    table = await _table(store)
    first = await store.record_hand(table, result(0, 0, DEALER, 1), TRICKS, HUMANS, 1.0)
    assert await store.record_hand(table, result(0, 0, DEALER, 1), TRICKS, HUMANS, 1.0) == first
    assert await _league(store, A) == 2
    assert await store.hands_of_table(table) == [first]


# --- ratings ----------------------------------------------------------------------------


async def test_match_end_moves_ratings_of_humans_only(store: Store) -> None:
    seats = [HUMANS[0], HUMANS[1], BOT, HUMANS[3]]
    table = await _table(store, seats)
    await store.record_match_end(table, 0, 5.0)
    a = await store.player_stats(GUILD, A)
    b = await store.player_stats(GUILD, B)
    assert a is not None and b is not None
    assert a.mu > rating_model.DEFAULT_MU > b.mu
    assert a.sigma < rating_model.DEFAULT_SIGMA and b.sigma < rating_model.DEFAULT_SIGMA
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    # expected values straight from openskill with the fixed bot rating
    fresh = (rating_model.DEFAULT_MU, rating_model.DEFAULT_SIGMA)
    expected = rating_model.rate_match([fresh, fresh, None, fresh], 0)
    assert (a.mu, a.sigma) == pytest.approx(expected[0])
    assert (b.mu, b.sigma) == pytest.approx(expected[1])
    # recording twice changes nothing
    await store.record_match_end(table, 0, 6.0)
    assert await store.player_stats(GUILD, A) == a
    (row,) = await store.recent_matches(GUILD)
    assert row.winner_team == 0 and row.players == seats


async def test_ratings_follow_results_over_matches(store: Store) -> None:
    for i in range(5):  # team 0 (A, C) beats team 1 (B, D) five times
        table = await _table(store, channel=10 + i)
        await store.record_match_end(table, 0, float(i))
        await store.close_table(table, "finished", float(i))
    board = await store.leaderboard(GUILD, "rating")
    assert [r.user_id for r in board[:2]] == sorted([A, C]) and board[0].value > board[2].value
    assert {r.user_id for r in board[2:]} == {B, D}
    a = await store.player_stats(GUILD, A)
    assert a is not None and a.rated_matches == 5 and (a.matches, a.wins) == (5, 5)


async def test_match_without_winner_counts_but_rates_nobody(store: Store) -> None:
    table = await _table(store)
    await store.record_match_end(table, None, 1.0)
    a = await store.player_stats(GUILD, A)
    assert a is not None and (a.matches, a.wins, a.rated_matches) == (1, 0, 0)
    assert a.mu == rating_model.DEFAULT_MU
    # ranked at the starting rating (issue 10: the rating board works from the first hand)
    start = rating_model.ordinal(rating_model.DEFAULT_MU, rating_model.DEFAULT_SIGMA)
    rows = await store.leaderboard(GUILD, "rating")
    assert rows and {row.value for row in rows} == {start}


# --- leaderboards and recent matches ----------------------------------------------------


async def test_leaderboard_order_for_each_metric(store: Store) -> None:
    t1 = await _table(store, channel=1)
    # league: attackers B, D take the deal +3: +5 each, A and C -5; then A alone with
    # bots holds the deal +2 three times (+3 each): B = D = 5, A = 4, C = -5
    await store.record_hand(t1, result(0, 0, ATTACKERS, 3), TRICKS, HUMANS, 1.0)
    await store.record_match_end(t1, 1, 2.0)
    await store.close_table(t1, "finished", 2.0)
    solo = [HUMANS[0], BOT, BOT, BOT]
    t2 = await _table(store, solo, channel=2)
    for n in range(3):  # A plays three more hands; holds the deal +2 each: +3 each
        await store.record_hand(t2, result(n, 0, DEALER, 2), TRICKS, solo, 3.0 + n)
    await store.record_match_end(t2, 0, 9.0)

    league = await store.leaderboard(GUILD, "league")
    assert [(r.user_id, r.value) for r in league] == [(B, 5), (D, 5), (A, 4), (C, -5)]
    hands = await store.leaderboard(GUILD, "hands")
    assert [(r.user_id, r.value) for r in hands] == [(A, 4), (B, 1), (C, 1), (D, 1)]
    wins = await store.leaderboard(GUILD, "wins")
    assert [(r.user_id, r.value) for r in wins] == [(A, 1), (B, 1), (D, 1), (C, 0)]
    assert (wins[0].name, wins[0].matches, wins[0].wins, wins[0].hands) == ("Ann", 2, 1, 4)
    rating = await store.leaderboard(GUILD, "rating")
    assert [r.value for r in rating] == sorted((r.value for r in rating), reverse=True)
    assert rating[-1].user_id == C  # lost the only match they played
    assert len(await store.leaderboard(GUILD, "league", limit=2)) == 2
    assert await store.leaderboard(GUILD + 5, "league") == []
    with pytest.raises(ValueError):
        await store.leaderboard(GUILD, "elo")


async def test_a_server_shows_the_name_a_player_has_there(store: Store) -> None:
    """``players.name`` is one per user, the latest seen anywhere: a nickname on another
    server showed on this server's leaderboard, and a table opened before a rename wrote
    the older name back with each of its hands."""
    older = await _table(store)  # Ann sat down here as "Ann"
    await store.record_hand(older, result(0, 0, DEALER, 1), TRICKS, HUMANS, 1.0)
    elsewhere = [SeatInfo.human(A, "Ann@other"), BOT, BOT, BOT]  # her nickname there
    other = await store.create_table(GUILD + 1, 2, A, RuleSet(), 2, elsewhere, 0, 2.0)
    await store.record_hand(other, result(0, 0, DEALER, 1), TRICKS, elsewhere, 3.0)
    renamed = [SeatInfo.human(A, "Annie"), BOT, BOT, BOT]  # renamed, at a new table here
    await store.create_table(GUILD, 3, A, RuleSet(), 3, renamed, 0, 4.0)
    await store.record_hand(older, result(1, 0, DEALER, 1), TRICKS, HUMANS, 5.0)
    assert [r.name for r in await store.leaderboard(GUILD, "hands") if r.user_id == A] == ["Annie"]
    assert [r.name for r in await store.leaderboard(GUILD + 1, "hands")] == ["Ann@other"]
    stats = await store.player_stats(GUILD, A)
    assert stats is not None and stats.name == "Annie"


async def test_names_follow_the_latest_seen(store: Store) -> None:
    table = await _table(store)
    await store.record_hand(table, result(0, 0, DEALER, 1), TRICKS, HUMANS, 1.0)
    renamed = [SeatInfo.human(A, "Ann the Great"), BOT, BOT, BOT]
    await store.create_table(GUILD, 2, A, RuleSet(), 2, renamed, 0, 2.0)  # a new table here
    board = await store.leaderboard(GUILD, "hands")
    assert board[0].name == "Ann the Great"
    record = await store.hand_record((await store.hands_of_table(table))[0])
    assert record is not None and record.players[0].name == "Ann"  # as seated then


async def test_recent_matches_newest_first_with_levels(store: Store) -> None:
    first = await store.create_table(GUILD, 1, 101, RuleSet(), 1, HUMANS, 0, 10.0)
    await store.record_hand(first, result(0, 0, DEALER, 2), TRICKS, HUMANS, 11.0)
    await store.record_match_end(first, 0, 12.0)
    await store.close_table(first, "finished", 13.0)
    second = await store.create_table(GUILD, 1, 102, RuleSet(), 2, HUMANS, None, 20.0)
    await store.create_table(GUILD + 1, 3, 102, RuleSet(), 3, HUMANS, None, 30.0)
    recent = await store.recent_matches(GUILD)
    assert [m.table_id for m in recent] == [second, first]
    assert (recent[0].status, recent[0].hands, recent[0].levels, recent[0].finished_at) == (
        "live",
        0,
        None,
        None,
    )
    done = recent[1]
    assert (done.status, done.winner_team, done.hands) == ("finished", 0, 1)
    assert done.levels == ("4", "2")
    assert (done.started_at, done.finished_at) == (10.0, 12.0)
    assert [p.name for p in done.players] == ["Ann", "Bo", "Cy", "Di"]
    assert len(await store.recent_matches(GUILD, limit=1)) == 1


# --- settings, pruning, simulate ----------------------------------------------------------


async def test_guild_settings_default_and_saved(store: Store) -> None:
    assert await store.guild_settings(GUILD) == GuildSettings(RuleSet(), {})
    saved = GuildSettings(
        RuleSet(decks=3, kitty_multiplier="flat", points_cap=200),
        {"bid_window_seconds": 8, "deal_pace_ms": 120, "bot_delay_ms": 700},
    )
    await store.save_guild_settings(GUILD, saved)
    assert await store.guild_settings(GUILD) == saved
    assert await store.guild_settings(GUILD + 1) == GuildSettings()
    changed = GuildSettings(RuleSet(), {"bot_delay_ms": 0})
    await store.save_guild_settings(GUILD, changed)
    assert await store.guild_settings(GUILD) == changed


async def test_prune_logs_keeps_records(store: Store) -> None:
    rules = RuleSet()
    match = Match.new(3, rules)
    old = await store.create_table(GUILD, 1, 101, rules, 3, HUMANS, None, 0.0)
    (hand,) = await play_until(store, old, match, random.Random(3), HUMANS, hands=1)
    await play_until(store, old, match, random.Random(3), HUMANS, actions=5)
    await store.close_table(old, "aborted", 100.0)
    live = await store.create_table(GUILD, 2, 101, rules, 4, HUMANS, None, 0.0)
    await store.append_action(live, 1, -1, {"kind": "deal", "count": 1}, 0.0)
    assert await store.prune_logs(closed_before=50.0) == 0
    assert await store.prune_logs(closed_before=200.0) == 1
    assert await store.action_log(old) == []
    assert len(await store.action_log(live)) == 1
    assert await store.hand_record(hand) is not None
    assert await store.prune_logs(closed_before=200.0) == 0


def test_simulate_into_writes_whole_matches(tmp_path: Path, short_matches: None) -> None:
    path = tmp_path / "sim" / "records.db"
    out = simulate_into(path, hands=None, seed=8, matches=1)
    assert out.matches_finished == 1 and len(out.tables) == 1 and len(out.hands) >= 2
    # a hand budget stops mid-match: that table is closed as aborted
    more = simulate_into(path, hands=2, seed=30, players=["N", "E", "S", "W"])
    assert len(more.hands) == 2 and more.matches_finished == 0

    conn = sqlite3.connect(path)
    statuses = dict(conn.execute("SELECT table_id, status FROM game_tables").fetchall())
    hands = conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    tricks = conn.execute("SELECT COUNT(*) FROM tricks").fetchone()[0]
    names = [r[0] for r in conn.execute("SELECT name FROM players ORDER BY user_id")]
    conn.close()
    assert statuses == {out.tables[0]: "finished", more.tables[0]: "aborted"}
    assert hands == len(out.hands) + 2 and tricks == 25 * hands
    assert names == ["N", "E", "S", "W"]  # the latest names of user ids 1-4

    async def check() -> None:
        store = await Store.open(path)
        try:
            board = await store.leaderboard(0, "hands")
            assert {r.user_id for r in board} == {1, 2, 3, 4}
            assert all(r.hands == hands for r in board)
            assert sum(r.wins for r in board) == 2  # one finished match, two winners
            (hand,) = (await store.hands_of_table(more.tables[0]))[:1]
            record = await store.hand_record(hand)
            assert record is not None and len(record.tricks) == 25
            assert await store.live_tables() == []
        finally:
            await store.close()

    asyncio.run(check())


async def test_ping_measures_a_round_trip(store: Store) -> None:
    seconds = await store.ping()
    assert 0 < seconds < 60
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.ping()
