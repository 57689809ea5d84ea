"""Imports point down only: the core never imports the Discord layer.

Checked on the source (every ``import`` statement, including lazy ones inside
functions), so a cycle cannot creep in through a deferred import either.
``bot/__main__.py`` is the process entry, not the core: it may import ``app``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_core_never_imports_the_discord_layer() -> None:
    bad = {
        path: names & {"discord", "cogs", "app", "renderers"}
        for path, names in _imports("bot").items()
        if path != "bot/__main__.py"
    }
    assert not {p: n for p, n in bad.items() if n}


def test_cogs_and_renderers_never_import_upwards() -> None:
    cogs = {p: n & {"app"} for p, n in _imports("cogs").items()}
    assert not {p: n for p, n in cogs.items() if n}
    renderers = {p: n & {"cogs", "app", "discord"} for p, n in _imports("renderers").items()}
    assert not {p: n for p, n in renderers.items() if n}


def test_tests_and_benchmarks_never_import_each_other_and_the_fake_imports_no_bot() -> None:
    tests = {p: n & {"bench"} for p, n in _imports("tests").items()}
    assert not {p: n for p, n in tests.items() if n}
    bench = {p: n & {"tests"} for p, n in _imports("bench").items()}
    assert not {p: n for p, n in bench.items() if n}
    project = {"bot", "cogs", "app", "renderers", "tests", "bench"}
    fake = {p: n & project for p, n in _imports("fakediscord").items()}
    assert not {p: n for p, n in fake.items() if n}
