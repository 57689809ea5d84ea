"""The Chinese catalogs use the game's words as the seeds (/work/shared/seeds) write
them: a trick is a 轮 (第一轮, 上一轮, 最后一轮), never 墩."""

from __future__ import annotations

from fluent.syntax import FluentSerializer

from .test_catalog import _messages


def _zh_texts() -> dict[str, str]:
    serializer = FluentSerializer()
    return {key: serializer.serialize_entry(node) for key, (_, node) in _messages("zh-CN").items()}


def test_a_trick_is_a_round_of_play_not_a_dun() -> None:
    assert [key for key, text in _zh_texts().items() if "墩" in text] == []
