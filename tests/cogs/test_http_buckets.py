"""discord.py's idle rate-limit buckets are swept now and then, not at every new bucket."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from app.tuning import sweep_buckets_now_and_then


async def test_new_buckets_do_not_each_scan_them_all(monkeypatch: pytest.MonkeyPatch) -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    scans = 0
    inactive = discord.http.Ratelimit.is_inactive

    def counted(self: discord.http.Ratelimit) -> bool:
        nonlocal scans
        scans += 1
        return inactive(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    sweep_buckets_now_and_then(http, every=60.0)
    for i in range(400):  # a bucket per DM channel, past discord.py's 256
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{i}")
    assert scans == 0  # unthrottled: 145 sweeps of 256-400 buckets, about 47,000 checks
    # a minute on, a new bucket sweeps once, and the idle ones go
    for bucket in http._buckets.values():
        bucket._last_request -= 600  # idle for ten minutes
    clock = time.monotonic() + 61
    monkeypatch.setattr(time, "monotonic", lambda: clock)
    http.get_ratelimit("POST /channels/{channel_id}/messages:new")
    assert scans == 401
    assert len(http._buckets) == 1  # only the bucket just made is left
