"""The offline CLI: play through stdin, simulate --json, arena, and the bare command.

The hint and review refusals are checked at every spot in both languages with ``-m
slow``; the default run reads each spot in one language, in turn.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli import TerminalGame, parse_rules
from bot.cli.common import language
from bot.game import Match
from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]


def run_bot(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8", "DISCORD_TOKEN": ""}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """``python -m bot ARGS`` in this process (``main``), stdin from a string.

    Cheaper than a process each; ``run_bot`` keeps the real process for the entry
    point itself and for piped input.
    """

    def run(*args: str, stdin: str = "") -> Ran:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main(list(args))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


def test_play_through_stdin() -> None:
    """Bad input gets a reason and a new prompt; hint works; the computer can take over."""
    script = "ZZ\nhint\n" + "auto\n" * 80
    done = run_bot("play", "--seed", "5", "--hands", "1", "--ascii", stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Not allowed:" in out and "is not a card" in out
    assert "Hint:" in out
    assert "Hand 1 over" in out
    assert "Attackers' points:" in out
    assert "♠" not in out and "大王" not in out  # --ascii


def test_play_hands_over_and_stops_at_end_of_input(cli: Callable[..., Ran]) -> None:
    # 'auto all' at the first prompt (a bid) hands the seat over, in either language
    done = cli("play", "--seed", "9", "--decks", "1", stdin="auto all\n")
    assert done.returncode == 0, done.stderr
    assert "The computer plays your seat from now on (托管)." in done.stdout
    assert "You (auto) played" in done.stdout and "not a card" not in done.stdout
    assert done.stdout.rstrip().endswith("Bye.") or "win the match" in done.stdout
    zh = cli("play", "--seed", "9", "--decks", "1", "--lang", "zh", stdin="auto all\n")
    assert zh.returncode == 0, zh.stderr
    assert "从现在起电脑替你出牌（托管）。" in zh.stdout and "你（托管）出了" in zh.stdout


def test_play_in_process_with_hints_and_typed_cards() -> None:
    """A scripted person who types the hinted cards, after trying an illegal play."""
    out: list[str] = []
    tried_illegal = False

    def write(text: str) -> None:
        out.append(text)

    def read(prompt: str) -> str:
        nonlocal tried_illegal
        out.append(prompt)
        if prompt.startswith("Bid"):
            return ""
        if prompt.startswith("Press Enter"):
            return "quit"
        last = out[-2] if len(out) > 1 else ""
        if last.startswith("Hint: "):
            return last.split("(type: ")[1].rstrip(")")
        if prompt.startswith("Your play") and not tried_illegal:
            tried_illegal = True
            return "BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ BJ"
        return "hint"

    game = TerminalGame(Match.new(12), 0, "greedy", read, write, symbols=True)
    assert game.run(hands=1) == 0
    text = "\n".join(out)
    assert "Not allowed:" in text
    assert "You played" in text
    assert "Hand 1 over" in text


def test_simulate_records_hands_in_a_database(tmp_path: Path, cli: Callable[..., Ran]) -> None:
    """Issue 5: ``simulate --db`` writes its hands with the bot's own store code."""
    db = tmp_path / "sim.sqlite3"
    done = cli(
        "simulate",
        "--hands",
        "5",
        "--seed",
        "4",
        "--players",
        "random,random,random,random",
        "--db",
        str(db),
    )
    assert done.returncode == 0, done.stderr
    assert f"recorded 5 hands in {db}" in done.stdout

    async def read() -> tuple[list, object]:
        store = await Store.open(db)
        try:
            rows = await store.leaderboard(0, "hands")
            stats = await store.player_stats(0, 1)
            hands = [
                h
                for m in await store.recent_matches(0)
                for h in await store.hands_of_table(m.table_id)
            ]
            return rows, stats, hands
        finally:
            await store.close()

    rows, stats, hands = asyncio.run(read())
    assert [r.hands for r in rows] == [5, 5, 5, 5]
    assert stats is not None and stats.hands == 5
    assert len(hands) == 5


