"""The table's Rules button: every topic of ``/shengji rules`` one menu away.

The answer is the clicking player's alone (ephemeral) and in their language; choosing
a topic edits that answer in place, with the table's own rules; a forged topic gets
the short "that didn't work" and leaves the answer as it was.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
from typing import Any

import pytest

from bot.i18n import guide, t
from bot.rules import RuleSet
from fakediscord.state import Message, User

from .helpers import Env, _selects

HAN = re.compile(r"[\u4e00-\u9fff]")
PRESET = "tournament"  # rules unlike the defaults: the variants shown must be the table's


async def rules_answer(env: Env, user: User) -> Message:
    """Click Rules under the table message as ``user``: their ephemeral answer."""
    tid = env.table().id
    custom_id = f"sj:t:{tid}:rules"
    table_message: Message = await env.until(
        lambda: next((m for m in env.place_messages() if custom_id in m.custom_ids()), None)
    )
    handle = env.driver.click(table_message, custom_id, user)
    answer = await handle.wait_message()
    assert handle.ephemeral and answer.ephemeral_for == user.id
    return answer


def shown(message: Message, locale: str, topic: str, rules: RuleSet) -> bool:
    """``message`` shows ``topic`` as the guide writes it, the menu marking it."""
    (embed,) = message.embeds
    (menu,) = _selects(message)
    chosen = [o["value"] for o in menu["options"] if o.get("default")]
    return (
        embed["title"] == guide.title(locale, topic)
        and embed["description"] == guide.topic_text(locale, topic, rules)[:4000]
        and chosen == [topic]
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
async def test_rules_offers_every_topic_and_shows_the_chosen_one(shengji: Env, locale: str) -> None:
    env = shengji
    await env.start_four(preset=PRESET)
    rules = env.table().rules
    assert rules != RuleSet()
    alice = env.users[0]
    alice.locale = locale
    answer = await rules_answer(env, alice)
    assert shown(answer, locale, "overview", rules)
    (menu,) = _selects(answer)
    assert [o["value"] for o in menu["options"]] == list(guide.TOPICS)
    labels = [o["label"] for o in menu["options"]]
    assert labels == [guide.title(locale, topic) for topic in guide.TOPICS]
    if locale == "zh-CN":
        assert all(HAN.search(label) for label in labels), labels
        assert "甩牌" in labels and menu["placeholder"] == "选择规则主题"
    for topic in ("throws", "bidding", "variants"):
        handle = env.driver.select(answer, menu["custom_id"], [topic], alice)
        await handle
        assert handle.response_type == 7 and handle.message is answer  # edited in place
        assert shown(answer, locale, topic, rules), topic
        (menu,) = _selects(answer)
    # the variants topic is this table's rules in words, not the defaults
    table_words = guide.variants_text(locale, rules)
    assert table_words in answer.embeds[0]["description"]
    assert table_words != guide.variants_text(locale, RuleSet())


FORGED_VALUES: list[Any] = [["no-such-topic"], [], ["throws", "levels"], [7], [["throws"]]]


async def test_a_forged_topic_changes_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    await env.start_four()
    bob = env.users[1]
    answer = await rules_answer(env, bob)
    before = copy.deepcopy((answer.embeds, answer.components))
    (menu,) = _selects(answer)
    caplog.set_level(logging.WARNING)
    for values in FORGED_VALUES:
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
        handle = env.driver._start(3, bob, env.place(), data, answer)
        reply = await handle.wait_message()
        assert reply is not answer and reply.ephemeral, values
        assert reply.content == t("en-US", "reply-bad-value"), values
    # the menu's id is bound to its table's place like every other component
    elsewhere = env.fake.create_text_channel(env.world.guild, "elsewhere")
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": ["throws"]}
    reply = await env.driver._start(3, bob, elsewhere, data).wait_message()
    assert reply.ephemeral and reply.content == t("en-US", "service-wrong-place")
    await asyncio.sleep(0.1)
    assert (answer.embeds, answer.components) == before
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
