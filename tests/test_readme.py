"""The README's examples and commands stay true."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


def test_rules_package_docstring_examples_run() -> None:
    import bot.rules

    result = doctest.testmod(bot.rules)
    assert result.attempted >= 2 and result.failed == 0


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt -r requirements-dev.txt" in readme
    for step in (
        "pip install -q -r requirements.txt -r requirements-dev.txt",
        "ruff check .",
        "mypy",
        "pytest\n",
        "pytest -m slow",
    ):
        assert step in ci
    assert "python3 -m pytest && python3 -m pytest -m slow" in readme  # both tiers
