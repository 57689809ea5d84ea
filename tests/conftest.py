"""Shared test settings.

Hypothesis profiles: ``ci`` (default, quick) and ``stress`` (thousands of examples
per property), chosen with ``HYPOTHESIS_PROFILE=stress python3 -m pytest tests/rules``.

Compiled modules are cached even where ``PYTHONDONTWRITEBYTECODE`` is set: compiling
the project and rewriting the tests' asserts again costs each worker (and each bot
process a test starts) about 2 s of CPU a run. The cache then goes to the temporary
folder, never into the source tree, which is what that setting usually protects.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, settings

if sys.dont_write_bytecode:
    sys.pycache_prefix = sys.pycache_prefix or os.path.join(
        tempfile.gettempdir(), "shengji-pycache"
    )
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the processes tests start, too
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix

settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile(
    "stress", max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported and collected lives to the end: full garbage collections
    need not walk it again (about half of their time in a run of tests/cogs)."""
    gc.freeze()
