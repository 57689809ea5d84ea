"""The calm table's budget (issue 10), as ``bench.discord_budget`` measures it.

Two whole hands through the fake Discord with its rate limits on, two simulated humans
playing from their DM panels and two computer players at their table pace: a minute of
waiting, little CPU, so under ``-m slow``. Run as the command a maintainer runs (tests
and benchmarks do not import each other), its JSON line read back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# per hand unless named otherwise: the deal, table and summary messages in the thread
# (a fourth allowed), the channel's lobby edited once, a DM channel holding at most the
# panel and a turn notice, no 429 at computer speed, few requests a play
TARGETS = {
    "thread_messages_per_hand": 4,
    "channel_messages_per_hand": 0,
    "channel_edits_per_hand": 1,
    "max_live_dm_messages": 2,
    "http_429": 0,
    "rest_calls_per_play": 6,
}


@pytest.mark.slow
def test_two_hands_keep_the_table_budget() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.discord_budget", "--hands", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["hands"] == 2 and figures["plays"] > 100
    # the slow turns' notices were posted, and each deleted after its play
    assert figures["slow_every"] > 0 and figures["dms_deleted_per_hand"] >= 2
    over = {k: figures[k] for k, most in TARGETS.items() if figures[k] > most}
    assert not over, over
