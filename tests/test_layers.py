"""Imports point down only: the core never imports the Discord layer.

Checked on the source (every ``import`` statement, including lazy ones inside
functions), so a cycle cannot creep in through a deferred import either.
``bot/__main__.py`` is the process entry, not the core: it may import ``app``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _parsed(path: Path) -> ast.Module:
    """Each file parsed once for all the checks here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _statements(nodes: list[Any]) -> Iterator[ast.AST]:
    """Every statement, nested ones included (an import is a statement: expressions,
    most of a syntax tree, need not be walked)."""
    for node in nodes:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            yield from _statements(getattr(node, field, []))


def _imports(package: str, among: set[str]) -> dict[str, set[str]]:
    """The packages of ``among`` each file of ``package`` imports.

    Only files whose text spells one of those names are parsed (a file that never
    names a package cannot import it): parsing every test and benchmark was most of
    this file's CPU, 1 s a run."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        if any(name in path.read_text(encoding="utf-8") for name in among):
            for node in _statements(_parsed(path).body):
                if isinstance(node, ast.Import):
                    names |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names & among
    return found


def test_the_core_never_imports_the_discord_layer() -> None:
    bad = {
        path: names
        for path, names in _imports("bot", {"discord", "cogs", "app", "renderers"}).items()
        if path != "bot/__main__.py"
    }
    assert not {p: n for p, n in bad.items() if n}


def test_cogs_and_renderers_never_import_upwards() -> None:
    cogs = _imports("cogs", {"app"})
    assert not {p: n for p, n in cogs.items() if n}
    renderers = _imports("renderers", {"cogs", "app", "discord"})
    assert not {p: n for p, n in renderers.items() if n}


def test_tests_and_benchmarks_never_import_each_other_and_the_fake_imports_no_bot() -> None:
    tests = _imports("tests", {"bench"})
    assert not {p: n for p, n in tests.items() if n}
    bench = _imports("bench", {"tests"})
    assert not {p: n for p, n in bench.items() if n}
    project = {"bot", "cogs", "app", "renderers", "tests", "bench"}
    fake = _imports("fakediscord", project)
    assert not {p: n for p, n in fake.items() if n}


def _room(module: str) -> str:
    """A module's room: ``bot.<subpackage>`` inside ``bot``, else its top-level package."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "bot" and len(parts) > 1 else parts[0]


def test_the_rooms_import_each_other_without_a_cycle() -> None:
    """Module-level imports only (a ``TYPE_CHECKING`` block or a lazy import is no cycle)."""
    packages = ("bot", "cogs", "app", "renderers", "fakediscord")
    edges: dict[str, set[str]] = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            here = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            names: list[str] = []
            for node in _parsed(path).body:
                if isinstance(node, ast.Import):
                    names += [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                elif isinstance(node, ast.ImportFrom):  # relative: within its own package
                    parent = here.split(".")[: -node.level]
                    module = ".".join([*parent, *([node.module] if node.module else [])])
                    names += [module, *(f"{module}.{a.name}" for a in node.names)]
            edges[_room(here)] = edges.get(_room(here), set()) | {
                _room(n) for n in names if n.split(".")[0] in packages
            } - {_room(here)}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in edges.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert not [room for room in edges if reaches(room, room, {room})]


#: what only the table service may touch of itself: its store and its live tables
SERVICE_INSIDES = {"store", "tables"}


def _is_service(node: ast.expr) -> bool:
    """``service``, ``self.service``, ``client.service``, ``deps(...).service``: the table
    service however a cog holds it (an alias under another name is not followed)."""
    return (isinstance(node, ast.Name) and node.id == "service") or (
        isinstance(node, ast.Attribute) and node.attr == "service"
    )


def test_cogs_never_reach_into_the_services_store_or_tables() -> None:
    """The cogs and the app ask the service's facade (``bot.service.records``), so a change
    to how the service keeps its tables or its store never ripples into the Discord layer."""
    reaches = []
    for path in sorted([*(ROOT / "cogs").rglob("*.py"), *(ROOT / "app").rglob("*.py")]):
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.Attribute) and node.attr in SERVICE_INSIDES:
                inside, owner = node.attr, node.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in SERVICE_INSIDES
            ):
                inside, owner = str(node.args[1].value), node.args[0]
            else:
                continue
            if _is_service(owner):
                reaches.append(f"{path.relative_to(ROOT)}:{node.lineno} .{inside}")
    assert reaches == []


#: names (or attributes) that hold a seat number in the production code
SEATISH = {"seat", "s", "d", "first", "dealer", "winner", "leader", "actor", "to_act", "declarer"}


def _names(node: ast.expr) -> set[str]:
    """The variable and attribute names an expression reads (``result.dealer``: dealer)."""
    found: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            found.add(part.id)
        elif isinstance(part, ast.Attribute):
            found.add(part.attr)
    return found


def _team_or_partner(node: ast.AST) -> bool:
    """``seat % 2`` (a team) or ``(seat + 2) % 4`` (a partner), on a seat's usual names."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)):
        return False
    modulus = node.right.value if isinstance(node.right, ast.Constant) else None
    left = node.left
    partner = (
        isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Add)
        and isinstance(left.right, ast.Constant)
        and left.right.value == 2
    )
    return (modulus == 2 or (modulus == 4 and partner)) and bool(_names(left) & SEATISH)


def test_a_seats_team_and_partner_come_from_team_of_and_partner_of() -> None:
    """Worked out in one place only (``bot.rules.seats``), so who partners whom is decided
    once. Found by the seat's usual names: ``n % 2`` or ``i % 2`` are no seats."""
    worked_out = []
    for package in ("bot", "cogs", "renderers", "app"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "bot/rules/seats.py":
                continue
            worked_out += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for node in ast.walk(_parsed(path))
                if _team_or_partner(node)
            ]
    assert worked_out == []


#: the README's map inside ``bot/``: what each room may import of the others
CORE_ROOMS = {
    "rules": set(),
    "game": {"rules"},
    "ai": {"rules", "game"},
    "i18n": {"rules"},
    "store": {"rules", "game"},
}


def _rooms_imported(room: str) -> dict[str, set[str]]:
    """The other rooms of ``bot`` each file of ``bot/<room>`` imports (relative imports
    resolved, lazy ones included)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "bot" / room).rglob("*.py")):
        package = ["bot", *path.relative_to(ROOT / "bot").parts[:-1]]
        names: set[str] = set()
        for node in _statements(_parsed(path).body):
            modules: list[list[str]] = []
            if isinstance(node, ast.Import):
                modules = [a.name.split(".") for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                full = base + (node.module.split(".") if node.module else [])
                modules = [full] if len(full) > 1 else [[*full, a.name] for a in node.names]
            names |= {m[1] for m in modules if len(m) > 1 and m[0] == "bot"}
        found[str(path.relative_to(ROOT))] = names - {room}
    return found


def test_the_core_rooms_import_only_the_rooms_below_them() -> None:
    for room, allowed in CORE_ROOMS.items():
        for path, names in _rooms_imported(room).items():
            assert names <= allowed, f"{path} imports bot.{', bot.'.join(sorted(names - allowed))}"


#: issue 15's "no production module over ~400 lines": a room that outgrows it is split by job
MODULE_LINES = 410


def test_no_production_module_outgrows_a_room() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for folder in ("bot", "cogs", "app", "renderers")
        for path in (ROOT / folder).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, f"split by job: {long}"
