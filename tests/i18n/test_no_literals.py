"""No user-facing sentence is written in the Discord layer's code: they all come from
the catalogs, so that both languages stay complete.

An AST scan of ``cogs/`` (and the service and tournament refusals): a string
literal that reaches what Discord shows (message content, embeds and their
fields, buttons, menus, replies, refusals) and holds a word, Latin or Chinese,
fails the test. Only literals written in the call itself count (also inside
f-strings, ``+`` and ``x if c else y``); what a call of another function returns
(``t(loc, "key")``) is that function's business. ``ALLOWED`` lists the few
literals that are not language: card notation, ids, emoji.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("cogs", "app")
#: calls whose arguments a person reads: Discord's sends and edits, embeds,
#: components, and the project's own reply helpers
SHOWN = {
    "send",
    "send_message",
    "edit",
    "edit_message",
    "edit_original_response",
    "reply",
    "ok",
    "ephemeral",
    "Embed",
    "add_field",
    "set_field_at",
    "set_footer",
    "set_author",
    "Button",
    "Select",
    "UserSelect",
    "SelectOption",
    "TextInput",
    "Modal",
    "UserError",
}
#: keyword arguments that are never read as text
NOT_TEXT = {"custom_id", "url", "file", "files", "view", "style", "colour", "color", "key"}
WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
KEY = re.compile(r"[a-z]+(?:-[a-z0-9_]+)+")  # a catalog key, as the reply helpers take
#: literals that are no language: markdown, mentions, separators, emoji
ALLOWED: set[str] = set()
#: refusals below the Discord layer: each ``UserError`` there names its catalog key
KEYED = ("bot/service", "bot/tournament")


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _literals(node: ast.AST) -> list[ast.Constant]:
    """String literals written in ``node`` itself (not inside another call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.FormattedValue):
        return _literals(node.value)
    if isinstance(node, ast.BinOp):
        return _literals(node.left) + _literals(node.right)
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [lit for value in node.values for lit in _literals(value)]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [lit for element in node.elts for lit in _literals(element)]
    if isinstance(node, ast.Dict):
        return [lit for value in node.values if value is not None for lit in _literals(value)]
    if isinstance(node, ast.Starred):
        return _literals(node.value)
    return []


def shown_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of each worded literal passed to something Discord shows."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _name(node) not in SHOWN or _keyed(node):
            continue
        args = list(node.args) + [k.value for k in node.keywords if k.arg not in NOT_TEXT]
        for arg in args:
            for literal in _literals(arg):
                text = literal.value
                if WORD.search(text) and not KEY.fullmatch(text) and text not in ALLOWED:
                    found.append((literal.lineno, text))
    return sorted(found, key=lambda item: item[0])  # stable: in a line, as written


def _keyed(call: ast.Call) -> bool:
    """A refusal naming its catalog key (its text is only the English fallback)."""
    return _name(call) == "UserError" and bool({k.arg for k in call.keywords} & {"key", "reason"})


def unkeyed_refusals(source: str) -> list[int]:
    """Lines of ``UserError(...)`` without a catalog key (a rules error carries its own)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node) == "UserError" and not _keyed(node):
            lines.append(node.lineno)
    return lines


def test_the_discord_layer_writes_no_sentence_of_its_own() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, text in shown_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "put these in data/locales/*/<area>.ftl:\n" + "\n".join(found)


def test_every_refusal_names_its_catalog_key() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in (*SCANNED, *KEYED)
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in unkeyed_refusals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "UserError without key= (the player would read English):\n" + "\n".join(found)


def test_the_scan_finds_what_it_should() -> None:
    """The scan itself: each way a sentence could sneak back is caught."""
    source = """
async def f(interaction, loc, name, ok_):
    await interaction.response.send_message("You joined.", ephemeral=True)
    await channel.send(content=f"Seat {n} is yours")
    embed = discord.Embed(title="Stats", description=t(loc, "records-stats"))
    embed.add_field(name="Hands" if ok_ else "局数", value=str(n))
    discord.ui.Button(label="Join", custom_id="sj:l:1:join")
    await reply(interaction, "Try " + name)
    raise UserError("No table here.")
    await interaction.response.send_message(t(loc, "reply-played", cards="AH"))
    embed.set_footer(text=f"{a} · {b}")
"""
    texts = [text for _, text in shown_literals(source)]
    assert texts == [
        "You joined.",
        "Seat ",
        " is yours",
        "Stats",
        "Hands",
        "局数",
        "Join",
        "Try ",
        "No table here.",
    ]
    assert unkeyed_refusals(source) == [9]
