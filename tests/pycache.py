"""Compiled modules are cached even where ``PYTHONDONTWRITEBYTECODE`` is set.

Compiling the project and rewriting asserts again costs each pytest process (each
xdist worker, and each bot process a test starts) about 3 s of CPU a run. The cache
then goes to the temporary folder, never into the source tree, which is what that
setting usually protects.

A plugin loaded with ``-p`` (the ``addopts`` of ``pyproject.toml``), not the
conftest: pytest imports ``-p`` plugins before the installed ones, and it rewrites the
asserts of every installed plugin's modules (all of hypothesis's, about 100 modules, 1
s of CPU a process); loaded by the conftest, after them, this came too late for those,
which were rewritten anew in every process of every run.
"""

from __future__ import annotations

import os
import sys
import tempfile

if sys.dont_write_bytecode:
    sys.pycache_prefix = sys.pycache_prefix or os.path.join(
        tempfile.gettempdir(), "shengji-pycache"
    )
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the processes tests start, too
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
