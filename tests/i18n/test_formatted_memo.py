"""Formatted messages are kept and reused: the same text, the same checks.

The small integers are compared in every language on the edges of the short way and
the first plural forms in the default run, on more numbers with ``-m slow``.
"""

from __future__ import annotations

import pytest
from fluent.runtime.types import FluentNumber
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

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


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)


def _messages(locale: str) -> dict[str, set[str]]:
    """Every message of ``locale``'s catalogs with a value, and the variables it reads."""
    found = {}
    for path in i18n.Catalog().files(locale):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, ast.Message) and entry.value is not None:
                seen = _Variables()
                seen.visit(entry)
                found[entry.id.name] = seen.names
    return found


# both ends of ``i18n.SMALL`` and 1000 past it (grouped), -1, zero, one and two (plurals)
EDGES = (-999, -1, 0, 1, 2, 999, 1000)
MORE = (-21, 3, 4, 5, 8, 11, 21, 25, 100, 101, 123456)  # ``-m slow``


@pytest.mark.parametrize(
    ("locale", "numbers"),
    [
        *(pytest.param(locale, EDGES, id=f"{locale}-edges") for locale in i18n.LOCALES),
        *(
            pytest.param(locale, MORE, id=f"{locale}-more", marks=pytest.mark.slow)
            for locale in i18n.LOCALES
        ),
    ],
)
def test_small_integers_read_as_babel_writes_them(
    locale: str, numbers: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = i18n.Catalog()
    assert plain.bundle(locale) and plain._plain[locale]  # the short way is taken here
    monkeypatch.setattr(i18n, "plain_digits", lambda locale: False)
    babel = i18n.Catalog()
    numbered = {key: names for key, names in _messages(locale).items() if names}
    assert len(numbered) > 100
    for n in numbers:
        for key, names in numbered.items():
            args: dict[str, i18n.Arg] = dict.fromkeys(names, n)
            assert plain._format(locale, key, args) == babel._format(locale, key, args), (key, n)


def test_a_number_only_written_out_skips_babel(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = i18n.Catalog()
    catalog.bundle("en-US")

    def refused(self: FluentNumber, locale: object) -> str:
        raise AssertionError(f"{int(self)} went through Babel")

    monkeypatch.setattr(FluentNumber, "format", refused)
    text = catalog.t("en-US", "table-img-head", hand=35, trick=12)
    assert text == "Hand 35 · Trick 12"
    with pytest.raises(AssertionError, match="Babel"):  # read by a selector: a Fluent number
        catalog.t("en-US", "img-cards-n", n=2)
    with pytest.raises(AssertionError, match="Babel"):  # too large for digits alone
        catalog.t("en-US", "panel-dealt", dealt=1000, total=25)