def test_simulate_json_shape(cli: Callable[..., Ran]) -> None:
    done = cli(
        "simulate", "--hands", "6", "--seed", "3", "--players", "ai,greedy,ai,random", "--json"
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for key in ("hands", "seconds", "hands_per_second", "play_phase_hands_per_second", "teams"):
        assert key in report
    assert report["hands"] == 6
    assert len(report["teams"]) == 2
    team = report["teams"][0]
    for key in ("attacking_points", "levels_gained", "hands_dealing", "matches_won"):
        assert key in team
    assert sum(t["hands_dealing"] for t in report["teams"]) == 6


def test_arena_output(cli: Callable[..., Ran]) -> None:
    done = cli("arena", "--deals", "3", "--seed", "2", "ai", "ai")
    assert done.returncode == 0, done.stderr
    assert "point difference per hand (A - B): +0.00" in done.stdout
    assert "95% CI" in done.stdout and "level difference" in done.stdout
    # the suite runs the source: the figures of a time-boxed expert depend on it
    assert "computer players from source (python3 -m bot build" in done.stdout
    helped = cli("arena", "--help")
    assert "Duplicate deals" in helped.stdout and "minus B's attacking points" in helped.stdout


def test_arena_says_when_the_computer_players_ran_compiled(
    cli: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.compiled.active", lambda: True)
    done = cli("arena", "--deals", "1", "--seed", "2", "ai", "ai")
    assert done.returncode == 0, done.stderr
    assert "computer players compiled" in done.stdout and "from source" not in done.stdout


def test_bare_command_without_a_token_explains_and_points_to_play() -> None:
    done = run_bot()
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr
    assert "python -m bot play" in done.stderr


def test_rules_from_the_command_line() -> None:
    rules = parse_rules(3, ["kitty_multiplier=flat", "fixed_two_trump=true", "points_cap=200"])
    assert rules.decks == 3 and rules.fixed_two_trump and rules.points_cap == 200


def test_a_bad_rule_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--hands", "1", "--rule", "decks=banana"])
    assert exit_.value.code == 2
    assert "decks takes a whole number, not 'banana'" in capsys.readouterr().err


def test_levels_by_name_and_a_typo_in_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "1", "--players", "easy,normal,easy,random"]) == 0
    assert "easy/easy" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--hands", "1", "--players", "easy,normal,godlike,normal"])
    assert "unknown player 'godlike'" in str(exit_.value.code)


