"""The suite's compiled modules are cached where the process reads them (``tests/pycache.py``)."""

from __future__ import annotations

from pathlib import Path

import hypothesis.core
from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir


def test_an_installed_plugins_rewritten_modules_are_kept_for_the_next_process() -> None:
    # hypothesis is an installed pytest plugin: pytest rewrites the asserts of all its
    # modules, in every process; without a cache written they are rewritten every run
    source = Path(hypothesis.core.__file__)
    assert (get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)).exists()
