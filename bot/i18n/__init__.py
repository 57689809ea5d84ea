"""Every word a player reads, in English (en-US) and Chinese (zh-CN).

The messages live in Project Fluent catalogs, ``data/locales/<locale>/<area>.ftl``,
one file per area (``rules``, ``cli``, ``lobby``, ``table`` ...) so that people
working on different parts of the bot never edit the same file. Fluent handles
plural and number forms (``{ $n -> [one] ... *[other] ... }``); code never glues
sentences together from pieces, because word order differs between languages.

Which locale a message uses is decided by the caller (see ``normalize``): this
module only turns ``(locale, key, args)`` into text, falling back to en-US when a
locale lacks a key. Anything Discord or the terminal hands us (``"zh"``,
``"zh_CN"``, ``"zh-TW"``, ``discord.Locale.chinese``, ``"en-GB"``, ``None``)
normalises to one of ``LOCALES``; Traditional Chinese readers get the simplified
catalog, which they read far better than English.

How to add a string
-------------------
1. Pick the area file: the key's first word names it, so ``lobby-seat-taken``
   lives in ``data/locales/en-US/lobby.ftl`` and ``data/locales/zh-CN/lobby.ftl``.
   A new area is a new pair of files.
2. Write the English and the Chinese, with the same ``{ $placeholders }`` in both.
   Pass numbers as numbers (Fluent picks plural forms and formats them) and
   everything else as ready text (format cards with ``bot.i18n.rules.card_text``).
   A count before its noun takes a selector in English ("1 card", "2 cards"):
   ``tests/i18n/test_plurals.py`` formats every one with 1.
3. In the code, write the key in full as a string literal: ``t(loc, "lobby-seat-taken",
   seat=2)``. Never build a key with an f-string or ``+``; to choose among keys,
   map ids to literal keys in a dict (``{"overview": "rules-topic-overview", ...}``).
   ``tests/i18n/test_catalog.py`` finds keys by scanning the code for literals, and
   fails on a key that is missing in a language, a key nobody uses, and
   placeholders that differ between the languages.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import cast

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast
from fluent.syntax.visitor import Visitor

LOCALES: tuple[str, ...] = ("en-US", "zh-CN")
DEFAULT = "en-US"
LOCALE_DIR = Path(__file__).resolve().parents[2] / "data" / "locales"

Arg = str | int | float | Decimal


def normalize(locale: object) -> str | None:
    """One of ``LOCALES`` for a language tag or ``discord.Locale``, else None.

    None (not the default) for unknown languages, so that callers can walk their
    chain of preferences (the player's setting, the interaction, the server).
    """
    value = getattr(locale, "value", locale)
    if not isinstance(value, str) or not value:
        return None
    found = _NORMALIZED.get(value, "")
    if found == "":
        language = value.replace("_", "-").split("-")[0].lower()
        found = {"zh": "zh-CN", "en": "en-US"}.get(language)
        if len(_NORMALIZED) < 1000:  # the tags seen are few; a flood of odd ones is not kept
            _NORMALIZED[value] = found
    return found


_NORMALIZED: dict[str, str | None] = {}


def pick(*candidates: object) -> str:
    """The first candidate that names a supported locale, else English."""
    for candidate in candidates:
        found = normalize(candidate)
        if found is not None:
            return found
    return DEFAULT


_SUPPORTED = {locale: locale for locale in LOCALES}  # a supported tag needs no ``pick``


SMALL = range(-999, 1000)  # no grouping separator; checked per locale (``plain_digits``)


class _Placed(Visitor):
    """Which variables a message only writes out (``{ $n }``), and which it reads
    otherwise (a selector, a function's argument); whether it refers to other messages
    (which read the same variables)."""

    def __init__(self) -> None:
        super().__init__()
        self.placed: set[str] = set()
        self.read: set[str] = set()
        self.refers = False

    def visit_Placeable(self, node: ast.Placeable) -> None:
        if isinstance(node.expression, ast.VariableReference):
            self.placed.add(node.expression.id.name)
        else:
            self.generic_visit(node)

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.read.add(node.id.name)

    def visit_MessageReference(self, node: ast.MessageReference) -> None:
        self.refers = True

    def visit_TermReference(self, node: ast.TermReference) -> None:
        self.refers = True


def written_variables(pattern: ast.Pattern) -> frozenset[str]:
    """The variables ``pattern`` only writes out: a small integer there may be passed as
    its digits. Fluent formats every number through Babel's number pattern, 16 us an
    argument: three quarters of formatting a message such as the strip's trick points,
    which differ at every play. A count a selector reads (``{ $n -> [one] ...}``) goes
    through Babel for its plural form."""
    seen = _Placed()
    seen.visit(pattern)
    return frozenset() if seen.refers else frozenset(seen.placed - seen.read)


def plain_digits(locale: str) -> bool:
    """Whether Fluent writes every small integer in ``locale`` as Python does (a script
    with digits of its own, or another minus sign, would not)."""
    probe = FluentBundle([locale], use_isolating=False)
    probe.add_resource(FluentResource("n = { $n }"))
    pattern = probe.get_message("n").value
    assert pattern is not None
    samples = (SMALL[0], -12, -1, 0, 1, 7, 42, 100, SMALL[-1])
    return all(probe.format_pattern(pattern, {"n": n})[0] == str(n) for n in samples)


FORMATTED_KEPT = 20_000  # formatted messages kept (a few MB at most)


class Catalog:
    """The catalogs of one directory, loaded once per locale on first use."""

    def __init__(self, root: Path = LOCALE_DIR) -> None:
        self.root = root
        self._bundles: dict[str, FluentBundle] = {}
        self._plain: dict[str, bool] = {}  # locale: whether small integers skip Babel
        self._written: dict[tuple[str, str], frozenset[str]] = {}  # see ``written_variables``
        # Formatted messages by locale, key and arguments. Fluent formatting is most
        # of a hand panel's text cost (a suit name per menu option, the same strings
        # at every turn), and a message's text depends on nothing else.
        self._formatted: dict[tuple[object, ...], str] = {}

    def files(self, locale: str) -> list[Path]:
        return sorted((self.root / locale).glob("*.ftl"))

    def bundle(self, locale: str) -> FluentBundle:
        found = self._bundles.get(locale)
        if found is None:
            found = FluentBundle([locale], use_isolating=False)
            for path in self.files(locale):
                found.add_resource(FluentResource(path.read_text(encoding="utf-8")))
            self._bundles[locale] = found
            self._plain[locale] = plain_digits(locale)
        return found

    def has(self, locale: object, key: str) -> bool:
        return self.bundle(pick(locale)).has_message(key)

    def t(self, locale: object, key: str, **args: Arg) -> str:
        """The message ``key`` in ``locale`` (any form ``normalize`` accepts).

        A key missing from the locale falls back to en-US; a key missing there too,
        or arguments that do not fit the message, raise: both are bugs the catalog
        test catches, never something a player could cause.
        """
        # the hit path first (about 17 messages a hand panel, most of them kept): the
        # arguments are checked on a miss only, as a kept message's were, types included
        chosen = _SUPPORTED.get(locale) if type(locale) is str else None
        if chosen is None:
            chosen = pick(locale)
        # the type too: 1 and 1.0 are equal keys but need not read the same
        memo = (
            chosen,
            key,
            tuple(args.items()),
            tuple(map(type, args.values())),
        )
        try:
            found = self._formatted.get(memo)
            keep = True
        except TypeError:  # an unhashable argument (refused just below) or a signalling NaN
            found, keep = None, False
        if found is not None:
            return found
        for name, value in args.items():
            if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
                raise TypeError(f"{key}: argument {name} must be text or a number, not {value!r}")
        text = self._format(chosen, key, args)
        if not keep:
            return text
        if len(self._formatted) >= FORMATTED_KEPT:
            self._formatted.clear()  # names and numbers vary without end: start afresh
        self._formatted[memo] = text
        return text

    def _format(self, chosen: str, key: str, args: dict[str, Arg]) -> str:
        bundle = self.bundle(chosen)
        if not bundle.has_message(key):
            bundle = self.bundle(DEFAULT)
        message = bundle.get_message(key)  # KeyError when no catalog has it
        if message.value is None:
            raise KeyError(f"{key} has no value, only attributes")
        locale = bundle.locales[0]
        if self._plain[locale]:
            written = self._written.get((locale, key))
            if written is None:
                written = self._written[locale, key] = written_variables(message.value)
            args = {
                name: str(value)
                if name in written and type(value) is int and value in SMALL
                else value
                for name, value in args.items()
            }
        text, errors = bundle.format_pattern(message.value, args)
        if errors:
            raise ValueError(f"{key}: {errors[0]}")
        # fluent types the result ``str | FluentNone``, but FluentNone only stands in for a
        # failed reference, which is reported in ``errors`` (fluent's own fallback casts too)
        return cast(str, text)


CATALOG = Catalog()


def t(locale: object, key: str, **args: Arg) -> str:
    """The message ``key`` in ``locale``, from the project's catalogs."""
    return CATALOG.t(locale, key, **args)


def translator(locale: object) -> Callable[..., str]:
    """``_ = translator(loc)`` then ``_("lobby-seat-taken", seat=2)``."""
    chosen = pick(locale)

    def _(key: str, **args: Arg) -> str:
        return CATALOG.t(chosen, key, **args)

    return _
