"""The offline command line: ``python -m bot play | simulate | arena | ...``.

``play`` is a whole match in the terminal against three computer players;
``simulate`` plays many hands among computer players and reports results and
speed; ``arena`` compares two players on duplicate deals. The CLI holds no game
logic: everything goes through ``Match.apply``, the table procedure of
``bot.game.driver`` and the players in ``bot.ai``.

Adding a subcommand: write a module with ``register(subparsers)`` that adds its
parser (``subparsers.add_parser(name, ...)``) and sets ``func`` (called with the
parsed ``argparse.Namespace``, returning the exit status), then add the module's
import path to ``COMMANDS``. ``bot.cli.common`` has ``add_rules``/``parse_rules``
for the shared ``--decks``/``--rule`` options. Modules are imported when the
parser is built, so a command's dependencies load only for ``python -m bot``.
"""

from __future__ import annotations

import argparse
import importlib

from .common import parse_rules
from .play import TerminalGame

COMMANDS = (
    "bot.cli.play",
    "bot.cli.simulate",
    "bot.cli.arena",
    "bot.cli.build",
    "bot.tournament.cli",
    "bot.store.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Shengji (双升) bot. With no command, runs the Discord bot.",
    )
    sub = parser.add_subparsers(dest="command")
    for path in COMMANDS:
        importlib.import_module(path).register(sub)
    return parser


__all__ = ["COMMANDS", "TerminalGame", "build_parser", "parse_rules"]
