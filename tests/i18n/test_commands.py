"""Slash commands in Chinese: every name, description and choice, within Discord's rules."""

from __future__ import annotations

import importlib
import re

import discord
from discord import app_commands

from bot import i18n
from cogs import COMMAND_MODULES
from cogs.common import shengji
from cogs.text import Translator, command_strings

for _module in COMMAND_MODULES:
    importlib.import_module(_module)

Location = app_commands.TranslationContextLocation
NAME = re.compile(r"^[-_\w]{1,32}$")
NAMES = (Location.command_name, Location.group_name, Location.parameter_name)


def test_english_catalog_is_the_source_in_the_code() -> None:
    """The en-US cmd catalog cannot drift from the descriptions written in the cogs."""
    for key, english, _ in command_strings(shengji):
        assert i18n.t("en-US", key) == english, key


def test_chinese_names_and_descriptions_follow_discords_limits() -> None:
    for key, english, location in command_strings(shengji):
        chinese = i18n.t("zh-CN", key)
        assert chinese != english or english.isdigit(), f"{key} is not translated"
        if location in NAMES:
            assert NAME.match(chinese) and chinese == chinese.lower(), (key, chinese)
        else:
            assert 1 <= len(chinese) <= 100, (key, chinese)


async def test_the_translator_answers_for_chinese_only() -> None:
    translator = Translator()
    command = shengji.get_command("join")
    assert command is not None
    context = app_commands.TranslationContext(Location.command_name, command)
    name = app_commands.locale_str("join")
    assert await translator.translate(name, discord.Locale.chinese, context) == "入座"
    assert await translator.translate(name, discord.Locale.taiwan_chinese, context) == "入座"
    assert await translator.translate(name, discord.Locale.american_english, context) is None
    assert await translator.translate(name, discord.Locale.french, context) is None
    param = command.parameters[0]
    context = app_commands.TranslationContext(Location.parameter_description, param)
    text = await translator.translate(name, discord.Locale.chinese, context)
    assert text == "座位1-4（1与3、2与4为对家）"
