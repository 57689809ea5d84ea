"""Discord's per-route and global rate limits, and discord.py pacing itself by their headers."""

from __future__ import annotations

import time

import aiohttp

from fakediscord import FakeDiscord, UserDriver, World
from fakediscord.harness import RunningBot
from fakediscord.ratelimits import (
    DISCORD_LIMITS,
    MESSAGE,
    MESSAGES,
    RateLimits,
    RouteLimit,
)
from tests.fakediscord.democog import DemoCog


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def raw_post(fake: FakeDiscord, channel_id: int, content: str) -> aiohttp.ClientResponse:
    """A client that ignores the headers (discord.py would pace itself)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{fake.api_base}/channels/{channel_id}/messages",
            json={"content": content},
            headers={"Authorization": f"Bot {fake.token}"},
        ) as response,
    ):
        await response.read()
        return response


async def test_discord_py_paces_itself_on_the_real_figures(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    fake_discord.rate_limits = RateLimits()  # Discord's figures: DELETE 5 per 1 s per channel
    rb: RunningBot = await bot_client()
    said = [driver.say(world.alice, world.general, f"m{i}") for i in range(6)]
    channel = rb.channel(world.general)
    started = time.monotonic()
    for m in said:  # one at a time: concurrent ones may cross (a 429 Discord gives too)
        await channel.get_partial_message(m.id).delete()
    assert time.monotonic() - started >= 0.5  # the sixth waited for the window to reset
    assert all(m.deleted for m in said)
    assert fake_discord.http_429 == 0
    assert fake_discord.count("DELETE", MESSAGE, channel=world.general, status=204) == 6
    [rule] = [r for r in DISCORD_LIMITS if (r.method, r.route) == ("DELETE", MESSAGE)]
    assert (rule.limit, rule.per) == (5, 1.0)


async def test_429_over_a_route_limit_then_discord_py_retries(
    fake_discord: FakeDiscord, world: World, bot_client
) -> None:
    fake_discord.rate_limits = RateLimits(rules=[RouteLimit("POST", MESSAGES, 2, 0.4)])
    first = await raw_post(fake_discord, world.general.id, "a")
    assert first.status == 200
    assert first.headers["X-RateLimit-Limit"] == "2"
    assert first.headers["X-RateLimit-Remaining"] == "1"
    assert 0 < float(first.headers["X-RateLimit-Reset-After"]) <= 0.4
    assert abs(float(first.headers["X-RateLimit-Reset"]) - time.time() - 0.4) < 0.3
    bucket = first.headers["X-RateLimit-Bucket"]
    assert (await raw_post(fake_discord, world.general.id, "b")).headers[
        "X-RateLimit-Remaining"
    ] == "0"
    over = await raw_post(fake_discord, world.general.id, "c")
    assert over.status == 429 and over.headers["Via"] and over.headers["Retry-After"] == "1"
    assert over.headers["X-RateLimit-Scope"] == "user"
    assert over.headers["X-RateLimit-Bucket"] == bucket
    record = fake_discord.requests[-1]
    assert record.fault == "rate_limit" and record.response["global"] is False
    assert 0 < record.response["retry_after"] <= 0.4
    # Another channel has its own bucket.
    assert (await raw_post(fake_discord, world.tables.id, "elsewhere")).status == 200

    # discord.py, not knowing the bucket yet, meets the 429, sleeps it off and retries.
    rb: RunningBot = await bot_client()
    await raw_post(fake_discord, world.general.id, "d")
    await raw_post(fake_discord, world.general.id, "e")
    sent = await rb.channel(world.general).send("paced")
    assert sent.content == "paced"
    assert fake_discord.http_429 >= 2
    assert [m.content for m in fake_discord.channel_messages(world.general)][-1] == "paced"


async def test_discord_py_stays_under_a_bucket_it_knows(
    fake_discord: FakeDiscord, world: World, bot_client
) -> None:
    fake_discord.rate_limits = RateLimits(rules=[RouteLimit("POST", MESSAGES, 2, 0.15)])
    rb: RunningBot = await bot_client()
    channel = rb.channel(world.general)
    for i in range(6):
        await channel.send(f"n{i}")
    assert fake_discord.http_429 == 0
    assert len(fake_discord.channel_messages(world.general)) == 6


async def test_global_limit_spares_interactions(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    await bot_client(cogs=[DemoCog])
    clock = Clock()
    limits = RateLimits(rules=(), global_per_second=2, clock=clock)
    fake_discord.rate_limits = limits
    for _ in range(2):
        assert (await raw_post(fake_discord, world.general.id, "x")).status == 200
    over = await raw_post(fake_discord, world.general.id, "x")
    assert over.status == 429 and over.headers["X-RateLimit-Global"] == "true"
    assert fake_discord.requests[-1].response["global"] is True
    assert fake_discord.requests[-1].fault == "global_rate_limit"
    # Interaction callbacks and followups are outside the global limit.
    handle = driver.send_slash("demo defer", world.alice, world.general)
    await handle.wait_followups(1)
    callback = "/interactions/{interaction_id}/{token}/callback"
    assert fake_discord.count("POST", callback, channel=world.general, status=200) == 1
    assert fake_discord.count("POST", "/webhooks/{application_id}/{token}", status=200) == 1
    clock.now += 1.0
    assert (await raw_post(fake_discord, world.general.id, "x")).status == 200
    assert limits.hits == fake_discord.http_429 == 1


def test_windows_per_resource_and_shared_buckets() -> None:
    clock = Clock()
    reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
    limits = RateLimits(global_per_second=None, clock=clock)

    def check(method: str, route: str, channel: str) -> tuple[dict[str, str], object]:
        return limits.check(method, "/channels/x", route, {"channel_id": channel})

    for i in range(5):
        headers, error = check("PATCH", MESSAGE, "1")
        assert error is None and headers["X-RateLimit-Remaining"] == str(4 - i)
    assert check("PATCH", MESSAGE, "1")[1] is not None
    assert check("PATCH", MESSAGE, "2")[1] is None  # per channel
    assert check("POST", MESSAGES, "1")[1] is None  # its own bucket
    clock.now += 5.0
    assert check("PATCH", MESSAGE, "1")[1] is None
    put, _ = check("PUT", reaction, "1")
    _, error = check("DELETE", reaction, "1")  # PUT and DELETE share the reactions bucket
    assert error is not None and error.headers["X-RateLimit-Bucket"] == put["X-RateLimit-Bucket"]
    assert check("GET", "/channels/{channel_id}", "1") == ({}, None)
