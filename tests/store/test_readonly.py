"""A read-only database is refused at start-up with a clear message, like a corrupt one."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiosqlite
import pytest

from app import run_discord
from bot.store import Store, StoreError


async def test_a_read_only_database_is_refused_when_opened(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.close()
    real = aiosqlite.connect

    def read_only(database: object, **kwargs: object) -> object:
        # a read-only mount or file (chmod does not stop root, so the mode is asked for)
        return real(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr("bot.store.store.aiosqlite.connect", read_only)
    with pytest.raises(StoreError, match="read-only"):
        await Store.open(path)
    monkeypatch.undo()
    store = await Store.open(path)  # writable again: opens, nothing was changed
    await store.close()


async def test_a_file_or_folder_the_bot_may_not_write_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    before = path.read_bytes()
    real = os.access
    for denied in (path, tmp_path):  # the file, or its folder (SQLite's -wal and -shm files)

        def access(where: object, mode: int, denied: Path = denied) -> bool:
            return False if Path(str(where)) == denied and mode & os.W_OK else real(where, mode)

        monkeypatch.setattr("bot.store.store.os.access", access)
        with pytest.raises(StoreError, match=r"db\.sqlite3 is read-only; the bot needs to write"):
            await Store.open(path)
        monkeypatch.undo()
    assert path.read_bytes() == before


@contextmanager
def read_only_mount(folder: Path) -> Iterator[None]:
    """``folder`` bind-mounted read-only over itself (root with CAP_SYS_ADMIN: CI's
    container as here; elsewhere the test says so and the access check above stands)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a read-only mount needs root")
    done = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


async def test_a_database_on_a_read_only_mount_is_refused_in_words(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    path = folder / "db.sqlite3"
    await (await Store.open(path)).close()
    with read_only_mount(folder):
        with pytest.raises(StoreError, match=r"is read-only; the bot needs to write to it"):
            await Store.open(path)
        with pytest.raises(StoreError, match=r"is read-only"):
            await Store.open(folder / "new.sqlite3")  # a new file there as well


def test_the_bot_says_a_read_only_database_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "db.sqlite3"
    asyncio.run(_create(path))
    monkeypatch.setenv("DISCORD_TOKEN", "some.token.value")
    monkeypatch.setenv("SHENGJI_DB", str(path))
    monkeypatch.setattr("bot.store.store.os.access", lambda where, mode: not mode & os.W_OK)
    assert run_discord() == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        f"Cannot start: The database {path} is read-only; the bot needs to write to it"
        " (check the file's and its folder's permissions, or the disk's mount)."
    )


async def _create(path: Path) -> None:
    await (await Store.open(path)).close()
