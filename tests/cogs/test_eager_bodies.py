"""``app.eager``: aiohttp's body writer run at once, as an eager task on 3.12+ would be."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import aiohttp
import pytest
from aiohttp import web

import app.eager as eager
from app.eager import eager_bodies

pytestmark = pytest.mark.skipif(sys.version_info >= (3, 12), reason="aiohttp is eager itself")


async def _writer(log: list[str], waits: list[asyncio.Future[Any]]) -> str:
    log.append("started")
    try:
        for waiting in waits:
            log.append(f"got {await waiting}")
    except ValueError as err:
        log.append(f"raised {err}")
    except asyncio.CancelledError:
        log.append("cancelled")
        raise
    return "written"


def _as_write_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(eager, "_WRITE_BYTES", _writer.__code__)


async def test_a_writer_that_needs_no_wait_runs_at_once_without_a_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _as_write_bytes(monkeypatch)
    loop = asyncio.get_running_loop()
    log: list[str] = []
    done = eager._factory(loop, _writer(log, []))
    assert log == ["started"] and done.done() and done.result() == "written"
    assert not isinstance(done, asyncio.Task)


async def test_a_writer_that_waits_goes_on_in_a_task_as_the_future_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _as_write_bytes(monkeypatch)
    loop = asyncio.get_running_loop()
    log: list[str] = []
    first, second = loop.create_future(), loop.create_future()
    task = eager._factory(loop, _writer(log, [first, second]))
    assert log == ["started"] and isinstance(task, asyncio.Task) and not task.done()
    first.set_result(1)
    await asyncio.sleep(0.01)
    second.set_exception(ValueError("socket closed"))
    assert await task == "written"
    assert log == ["started", "got 1", "raised socket closed"]


async def test_a_waiting_writer_cancelled_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    _as_write_bytes(monkeypatch)
    loop = asyncio.get_running_loop()
    log: list[str] = []
    task = eager._factory(loop, _writer(log, [loop.create_future()]))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert log == ["started", "cancelled"]


async def test_requests_go_out_whole_with_no_writer_task() -> None:
    """Through a real aiohttp session and server: small and large bodies arrive whole; no
    writer became a task until one had to wait."""
    received: list[bytes] = []

    async def handler(request: web.Request) -> web.Response:
        received.append(await request.read())
        return web.json_response({"ok": True})

    server = web.Application(client_max_size=20_000_000)
    server.router.add_post("/", handler)
    runner = web.AppRunner(server)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    loop = asyncio.get_running_loop()
    assert eager_bodies(loop) and not eager_bodies(loop)  # once: the factory is there
    tasks: list[str] = []
    factory = loop.get_task_factory()
    assert factory is not None

    def spy(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        made = factory(loop, coro, **kwargs)
        if isinstance(made, asyncio.Task):
            tasks.append(getattr(coro, "__qualname__", ""))
        return made

    loop.set_task_factory(spy)
    big = bytes(range(256)) * 40_000  # 10 MB: more than the socket takes at once
    try:
        async with aiohttp.ClientSession() as session:
            for body in (b'{"type":5}', big, b"after"):
                async with session.post(f"http://127.0.0.1:{port}/", data=body) as reply:
                    assert reply.status == 200 and await reply.json() == {"ok": True}
    finally:
        loop.set_task_factory(None)
        await runner.cleanup()
    assert received == [b'{"type":5}', big, b"after"]
    # the large body's writer alone waited for the socket, and went on in a task
    assert tasks.count("ClientRequest.write_bytes") == 1
