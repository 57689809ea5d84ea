"""Named rule sets (``data/presets.json``): a preset is only a ``RuleSet`` with a name.

Each preset lists the fields it changes from the default, plus an ``_about`` line
for players; the code never branches on a preset's name.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from bot.rules import RuleSet

PRESETS_FILE = Path(__file__).resolve().parent.parent / "data" / "presets.json"


@cache
def presets() -> dict[str, tuple[RuleSet, str]]:
    """Every preset by name: its ``RuleSet`` and a one-line description."""
    data = json.loads(PRESETS_FILE.read_text(encoding="utf-8"))
    out: dict[str, tuple[RuleSet, str]] = {}
    for name, fields in data.items():
        about = str(fields.get("_about", ""))
        changes = {k: v for k, v in fields.items() if not k.startswith("_")}
        out[name] = (RuleSet.from_dict(changes), about)
    return out
