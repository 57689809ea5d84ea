"""``python -m bot``: the Discord bot, or an offline command (play, simulate, arena).

With no command this runs ``run_discord()`` from ``bot.app`` when that module
exists; the offline commands live in ``bot.cli``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Sequence

NO_DISCORD = (
    "The Discord bot is not part of this build yet (no bot.app module). "
    "You can already play offline: 'python -m bot play' starts a match in the terminal "
    "against three computer players, 'python -m bot simulate' plays computer matches, "
    "and 'python -m bot arena' compares computer players; add --help to any of them."
)


def run_default() -> int:
    """Run the Discord bot if this build has one, else explain the offline commands."""
    if importlib.util.find_spec("bot.app") is not None:
        app = importlib.import_module("bot.app")
        run = getattr(app, "run_discord", None)
        if run is not None:
            run()
            return 0
    print(NO_DISCORD, file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    from bot.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return run_default()
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
