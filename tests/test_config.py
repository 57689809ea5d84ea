"""``SHENGJI_DB``: a SQLite file (plain path or sqlite:///) or a PostgreSQL URL."""

from __future__ import annotations

from pathlib import Path

from bot.config import load_config


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
