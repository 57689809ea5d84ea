"""``python -m bot`` that cannot start says why in one line, without a traceback.

The real entry point in its own process (``fakediscord.run``): a token Discord refuses,
and a Discord that cannot be reached at all (a closed port where its API should be).
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.run import spawn

ROOT = Path(__file__).resolve().parents[2]


async def _finish(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    try:
        code = await asyncio.to_thread(process.wait, 60)
    finally:
        if process.poll() is None:
            process.kill()
    return code, process.stderr.read().decode() if process.stderr else ""


async def test_a_refused_token_is_said_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = {"DISCORD_TOKEN": "not-the-token", "SHENGJI_DB": str(tmp_path / "bot.sqlite3")}
    process = spawn(fake_discord, "app:run_discord", env, ROOT, stderr=subprocess.PIPE)
    code, stderr = await _finish(process)
    assert code == 1
    assert "Discord refused the token: check DISCORD_TOKEN." in stderr
    assert "Traceback" not in stderr, stderr


async def test_an_unreachable_discord_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on: connections are refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api, gateway = f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/"
    env = {
        **os.environ,
        "DISCORD_TOKEN": "some.token.value",
        "SHENGJI_DB": str(tmp_path / "bot.sqlite3"),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "fakediscord.run", "app:run_discord", api, gateway],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
    )
    code, stderr = await _finish(process)
    assert code == 1
    assert "Cannot reach Discord (" in stderr and "check the network." in stderr, stderr
    assert "Traceback" not in stderr, stderr
