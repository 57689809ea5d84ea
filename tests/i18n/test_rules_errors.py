"""Every error and reason of the rules library renders in both languages."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.game.match import Match
from bot.i18n import LOCALES
from bot.i18n.rules import explain
from bot.rules import (
    Reason,
    RulesError,
    RuleSet,
    Trump,
    check_bid,
    check_follow,
    decompose,
    obligation,
    parse_cards,
    read_bid,
    remove_cards,
)
from bot.rules.bidding import Bid

ROOT = Path(__file__).resolve().parents[2]
H = Trump("2", "S")
JOKER = RuleSet(bidding="joker")


def _cards(text: str) -> list:
    return parse_cards(text)


CASES: list[Callable[[], object]] = [
    lambda: check_follow(_cards("7H 7H 8H 3S"), _cards("QH QH"), _cards("8H 7H"), H),
    lambda: check_follow(_cards("7H 3S 4S"), _cards("QH QH"), _cards("3S 4S"), H),
    lambda: check_follow(_cards("7H 7H 3S"), _cards("QH"), _cards("7H 7H"), H),
    lambda: check_follow(_cards("7H 3S"), _cards("QH"), _cards("8H"), H),
    lambda: check_follow(_cards("7H 3S"), _cards("QH QH"), _cards("7H 7H"), H),
    lambda: check_follow(
        _cards("7H 7H 8H 8H 9H 3S"), _cards("QH QH KH KH"), _cards("7H 7H 9H 3S"), H
    ),
    lambda: decompose([], H),
    lambda: decompose(_cards("AH KC"), H),
    lambda: parse_cards("ZZ"),
    lambda: remove_cards(_cards("AH"), _cards("KH")),
    lambda: Trump("X", None),
    lambda: Trump("2", "Q"),
    lambda: read_bid([], "2"),
    lambda: read_bid(_cards("3H"), "2"),
    lambda: read_bid(_cards("2H 2S"), "2"),
    lambda: read_bid(_cards("2H 2H"), "2", JOKER),
    lambda: read_bid(_cards("SJ 2H"), "2", JOKER),
    lambda: read_bid(_cards("BJ 2H"), "2"),
    lambda: read_bid(_cards("BJ SJ"), "2"),
    lambda: check_bid(1, _cards("2H"), "2", Bid(0, tuple(_cards("2S 2S")), "S", 2)),
    lambda: check_bid(0, _cards("SJ 2S 2S"), "2", Bid(0, tuple(_cards("BJ 2H")), "H", 1), JOKER),
    lambda: check_bid(1, _cards("2S 2S"), "2", Bid(0, tuple(_cards("2S")), "S", 1)),
]


def _error(case: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as info:
        case()
    return info.value


@pytest.mark.parametrize("case", range(len(CASES)))
def test_rules_errors_render_in_both_languages_and_english_matches_str(case: int) -> None:
    error = _error(CASES[case])
    assert explain("en-US", error) == str(error)
    chinese = explain("zh-CN", error)
    assert chinese != str(error)
    assert not re.search(r"[a-z]{2,}", chinese), chinese


def test_the_issue_example_reads_as_players_say_it() -> None:
    error = _error(CASES[0])
    assert explain("zh-CN", error) == "你必须跟红桃对子：你还有7♥7♥。"
    assert str(error) == "You must play a pair of hearts: you hold 7♥7♥."


@pytest.mark.parametrize(
    ("hand", "lead", "play", "chinese"),
    [
        # the suit, then its shape, as a player says it (红桃对子, 红桃拖拉机); exact in both
        (
            "7H 7H 8H 8H 9H 3S",
            "QH QH KH KH",
            "7H 8H 9H 8H",
            "你必须跟红桃拖拉机：你还有8♥8♥7♥7♥。",
        ),
        (
            "7H 7H 9H 9H 3H 3S",
            "QH QH KH KH",
            "7H 7H 9H 3H",
            "你必须跟红桃两对：你还有9♥9♥和7♥7♥。",
        ),
        (
            "2S 2S 3S 3S BJ 4H",
            "AS AS KS KS",
            "2S 3S 2S BJ",
            "你必须跟主牌两对：你还有2♠2♠和3♠3♠。",
        ),
    ],
)
def test_a_follow_names_the_shape_and_its_suit(
    hand: str, lead: str, play: str, chinese: str
) -> None:
    error = _error(lambda: check_follow(_cards(hand), _cards(lead), _cards(play), H))
    assert explain("zh-CN", error) == chinese


def test_every_raise_in_the_rules_and_game_carries_a_key() -> None:
    """A new error without a key would reach Chinese players in English."""
    for folder in ("bot/rules", "bot/game"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                call = node.exc if isinstance(node, ast.Raise) else None
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                    continue
                if call.func.id in {"IllegalPlay", "IllegalBid", "NotationError", "GameError"}:
                    assert any(k.arg == "key" for k in call.keywords), f"{path}:{node.lineno}"


@pytest.mark.parametrize("locale", LOCALES)
def test_obligations_render(locale: str) -> None:
    hand = _cards("7H 7H 8H 8H 9H 3S")
    reasons = [
        obligation(hand, _cards("QH QH KH KH"), H),
        obligation(hand, _cards("QH QH"), H),
        obligation(_cards("7H 3S 4S"), _cards("QH QH"), H),
        obligation(_cards("7H 3S 4S"), _cards("QH"), H),
        obligation(hand, _cards("QH"), H),
    ]
    for reason in reasons:
        assert isinstance(reason, Reason)
        text = explain(locale, reason)
        if locale == "en-US":
            assert text == str(reason)
    assert explain("zh-CN", reasons[0]) == "你必须出4张红桃，其中包括拖拉机"


@pytest.mark.parametrize(
    ("hand", "lead", "english", "chinese"),
    [
        # one card led, several of its suit held: not "1 hearts" (plurals by the catalog)
        ("7H 8H 3S", "QH", "you must play one of your hearts", "你必须出1张红桃"),
        ("7H 8H 9H 3S", "QH KH", "you must play 2 hearts", "你必须出2张红桃"),
        ("2S 2S 3S BJ 4H", "5S", "you must play one of your trumps", "你必须出1张主牌"),
    ],
)
def test_a_duty_counts_its_cards_as_players_say_it(
    hand: str, lead: str, english: str, chinese: str
) -> None:
    reason = obligation(_cards(hand), _cards(lead), H)
    assert isinstance(reason, Reason)
    assert (explain("en-US", reason), explain("zh-CN", reason)) == (english, chinese)
    assert str(reason) == english


@pytest.mark.parametrize(
    ("case", "chinese"),
    [
        # a joker bid of the wrong colour names the joker it needs, not its code (BJ)
        (lambda: read_bid(_cards("SJ 2H"), "2", JOKER), "亮红桃要配大王。"),
        (lambda: read_bid(_cards("BJ 2S"), "2", JOKER), "亮黑桃要配小王。"),
        (
            lambda: check_follow(_cards("7H 8H 3S"), _cards("QH QH"), _cards("7H"), H),
            "首家出了2张，你也必须出2张。",
        ),
        (
            lambda: check_follow(_cards("7H 3S"), _cards("QH"), _cards("3S"), H),
            "首家出的是红桃，你有红桃就必须跟（你还有7♥）。",
        ),
        (
            lambda: check_bid(1, _cards("2H"), "2", Bid(0, tuple(_cards("2S 2S")), "S", 2)),
            "2♥（红桃）压不过当前的2♠2♠（黑桃）：只有更强的亮主才能反主。",
        ),
    ],
)
def test_refusals_read_as_players_say_them(case: Callable[[], object], chinese: str) -> None:
    assert explain("zh-CN", _error(case)) == chinese


def test_a_wrong_joker_keeps_its_english_name() -> None:
    error = _error(lambda: read_bid(_cards("SJ 2H"), "2", JOKER))
    assert explain("en-US", error) == str(error) == "Bid hearts with the BJ."


@pytest.mark.parametrize(
    ("hand", "lead", "chinese"),
    [
        # one card of the suit left: no "all", and the rest is discarded (垫)
        ("7H 3S 4S", "QH QH", "你必须先出剩下的红桃（7♥），再垫1张别的牌"),
        ("7H 8H 3S", "QH KH", "你必须出剩下的红桃（8♥7♥）"),
    ],
)
def test_a_short_suit_duty_says_discard(hand: str, lead: str, chinese: str) -> None:
    reason = obligation(_cards(hand), _cards(lead), H)
    assert isinstance(reason, Reason)
    assert explain("zh-CN", reason) == chinese


@pytest.mark.parametrize("locale", LOCALES)
def test_match_errors_render(locale: str) -> None:
    match = Match.new(1, RuleSet())
    for seat in range(4):
        with pytest.raises(RulesError) as info:
            match.apply(seat, object())  # type: ignore[arg-type]
        assert explain(locale, info.value)


def test_every_refusal_of_the_table_service_carries_a_key() -> None:
    """The service's UserErrors reach players in their language, so each names its message."""
    paths = sorted((ROOT / "bot" / "service").glob("*.py"))
    assert paths
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "UserError":
                keys = {k.arg for k in call.keywords}
                assert keys & {"key", "reason"}, f"{path}:{node.lineno}"
