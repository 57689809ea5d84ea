"""``SHENGJI_DB``: a SQLite file (plain path or sqlite:///) or a PostgreSQL URL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import ConfigError, format_shards, load_config
from bot.service import Limits


def test_database_from_the_environment(tmp_path: Path) -> None:
    def db(value: str | None) -> str:
        env = {} if value is None else {"SHENGJI_DB": value}
        return load_config(tmp_path, env).db

    assert db(None) == str(tmp_path / "shengji.sqlite3")
    assert db("data/bot.db") == str(tmp_path / "data" / "bot.db")
    assert db("/var/lib/bot.db") == "/var/lib/bot.db"
    assert db("sqlite:///data/bot.db") == str(tmp_path / "data" / "bot.db")
    assert db("sqlite:////var/lib/bot.db") == "/var/lib/bot.db"
    url = "postgresql://shengji:secret@db.example:5432/shengji"
    assert db(url) == url
    assert db("postgres://h/db") == "postgres://h/db"


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SHENGJI_DB=postgresql://a/b\nDISCORD_TOKEN='t'\n")
    assert load_config(tmp_path, {}).db == "postgresql://a/b"
    assert load_config(tmp_path, {}).token == "t"
    assert load_config(tmp_path, {"SHENGJI_DB": "x.db"}).db == str(tmp_path / "x.db")


def test_shards_from_the_environment(tmp_path: Path) -> None:
    def shards(**env: str) -> tuple[int | None, tuple[int, ...] | None]:
        config = load_config(tmp_path, env)
        return config.shard_count, config.shard_ids

    assert shards() == (None, None)
    assert shards(SHENGJI_SHARDS="4") == (4, (0, 1, 2, 3))
    assert shards(SHENGJI_SHARDS="8", SHENGJI_SHARD_IDS="0-3") == (8, (0, 1, 2, 3))
    assert shards(SHENGJI_SHARDS="4", SHENGJI_SHARD_IDS="0, 2") == (4, (0, 2))
    assert shards(SHENGJI_SHARDS="8", SHENGJI_SHARD_IDS="6-7,1") == (8, (1, 6, 7))


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHENGJI_SHARD_IDS": "0"}, "needs SHENGJI_SHARDS"),
        ({"SHENGJI_SHARDS": "two"}, "whole number"),
        ({"SHENGJI_SHARDS": "0"}, "whole number"),
        ({"SHENGJI_SHARDS": "2", "SHENGJI_SHARD_IDS": "2"}, "not within the 2 shard(s) 0-1"),
        ({"SHENGJI_SHARDS": "4", "SHENGJI_SHARD_IDS": "3-1"}, "'3-1' is not within"),
        ({"SHENGJI_SHARDS": "4", "SHENGJI_SHARD_IDS": "0;2"}, "ranges like 0-3 or 0,2"),
        ({"SHENGJI_SHARDS": "4", "SHENGJI_SHARD_IDS": "-1"}, "ranges like"),
        ({"SHENGJI_LEASE_SECONDS": "soon"}, "SHENGJI_LEASE_SECONDS"),
    ],
)
def test_bad_shard_settings_are_a_clear_start_up_error(
    tmp_path: Path, env: dict[str, str], says: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        load_config(tmp_path, env)


def test_shard_ranges_are_written_back_as_an_operator_writes_them(tmp_path: Path) -> None:
    assert format_shards((0, 1, 2, 3, 6)) == "0-3,6"
    assert format_shards((5,)) == "5"
    assert format_shards({7, 1, 2, 9, 8}) == "1-2,7-9"
    env = {"SHENGJI_SHARDS": "16", "SHENGJI_SHARD_IDS": "0-3,6,9-15"}
    assert format_shards(load_config(tmp_path, env).shard_ids or ()) == "0-3,6,9-15"


def test_limits_from_the_environment(tmp_path: Path) -> None:
    assert load_config(tmp_path, {}).limits == Limits()
    env = {
        "SHENGJI_MAX_TABLES": "40",
        "SHENGJI_MAX_TABLES_PER_HOST": "5",
        "SHENGJI_COMMANDS": "12",
        "SHENGJI_COMMAND_WINDOW": "7.5",
        "SHENGJI_RETENTION_DAYS": "0",
        "SHENGJI_PRUNE_EVERY": "3600",
    }
    assert load_config(tmp_path, env).limits == Limits(40, 5, 12, 7.5, 0.0, 3600.0)
    assert load_config(tmp_path, {"SHENGJI_MAX_TABLES": " 8 "}).limits == Limits(8)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SHENGJI_MAX_TABLES", "0"),
        ("SHENGJI_MAX_TABLES", "2.5"),
        ("SHENGJI_MAX_TABLES_PER_HOST", "many"),
        ("SHENGJI_COMMANDS", "-3"),
        ("SHENGJI_COMMAND_WINDOW", "nan"),
        ("SHENGJI_RETENTION_DAYS", "-1"),
        ("SHENGJI_PRUNE_EVERY", "1"),
    ],
)
def test_a_bad_limit_is_a_clear_start_up_error(tmp_path: Path, variable: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"^{variable} must be"):
        load_config(tmp_path, {variable: value})


async def test_the_bot_is_built_with_the_configured_limits(tmp_path: Path) -> None:
    from app.client import create_bot

    config = load_config(tmp_path, {"SHENGJI_MAX_TABLES": "4", "SHENGJI_COMMANDS": "9"})
    bot = await create_bot(config)
    try:
        assert bot.service.limits == Limits(tables_per_guild=4, commands=9)
    finally:
        await bot.close()  # its store too
