"""The compiled build (``bot.compiled``): made by mypyc, used only when fresh, and
deciding exactly as the source does.

The build is real (mypyc and the C compiler, at ``-O0`` for speed, once, in one test,
under ``-m slow``: a minute of one worker, which CI runs after the default tier);
the checks run in fresh interpreters, since which modules are compiled is decided at
the first import of ``bot.ai``. The rest of the suite runs the source
(``SHENGJI_PURE``, set in ``tests/conftest.py``): its tests patch these modules' insides.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import compiled

# the heuristic's pinned digests under four presets, and the expert's outcomes at a fixed
# number of samples (a decision is then a pure function of the view) on duplicate deals
CHECK = """
import json
from bot import compiled
from bot.ai.arena import arena
from bot.ai.expert import ExpertPlayer
from bot.presets import presets
from tests.ai.test_heuristic_same import DIGESTS, action_digest
same = {
    name: action_digest(presets()[name][0], seed, hands) == DIGESTS[(name, seed, hands)]
    for name, seed, hands in DIGESTS if name in ("tournament", "casual", "three_decks", "one_deck")
}
expert = lambda seed: ExpertPlayer(10**6, worlds=10)
deals = [(o.point_diff, o.level_diff) for o in arena(expert, "ai", 3, 7)]
print(json.dumps({"active": compiled.active(), "same": same, "deals": deals}))
"""


# only whether the compiled modules were taken (a build that is not used decides nothing)
ACTIVE = """
import json
import bot.ai
from bot import compiled
print(json.dumps({"active": compiled.active()}))
"""


def check(where: Path, *, pure: bool = False, script: str = CHECK) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "SHENGJI_PURE"}
    env["SHENGJI_COMPILED"] = str(where)
    if pure:
        env["SHENGJI_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=compiled.ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.slow
def test_the_compiled_build_decides_as_the_source_and_only_while_fresh(tmp_path: Path) -> None:
    # one test for one build: the suite's workers take tests, not modules, so a shared
    # fixture would be built once per worker that runs one of its tests
    built = compiled.build(tmp_path / "compiled", opt_level=0)
    assert compiled.fresh(built)
    fast, source = check(built), check(built, pure=True)
    assert fast["active"] and not source["active"]  # SHENGJI_PURE=1: the source
    assert all(fast["same"].values()) and len(fast["same"]) == 4
    assert fast["deals"] == source["deals"]

    # a build made from other sources is not used, its libraries there all the same
    stale = tmp_path / "stale"
    shutil.copytree(built, stale)
    manifest = json.loads((stale / compiled.MANIFEST).read_text(encoding="utf-8"))
    manifest["bot/rules/cards.py"] = "0" * 64  # as if cards.py changed since the build
    (stale / compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert not compiled.fresh(stale)
    assert not check(stale, script=ACTIVE)["active"]
    assert compiled.build(built) == built.resolve()  # fresh: nothing to do


def test_without_a_build_the_source_runs(tmp_path: Path) -> None:
    assert not compiled.fresh(tmp_path)
    assert not check(tmp_path, script=ACTIVE)["active"]
