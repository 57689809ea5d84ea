"""The bot's CPU per message edit, by kind: the event loop's cost of one Discord request.

Run: ``python3 -m bench.edit_bench`` (about 20 s). The load benchmark's CPU per
interaction moves with how many edits a run coalesces and with the machine's load;
this isolates a request. A discord.py client in its own process (``fakediscord.run``)
edits a message through ``cogs.leanedit`` (the path every live message's edit takes) one edit
after another: a panel's JSON (content and four menus of 25 options, as a DM panel),
and the same with a 13 KB picture (a multipart body, as a hand image). The fake
answers in this process, so the child's CPU (``process_time``) is the client's alone:
discord.py, aiohttp (its bodies written eagerly, ``app.eager``, as in the bot) and
``cogs.leanedit``. Reported: CPU µs per edit of each kind, the
best of ``--rounds`` rounds of ``--edits`` edits.

``--against FILE``: another ``cogs/leanedit.py`` (say main's, from a worktree) edits the
same message in the same process, round by round in turn with this one, reported as
``before_*``: on a shared machine whose load moves run to run, only a comparison
within one process holds.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord.run import spawn

#: the kinds of edit, each a builder of the message's state for edit ``i``
KINDS = ("json", "picture")


def _state(kind: str, i: int, picture: bytes) -> dict[str, Any]:
    from cogs.tableview import Components, png

    view = Components()
    for menu in range(4):
        options = [
            {"label": f"{rank}♠ card {n}", "value": f"{menu}.{n}.{i}"}
            for n, rank in enumerate("A" * 25)
        ]
        view.add(
            {"type": 3, "custom_id": f"sj:1:{menu}:pick", "options": options, "max_values": 25},
            width=5,
        )
    state: dict[str, Any] = {"content": f"Your turn ({i}): ♠A ♥K ♣10 played", "view": view}
    if kind == "picture":
        state["attachments"] = [png(picture, "hand.png")]
    return state


async def _child_run(channel_id: int, edits: int, rounds: int) -> dict[str, float]:
    import discord

    from app.eager import eager_bodies
    from cogs.leanedit import edit_message

    eager_bodies(asyncio.get_running_loop())  # as the bot's ``setup_hook`` does

    edit_by = {"": edit_message}
    against = os.environ.get("EDIT_BENCH_AGAINST")
    if against:
        spec = importlib.util.spec_from_file_location("live_before", against)
        assert spec is not None and spec.loader is not None
        before = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(before)
        edit_by["before_"] = before.edit_message

    client = discord.Client(intents=discord.Intents.none())
    ready = asyncio.Event()
    client.event(_on_ready(ready))
    runner = asyncio.create_task(client.start(os.environ["DISCORD_TOKEN"]))
    await ready.wait()
    channel = await client.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("start")
    picture = _picture()
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, edit in edit_by.items():
            for kind in KINDS:
                states = [_state(kind, i, picture) for i in range(edits)]
                start = time.process_time()
                for state in states:
                    await edit(channel, message.id, state)
                spent = (time.process_time() - start) / edits
                key = f"{name}{kind}_us_per_edit"
                best[key] = min(best.get(key, spent), spent)
    await client.close()
    runner.cancel()
    return {key: 1e6 * spent for key, spent in best.items()}


def _picture() -> bytes:
    """A PNG of about 13 KB, a hand image's size."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise((90, 60), 40).convert("RGB").save(out, format="PNG")
    return out.getvalue()


def _on_ready(ready: asyncio.Event) -> Any:
    async def on_ready() -> None:
        ready.set()

    return on_ready


def child() -> int:
    """The client's process: edit, then print its figures as one JSON line."""
    channel_id, edits, rounds = (int(v) for v in os.environ["EDIT_BENCH"].split(","))
    print(json.dumps(asyncio.run(_child_run(channel_id, edits, rounds))), flush=True)
    return 0


async def run(edits: int, rounds: int, against: str | None = None) -> dict[str, float]:
    fake = FakeDiscord(max_log=1000)
    await fake.start()
    guild = fake.create_guild("edits")
    channel = fake.create_text_channel(guild, "panel")
    root = Path(__file__).resolve().parent.parent
    env = {"DISCORD_TOKEN": fake.token, "EDIT_BENCH": f"{channel.id},{edits},{rounds}"}
    if against:
        env["EDIT_BENCH_AGAINST"] = str(Path(against).resolve())
    bot = spawn(fake, "bench.edit_bench:child", env, root, stdout=subprocess.PIPE)
    try:
        out, _ = await asyncio.to_thread(bot.communicate, timeout=300)
    finally:
        await fake.stop()
    return dict(json.loads(out.decode().strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="FILE", help="another cogs/leanedit.py to compare")
    args = parser.parse_args()
    result = asyncio.run(run(args.edits, args.rounds, args.against))
    for key, value in result.items():
        print(f"{key:24} {value:8.1f}")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
