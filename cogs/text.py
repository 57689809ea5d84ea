"""Words the bot says: names of things, the rules explained, Chinese localisations.

Kept apart from the cogs so every message a player reads is in one place, and so
the length limits Discord enforces (2000-character messages, 4096-character embed
descriptions, 100-character option descriptions) are easy to check in tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.game import HandResult
from bot.i18n import guide
from bot.i18n.rules import card_text, suit_name
from bot.rules import SUIT_SYMBOLS, Bid, BidKind, Card, RuleSet, Trump, bid_kind

TEAM_KEYS = ("text-team-a", "text-team-b")


def team_name(team: int, locale: object = "en-US") -> str:
    return i18n.t(locale, TEAM_KEYS[team])


def pair_text(first: str, second: str, locale: object = "en-US") -> str:
    """Two partners' names, joined as the language joins them (``&``, 和)."""
    return i18n.t(locale, "text-pair", first=first, second=second)


def level_name(level: str) -> str:
    return "10" if level == "T" else level


def suit_words(suit: str | None, locale: object) -> str:
    if suit is None:
        return suit_name(locale, None)
    return f"{SUIT_SYMBOLS[suit]} {suit_name(locale, suit)}"


def trump_text(trump: Trump | None, locale: object = "en-US") -> str:
    if trump is None:
        return i18n.t(locale, "text-trump-unset")
    suit = suit_words(trump.suit, locale)
    return i18n.t(locale, "text-trump", suit=suit, level=level_name(trump.level))


def cards_text(cards: tuple[Card, ...] | list[Card], locale: object) -> str:
    return card_text(locale, cards) or "—"


def bid_text(bid: Bid, before: Bid | None, name: str, locale: object = "en-US") -> str:
    """A bid made over ``before`` as players say it: 亮, 自保 or 反主."""
    suit = suit_words(bid.suit, locale)
    kind = bid_kind(bid, before)
    return i18n.t(
        locale, "text-bid", name=name, cards=cards_text(bid.cards, locale), suit=suit, kind=kind
    )


_BID_LABELS: dict[BidKind, str] = {
    "declare": "text-bid-declare",
    "reinforce": "text-bid-reinforce",
    "overcall": "text-bid-overcall",
}


def bid_label(bid: Bid, current: Bid | None, locale: object = "en-US") -> str:
    """A button label for a bid (one of its bidder's options): what it does, in the words
    players use."""
    shown = cards_text(bid.cards, locale)
    key = "text-bid-no-trump" if bid.suit is None else _BID_LABELS[bid_kind(bid, current)]
    return i18n.t(locale, key, cards=shown)


def result_text(result: HandResult, locale: object = "en-US") -> str:
    """How a hand ended: who holds the deal next and the levels gained."""
    return i18n.t(locale, "text-result", winner=result.winner, gained=result.levels_gained)


def result_line(result: HandResult, locale: object = "en-US") -> str:
    """``result_text`` as a sentence of its own (the summary, a panel after the hand)."""
    return i18n.t(locale, "text-result-line", result=result_text(result, locale))


#: the topics of /shengji rules, in reading order (their text is in bot.i18n.guide)
RULE_TOPICS: tuple[str, ...] = tuple(guide.TOPICS)


def rules_text(topic: str, rules: RuleSet, locale: str = "en-US") -> str:
    """A rules topic for a player, in ``locale``, with the numbers of ``rules``."""
    return guide.topic_text(locale, topic, rules)


# --- slash commands in the player's language ---------------------------------------
#
# Names, descriptions and choices are translated by ``Translator`` from the ``cmd``
# catalog. Their keys are built from the command tree (the one place keys are made
# from data, see bot.i18n): ``cmd-<path>`` for a command or group name,
# ``cmd-<path>-desc`` for its description, ``cmd-<path>-<param>`` and
# ``cmd-<path>-<param>-desc`` for an option, ``cmd-choice-<value>`` for a choice.
# ``command_strings`` lists them all, so the catalog test checks every one exists.

Location = app_commands.TranslationContextLocation


def _ident(text: object) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", str(text))


def command_key(location: Location, data: Any) -> str | None:
    """The catalog key of one translatable string of the command tree."""
    if location in (Location.command_name, Location.group_name):
        return f"cmd-{_ident(data.qualified_name.replace(' ', '-'))}"
    if location in (Location.command_description, Location.group_description):
        return f"cmd-{_ident(data.qualified_name.replace(' ', '-'))}-desc"
    if location is Location.parameter_name:
        return f"cmd-{_ident(data.command.qualified_name.replace(' ', '-'))}-{_ident(data.name)}"
    if location is Location.parameter_description:
        path = _ident(data.command.qualified_name.replace(" ", "-"))
        return f"cmd-{path}-{_ident(data.name)}-desc"
    if location is Location.choice_name:
        return f"cmd-choice-{_ident(data.value)}"
    return None


def command_strings(
    root: app_commands.Group | app_commands.Command[Any, ..., Any],
) -> Iterator[tuple[str, str, Location]]:
    """Every translatable string under ``root``: (key, English source, location)."""
    if isinstance(root, app_commands.Group):
        yield command_key(Location.group_name, root) or "", root.name, Location.group_name
        desc = Location.group_description
        yield command_key(desc, root) or "", root.description, desc
        for child in root.commands:
            yield from command_strings(child)
        return
    yield command_key(Location.command_name, root) or "", root.name, Location.command_name
    desc = Location.command_description
    yield command_key(desc, root) or "", root.description, desc
    for param in root.parameters:
        for location, text in (
            (Location.parameter_name, param.name),
            (Location.parameter_description, param.description),
        ):
            yield command_key(location, param) or "", text, location
        for choice in param.choices:
            yield command_key(Location.choice_name, choice) or "", choice.name, Location.choice_name


class Translator(app_commands.Translator):
    """Slash-command names, descriptions and choices in every catalog language.

    English is the source written in the code (Discord shows it where no
    translation is given), so only other languages are looked up.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = i18n.normalize(locale)
        if language is None or language == i18n.DEFAULT:
            return None
        key = command_key(context.location, context.data)
        if key is None or not i18n.CATALOG.has(language, key):
            return None
        return i18n.t(language, key)
