"""The catalogs: complete in both languages, every key used, placeholders alike.

Keys are found by scanning the project's Python files for string literals that
look like keys (an area's name, a dash, words): see ``bot.i18n``'s docstring for
the convention that makes this scan complete.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, FluentSerializer
from fluent.syntax import ast as fast
from fluent.syntax.visitor import Visitor

from bot import i18n
from cogs import COMMAND_MODULES
from cogs.common import shengji
from cogs.text import command_strings

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot", "cogs", "renderers")


class _Refs(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.variables: set[str] = set()
        self.messages: set[str] = set()

    def visit_VariableReference(self, node: fast.VariableReference) -> None:
        self.variables.add(node.id.name)

    def visit_MessageReference(self, node: fast.MessageReference) -> None:
        self.messages.add(node.id.name)


@functools.cache
def _messages(locale: str) -> dict[str, tuple[str, fast.Message]]:
    """Every message of a locale: key -> (area file stem, node), parsed on first use
    (``test_plurals`` reads the English ones at collection, in every worker)."""
    found: dict[str, tuple[str, fast.Message]] = {}
    for path in i18n.CATALOG.files(locale):
        resource = FluentParser(with_spans=False).parse(path.read_text(encoding="utf-8"))
        junk = [entry for entry in resource.body if isinstance(entry, fast.Junk)]
        assert not junk, f"{path}: syntax error near {junk[0].content[:60]!r}"
        for entry in resource.body:
            if isinstance(entry, fast.Message):
                assert entry.id.name not in found, f"{entry.id.name} defined twice"
                found[entry.id.name] = (path.stem, entry)
    return found


def _refs(message: fast.Message) -> _Refs:
    refs = _Refs()
    refs.visit(message)
    return refs


def _catalogs() -> dict[str, dict[str, tuple[str, fast.Message]]]:
    """Every locale's messages."""
    return {locale: _messages(locale) for locale in i18n.LOCALES}


def _source() -> dict[str, tuple[str, fast.Message]]:
    return _messages(i18n.DEFAULT)


def _code_keys() -> set[str]:
    areas = {stem for stem, _ in _source().values()}
    pattern = re.compile(rf"^((?:{'|'.join(sorted(areas))})-[A-Za-z0-9]+(?:-[A-Za-z0-9_]+)*)$")
    keys: set[str] = set()
    for folder in CODE_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    keys.update(pattern.findall(node.value))
    return keys


def _command_keys() -> set[str]:
    """Keys built from the command tree (the one registry of dynamic keys)."""
    for name in COMMAND_MODULES:
        importlib.import_module(name)
    return {key for key, _, _ in command_strings(shengji)}


def test_both_languages_have_the_same_files_and_keys() -> None:
    files = {loc: [p.name for p in i18n.CATALOG.files(loc)] for loc in i18n.LOCALES}
    assert files["en-US"] == files["zh-CN"]
    assert set(_catalogs()["en-US"]) == set(_catalogs()["zh-CN"])


def test_each_key_lives_in_its_areas_file() -> None:
    for locale, messages in _catalogs().items():
        for key, (stem, _) in messages.items():
            assert key.startswith(f"{stem}-"), f"{locale}: {key} belongs in {key.split('-')[0]}.ftl"


def test_placeholders_match_the_source() -> None:
    for key, (_, message) in _source().items():
        source = _refs(message)
        for locale in i18n.LOCALES:
            other = _refs(_catalogs()[locale][key][1])
            assert other.variables == source.variables, f"{locale} {key}"
            assert other.messages == source.messages, f"{locale} {key}"


def test_every_key_in_the_code_exists_and_every_key_is_used() -> None:
    used = _code_keys() | _command_keys()
    source = _source()
    referenced = {ref for _, m in source.values() for ref in _refs(m).messages}
    assert sorted(used - set(source)) == [], "keys in the code missing from the catalogs"
    assert sorted(set(source) - used - referenced) == [], "keys nobody uses"


#: the messages about the kitty bonus (the attackers' multiplied kitty after the last
#: trick), the only ones that may say 抠底; burying the kitty is 扣底
KITTY_BONUS_KEYS = {
    "guide-title-scoring",
    "guide-scoring",
    "guide-variant-kitty",
    "records-stat-kitty",
    "cli-kitty-bonus",
    "img-kitty-bonus",
    "table-summary-bonus",
    "cmd-choice-kitty_multiplier",
}


def _text(message: fast.Message) -> str:
    return FluentSerializer().serialize_entry(message)


def test_koudi_the_bonus_is_never_koudi_the_burying() -> None:
    """抠底 and 扣底 sound alike and players tell them apart: a message about burying that
    said 抠底 would name the attackers' bonus instead."""
    saying = {
        key
        for messages in _catalogs().values()
        for key, (_, message) in messages.items()
        if "抠底" in _text(message)
    }
    assert saying <= KITTY_BONUS_KEYS, sorted(saying - KITTY_BONUS_KEYS)
    burying = {
        key
        for key, (_, message) in _source().items()
        if re.search(r"\bbur(y|ies|ied|ying)\b", _text(message), re.IGNORECASE)
    }
    assert burying, "the English names burying somewhere"
    for locale, messages in _catalogs().items():
        for key in burying:
            assert "抠底" not in _text(messages[key][1]), f"{locale} {key}"


#: the placeholders the code fills with numbers (a plural's count, a NUMBER())
NUMBERS = {"count", "extra", "length", "chosen", "loss", "n"}
NUMBERS |= {"rating", "mu", "sigma", "seed", "low", "high"}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_message_formats_with_its_placeholders(locale: str) -> None:
    """Numbers 0, 1, 2, 5 go through every plural branch; no message errors."""
    for key, (_, message) in _source().items():
        names = _refs(message).variables
        for n in (0, 1, 2, 5):
            args = {name: n if name in NUMBERS else "x" for name in names}
            assert i18n.t(locale, key, **args)


def test_locale_normalisation_and_fallback(tmp_path: Path) -> None:
    assert i18n.normalize("zh") == i18n.normalize("zh_CN") == "zh-CN"
    assert i18n.normalize("zh-TW") == "zh-CN"
    assert i18n.normalize("en-GB") == "en-US"
    assert i18n.normalize("fr") is None and i18n.normalize(None) is None
    assert i18n.pick(None, "fr", "zh-CN", "en-US") == "zh-CN"
    assert i18n.pick("de") == "en-US"

    class FakeLocale:  # discord.Locale is an enum whose value is the tag
        value = "zh-CN"

    assert i18n.normalize(FakeLocale()) == "zh-CN"
    for loc in i18n.LOCALES:
        (tmp_path / loc).mkdir()
    (tmp_path / "en-US" / "x.ftl").write_text(
        "x-cards = { $n ->\n    [one] one card\n   *[other] { $n } cards\n}\n"
        "x-only = only English\n",
        encoding="utf-8",
    )
    (tmp_path / "zh-CN" / "x.ftl").write_text("x-cards = { $n }张牌\n", encoding="utf-8")
    catalog = i18n.Catalog(tmp_path)
    assert catalog.t("en", "x-cards", n=1) == "one card"
    assert catalog.t("en", "x-cards", n=1200) == "1,200 cards"
    assert catalog.t("zh", "x-cards", n=3) == "3张牌"
    assert catalog.t("zh", "x-only") == "only English"
    with pytest.raises(KeyError):
        catalog.t("en", "x-missing")
    with pytest.raises(ValueError):
        catalog.t("en", "x-cards")
    with pytest.raises(TypeError):
        catalog.t("en", "x-cards", n=[1])
