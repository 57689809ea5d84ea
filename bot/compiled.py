"""The computer players' hot modules, compiled by mypyc when built: the same code, faster.

Why: the expert's strength at a short ``think_ms`` is bounded by how many play-outs
fit in a decision, and the heuristic's cost is most of a busy bot's CPU. mypyc
compiles these modules, unchanged and from their type hints, into C extensions
(``python -m bot build``, needs a C compiler and the Python headers); they then
decide exactly as the source does (``tests/test_compiled.py``), several times
faster (README, "Computer players").

Where: the build goes to ``build/compiled/`` (or ``SHENGJI_COMPILED``), never next to
the sources, with a manifest of the hashes of every source the compiled code was
built from (``bot/ai``, ``bot/rules``, ``bot/game``: compiled code bakes in the shapes
of what it imports). ``install()`` (run by the ``bot`` package before anything of it loads)
puts a finder first on ``sys.meta_path`` that serves the compiled ``MODULES`` only
when every hash still matches; after any edit the source runs until the next build
(all or nothing: compiled modules call each other directly). ``SHENGJI_PURE=1``
always runs the source (tests that patch these modules' insides set it).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: the modules compiled: the search, the heuristic it is built on, and the rules' functions
#: they call most (who wins a trick, units, scoring; no classes of the rules' own, so the
#: engine's values stay the plain Python objects every other layer knows)
MODULES = (
    *(
        f"bot.ai.{name}"
        for name in ("world", "rollout", "seen", "memory", "context", "evaluate", "heuristic")
    ),
    *(
        f"bot.ai.{name}"
        for name in ("deals", "endgame", "expert_policy", "sampler", "playout", "expert")
    ),
    *(f"bot.rules.{name}" for name in ("trick", "scoring")),
)
GROUP = "shengji_ai"  # the shared library of the group: ``shengji_ai__mypyc``
ROOT = Path(__file__).resolve().parents[1]
HASHED = ("bot/ai", "bot/rules", "bot/game")  # what compiled code is built from
MANIFEST = "manifest.json"


def build_dir() -> Path:
    return Path(os.environ.get("SHENGJI_COMPILED") or ROOT / "build" / "compiled")


def fingerprint() -> dict[str, str]:
    """Each source file's hash, with the interpreter's tag: what a build is valid for."""
    prints = {"python": sys.implementation.cache_tag + (sysconfig.get_config_var("SOABI") or "")}
    for folder in HASHED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            prints[str(path.relative_to(ROOT))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return prints


def fresh(where: Path | None = None) -> bool:
    """Whether the build in ``where`` was made from the sources as they are now."""
    manifest = (where or build_dir()) / MANIFEST
    try:
        return bool(json.loads(manifest.read_text(encoding="utf-8")) == fingerprint())
    except (OSError, ValueError):
        return False


def build(where: Path | None = None, *, quiet: bool = True, opt_level: int = 3) -> Path:
    """Compile ``MODULES`` into ``where`` (a no-op when that build is fresh); its path.

    ``opt_level`` is the C compiler's: the suite builds at 0, which decides the same
    and compiles several times faster (a test of what is compiled, not of its speed).

    Raises ``RuntimeError`` with the compiler's output when the build fails (no
    compiler, no headers): the bot then runs the source as before.
    """
    where = (where or build_dir()).resolve()
    if fresh(where):
        return where
    where.mkdir(parents=True, exist_ok=True)
    prints = fingerprint()
    # next to the build, so the results move in by rename (the same file system)
    with tempfile.TemporaryDirectory(dir=where.parent, prefix=".building-") as tmp:
        # mypy reads no project config here: the pyproject's ``files`` would widen the build
        config = Path(tmp) / "mypy.ini"
        config.write_text("[mypy]\n", encoding="utf-8")
        paths = [name.replace(".", "/") + ".py" for name in MODULES]
        options = {
            "group_name": GROUP,
            "target_dir": str(Path(tmp) / "c"),
            "opt_level": str(opt_level),
        }
        args = [
            json.dumps([*paths, "--config-file", str(config), "--cache-dir", str(Path(tmp) / "m")]),
            json.dumps(options),
            *(
                "build_ext",
                "--build-lib",
                str(Path(tmp) / "lib"),
                "--build-temp",
                str(Path(tmp) / "o"),
            ),
        ]
        done = subprocess.run(
            [sys.executable, "-c", _SETUP, *args],
            cwd=ROOT,
            capture_output=quiet,
            text=True,
            check=False,
        )
        if done.returncode:
            said = (done.stderr or done.stdout or "").strip().splitlines()[-12:]
            raise RuntimeError("mypyc build failed:\n" + "\n".join(said))
        # moved in, not written over: a running bot keeps the libraries it has loaded; no
        # manifest while they move, so nothing starting meanwhile loads half of two builds
        (where / MANIFEST).unlink(missing_ok=True)
        for file in (Path(tmp) / "lib").rglob("*"):
            if file.is_file():
                target = where / file.relative_to(Path(tmp) / "lib")
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(file, target)
        (Path(tmp) / MANIFEST).write_text(json.dumps(prints, indent=1), encoding="utf-8")
        os.replace(Path(tmp) / MANIFEST, where / MANIFEST)
    return where


# run by ``build`` in a process of its own (setuptools reads ``sys.argv``): the mypyc
# arguments, then setuptools' own
_SETUP = """
import json, sys
from mypyc.build import mypycify
from setuptools import setup
paths, options = json.loads(sys.argv[1]), json.loads(sys.argv[2])
modules = mypycify(paths, **options)
setup(name="shengji_ai", packages=[], py_modules=[], script_args=sys.argv[3:], ext_modules=modules)
"""


class _Finder(importlib.abc.MetaPathFinder):
    """Serves the compiled modules of a fresh build (``install``)."""

    def __init__(self, where: Path) -> None:
        self.where = where
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        self.files = {
            name: where.joinpath(*name.split(".")[:-1], name.split(".")[-1] + suffix)
            for name in MODULES
        }
        self.files[f"{GROUP}__mypyc"] = where / f"{GROUP}__mypyc{suffix}"

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None or not file.exists():
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> bool:
    """Use the compiled modules from now on when a fresh build exists; whether they are."""
    if os.environ.get("SHENGJI_PURE") == "1":
        return False
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return True
    where = build_dir()
    if not fresh(where):
        return False
    sys.meta_path.insert(0, _Finder(where))
    return True


def active() -> bool:
    """Whether the hot modules run compiled in this process."""
    module = sys.modules.get("bot.ai.rollout")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")
