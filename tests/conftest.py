"""Shared test settings.

Hypothesis profiles: ``quick`` (the default run: 40 examples per property, every
property still runs, about a quarter of the rules properties' CPU), ``ci`` (150, the
earlier default) and ``stress`` (thousands of examples per property), chosen with e.g.
``HYPOTHESIS_PROFILE=stress python3 -m pytest tests/rules``. The same seeds' failures
are replayed from hypothesis's example database, so a property found broken by a
longer profile stays red in the quick one on that machine.

A test's new SQLite store is a copy of one migrated once per process
(``new_sqlite``) where the test is not about creating or migrating a database:
migrating a new file is 10 ms of CPU, copying a migrated one 3.6 ms, and the bot's
fixture opens one in each of about 400 tests; the PostgreSQL tests reuse a migrated
schema the same way (``tests/store/conftest.py``).

Compiled modules are cached even where ``PYTHONDONTWRITEBYTECODE`` is set: see
``tests/pycache.py``, loaded before this file by ``-p`` in ``pyproject.toml``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# the suite tests the source: many tests patch the computer players' insides, which a
# compiled build (``python -m bot build``) would not see; ``tests/test_compiled.py``
# tests that build in processes of its own
os.environ["SHENGJI_PURE"] = "1"

settings.register_profile("quick", max_examples=40, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile(
    "stress", max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


# The files whose single tests take longest (tournaments and whole hands through the
# fake, a bot in a subprocess, real lease times, the legality soak): run first. xdist's
# worksteal hands each worker a contiguous share of the collection and lets idle workers
# take the end of another's queue, so with these first the run ends on short tests on
# every worker instead of one worker still playing a tournament while the others idle.
LONG_FIRST = (
    "tests/cogs/test_monkey.py",  # (slow tier) three runs of the bot side by side, waiting
    "tests/cogs/test_tournament_presence.py",  # 10 s of waiting on the tournament's clock
    "tests/cogs/test_tournament_flow.py",
    "tests/cogs/test_tournament_restart.py",
    "tests/cogs/test_process.py",
    "tests/ai/test_legal.py",
    "tests/tournament/test_clock_tally.py",
    "tests/cogs/test_languages.py",
    "tests/test_fencing.py",
    "tests/cogs/test_table_flow.py",
    "tests/cogs/test_review.py",
    "tests/cogs/test_privacy.py",
    "tests/cogs/test_overcall_flow.py",
    "tests/cogs/test_presenter_load.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``LONG_FIRST`` files first (in that order), every other test as collected."""
    rank = {path: n for n, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONG_FIRST)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported and collected lives to the end: full garbage collections
    need not walk it again (about half of their time in a run of tests/cogs)."""
    gc.freeze()


@pytest.fixture(scope="session")
def new_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """``new_sqlite(path)`` puts at ``path`` what a new store's file holds: the latest
    schema, no rows (a copy of a file migrated once in this process)."""
    template = tmp_path_factory.mktemp("template") / "shengji.sqlite3"

    from bot.store import Store  # after SHENGJI_PURE is set above

    async def migrate() -> None:
        await (await Store.open(template)).close()

    asyncio.run(migrate())
    assert not template.with_name(template.name + "-wal").exists()  # all in the one file

    def copy(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(template, path)
        return path

    return copy
