"""The monkey test: four simulated people do random things to the real bot, nothing breaks.

``bench.monkey`` drives the bot on the fake Discord with random slash commands of the
synced tree, clicks and menu choices on what each person sees, time passing and
restarts, and checks after every step that nothing was logged at ERROR, no error was
shown, every interaction was acknowledged, no hidden card was shown, and no table
froze once its timer ran out. Run as the command a maintainer runs (tests and
benchmarks do not import each other), its JSON line read back; a failure shows the
seed, the step and the last actions.

The bot's timing is real (the people wait for its answers, computer players play as
they come), so a seed fixes the people's choices, not every interleaving: a seed
that once failed may pass the next time, and the trace tells what happened.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _monkey(steps: int, seed: int) -> dict[str, Any]:
    command = ["-m", "bench.monkey", "--steps", str(steps), "--seed", str(seed), "--json"]
    done = subprocess.run(
        [sys.executable, *command, "--trace", "60"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(lines[-1])
    assert report["failure"] is None, "\n".join(lines[:-1])[-6000:]
    assert done.returncode == 0, done.stderr[-3000:]
    assert report["done_steps"] == steps
    return report


@pytest.mark.parametrize("seed", [6, 20])
def test_random_people_break_no_invariant(seed: int) -> None:
    report = _monkey(200, seed)
    assert report["tables"] >= 1, report


@pytest.mark.slow
def test_a_long_run_plays_whole_hands_and_breaks_no_invariant() -> None:
    report = _monkey(1000, 23)
    assert report["hands"] >= 3 and report["restarts"] >= 1, report
