"""The table image's scene built from a real match: the trick the image shows, its words."""

from __future__ import annotations

import re

from bot.game import Match, fallback_action
from bot.rules import RuleSet
from cogs.messages import last_trick_scene, table_scene
from tests.game.helpers import to_play

NAMES = ("Alice", "Bot Chen", "Carol", "张伟")
HAN = re.compile(r"[\u4e00-\u9fff]")


def play_one(match: Match) -> None:
    seat = match.to_act
    assert seat is not None
    match.apply(seat, fallback_action(match.view(seat)))


def test_the_scene_follows_the_trick_and_names_the_trick_it_shows() -> None:
    match = to_play(Match.new(7, RuleSet()))
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and not scene.trick.plays and scene.last is None
    assert scene.trick.leader == match.to_act  # the leader is marked to play
    assert scene.head.endswith("Trick 1")
    assert scene.teams[0].startswith("Dealer's team") and "Attackers" in scene.teams[1]
    assert scene.pair_word == "&"
    chinese = table_scene(match.view(None), NAMES, "zh-CN")
    assert chinese is not None and chinese.pair_word == "和"  # partners' names: not "&"
    assert last_trick_scene(match.view(None), NAMES, "en-US") is None
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and len(scene.trick.plays) == 1 and not scene.trick.final
    for _ in range(3):
        play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and scene.trick.final and len(scene.trick.plays) == 4
    assert scene.head.endswith("Trick 1"), "the finished trick shown is trick 1"
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and scene.head.endswith("Trick 2")
    assert scene.last is not None and scene.last.final  # the previous trick, under the strip
    last = last_trick_scene(match.view(None), NAMES, "en-US")
    assert last is not None and last.trick.final and last.head.endswith("Trick 1")


def test_the_scene_s_words_are_in_the_table_s_language() -> None:
    match = to_play(Match.new(7, RuleSet()))
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "zh-CN")
    assert scene is not None
    words = [scene.head, *scene.teams, scene.score, scene.trump_word, *scene.badges.values()]
    assert all(HAN.search(w) for w in words), words
