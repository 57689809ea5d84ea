"""The production entry point (``app.run_discord``) for the load benchmark, maybe profiled.

``fakediscord.run`` starts it aimed at the fake (``spawn(fake, "bench.load_bot:main",
...)``): configuration, migrations, restoring tables and the SIGTERM shutdown are
exactly what ``python -m bot`` does. With ``LOAD_PROFILE=FILE`` the run is profiled
(cProfile, the event loop's thread) and the stats written to FILE when the bot stops;
with ``LOAD_STALLS=FILE`` its long callbacks and collections are (``bench.loop_watch``).
"""

from __future__ import annotations

import cProfile
import os

from app import run_discord

from .loop_watch import LoopWatch


def main() -> int:
    stalls = os.environ.get("LOAD_STALLS")
    if not stalls:
        return profiled()
    watch = LoopWatch()
    watch.install()
    try:
        return profiled()
    finally:
        watch.write(stalls)


def profiled() -> int:
    profile = os.environ.get("LOAD_PROFILE")
    if not profile:
        return run_discord()
    profiler = cProfile.Profile()
    try:
        return int(profiler.runcall(run_discord))
    finally:
        profiler.dump_stats(profile)
