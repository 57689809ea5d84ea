"""The store's JSON (``bot.store.base.dumps``, by orjson) reads back as the standard
library's would, for what the store writes and for what orjson cannot write itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.rules import RuleSet
from bot.store.base import dumps


@pytest.mark.parametrize(
    "value",
    [
        {"kind": "play", "cards": ["AH", "AH", "KH"]},
        RuleSet().to_dict(),
        {1: "seat", 2: None, "名字": '♥ "quoted"\n', "f": [0.1, 1e16, -0.0, True]},
        {"user": 2**64 + 5, "ids": [2**70]},  # beyond 64 bits: the standard library writes it
    ],
)
def test_dumps_reads_back_as_json_dumps_would(value: Any) -> None:
    text = dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
