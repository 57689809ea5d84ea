"""Chinese reads as Chinese: a number, a name, cards or a command sit tight against
the Chinese around them (第3局, 得20分, 剩5张, 轮到张三出牌, 用`/双升 开桌`开一桌), as
mainland card-game apps write them, never with a space on one side and none on the
other.

Every zh-CN message is read with ``fluent.syntax`` and written out once for each
choice of its selectors' variants, each placeable standing for whatever the code puts
there (a number, a name, cards: Latin or Chinese), and no space may then stand
between Chinese (a Han character, CJK or full-width punctuation, curly quotes) and
such a placeable, a digit, a Latin letter, a suit symbol or another Chinese
character. Spaces between Latin pieces stay (``7♥ 7♥``, ``{ $a } × 3 = { $b }``),
and so do those around a separator that is not Chinese (`` · ``, `` — ``, `` < ``)
or after an emoji (``⏰ 还剩``).
"""

from __future__ import annotations

import itertools
import re

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as fast

from .test_catalog import _messages

#: what a placeable is written as: the code's value, Latin or Chinese, unknown here
HOLE = "\ue000"
#: Han characters, CJK punctuation (、。「」), full-width forms (，：；（）！？), “ ”
CHINESE = "\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef\u201c\u201d"
#: what sits tight against Chinese: a placeable, digits, Latin, the multiplication
#: sign (抠底×2), suit symbols, a table's number sign (双升#3)
LATIN = f"{HOLE}0-9A-Za-z×♠♥♦♣#"
#: a space between Chinese and a Latin piece or more Chinese (a lookahead: 剩 { $n } 张
#: is found on both sides of its placeable)
SPACED = re.compile(f"(?=([{CHINESE}] +[{LATIN}{CHINESE}]|[{LATIN}] +[{CHINESE}]))")
#: an inline code span (a command, a setting, typed cards) is a Latin piece; the
#: spaces inside it are typed
CODE = re.compile(r"`[^`\n]*`")
#: a slash command outside code (an embed's footer shows no markdown): its words are
#: spaced as Discord wants them typed (``/双升 历史 局号:<数字>``)
COMMAND = re.compile(r"/双升(?: [^\s`]+)*")


def _renderings(pattern: fast.Pattern) -> list[str]:
    """The pattern once for each choice of its (nested) selectors' variants."""
    pieces: list[list[str]] = []
    for element in pattern.elements:
        if isinstance(element, fast.TextElement):
            pieces.append([element.value])
            continue
        expression = element.expression
        if isinstance(expression, fast.StringLiteral):  # {" "}, {""}, {"**"}
            pieces.append([expression.parse()["value"]])
        elif isinstance(expression, fast.SelectExpression):
            pieces.append([text for v in expression.variants for text in _renderings(v.value)])
        else:  # a variable, NUMBER(...), a message reference: the code's value
            pieces.append([HOLE])
    return ["".join(choice) for choice in itertools.product(*pieces)]


def spaced(source: str) -> list[str]:
    """The spaces a message's pattern puts against Chinese, shown in their context
    (``{}`` for a placeable); ``source`` is one message in Fluent syntax."""
    message = FluentParser(with_spans=False).parse_entry(source)
    assert isinstance(message, fast.Message), source
    return _spaced(message)


def _spaced(message: fast.Message) -> list[str]:
    patterns = [message.value] + [a.value for a in message.attributes]
    found: set[str] = set()
    for pattern in filter(None, patterns):
        for text in _renderings(pattern):
            text = COMMAND.sub(HOLE, CODE.sub(HOLE, text)).replace("**", "")
            found.update(m.group(1).replace(HOLE, "{}") for m in SPACED.finditer(text))
    return sorted(found)


# the check itself, on messages written for it: a message, the spaces it must find
CASES = [
    ("x = 第{ $hand }局 · 剩{ $n }张", []),
    ("x = 第 { $hand } 局", ["{} 局", "第 {}"]),
    ("x = 得{ NUMBER($loss) } 分", ["{} 分"]),
    ("x = 轮到 { $player }出牌", ["到 {}"]),
    ("x = 下家首出 7♥ 7♥。", ["出 7"]),
    ("x = 首出7♥ 7♥ 和{ $a } { $b }", ["♥ 和"]),  # 7♥ 7♥ and { $a } { $b } keep theirs
    ("x = { $penalty } × 3 = { $cost }分", []),
    ("x = 座位 0-3（0 与 2）", ["0 与", "与 2", "位 0"]),
    ("x = 用 `/双升 开桌` 开一桌。", ["{} 开", "用 {}"]),
    ("x = 用`/双升 开桌`开一桌。", []),
    ("x = 比赛 **{ $name }**已创建", ["赛 {}"]),
    ("x = **底牌已扣好。** 现在可以反主", ["。 现"]),
    ("x = 跟随 Discord", ["随 D"]),
    ("x = 双升 #{ $table } · { $host }", ["升 #"]),
    ("x = 逐轮查看一局：/双升 历史 局号:<数字>", []),
    ("x = ⏰ 还剩{ $seconds }秒 — { $plays }", []),
    ('x = 反主：{" "}', []),  # an input prompt's trailing space: nothing after it
    ('x = 一对大王{ $decks ->\n    [3] {" "}< 三张级牌\n   *[other] {""}\n}', []),
    ("x = 你方{ $n ->\n    [one] 剩 { $n } 张\n   *[other] 升{ $n }级\n}", ["{} 张", "剩 {}"]),
    ("x = { $n ->\n    [one] 一对\n   *[other] { $n }对\n} { $suit }", ["对 {}"]),
]


@pytest.mark.parametrize(("source", "found"), CASES, ids=[c[0][4:] for c in CASES])
def test_the_check_finds_spaces_against_chinese(source: str, found: list[str]) -> None:
    assert spaced(source) == sorted(found)


def test_no_zh_message_spaces_numbers_names_or_cards_from_chinese() -> None:
    offenders = {
        key: found
        for key, (_, message) in _messages("zh-CN").items()
        if (found := _spaced(message))
    }
    assert offenders == {}
