"""The bot keeps image-sized blocks on the heap (``app.tuning.keep_big_blocks``)."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import pytest

from app import tuning


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_big_blocks_are_kept_on_glibc() -> None:
    assert tuning.keep_big_blocks()


def test_without_mallopt_it_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A C library without ``mallopt`` (musl, macOS) is left as it is, without an error."""

    def no_libc(name: str | None) -> object:
        raise OSError(f"no {name}")

    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    assert not tuning.keep_big_blocks()


def test_the_c_library_is_looked_up_once_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``find_library`` runs ``ldconfig -p`` in a new process each time: each client
    started in the process (a restart, each test's bot) must not ask again."""
    looked_up: list[str] = []
    find = ctypes.util.find_library

    def counted(name: str) -> str | None:
        looked_up.append(name)
        return find(name)

    monkeypatch.setattr(ctypes.util, "find_library", counted)
    tuning._libc_name.cache_clear()
    for _ in range(3):
        tuning.keep_big_blocks()
    assert looked_up == ["c"]
