"""Copying a SQLite file into PostgreSQL: everything arrives, the file is untouched."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.game import Match
from bot.rules import RuleSet
from bot.store import GuildSettings, Store, StoreError, simulate
from bot.store.pglocal import LocalPostgres
from bot.store.transfer import copy_sqlite_to_postgres

from .conftest import fresh_database
from .helpers import GUILD, HUMANS, play_until


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def _everything(store: Store) -> tuple[object, ...]:
    """What the bot reads back: boards, stats, history, settings and the live tables."""
    boards = [await store.leaderboard(GUILD, m, 50) for m in ("league", "rating", "wins", "hands")]
    stats = [await store.player_stats(GUILD, uid) for uid in (1, 2, 3, 4, 101, 102)]
    recent = await store.recent_matches(GUILD, 50)
    hands = [
        await store.hand_record(h) for t in recent for h in await store.hands_of_table(t.table_id)
    ]
    lives = await store.live_tables()
    matches = [(await store.restore(live)).to_dict() for live in lives]
    return boards, stats, recent, hands, lives, matches, await store.guild_settings(GUILD)


async def test_a_whole_database_is_copied_and_keeps_working(
    tmp_path: Path, pg_server: LocalPostgres, short_matches: None
) -> None:
    source = tmp_path / "bot.db"
    store = await Store.open(source)
    sim = await simulate(store, matches=1, hands=12, seed=4, guild_id=GUILD)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(decks=3), {"bot_delay_ms": 5}))
    match = Match.new(77, RuleSet())  # a live table mid-hand, with a snapshot
    table = await store.create_table(GUILD, 555, 101, RuleSet(), 77, HUMANS, None, 1.0)
    await play_until(store, table, match, random.Random(77), HUMANS, hands=1)
    await play_until(store, table, match, random.Random(78), HUMANS, actions=9)
    expected = await _everything(store)
    await store.close()
    before = _digest(source)

    url = await fresh_database(pg_server)
    counts = await copy_sqlite_to_postgres(source, url)

    assert _digest(source) == before
    conn = sqlite3.connect(source)
    for name, n in counts.items():
        assert conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] == n, name
    conn.close()
    assert sim.matches_finished == 1  # a whole match, and the live table's hand
    assert counts["hands"] == len(sim.hands) + 1
    assert counts["actions"] > 9 and counts["snapshots"] >= 1
    async with await Store.open(url) as copy:
        assert await _everything(copy) == expected
        # new rows get new ids, after the copied ones
        another = await copy.create_table(GUILD, 556, 101, RuleSet(), 1, HUMANS, None, 2.0)
        assert another > table
        more = await simulate(copy, hands=1, seed=9, guild_id=GUILD, channel_id=9)
        assert more.hands and min(more.hands) > counts["hands"]  # ids 1..n were copied


async def test_an_old_file_is_upgraded_on_the_way(
    tmp_path: Path, pg_server: LocalPostgres, short_matches: None
) -> None:
    """A file at schema 1 arrives at the latest; PostgreSQL's 0002 rebuilds the aggregates."""
    reference = tmp_path / "reference.db"
    store = await Store.open(reference)
    await simulate(store, matches=1, hands=20, seed=4, guild_id=GUILD)
    boards = {m: await store.leaderboard(GUILD, m) for m in ("league", "rating", "wins", "hands")}
    stats = [await store.player_stats(GUILD, uid) for uid in (1, 2, 3, 4)]
    await store.close()
    old = tmp_path / "old.db"
    await (await Store.open(old, migrate_to=1)).close()
    conn = sqlite3.connect(old)
    conn.execute("ATTACH DATABASE ? AS ref", (str(reference),))
    for name in ("players", "game_tables", "actions", "snapshots", "hands", "tricks"):
        conn.execute(f"INSERT INTO main.{name} SELECT * FROM ref.{name}")
    for name in ("hand_players", "match_players", "ratings", "guild_settings"):
        conn.execute(f"INSERT INTO main.{name} SELECT * FROM ref.{name}")
    conn.commit()
    conn.close()

    url = await fresh_database(pg_server)
    counts = await copy_sqlite_to_postgres(old, url)
    assert "player_stats" not in counts
    async with await Store.open(url) as copy:
        assert [await copy.player_stats(GUILD, uid) for uid in (1, 2, 3, 4)] == stats
        for metric, board in boards.items():
            assert await copy.leaderboard(GUILD, metric) == board


async def test_a_database_with_rows_is_refused_and_left_alone(
    tmp_path: Path, pg_server: LocalPostgres
) -> None:
    source = tmp_path / "bot.db"
    async with await Store.open(source) as store:
        await simulate(store, hands=1, seed=1, guild_id=GUILD)
    url = await fresh_database(pg_server)
    async with await Store.open(url) as target:
        await target.upsert_player(9, "Already here")
    with pytest.raises(StoreError, match="empty database"):
        await copy_sqlite_to_postgres(source, url)
    async with await Store.open(url) as target:
        assert await target.recent_matches(GUILD) == []
    with pytest.raises(StoreError, match="postgresql://"):
        await copy_sqlite_to_postgres(source, str(tmp_path / "other.db"))
    with pytest.raises(StoreError, match="no database file"):
        await copy_sqlite_to_postgres(tmp_path / "missing.db", url)


async def test_a_count_that_differs_rolls_the_copy_back(
    tmp_path: Path, pg_server: LocalPostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is verified by row counts: a table that arrives short (one row lost on
    the way, here) is named, and nothing of the copy stays in the target."""
    source = tmp_path / "bot.db"
    async with await Store.open(source) as store:
        await simulate(store, hands=2, seed=1, guild_id=GUILD)
    real = asyncpg.Connection.copy_records_to_table

    async def lossy(self: asyncpg.Connection, name: str, *, records: list, **kw: object) -> str:
        return await real(self, name, records=records[:-1] if name == "tricks" else records, **kw)

    monkeypatch.setattr(asyncpg.Connection, "copy_records_to_table", lossy)
    url = await fresh_database(pg_server)
    with pytest.raises(
        StoreError, match=r"^tricks: \d+ rows in .* copied; the copy was rolled back"
    ):
        await copy_sqlite_to_postgres(source, url)
    monkeypatch.undo()
    async with await Store.open(url) as target:
        assert await target.recent_matches(GUILD) == []
        assert await target.player_stats(GUILD, 1) is None
    assert await copy_sqlite_to_postgres(source, url)  # the empty target takes a new copy


def test_the_commands_take_a_postgresql_url(
    tmp_path: Path, pg_server: LocalPostgres, capsys: pytest.CaptureFixture[str]
) -> None:
    """``simulate --db URL`` records into PostgreSQL; ``migrate-db`` copies a file there."""
    source = tmp_path / "bot.db"
    assert main(["simulate", "--hands", "2", "--players", "random,random,random,random",
                 "--db", str(source)]) == 0  # fmt: skip
    url = asyncio.run(fresh_database(pg_server))
    capsys.readouterr()
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 0
    out = capsys.readouterr().out
    assert "hands" in out and "every table's row count matches" in out
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 1  # not empty any more
    assert "already holds rows" in capsys.readouterr().out
    assert main(["simulate", "--hands", "2", "--players", "random,random,random,random",
                 "--db", url]) == 0  # fmt: skip
    assert "recorded 2 hands" in capsys.readouterr().out

    async def count() -> int:
        async with await Store.open(url) as store:
            return len(await store.recent_matches(0, 100))

    assert asyncio.run(count()) == 2  # one copied from the file, one simulated here
