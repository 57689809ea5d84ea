"""``python -m bot tournament``: standings printed, the JSON last line, repeatable runs."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, dict]:
    assert main(["tournament", *args]) == 0
    out = capsys.readouterr().out
    return out, json.loads(out.strip().splitlines()[-1])


def test_sixteen_teams_seed_000(capsys: pytest.CaptureFixture[str]) -> None:
    # random players: the draw, the rounds and the podium are what is checked, not play
    # (the default computer players, 0.5 s of CPU here, play the five teams' test below)
    args = ("--teams", "16", "--seed", "S", "--round-hands", "1", "--players", "random", "--json")
    out, report = run(capsys, *args)
    assert report["rounds"] == 2 and report["matches"] == 12  # 8 matches, then 4
    assert len(report["podium"]) == len(set(report["podium"])) == 3
    assert "Round 1 of 2 (8 matches)" in out and "Round 2 of 2 (4 matches)" in out
    assert out.count("beat") == 12
    second = report["standings"]["rounds"][1]
    assert report["podium"] == second["ranking"][:3]
    assert set(report["podium"]) <= {m["winner"] for m in second["matches"]}
    advancing = report["standings"]["rounds"][0]["ranking"][:8]
    assert sorted(t for m in second["matches"] for t in m["teams"]) == sorted(advancing)
    _, again = run(capsys, *args)
    assert again == report  # the same seed gives the same draw, deals and podium


def test_odd_count_has_byes_and_a_single_champion(capsys: pytest.CaptureFixture[str]) -> None:
    out, report = run(
        capsys,
        *("--teams", "5", "--seed", "x", "--round-hands", "1", "--podium", "1", "--json"),
    )
    assert "bye (a win at level 2)" in out
    assert report["rounds"] == 3 and len(report["podium"]) == 1  # 5 -> 3 -> 2 -> champion
    assert report["matches"] == 2 + 1 + 1


def test_in_chinese_and_with_plurals(capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal's words from the catalogs: ``--lang zh`` names the teams and the
    rounds in Chinese; in English one hand is "1 hand"."""
    args = ("--teams", "4", "--seed", "S", "--round-hands", "1", "--players", "random")
    out, report = run(capsys, *args, "--lang", "zh", "--json")
    assert "第1轮（共1轮，2场对局）" in out and "规则预设「比赛」" in out
    assert "4支队伍（电脑难度：随机出牌），种子S，" in out  # words, not codes or quotes
    assert all(name.startswith("队伍") for name in report["podium"])
    assert "领奖台：1. 队伍" in out and "、2. 队伍" in out
    english, again = run(capsys, *args, "--json")
    assert "beat" in english and ", 1 hand\n" in english and "1 hands" not in english
    assert "4 computer teams (level: random play), seed S," in english
    assert [n.replace("Team ", "队伍") for n in again["podium"]] == report["podium"]


def test_bad_options_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="at least 2"):
        main(["tournament", "--teams", "1"])
    with pytest.raises(SystemExit, match="at least 1"):
        main(["tournament", "--round-hands", "0"])
