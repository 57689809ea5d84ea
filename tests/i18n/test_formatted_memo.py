"""Formatted messages are kept and reused: the same text, the same checks."""

from __future__ import annotations

import pytest

from bot import i18n


def test_a_kept_message_reads_as_a_fresh_one_and_arguments_are_still_checked() -> None:
    catalog = i18n.Catalog()
    first = catalog.t("en", "panel-dealt", dealt=12, total=25)
    assert first == i18n.Catalog().t("en-US", "panel-dealt", dealt=12, total=25)
    assert catalog.t("en-GB", "panel-dealt", dealt=12, total=25) is first  # kept, not redone
    assert catalog.t("zh", "panel-dealt", dealt=12, total=25) != first  # per language
    assert "13" in catalog.t("en", "panel-dealt", dealt=13, total=25)  # per arguments
    with pytest.raises(TypeError):  # True == 1, but a flag is still refused
        catalog.t("en", "panel-dealt", dealt=True, total=25)


def test_the_kept_messages_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "FORMATTED_KEPT", 10)
    catalog = i18n.Catalog()
    for n in range(25):
        assert str(n) in catalog.t("en", "panel-dealt", dealt=n, total=25)
    assert len(catalog._formatted) <= 10