@pytest.mark.parametrize("lang", ["fr", "klingon", "", "中文x"])
def test_a_language_the_catalogs_lack_is_a_usage_error(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a hand played in English as if the option had worked."""
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--watch", "--seed", "3", "--lang", lang])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert f"no language {lang!r}: use en or zh (the catalogs: en-US, zh-CN)" in captured.err
    assert captured.out == ""


@pytest.mark.parametrize(
    ("lang", "locale"),
    [("zh", "zh-CN"), ("zh-CN", "zh-CN"), ("zh_CN", "zh-CN"), ("en", "en-US"), ("en-GB", "en-US")],
)
def test_the_languages_play_takes(lang: str, locale: str) -> None:
    assert language(lang) == locale


def test_watch_a_hand_in_chinese_and_in_english(cli: Callable[..., Ran]) -> None:
    """``play --watch``: four computer players, one whole hand, every line from the catalog."""
    chinese = cli("play", "--watch", "--lang", "zh", "--seed", "3")
    assert chinese.returncode == 0, chinese.stderr
    out = chinese.stdout
    assert "第1局结束" in out and "你的牌：" in out and "你必须出" in out and "第1轮" in out
    assert "东家亮2♠（黑桃）。\n东家自保：2♠ 2♠（黑桃）。" in out  # the bids as players name them
    assert re.findall(r"[A-Za-z]{2,}", out) == []  # no English word: cards are 10♥, 大王
    assert "\n→ " in out and "->" not in out  # a trick won, the result: Chinese arrows
    english = cli("play", "--watch", "--seed", "3")
    assert english.returncode == 0, english.stderr
    assert "Hand 1 over" in english.stdout and "you must play" in english.stdout
    assert "East bid 2♠ (spades).\nEast reinforced with 2♠ 2♠ (spades)." in english.stdout
    assert len(english.stdout.splitlines()) == len(out.splitlines())
    # East deals: a trick's points are the attackers' when South or North won it, else kept
    assert "Dealer: East; your team attacks." in english.stdout
    won = re.findall(r"^-> (.+?) won trick (\d+)(?:, (.+?))?; attackers", english.stdout, re.M)
    sides = {" ".join(side.split()[-3:]) for who, _, side in won}
    assert sides == {"", "for the attackers", "from the attackers"}, sides
    for who, trick, side in won:
        dealers = who in ("East", "West")
        if side:
            assert side.endswith("from the attackers" if dealers else "for the attackers"), trick
    # seats count from 1: East's chair is seat 2, and its bid is then the watcher's own
    east = cli("play", "--watch", "--seed", "3", "--seat", "2")
    assert "you watch from seat 2 (South)" in east.stdout
    assert "\nYou (auto) bid 2♠ (spades).\n" in east.stdout


def test_play_the_overcall_round_after_the_bury() -> None:
    """000:43: with overcall=after_bury the person is asked once, after the kitty."""
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        if prompt.startswith("Bid") or prompt.startswith("Overcall"):
            return ""
        if prompt.startswith("Press Enter"):
            return "quit"
        return "auto"

    rules = parse_rules(2, ["overcall=after_bury"])
    match = Match.new(7, rules, first_dealer=1)
    game = TerminalGame(match, 0, "greedy", read, out.append, symbols=True)
    assert game.run(hands=1) == 0
    text = "\n".join(out)
    assert "each player may overcall once" in text
    assert "Overcall (number or cards, Enter to pass): " in out or "You passed." in text
    assert "Hand 1 over" in text


def test_hint_and_auto_at_the_overcall_prompt() -> None:
    """The overcall round takes the commands every other prompt takes."""
    out: list[str] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        if prompt.startswith("Overcall"):
            asked.append(prompt)
            return ("hint", "auto")[len(asked) - 1] if len(asked) <= 2 else ""
        if prompt.startswith("Bid"):
            return ""
        if prompt.startswith("Press Enter"):
            return "quit"
        return "auto"

    rules = parse_rules(2, ["overcall=after_bury"])
    match = Match.new(1, rules, first_dealer=1)  # seat 0 may overcall in this deal
    game = TerminalGame(match, 0, "greedy", read, out.append, symbols=True)
    assert game.run(hands=1) == 0
    text = "\n".join(out)
    assert len(asked) == 2  # asked again after the hint, not after the computer's choice
    assert "Hint: pass for now." in text or "Hint: bid " in text
    assert "Not allowed" not in text and "Hand 1 over" in text


def test_the_commands_in_chinese() -> None:
    """帮助, 提示, 托管, 复盘 and 退出 do what help, hint, auto all, review and quit do."""
    out: list[str] = []
    script = iter(["帮助", "提示", "托管"])  # at the first prompts: then the computer plays
    after = iter(["复盘", "退出"])  # at the prompt after the hand

    def read(prompt: str) -> str:
        out.append(prompt)
        # past the script: English commands (never asked once 托管 works; a bound without it)
        if prompt.startswith("按回车开始下一局"):
            return next(after, "quit")
        return next(script, "auto all")

    match = Match.new(3, parse_rules(1, []))
    game = TerminalGame(match, 0, "greedy", read, out.append, symbols=True, locale="zh")
    assert game.run(hands=2) == 0
    text = "\n".join(out)
    assert "“提示”给出建议" in text and "\n提示：" in text  # the help, then a hint
    assert "从现在起电脑替你出牌（托管）。" in text and "你（托管）出了" in text
    assert "正在复盘你的出牌" in text  # the review, asked after the hand
    assert out[-1] == "再见。" and match.hand_no == 0  # quit before the second hand


@pytest.mark.parametrize(
    ("stdin", "lang", "buried", "kitty"),
    [
        ("1\nauto\nauto all\n", "en", r"You \(auto\) buried ", "Kitty: "),  # auto at the prompt
        ("auto all\n", "en", r"You \(auto\) buried ", "Kitty: "),  # 托管 from the first bid
        ("1\nauto\nauto all\n", "zh", "你（托管）扣了", "底牌："),
        ("auto all\n", "zh", "你（托管）扣了", "底牌："),
        ("1\n3C 3H 4D 6H 8D 9D\nauto all\n", "en", "You buried ", "Kitty: "),  # typed
        ("1\n代出\n托管\n", "zh", "你（托管）扣了", "底牌："),  # the commands in Chinese
    ],
    ids=["auto-en", "autopilot-en", "auto-zh", "autopilot-zh", "typed-en", "words-zh"],
)
def test_the_dealer_is_told_what_the_computer_buried_for_them(
    cli: Callable[..., Ran], stdin: str, lang: str, buried: str, kitty: str
) -> None:
    """Issue: ``auto`` (and 托管) at the kitty says which cards went under, at once."""
    done = cli("play", "--seed", "3", "--decks", "1", "--hands", "1", "--lang", lang, stdin=stdin)
    assert done.returncode == 0, done.stderr
    told = re.search(rf"{buried}(.+?)[。.]$", done.stdout, re.M)
    shown = re.search(rf"^{kitty}(.+?) ?[（(]", done.stdout, re.M)  # the hand's end
    assert told is not None and shown is not None, done.stdout
    assert told.group(1) == shown.group(1) and len(told.group(1).split()) == 6
    assert told.start() < shown.start()


# what each language says: the refusal, a hint's start, and the prompt asked at each spot
SAYS = {
    "en": ("Hints and suggestions are off at this table (no assistance).", "Hint: "),
    "zh": ("本桌不提供提示和建议（不许提示）。", "提示："),
}
PROMPTS = {  # the script that types hint at that prompt, and the prompt in either language
    "bid": ("hint\n1\nauto all\n", "Bid (", "亮主（"),
    "bury": ("1\nhint\nauto all\n", "Bury 6 cards: ", "扣6张底牌："),
    "play": ("1\nauto\nhint\nauto all\n", "Your play: ", "你出："),
}


def each_in_one_language(wheres: list[str], langs: list[str]) -> list[object]:
    """(assistance, where, lang) for every spot with and without assistance in every
    language: the default run takes one language a pair, in turn (each assistance and
    each spot are read in both), the others run with ``-m slow``."""
    return [
        pytest.param(
            assistance,
            where,
            lang,
            id=f"{assistance}-{where}-{lang}",
            marks=() if lang == langs[(i + j) % len(langs)] else pytest.mark.slow,
        )
        for i, assistance in enumerate(["none", "full"])
        for j, where in enumerate(wheres)
        for lang in langs
    ]


@pytest.mark.parametrize(
    ("assistance", "where", "lang"), each_in_one_language(list(PROMPTS), list(SAYS))
)
def test_hint_is_refused_without_assistance(
    cli: Callable[..., Ran], assistance: str, where: str, lang: str
) -> None:
    """Seed 000's 不许提示: ``hint`` answers with the table's refusal and changes nothing."""
    script, english, chinese = PROMPTS[where]
    refusal, hint = SAYS[lang]
    args = ("play", "--seed", "3", "--decks", "1", "--hands", "1", "--lang", lang)
    args += ("--rule", f"assistance={assistance}")
    asked = cli(*args, stdin=script)
    plain = cli(*args, stdin=script.replace("hint\n", ""))
    assert asked.returncode == plain.returncode == 0, asked.stderr
    answer = re.search(rf"({re.escape(hint)}.+|{re.escape(refusal)})\n", asked.stdout)
    assert answer is not None, asked.stdout
    if assistance == "none":
        assert answer.group(1) == refusal and hint not in asked.stdout
    else:
        assert answer.group(1).startswith(hint) and refusal not in asked.stdout
    # answered at the prompt, which is asked again: the same game as without the hint
    prompt = asked.stdout[: answer.start()].rsplit("\n", 1)[1]
    assert prompt.startswith(english if lang == "en" else chinese)
    assert asked.stdout.replace(answer.group(0) + prompt, "", 1) == plain.stdout


# the refusal of a review in each language, and what a table with assistance says instead
# (mid-hand: later; after the hand: it starts reviewing)
REVIEW_OFF = {
    "en": "Reviews are off at that table: its rules allow no assistance.",
    "zh": "该桌不能复盘：规则不允许任何辅助。",
}
REVIEW_SPOTS = {  # the script that types review there, the hands played, and the full answer
    "mid-hand": ("review\n1\nauto all\n", "1", ("The review is available", "本局结束后才能复盘")),
    "after the hand": ("auto all\nreview\n", "2", ("Reviewing your plays", "正在复盘")),
}


@pytest.mark.parametrize(
    ("assistance", "where", "lang"), each_in_one_language(list(REVIEW_SPOTS), list(REVIEW_OFF))
)
def test_review_is_refused_without_assistance(
    cli: Callable[..., Ran], assistance: str, where: str, lang: str
) -> None:
    """Seed 000's 不许查牌: ``review`` answers with the Discord bot's refusal, nothing else."""
    script, hands, full = REVIEW_SPOTS[where]
    args = ("play", "--seed", "3", "--decks", "1", "--hands", hands, "--lang", lang)
    args += ("--rule", f"assistance={assistance}")
    asked = cli(*args, stdin=script)
    assert asked.returncode == 0, asked.stderr
    refused = REVIEW_OFF[lang] + "\n"
    if assistance == "full":
        assert refused not in asked.stdout
        assert full[0 if lang == "en" else 1] in asked.stdout
        return
    plain = cli(*args, stdin=script.replace("review\n", ""))
    assert refused in asked.stdout, asked.stdout
    prompt = asked.stdout[: asked.stdout.index(refused)].rsplit("\n", 1)[1]
    assert asked.stdout.replace(refused + prompt, "", 1) == plain.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("assistance", ["none", "full"])
def test_help_offers_no_hint_or_review_without_assistance(
    cli: Callable[..., Ran], assistance: str, lang: str
) -> None:
    """The commands listed at the start and at ``help`` are the ones this table allows."""
    args = ("play", "--seed", "3", "--decks", "1", "--hands", "1", "--lang", lang)
    done = cli(*args, "--rule", f"assistance={assistance}", stdin="help\nauto all\n")
    assert done.returncode == 0, done.stderr
    auto, hint, review = (
        ("'auto all'", "'hint'", "'review'") if lang == "en" else ("“托管”", "“提示”", "“复盘”")
    )
    helps = [line for line in done.stdout.splitlines() if auto in line]
    assert len(helps) == 2  # at the start and at the prompt
    for line in helps:
        offered = hint in line, review in line
        assert offered == ((False, False) if assistance == "none" else (True, True)), line


@pytest.mark.parametrize(
    ("a", "b", "source", "pure", "fresh", "build"),
    [
        ("expert", "ai", False, False, False, True),  # the command: compiled first
        ("normal", "expert", False, False, False, True),  # an expert on either side
        ("expert", "ai", True, False, False, False),  # --source
        ("expert", "ai", False, True, False, False),  # SHENGJI_PURE=1
        ("expert", "ai", False, False, True, False),  # a fresh build is there already
        ("ai", "greedy", False, False, False, False),  # no time-boxed player
    ],
)
def test_an_arena_with_an_expert_compiles_the_players_first(
    monkeypatch: pytest.MonkeyPatch,
    a: str,
    b: str,
    source: bool,
    pure: bool,
    fresh: bool,
    build: bool,
) -> None:
    from bot import compiled
    from bot.cli.arena import should_build

    monkeypatch.setenv("SHENGJI_PURE", "1" if pure else "0")
    monkeypatch.setattr(compiled, "fresh", lambda where=None: fresh)
    monkeypatch.setattr(compiled, "active", lambda: False)
    assert should_build(a, b, source=source) is build


@pytest.mark.parametrize(
    ("lang", "title"),
    [("en", "Shengji (双升) · seed 20240517 · "), ("zh", "双升 · 种子20240517 · ")],
)
def test_the_title_shows_the_seed_as_typed(cli: Callable[..., Ran], lang: str, title: str) -> None:
    """A seed is an identifier, to type again: its digits are not grouped (20,240,517)."""
    done = cli("play", "--seed", "20240517", "--decks", "1", "--lang", lang, stdin="")
    assert done.stdout.startswith(title), done.stdout[:80]


def test_the_trump_is_named_once_in_chinese(cli: Callable[..., Ran]) -> None:
    """主：梅花 · 打2, as the Discord table writes it (text-trump), not 主：打2，主梅花."""
    out = cli("play", "--watch", "--lang", "zh", "--seed", "3").stdout
    lines = [line for line in out.splitlines() if "主：" in line]
    assert lines and not any("主：打" in line or "，主" in line for line in lines), lines
    assert "主：黑桃 · 打2，东家亮的。" in out
