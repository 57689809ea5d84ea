"""Limit rules that discord.py never lets a bot send (or that need odd payloads), checked
directly on the validators: each bad payload gives Discord's error at Discord's path, and
its corrected twin passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from fakediscord import DiscordError, leaf_codes
from fakediscord.errors import FormErrors
from fakediscord.limits import (
    IS_COMPONENTS_V2,
    check_autocomplete,
    check_command,
    check_message,
    check_modal,
)


def message_error(payload: dict[str, Any]) -> dict[str, list[str]]:
    with pytest.raises(DiscordError) as info:
        check_message(payload, 0)
    assert (info.value.status, info.value.code) == (400, 50035)
    assert info.value.errors is not None
    return leaf_codes(info.value.errors)


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(**extra: Any) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}],
    } | extra


PAIRS: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    (
        "select without options",
        {"components": [row(select(options=[]))]},
        {"components": [row(select())]},
        "components.0.components.0.options",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "min_values above options",
        {"components": [row(select(min_values=3, max_values=3))]},
        {"components": [row(select(min_values=2, max_values=2))]},
        "components.0.components.0.options",
        "BASE_TYPE_MIN_LENGTH",
    ),
    (
        "too many defaults",
        {
            "components": [
                row(
                    select(
                        options=[
                            {"label": "a", "value": "a", "default": True},
                            {"label": "b", "value": "b", "default": True},
                        ]
                    )
                )
            ]
        },
        {
            "components": [
                row(
                    select(
                        options=[
                            {"label": "a", "value": "a", "default": True},
                            {"label": "b", "value": "b"},
                        ]
                    )
                )
            ]
        },
        "components.0.components.0.options",
        "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
    ),
    (
        "user select defaults",
        {
            "components": [
                row(
                    {
                        "type": 5,
                        "custom_id": "u",
                        "default_values": [
                            {"id": "1", "type": "user"},
                            {"id": "2", "type": "user"},
                        ],
                    }
                )
            ]
        },
        {
            "components": [
                row(
                    {
                        "type": 5,
                        "custom_id": "u",
                        "max_values": 2,
                        "default_values": [
                            {"id": "1", "type": "user"},
                            {"id": "2", "type": "user"},
                        ],
                    }
                )
            ]
        },
        "components.0.components.0.default_values",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "link button without url",
        {"components": [row({"type": 2, "style": 5, "label": "l"})]},
        {"components": [row({"type": 2, "style": 5, "label": "l", "url": "https://x.y"})]},
        "components.0.components.0.url",
        "BUTTON_COMPONENT_URL_REQUIRED",
    ),
    (
        "link button with custom_id",
        {
            "components": [
                row({"type": 2, "style": 5, "label": "l", "url": "https://x.y", "custom_id": "c"})
            ]
        },
        {"components": [row({"type": 2, "style": 5, "label": "l", "url": "https://x.y"})]},
        "components.0.components.0.custom_id",
        "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
    ),
    (
        "bad button style",
        {"components": [row({"type": 2, "style": 9, "custom_id": "c", "label": "l"})]},
        {"components": [row({"type": 2, "style": 4, "custom_id": "c", "label": "l"})]},
        "components.0.components.0.style",
        "BASE_TYPE_CHOICES",
    ),
    (
        "button without label or emoji",
        {"components": [row({"type": 2, "style": 1, "custom_id": "c"})]},
        {"components": [row({"type": 2, "style": 1, "custom_id": "c", "emoji": {"name": "🂡"}})]},
        "components.0.components.0.label",
        "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
    ),
    (
        "empty row",
        {"components": [row()]},
        {"components": [row(select())]},
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "text input in a message",
        {"components": [row({"type": 4, "custom_id": "t", "style": 1, "label": "l"})]},
        {"components": [row(select())]},
        "components.0.components.0.type",
        "BASE_TYPE_CHOICES",
    ),
    (
        "v1 top level must be rows",
        {"components": [select()]},
        {"components": [row(select())]},
        "components.0.type",
        "BASE_TYPE_CHOICES",
    ),
    (
        "v2 over 40 components",
        {
            "flags": IS_COMPONENTS_V2,
            "components": [{"type": 10, "content": str(i)} for i in range(41)],
        },
        {
            "flags": IS_COMPONENTS_V2,
            "components": [{"type": 10, "content": str(i)} for i in range(40)],
        },
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "v2 forbids content",
        {"flags": IS_COMPONENTS_V2, "content": "hi", "components": [{"type": 10, "content": "x"}]},
        {"flags": IS_COMPONENTS_V2, "components": [{"type": 10, "content": "x"}]},
        "content",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    (
        "v2 nested custom_id duplicate",
        {
            "flags": IS_COMPONENTS_V2,
            "components": [{"type": 17, "components": [row(select()), row(select())]}],
        },
        {
            "flags": IS_COMPONENTS_V2,
            "components": [{"type": 17, "components": [row(select()), row(select(custom_id="t"))]}],
        },
        "components.0.components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    (
        "embed field needs a name",
        {"embeds": [{"fields": [{"value": "v"}]}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}]}]},
        "embeds.0.fields.0.name",
        "BASE_TYPE_REQUIRED",
    ),
    (
        "11 files",
        {"content": "x", "attachments": [{"id": i} for i in range(11)]},
        {"content": "x", "attachments": [{"id": i} for i in range(10)]},
        "attachments",
        "BASE_TYPE_MAX_LENGTH",
    ),
]


@pytest.mark.parametrize(("what", "bad", "good", "path", "code"), PAIRS, ids=[p[0] for p in PAIRS])
def test_message_rules(
    what: str, bad: dict[str, Any], good: dict[str, Any], path: str, code: str
) -> None:
    if not bad.get("flags"):  # v1 messages need something to show besides components
        bad, good = {"content": "x"} | bad, {"content": "x"} | good
    assert code in message_error(bad).get(path, [])
    check_message(good, 0)


def tree_of(check: Any, payload: dict[str, Any]) -> dict[str, list[str]]:
    errors = FormErrors()
    check(errors, payload)
    return leaf_codes(errors.tree)


def text_input(**extra: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": "t", "style": 1, "label": "L"} | extra


MODALS: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    (
        "text input max_length",
        {"components": [row(text_input(max_length=4001))]},
        {"components": [row(text_input(max_length=4000))]},
        "data.components.0.components.0.max_length",
        "NUMBER_TYPE_MAX",
    ),
    (
        "text input value",
        {"components": [row(text_input(value="v" * 4001))]},
        {"components": [row(text_input(value="v" * 4000))]},
        "data.components.0.components.0.value",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "text input placeholder",
        {"components": [row(text_input(placeholder="p" * 101))]},
        {"components": [row(text_input(placeholder="p" * 100))]},
        "data.components.0.components.0.placeholder",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "two inputs in a row",
        {"components": [row(text_input(), text_input(custom_id="u"))]},
        {"components": [row(text_input()), row(text_input(custom_id="u"))]},
        "data.components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "label text",
        {
            "components": [
                {
                    "type": 18,
                    "label": "l" * 46,
                    "component": {"type": 4, "custom_id": "t", "style": 2},
                }
            ]
        },
        {
            "components": [
                {
                    "type": 18,
                    "label": "l" * 45,
                    "component": {"type": 4, "custom_id": "t", "style": 2},
                }
            ]
        },
        "data.components.0.label",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "modal custom_id duplicate",
        {"components": [row(text_input()), row(text_input())]},
        {"components": [row(text_input()), row(text_input(custom_id="u"))]},
        "data.components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
]


@pytest.mark.parametrize(
    ("what", "bad", "good", "path", "code"), MODALS, ids=[m[0] for m in MODALS]
)
def test_modal_rules(
    what: str, bad: dict[str, Any], good: dict[str, Any], path: str, code: str
) -> None:
    base = {"custom_id": "m", "title": "T"}
    assert code in tree_of(check_modal, base | bad).get(path, [])
    assert tree_of(check_modal, base | good) == {}


def test_autocomplete_choice_lengths() -> None:
    bad = {"choices": [{"name": "n" * 101, "value": "v"}, {"name": "n", "value": "v" * 101}]}
    assert tree_of(check_autocomplete, bad) == {
        "data.choices.0.name": ["BASE_TYPE_BAD_LENGTH"],
        "data.choices.1.value": ["BASE_TYPE_BAD_LENGTH"],
    }
    good = {"choices": [{"name": "n" * 100, "value": "v" * 100}, {"name": "n", "value": 3}]}
    assert tree_of(check_autocomplete, good) == {}


def opt(otype: int, name: str, **extra: Any) -> dict[str, Any]:
    return {"type": otype, "name": name, "description": "d"} | extra


COMMANDS: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    (
        "uppercase name",
        {"name": "Play"},
        {"name": "play"},
        "name",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    ("33-char name", {"name": "p" * 33}, {"name": "p" * 32}, "name", "BASE_TYPE_BAD_LENGTH"),
    (
        "empty description",
        {"description": ""},
        {"description": "d"},
        "description",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "option description",
        {"options": [opt(3, "a", description="d" * 101)]},
        {"options": [opt(3, "a", description="d" * 100)]},
        "options.0.description",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "option name",
        {"options": [opt(3, "A b")]},
        {"options": [opt(3, "a-b")]},
        "options.0.name",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "duplicate option",
        {"options": [opt(3, "a"), opt(4, "a")]},
        {"options": [opt(3, "a"), opt(4, "b")]},
        "options.1.name",
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
    ),
    (
        "mixed subcommands and options",
        {"options": [opt(1, "sub"), opt(3, "a")]},
        {"options": [opt(1, "sub", options=[opt(3, "a")])]},
        "options.1.type",
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    (
        "group inside group",
        {"options": [opt(2, "g", options=[opt(2, "h")])]},
        {"options": [opt(2, "g", options=[opt(1, "h")])]},
        "options.0.options",
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    ),
    (
        "autocomplete with choices",
        {"options": [opt(3, "a", autocomplete=True, choices=[{"name": "x", "value": "x"}])]},
        {"options": [opt(3, "a", autocomplete=True)]},
        "options.0.autocomplete",
        "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
    ),
    (
        "choice name",
        {"options": [opt(3, "a", choices=[{"name": "n" * 101, "value": "v"}])]},
        {"options": [opt(3, "a", choices=[{"name": "n" * 100, "value": "v"}])]},
        "options.0.choices.0.name",
        "BASE_TYPE_BAD_LENGTH",
    ),
]


@pytest.mark.parametrize(
    ("what", "bad", "good", "path", "code"), COMMANDS, ids=[c[0] for c in COMMANDS]
)
def test_command_rules(
    what: str, bad: dict[str, Any], good: dict[str, Any], path: str, code: str
) -> None:
    base = {"name": "cmd", "description": "d"}
    assert code in tree_of(check_command, base | bad).get(path, [])
    assert tree_of(check_command, base | good) == {}


def test_context_menu_names_may_have_spaces() -> None:
    assert tree_of(check_command, {"name": "Show Hand", "type": 2}) == {}
