"""``python -m bot``: the Discord bot, or an offline command (play, simulate, arena).

With no command this runs the Discord bot (``app.run_discord``, the composition
root outside ``bot/``); the offline commands live in ``bot.cli``. This file is the
process entry, not part of the core: it imports ``app`` lazily, only when the
Discord bot is what runs, so ``bot`` itself never imports the Discord layer.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run_default() -> int:
    """Run the Discord bot (without a token it explains how to get one)."""
    from app import run_discord

    return run_discord()


def main(argv: Sequence[str] | None = None) -> int:
    from bot.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return run_default()
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
