"""Discord's payload limits, enforced with Discord's own error shapes.

Every check here exists because a library or a simulator accepted the payload
and production Discord then refused it: the bot must meet these limits in tests
so that it does not first meet them in front of players. The numbers come from
Discord's API documentation (message resource, message components, application
commands, interaction responses) and are collected in :class:`Limits` so tests
and docs can refer to them by name.

The validators append leaf errors to a :class:`~.errors.FormErrors` at the path
Discord would report (``components.0.components.0.options``), and the caller
raises one 400/50035 for the whole body, as Discord does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import (
    JSON,
    FormErrors,
    bad_length,
    choices,
    empty_message,
    entity_too_large,
    err,
    max_length,
    min_length,
    number_max,
    number_min,
    required,
)

Path = tuple[str | int, ...]


class Limits:
    """Every number the fake enforces (names follow Discord's documentation)."""

    CONTENT = 2000
    EMBEDS_PER_MESSAGE = 10
    EMBED_TITLE = 256
    EMBED_DESCRIPTION = 4096
    EMBED_FIELDS = 25
    EMBED_FIELD_NAME = 256
    EMBED_FIELD_VALUE = 1024
    EMBED_FOOTER = 2048
    EMBED_AUTHOR = 256
    EMBED_TOTAL = 6000
    ACTION_ROWS = 5
    ROW_WIDTH = 5
    V2_TOTAL_COMPONENTS = 40
    CUSTOM_ID = 100
    BUTTON_LABEL = 80
    SELECT_OPTIONS = 25
    SELECT_OPTION_TEXT = 100
    SELECT_PLACEHOLDER = 150
    SELECT_MAX_VALUES = 25
    MODAL_TITLE = 45
    MODAL_COMPONENTS = 5
    TEXT_INPUT_LABEL = 45
    TEXT_INPUT_LENGTH = 4000
    TEXT_INPUT_PLACEHOLDER = 100
    COMMAND_NAME = 32
    COMMAND_DESCRIPTION = 100
    COMMAND_OPTIONS = 25
    COMMAND_CHOICES = 25
    COMMAND_CHOICE_TEXT = 100
    COMMAND_TOTAL_SIZE = 8000
    CHAT_INPUT_COMMANDS = 100
    CONTEXT_MENU_COMMANDS = 5
    AUTOCOMPLETE_CHOICES = 25
    FILE_SIZE = 10 * 1024 * 1024
    REQUEST_SIZE = 25 * 1024 * 1024
    FILES_PER_MESSAGE = 10
    THREAD_NAME = 100
    FIRST_RESPONSE_SECONDS = 3.0
    TOKEN_SECONDS = 15 * 60.0


# Message flags that matter to validation.
EPHEMERAL = 1 << 6
IS_COMPONENTS_V2 = 1 << 15

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LABEL, TEXT_DISPLAY, FILE_UPLOAD = 18, 10, 19


def _length(errors: FormErrors, path: Path, value: Any, lo: int, hi: int, *, needed: bool) -> None:
    """Check a string field's length the way Discord words it (required vs optional)."""
    if value is None:
        if needed:
            errors.add(path, required())
        return
    if not isinstance(value, str):
        errors.add(path, err("STRING_TYPE_CONVERT", "Could not interpret value as string."))
        return
    n = len(value)
    if n > hi or n < lo:
        errors.add(path, bad_length(lo, hi) if lo > 0 else max_length(hi))


# --------------------------------------------------------------------------- embeds
def _embed_size(embed: JSON) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        size += len(field.get("name") or "") + len(field.get("value") or "")
    return size


def check_embeds(errors: FormErrors, embeds: Any, path: Path = ("embeds",)) -> None:
    """10 embeds, per-field lengths, 25 fields, and 6000 characters over all embeds."""
    if embeds is None:
        return
    if len(embeds) > Limits.EMBEDS_PER_MESSAGE:
        errors.add(path, max_length(Limits.EMBEDS_PER_MESSAGE))
        return
    for i, embed in enumerate(embeds):
        p = (*path, i)
        _length(errors, (*p, "title"), embed.get("title"), 0, Limits.EMBED_TITLE, needed=False)
        _length(
            errors,
            (*p, "description"),
            embed.get("description"),
            0,
            Limits.EMBED_DESCRIPTION,
            needed=False,
        )
        footer = embed.get("footer")
        if footer is not None:
            _length(
                errors,
                (*p, "footer", "text"),
                footer.get("text"),
                1,
                Limits.EMBED_FOOTER,
                needed=True,
            )
        author = embed.get("author")
        if author is not None:
            _length(
                errors,
                (*p, "author", "name"),
                author.get("name"),
                1,
                Limits.EMBED_AUTHOR,
                needed=True,
            )
        fields = embed.get("fields") or []
        if len(fields) > Limits.EMBED_FIELDS:
            errors.add((*p, "fields"), max_length(Limits.EMBED_FIELDS))
            continue
        for j, field in enumerate(fields):
            fp = (*p, "fields", j)
            _length(
                errors, (*fp, "name"), field.get("name"), 1, Limits.EMBED_FIELD_NAME, needed=True
            )
            _length(
                errors, (*fp, "value"), field.get("value"), 1, Limits.EMBED_FIELD_VALUE, needed=True
            )
    if not errors and sum(_embed_size(e) for e in embeds) > Limits.EMBED_TOTAL:
        errors.add(path, err("MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))


# --------------------------------------------------------------------------- components
class _CustomIds:
    """custom_id must be unique within one message or modal."""

    def __init__(self, errors: FormErrors) -> None:
        self.errors = errors
        self.seen: set[str] = set()

    def check(self, path: Path, custom_id: Any) -> None:
        _length(self.errors, path, custom_id, 1, Limits.CUSTOM_ID, needed=True)
        if isinstance(custom_id, str):
            if custom_id in self.seen:
                self.errors.add(
                    path,
                    err(
                        "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                    ),
                )
            self.seen.add(custom_id)


def _check_button(errors: FormErrors, ids: _CustomIds, path: Path, button: JSON) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*path, "style"), choices((1, 2, 3, 4, 5, 6)))
        return
    _length(errors, (*path, "label"), button.get("label"), 0, Limits.BUTTON_LABEL, needed=False)
    if style == 5:
        if not button.get("url"):
            errors.add((*path, "url"), err("BUTTON_COMPONENT_URL_REQUIRED", "A url is required"))
        if "custom_id" in button:
            errors.add(
                (*path, "custom_id"),
                err(
                    "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
                    "A custom id and url cannot both be specified",
                ),
            )
    elif style == 6:
        if not button.get("sku_id"):
            errors.add((*path, "sku_id"), required())
    else:
        ids.check((*path, "custom_id"), button.get("custom_id"))
        if not button.get("label") and not button.get("emoji"):
            errors.add(
                (*path, "label"),
                err("BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required"),
            )


def _check_select(errors: FormErrors, ids: _CustomIds, path: Path, select: JSON) -> None:
    ids.check((*path, "custom_id"), select.get("custom_id"))
    _length(
        errors,
        (*path, "placeholder"),
        select.get("placeholder"),
        0,
        Limits.SELECT_PLACEHOLDER,
        needed=False,
    )
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    bad_numbers = False
    if not isinstance(min_values, int) or min_values < 0 or min_values > Limits.SELECT_MAX_VALUES:
        errors.add(
            (*path, "min_values"),
            number_min(0)
            if isinstance(min_values, int) and min_values < 0
            else number_max(Limits.SELECT_MAX_VALUES),
        )
        bad_numbers = True
    if not isinstance(max_values, int) or max_values < 1 or max_values > Limits.SELECT_MAX_VALUES:
        errors.add(
            (*path, "max_values"),
            number_min(1)
            if isinstance(max_values, int) and max_values < 1
            else number_max(Limits.SELECT_MAX_VALUES),
        )
        bad_numbers = True
    if not bad_numbers and min_values > max_values:
        errors.add((*path, "min_values"), number_max(max_values))
    if select.get("type") != STRING_SELECT:
        defaults = select.get("default_values") or []
        if not bad_numbers and len(defaults) > max_values:
            errors.add((*path, "default_values"), max_length(max_values))
        return
    options = select.get("options")
    if not options:
        errors.add(
            (*path, "options"),
            required() if options is None else bad_length(1, Limits.SELECT_OPTIONS),
        )
        return
    if len(options) > Limits.SELECT_OPTIONS:
        errors.add((*path, "options"), bad_length(1, Limits.SELECT_OPTIONS))
        return
    values: set[str] = set()
    n_default = 0
    for i, option in enumerate(options):
        op = (*path, "options", i)
        text = Limits.SELECT_OPTION_TEXT
        _length(errors, (*op, "label"), option.get("label"), 1, text, needed=True)
        _length(errors, (*op, "value"), option.get("value"), 1, text, needed=True)
        _length(errors, (*op, "description"), option.get("description"), 0, text, needed=False)
        value = option.get("value")
        if isinstance(value, str):
            if value in values:
                errors.add(
                    (*op, "value"),
                    err(
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select component option value must be unique",
                    ),
                )
            values.add(value)
        n_default += bool(option.get("default"))
    if bad_numbers:
        return
    # Discord reports "max_values above the option count" on the options list:
    # "options: Must be N or more in length." (N = max_values).
    if max_values > len(options):
        errors.add((*path, "options"), min_length(max_values))
    elif min_values > len(options):
        errors.add((*path, "options"), min_length(min_values))
    if n_default > max_values:
        errors.add(
            (*path, "options"),
            err("SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES", "Too many default values"),
        )


def _check_row(
    errors: FormErrors, ids: _CustomIds, path: Path, row: JSON, *, in_message: bool
) -> None:
    children = row.get("components")
    if not children:
        errors.add(
            (*path, "components"),
            required() if children is None else bad_length(1, Limits.ROW_WIDTH),
        )
        return
    if len(children) > Limits.ROW_WIDTH:
        errors.add((*path, "components"), bad_length(1, Limits.ROW_WIDTH))
        return
    has_select = any(c.get("type") in SELECT_TYPES for c in children)
    for i, child in enumerate(children):
        cp = (*path, "components", i)
        ctype = child.get("type")
        if has_select and len(children) > 1 and i > 0:
            errors.add(
                cp,
                err(
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                ),
            )
            continue
        if ctype == BUTTON:
            _check_button(errors, ids, cp, child)
        elif ctype in SELECT_TYPES:
            _check_select(errors, ids, cp, child)
        elif ctype == TEXT_INPUT and not in_message:
            _check_text_input(errors, ids, cp, child, legacy=True)
        else:
            allowed = (2, 3, 5, 6, 7, 8) if in_message else (4,)
            errors.add((*cp, "type"), choices(allowed))


def _walk_v2(errors: FormErrors, ids: _CustomIds, path: Path, comp: JSON, count: list[int]) -> None:
    """Components V2: check the interactive pieces and count everything (40 max)."""
    count[0] += 1
    ctype = comp.get("type")
    if ctype == ACTION_ROW:
        _check_row(errors, ids, path, comp, in_message=True)
        count[0] += len(comp.get("components") or [])
        return
    if ctype == BUTTON:
        _check_button(errors, ids, path, comp)
    if ctype in SELECT_TYPES:
        _check_select(errors, ids, path, comp)
    for key in ("components",):
        for i, child in enumerate(comp.get(key) or []):
            _walk_v2(errors, ids, (*path, key, i), child, count)
    accessory = comp.get("accessory")
    if isinstance(accessory, dict):
        _walk_v2(errors, ids, (*path, "accessory"), accessory, count)


def check_components(
    errors: FormErrors, components: Any, flags: int, path: Path = ("components",)
) -> None:
    """5 action rows (or 40 components with IS_COMPONENTS_V2), row width, unique custom_ids."""
    if components is None:
        return
    ids = _CustomIds(errors)
    if flags & IS_COMPONENTS_V2:
        count = [0]
        for i, comp in enumerate(components):
            _walk_v2(errors, ids, (*path, i), comp, count)
        if count[0] > Limits.V2_TOTAL_COMPONENTS:
            errors.add(path, max_length(Limits.V2_TOTAL_COMPONENTS))
        return
    if len(components) > Limits.ACTION_ROWS:
        errors.add(path, max_length(Limits.ACTION_ROWS))
        return
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            errors.add((*path, i, "type"), choices((1,)))
            continue
        _check_row(errors, ids, (*path, i), row, in_message=True)


# --------------------------------------------------------------------------- messages
def check_files(sizes: Sequence[int]) -> None:
    """10 MiB per file, 25 MiB per request: Discord answers 413/40005 before reading the form."""
    if any(size > Limits.FILE_SIZE for size in sizes) or sum(sizes) > Limits.REQUEST_SIZE:
        raise entity_too_large()


def check_message(
    payload: JSON, n_files: int, *, path: Path = (), final: JSON | None = None
) -> None:
    """Validate a message body (create, edit, interaction response or followup).

    ``final`` is the message as it would be after an edit; emptiness (50006) is
    judged on it, so an edit that only changes components is fine.
    """
    errors = FormErrors()
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(
                (*path, "content"),
                err("STRING_TYPE_CONVERT", "Could not interpret value as string."),
            )
        elif len(content) > Limits.CONTENT:
            errors.add((*path, "content"), max_length(Limits.CONTENT))
    check_embeds(errors, payload.get("embeds"), (*path, "embeds"))
    if final is not None:
        flags |= int(final.get("flags") or 0) & IS_COMPONENTS_V2
    check_components(errors, payload.get("components"), flags, (*path, "components"))
    if flags & IS_COMPONENTS_V2:
        for key in ("content", "embeds"):
            if payload.get(key):
                errors.add(
                    (*path, key),
                    err(
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        "The 'content' and 'embeds' fields cannot be used when using "
                        "MessageFlags.IS_COMPONENTS_V2",
                    ),
                )
    attachments = payload.get("attachments") or []
    if n_files > Limits.FILES_PER_MESSAGE or len(attachments) > Limits.FILES_PER_MESSAGE:
        errors.add((*path, "attachments"), max_length(Limits.FILES_PER_MESSAGE))
    errors.raise_if_any()
    body = final if final is not None else payload
    has_files = n_files > 0 or bool(body.get("attachments"))
    has_v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2 and body.get("components"))
    if not (
        body.get("content")
        or body.get("embeds")
        or has_files
        or has_v2
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        raise empty_message()


# --------------------------------------------------------------------------- modals
def _check_text_input(
    errors: FormErrors, ids: _CustomIds, path: Path, comp: JSON, *, legacy: bool
) -> None:
    ids.check((*path, "custom_id"), comp.get("custom_id"))
    if comp.get("style") not in (1, 2):
        errors.add((*path, "style"), choices((1, 2)))
    if legacy or "label" in comp:
        _length(
            errors, (*path, "label"), comp.get("label"), 1, Limits.TEXT_INPUT_LABEL, needed=legacy
        )
    n = Limits.TEXT_INPUT_LENGTH
    for key, lo in (("min_length", 0), ("max_length", 1)):
        value = comp.get(key)
        if value is not None and not (lo <= value <= n):
            errors.add((*path, key), number_min(lo) if value < lo else number_max(n))
    _length(errors, (*path, "value"), comp.get("value"), 0, n, needed=False)
    _length(
        errors,
        (*path, "placeholder"),
        comp.get("placeholder"),
        0,
        Limits.TEXT_INPUT_PLACEHOLDER,
        needed=False,
    )


def check_modal(errors: FormErrors, data: JSON, path: Path = ("data",)) -> None:
    """Modal: title 1–45, custom_id 1–100, 1–5 components (rows of one text input, or labels)."""
    ids = _CustomIds(errors)
    _length(errors, (*path, "title"), data.get("title"), 1, Limits.MODAL_TITLE, needed=True)
    _length(errors, (*path, "custom_id"), data.get("custom_id"), 1, Limits.CUSTOM_ID, needed=True)
    components = data.get("components")
    if not components or len(components) > Limits.MODAL_COMPONENTS:
        errors.add(
            (*path, "components"),
            required() if components is None else bad_length(1, Limits.MODAL_COMPONENTS),
        )
        return
    for i, comp in enumerate(components):
        cp = (*path, "components", i)
        ctype = comp.get("type")
        if ctype == ACTION_ROW:
            children = comp.get("components") or []
            if len(children) != 1:
                errors.add((*cp, "components"), bad_length(1, 1))
                continue
            if children[0].get("type") != TEXT_INPUT:
                errors.add((*cp, "components", 0, "type"), choices((4,)))
                continue
            _check_text_input(errors, ids, (*cp, "components", 0), children[0], legacy=True)
        elif ctype == LABEL:
            _length(
                errors, (*cp, "label"), comp.get("label"), 1, Limits.TEXT_INPUT_LABEL, needed=True
            )
            _length(errors, (*cp, "description"), comp.get("description"), 0, 100, needed=False)
            inner = comp.get("component") or {}
            itype = inner.get("type")
            if itype == TEXT_INPUT:
                _check_text_input(errors, ids, (*cp, "component"), inner, legacy=False)
            elif itype in SELECT_TYPES:
                _check_select(errors, ids, (*cp, "component"), inner)
            elif itype == FILE_UPLOAD:
                ids.check((*cp, "component", "custom_id"), inner.get("custom_id"))
            else:
                errors.add((*cp, "component", "type"), choices((3, 4, 5, 6, 7, 8, 19)))
        elif ctype != TEXT_DISPLAY:
            errors.add((*cp, "type"), choices((1, 10, 18)))


# --------------------------------------------------------------------------- autocomplete
def check_autocomplete(errors: FormErrors, data: JSON, path: Path = ("data",)) -> None:
    """Autocomplete results: at most 25 choices, names 1–100, string values up to 100."""
    items = data.get("choices")
    if items is None:
        errors.add((*path, "choices"), required())
        return
    if len(items) > Limits.AUTOCOMPLETE_CHOICES:
        errors.add((*path, "choices"), max_length(Limits.AUTOCOMPLETE_CHOICES))
        return
    for i, choice in enumerate(items):
        _check_choice(errors, (*path, "choices", i), choice)


def _check_choice(errors: FormErrors, path: Path, choice: JSON) -> None:
    text = Limits.COMMAND_CHOICE_TEXT
    _length(errors, (*path, "name"), choice.get("name"), 1, text, needed=True)
    value = choice.get("value")
    if isinstance(value, str):
        _length(errors, (*path, "value"), value, 1, text, needed=True)
    elif value is None:
        errors.add((*path, "value"), required())


# --------------------------------------------------------------------------- commands
def _valid_chat_name(name: str) -> bool:
    """Discord's ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where cased."""
    return (
        0 < len(name) <= Limits.COMMAND_NAME
        and all(ch.isalnum() or ch in "-_'" or _is_deva_or_thai(ch) for ch in name)
        and name == name.lower()
    )


def _is_deva_or_thai(ch: str) -> bool:
    return 0x0900 <= ord(ch) <= 0x097F or 0x0E00 <= ord(ch) <= 0x0E7F


def _check_name(errors: FormErrors, path: Path, name: Any, *, chat: bool) -> None:
    if not isinstance(name, str) or not name:
        errors.add(path, required())
    elif len(name) > Limits.COMMAND_NAME:
        errors.add(path, bad_length(1, Limits.COMMAND_NAME))
    elif chat and not _valid_chat_name(name):
        errors.add(path, err("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))


def _option_size(option: JSON) -> int:
    size = len(option.get("name") or "") + len(option.get("description") or "")
    for choice in option.get("choices") or []:
        size += len(choice.get("name") or "") + len(str(choice.get("value", "")))
    return size + sum(_option_size(o) for o in option.get("options") or [])


def command_size(command: JSON) -> int:
    """Characters Discord counts toward the 8000 per command: names, descriptions, choices."""
    size = len(command.get("name") or "") + len(command.get("description") or "")
    return size + sum(_option_size(o) for o in command.get("options") or [])


def _check_options(errors: FormErrors, path: Path, options: Any, depth: int) -> None:
    if options is None:
        return
    if len(options) > Limits.COMMAND_OPTIONS:
        errors.add(path, max_length(Limits.COMMAND_OPTIONS))
        return
    names: set[str] = set()
    seen_optional = False
    kinds = {o.get("type") in (1, 2) for o in options}
    for i, option in enumerate(options):
        op = (*path, i)
        otype = option.get("type")
        if otype not in range(1, 12):
            errors.add((*op, "type"), choices(tuple(range(1, 12))))
            continue
        _check_name(errors, (*op, "name"), option.get("name"), chat=True)
        name = option.get("name")
        if isinstance(name, str):
            if name in names:
                errors.add(
                    (*op, "name"),
                    err(
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        "Option names must be unique",
                    ),
                )
            names.add(name)
        _length(
            errors,
            (*op, "description"),
            option.get("description"),
            1,
            Limits.COMMAND_DESCRIPTION,
            needed=True,
        )
        if len(kinds) > 1:
            errors.add(
                (*op, "type"),
                err(
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands and options cannot be mixed",
                ),
            )
        if otype in (1, 2):
            if (otype == 2 and depth > 0) or (otype == 1 and depth > 1):
                errors.add(
                    (*op, "type"),
                    err(
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups can only contain sub-commands",
                    ),
                )
            if otype == 2 and any(o.get("type") != 1 for o in option.get("options") or []):
                errors.add(
                    (*op, "options"),
                    err(
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups can only contain sub-commands",
                    ),
                )
            _check_options(errors, (*op, "options"), option.get("options"), depth + 1)
            continue
        if option.get("options"):
            errors.add(
                (*op, "options"),
                err(
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Only sub-commands can have options"
                ),
            )
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*op, "required"),
                    err(
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    ),
                )
        else:
            seen_optional = True
        opt_choices = option.get("choices")
        if opt_choices is not None:
            if option.get("autocomplete"):
                errors.add(
                    (*op, "autocomplete"),
                    err(
                        "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
                        "Autocomplete cannot be used with choices",
                    ),
                )
            if len(opt_choices) > Limits.COMMAND_CHOICES:
                errors.add((*op, "choices"), max_length(Limits.COMMAND_CHOICES))
            else:
                for j, choice in enumerate(opt_choices):
                    _check_choice(errors, (*op, "choices", j), choice)


def check_command(errors: FormErrors, command: JSON, path: Path = ()) -> None:
    """One command: name pattern, description 1–100, 25 options, 25 choices, 8000 chars."""
    ctype = command.get("type", 1)
    chat = ctype == 1
    before = len(errors.tree)
    _check_name(errors, (*path, "name"), command.get("name"), chat=chat)
    if chat:
        _length(
            errors,
            (*path, "description"),
            command.get("description"),
            1,
            Limits.COMMAND_DESCRIPTION,
            needed=True,
        )
        _check_options(errors, (*path, "options"), command.get("options"), 0)
    if (
        len(errors.tree) == before
        and not _has(errors, path)
        and command_size(command) > (Limits.COMMAND_TOTAL_SIZE)
    ):
        errors.add(
            path,
            err(
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({Limits.COMMAND_TOTAL_SIZE})",
            ),
        )


def _has(errors: FormErrors, path: Path) -> bool:
    node: Any = errors.tree
    for key in path:
        node = node.get(str(key)) if isinstance(node, dict) else None
        if node is None:
            return False
    return bool(node)


def check_command_list(commands: Any) -> None:
    """A bulk overwrite: every command valid, unique (name, type), 100 chat + 5 + 5 context."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), err("LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"))
        errors.raise_if_any()
    counts = {1: 0, 2: 0, 3: 0}
    for command in commands:
        ctype = command.get("type", 1)
        counts[ctype] = counts.get(ctype, 0) + 1
    if counts[1] > Limits.CHAT_INPUT_COMMANDS:
        errors.add((), max_length(Limits.CHAT_INPUT_COMMANDS))
    elif counts[2] > Limits.CONTEXT_MENU_COMMANDS or counts[3] > Limits.CONTEXT_MENU_COMMANDS:
        errors.add((), max_length(Limits.CONTEXT_MENU_COMMANDS))
    errors.raise_if_any()
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        check_command(errors, command, (i,))
        key = (command.get("name"), command.get("type", 1))
        if key in seen:
            errors.add(
                (i, "name"),
                err(
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                ),
            )
        seen.add(key)
    errors.raise_if_any()
