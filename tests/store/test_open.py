"""Opening database files: missing, corrupt, truncated, foreign and newer ones."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
from pathlib import Path

import pytest

from bot.rules import RuleSet
from bot.store import LATEST_VERSION, GuildSettings, Store, StoreError
from bot.store.migrations import MIGRATIONS

from .helpers import GUILD, HUMANS


def _fingerprint(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with its content hash: nothing may change or appear."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


async def _filled_db(path: Path) -> None:
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(decks=3), {"bot_delay_ms": 5}))
    table = await store.create_table(GUILD, 1, 101, RuleSet(), 1, HUMANS, 0, 0.0)
    for seq in range(1, 200):
        await store.append_action(table, seq, -1, {"kind": "deal", "count": 1, "pad": "x" * 300}, 0)
    await store.close()


async def test_missing_file_is_created_with_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "bot.db"
    store = await Store.open(path)
    try:
        assert path.exists() and store.schema_version == LATEST_VERSION
        assert await store.guild_settings(1) == GuildSettings()
        assert await store.live_tables() == []
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
    assert versions == [m.version for m in MIGRATIONS]
    conn.close()


async def test_reopen_keeps_everything_and_empty_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _filled_db(path)
    store = await Store.open(path)
    try:
        settings = await store.guild_settings(GUILD)
        assert settings.rules == RuleSet(decks=3) and settings.timers == {"bot_delay_ms": 5}
        (live,) = await store.live_tables()
        assert live.last_seq == 199
    finally:
        await store.close()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    store = await Store.open(empty)
    await store.close()
    assert empty.stat().st_size > 0


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(random.Random(1).randbytes(20_000), id="random-bytes"),
        pytest.param(b"SQLite format 3", id="short-header"),
        pytest.param(b'{"not": "a database"}\n', id="json"),
    ],
)
async def test_not_a_database_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(content)
    before = _fingerprint(tmp_path)
    with pytest.raises(StoreError, match="not a SQLite database"):
        await Store.open(path)
    assert _fingerprint(tmp_path) == before


@pytest.mark.parametrize("keep", [0.5, 0.1])
async def test_truncated_database_is_refused_untouched(tmp_path: Path, keep: float) -> None:
    good = tmp_path / "good.db"
    await _filled_db(good)
    data = good.read_bytes()
    assert len(data) > 40_000
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    bad = bad_dir / "bot.db"
    bad.write_bytes(data[: int(len(data) * keep)])
    before = _fingerprint(bad_dir)
    with pytest.raises(StoreError, match=r"damaged|cannot be read") as err:
        await Store.open(bad)
    assert "not changed" in str(err.value)
    assert _fingerprint(bad_dir) == before  # no -wal/-shm files either


async def test_corrupted_pages_are_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _filled_db(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(3)
    for page in range(2, len(data) // 4096):  # scribble over every page but the first
        start = page * 4096 + 8
        data[start : start + 64] = rng.randbytes(64)
    path.write_bytes(bytes(data))
    before = _fingerprint(tmp_path)
    with pytest.raises(StoreError):
        await Store.open(path)
    assert _fingerprint(tmp_path) == before


async def test_someone_elses_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    before = _fingerprint(tmp_path)
    with pytest.raises(StoreError, match="not a shengji-bot one"):
        await Store.open(path)
    assert _fingerprint(tmp_path) == before


async def test_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _filled_db(path)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (LATEST_VERSION + 1,)
    )
    conn.commit()
    conn.close()
    before = _fingerprint(tmp_path)
    with pytest.raises(StoreError, match=f"schema version {LATEST_VERSION + 1}.*newer"):
        await Store.open(path)
    assert _fingerprint(tmp_path) == before


async def test_newer_schema_in_an_uncheckpointed_wal_is_refused(tmp_path: Path) -> None:
    """A newer bot still running (or killed) has its version row only in the WAL."""
    path = tmp_path / "bot.db"
    await _filled_db(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("INSERT INTO schema_version VALUES (?, 'future', 0)", (LATEST_VERSION + 1,))
    try:
        assert os.path.getsize(f"{path}-wal") > 0
        with pytest.raises(StoreError, match="newer"):
            await Store.open(path)
    finally:
        conn.close()


async def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="folder"):
        await Store.open(tmp_path)


async def test_synchronous_full_is_accepted(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db", synchronous="full")
    await store.close()
    with pytest.raises(ValueError):
        await Store.open(tmp_path / "bot.db", synchronous="OFF")


async def test_check_false_still_refuses_what_the_header_and_version_show(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(random.Random(2).randbytes(5000))
    with pytest.raises(StoreError, match="not a SQLite database"):
        await Store.open(path, check=False)
    good = tmp_path / "good.db"
    await _filled_db(good)
    store = await Store.open(good, check=False)
    await store.close()
