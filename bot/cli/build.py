"""``python -m bot build``: compile the computer players' hot modules (``bot.compiled``).

A no-op when the build is fresh, so a start script can run it every time
(the ``Procfile`` does). Without a C compiler it says why and still exits 0: the
bot then runs the source, as before, only slower.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bot import compiled


def cmd_build(args: argparse.Namespace) -> int:
    where = Path(args.dir) if args.dir else compiled.build_dir()
    if compiled.fresh(where):
        print(f"build: {where} is up to date")
        return 0
    start = time.perf_counter()
    try:
        compiled.build(where)
    except RuntimeError as exc:
        print(f"build: not compiled, the bot runs the source ({exc})")
        return 0
    names = ", ".join(name.rsplit(".", 1)[-1] for name in compiled.MODULES)
    print(f"build: compiled {names} into {where} in {time.perf_counter() - start:.0f} s")
    return 0


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "build",
        help="compile the computer players with mypyc (several times faster search)",
        description=__doc__,
    )
    parser.add_argument("--dir", help="where the build goes (default build/compiled)")
    parser.set_defaults(func=cmd_build)
