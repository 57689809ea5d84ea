"""The bot keeps image-sized blocks on the heap (``app.tuning.keep_big_blocks``)."""

from __future__ import annotations

import ctypes
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
