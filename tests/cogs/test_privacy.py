"""Privacy audit over a whole match: nobody is shown a card they may not know.

Images are audited where they are drawn (the presenter's audit hook names the
recipient, the cards and the hand of every image); text is audited as it reaches the fake
(every message the bot sends, its embeds included, and each edit of one, is read
as it appears). A card shown to a player must be one they held during this hand
or the one before, or public: played to a trick or tried in a failed throw, shown in
a bid, or in the kitty once the hand is over; the hand before's only while a player's
message may still be about it (an image of this hand, or any text once two of its tricks
are played, may show this hand's cards alone). What the bot posts in the table's
channel or thread is everyone's: it may show only public cards, and the hand before's
only in an image of that hand, in a message about it, or (text still on its way)
during the new hand's deal (with two decks a
whole scored hand is every card there is: allowed anywhere, it would let the new
hand's cards through unchecked).

Both of a player's private paths are audited: Alice reads DMs (her live panel and the
"your turn" notice, some turns left waiting past the notice's delay so that it is
posted, then deleted when she plays), Bob's DMs are closed, so he plays from the
ephemeral **My hand** panel (its interaction response, the redraws of his clicks and
its refreshes at his turns). The test checks that each path was read, so that it
cannot pass for want of payloads.

By default the match starts near its end (both teams at K: two hands at least, so that
a second hand's messages are held to its own cards, a few in all); the whole match from
level 2 runs with ``-m slow``.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter, defaultdict
from typing import Any

import pytest

from bot.game import Match, Phase
from bot.rules import Card, RuleSet, parse_cards
from cogs.pacing import PING_AFTER
from fakediscord.state import Message

from .helpers import Env, every_version
from .test_turn_notice import _waiting

PRETTY = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])|大王|小王")
CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|SJ|BJ)\b")
SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str) -> set[Card]:
    found: set[Card] = set()
    for match in PRETTY.finditer(text):
        token = match.group(0)
        if token == "大王":
            found |= set(parse_cards("BJ"))
        elif token == "小王":
            found |= set(parse_cards("SJ"))
        else:
            rank = "T" if match.group(1) == "10" else match.group(1)
            found |= set(parse_cards(rank + SYMBOL[match.group(2)]))
    for token in CODE.findall(text):
        found |= set(parse_cards(token))
    return found


class Auditor:
    """What each seat may know, hand by hand, followed as the match moves."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.table = None
        self.held: dict[int, dict[int, set[Card]]] = defaultdict(lambda: defaultdict(set))
        self.public: dict[int, set[Card]] = defaultdict(set)
        self.violations: list[str] = []
        self.checked = 0
        self.read_count = 0  # the messages and edits the watcher read
        self.public_read = 0  # of which in the table's channel or thread
        self.panels_read = 0  # of which versions of an ephemeral hand panel
        self.notices: set[int] = set()  # the "your turn" DMs read
        self.images_to: Counter[int | None] = Counter()  # the images audited, by reader

    def observe(self, match: Match) -> None:
        h = match.hand_no
        size = match.rules.hand_size
        for i in range(match.dealt):
            self.held[h][(match.deal_start + i) % 4].add(match.stock[i])
        if match.dealer is not None and match.phase != "deal":
            self.held[h][match.dealer] |= set(match.stock[4 * size :])
        public = self.public[h]
        for trick in match.tricks:
            for _, cards in trick.plays:
                public |= set(cards)
            public |= set(trick.attempted or ())  # a failed throw is shown to all
        for _, cards in match.trick:
            public |= set(cards)
        public |= set(match.attempted or ())
        for bid in match.bids:
            public |= set(bid.cards)
        if match.result is not None and match.result.hand_no == h:
            public |= set(match.result.kitty)

    def allowed(self, seat: int | None, before: bool, hand: int | None = None) -> set[Card]:
        """The cards ``seat`` may be shown now. In what the whole table reads, the hand
        before's count only in what shows that hand (``before``): once a hand is scored
        every card of it was public, and with two decks every card there is, so allowed
        anywhere else they would let any card of the new hand through unseen. A player's
        own panel keeps them while it may still be about the hand before (``_settled``):
        its last edit of the hand before ("You played 6♦") can come late, and its text
        carries no hand number to tell it by."""
        match = self.table.match
        self.observe(match)
        h = match.hand_no
        cards = set(self.public[h])
        if seat is not None:
            cards |= self.held[h][seat]
            if not self._settled(hand):
                cards |= self.held[h - 1][seat] | self.public[h - 1]
        elif before:
            cards |= self.public[h - 1]
        return cards

    def _settled(self, hand: int | None) -> bool:
        """Whether what a player reads now can only be about this hand: an image drawn for
        it (an image names its hand), or any text once two of its tricks are played (the
        hand before's late edits have long come). From the second hand on, a player's own
        messages are held to this hand's cards then: the hand before's public cards, with
        two decks every card there is, would let anything through."""
        match = self.table.match
        if hand is not None:
            return hand == match.hand_no
        return match.phase == Phase.PLAY and len(match.tricks) >= 2

    def about_the_hand_before(self, message: Message) -> bool:
        """A message showing the hand before (its table message's last edits, its summary
        with the kitty, an old panel), which may come after the new hand's deal."""
        shown = self.table.match.hand_no  # the hand before's number as players read it
        return any(a.filename == "kitty.png" for a in message.attachments) or bool(
            re.match(rf"(?:\*\*)?Hand {shown}\b", message.content or "")
        )

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        return self.table.seat_of(user_id)

    def image(self, recipient: int | None, scene: str, cards: list[Card], hand: int) -> None:
        """An image names its hand: a paced redraw of the hand before's last trick, or its
        summary and kitty, may be drawn after the new hand has left its deal."""
        self.checked += 1
        self.images_to[recipient] += 1
        before = hand < self.table.match.hand_no
        leaked = set(cards) - self.allowed(self.seat_of(recipient), before, hand)
        if leaked:
            self.violations.append(f"image {scene} to {recipient}: {sorted(map(str, leaked))}")

    def text(self, user_id: int | None, text: str, finished: bool = False) -> None:
        """``user_id`` None: a public message, which may show only public cards. A text
        names no hand by number, except a message ``finished`` (about the hand before);
        the hand before's messages still on their way may come during the new deal."""
        self.checked += 1
        before = finished or self.table.match.phase == Phase.DEAL
        leaked = cards_in(text) - self.allowed(self.seat_of(user_id), before)
        if leaked:
            self.violations.append(
                f"text to {user_id or 'everyone'}: {sorted(map(str, leaked))} in {text[:80]!r}"
            )

    def read(self, message: Message, to: int | None) -> None:
        """Audit a message the bot sent (each edit too) as it appears.

        A DM or an ephemeral message may show its reader's own cards; anything else
        the bot posts (the lobby, the deal and table messages, the hand summary) is
        read by everyone, so it may show only public cards."""
        if to is not None and to not in {u.id for u in self.env.users}:
            return
        self.text(to, payload_of(message), finished=self.about_the_hand_before(message))
        self.read_count += 1
        self.public_read += to is None
        self.panels_read += message.ephemeral and any(
            c.startswith("sj:p:") for c in message.custom_ids()
        )
        if to is not None and not message.ephemeral and message.content.startswith("🔔"):
            self.notices.add(message.id)


def payload_of(message: Message) -> str:
    """Every word a reader sees in a message: its text, its embeds and its menus."""
    words = [message.content]
    for embed in message.embeds:
        words += [embed.get("title", ""), embed.get("description", "")]
        words += [embed.get(part, {}).get(key, "") for part, key in _EMBED_PARTS]
        for item in embed.get("fields", []):
            words += [item.get("name", ""), item.get("value", "")]
    for row in message.components:
        for component in row.get("components", []):
            words += [component.get("label", ""), component.get("placeholder", "")]
            for option in component.get("options", []):
                words += [option.get("label", ""), option.get("value", "")]
    return " ".join(w for w in words if w)


_EMBED_PARTS = (("author", "name"), ("footer", "text"))


@pytest.fixture(
    params=[
        pytest.param(("K", "K"), id="near-the-end"),  # two hands at least: none ends at K
        pytest.param(("2", "2"), id="whole-match", marks=pytest.mark.slow),
    ]
)
def start_levels(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple:
    """Every match of the test (the table's and the store's replays alike) starts here."""
    start = request.param
    new = Match.new

    def at_levels(
        seed: int, rules: RuleSet | None = None, *, levels: tuple = start, **options: Any
    ) -> Match:
        return new(seed, rules, levels=levels, **options)

    monkeypatch.setattr(Match, "new", staticmethod(at_levels))
    return start


async def test_no_payload_shows_a_player_anothers_hidden_cards_across_a_match(
    shengji: Env, start_levels: tuple
) -> None:
    env = shengji
    auditor = Auditor(env)
    env.bot.presenter.audit = lambda _table, *a: auditor.table is not None and auditor.image(*a)
    env.bot.presenter.ping_after = PING_AFTER  # the notice waits, as in production
    users = env.users
    alice, bob = users[0], users[1]
    env.fake.close_dms(bob)  # Bob plays from the ephemeral My hand panel
    await env.reply(alice, "new")
    await env.reply(bob, "join")
    await env.reply(alice, "addbot")
    await env.reply(alice, "addbot")
    await env.reply(alice, "start")
    match = await env.until(lambda: env.table().match)
    table = auditor.table = env.table()
    assert table.seat_of(bob.id) == 1
    hand_button = f"sj:t:{table.id}:hand"
    # from here: the messages sent so far at its first pass, then each as it comes
    async with every_version(env.fake, auditor.read):
        control_done = later_control_done = False
        alice_turns = 0
        bob_panel: tuple[int, Message] | None = None  # the hand it was opened in, the panel
        for _ in range(5000):
            auditor.observe(match)
            if match.phase == Phase.OVER or table.closed:
                break
            kind, seat = match.expecting()
            seq = match.seq
            if kind in ("end_bidding", "next_hand"):
                await env.tick(10)
            elif kind in ("play", "bury") and seat == 0:
                if not control_done:
                    # the auditor itself must catch a leak: show Alice one of Carol's cards
                    secret = next(c for c in match.hands[2] if c not in auditor.allowed(0, False))
                    auditor.text(alice.id, f"look: {secret.pretty}")
                    assert auditor.violations and str(secret) in auditor.violations.pop()
                    # and a public message: Alice's own card, or the kitty before the summary
                    mine = next(c for c in match.hands[0] if c not in auditor.allowed(None, False))
                    buried = next(c for c in match.kitty if c not in auditor.allowed(None, False))
                    for card in (mine, buried):
                        auditor.text(None, f"look: {card.pretty}")
                        assert auditor.violations and str(card) in auditor.violations.pop()
                    # and a public image of this hand
                    auditor.image(None, "TableScene", [mine], match.hand_no)
                    assert auditor.violations and str(mine) in auditor.violations.pop()
                    control_done = True
                if match.hand_no and len(match.tricks) >= 2 and not later_control_done:
                    # from the second hand on, her own messages hold only this hand's cards
                    # (the hand before's public ones, every card of two decks, do not count)
                    secret = next(c for c in match.hands[2] if c not in auditor.allowed(0, False))
                    auditor.text(alice.id, f"look: {secret.pretty}")
                    auditor.image(alice.id, "HandScene", [secret], match.hand_no)
                    assert len(auditor.violations) == 2 and str(secret) in auditor.violations[0]
                    auditor.violations.clear()
                    later_control_done = True
                alice_turns += 1
                if alice_turns % 2:  # every other turn she looks away: the notice is posted
                    await _notice_posted(env, auditor, seq)
                cards = env.suggestion(0)
                if kind == "bury":
                    await env.play_with_panel(0, cards)
                else:
                    await env.slash(alice, "play", cards=" ".join(map(str, cards)))
            elif kind in ("play", "bury") and seat == 1:
                # My hand shows the match as it is, while the table's updates may still be
                # on their way to the presenter; the redraw of an older one would drop the
                # cards Bob picked meanwhile (a race outside this audit): he waits for it
                await env.until(lambda s=seq: env.bot.presenter.ui(table).turn_seen.get(1) == s)
                if bob_panel is None or bob_panel[0] != match.hand_no:
                    bob_panel = (match.hand_no, await _open_my_hand(env, hand_button))
                panel = await _ephemeral_panel(env, bob_panel[1], seq)
                await env.play_with_panel(1, env.suggestion(1), message=panel)
            await env.until(
                lambda s=seq: match.seq > s or match.phase == Phase.OVER or table.closed, timeout=30
            )
        assert match.phase == Phase.OVER, f"the match did not finish: hand {match.hand_no}"
        assert later_control_done  # two hands at least: the second held to its own cards
        await env.until(
            lambda: any(
                "win the match" in m.content for m in env.fake.channel_messages(env.place())
            ),
            timeout=60,
        )
        # each notice goes once its turn has passed
        await env.until(lambda: all(env.fake.messages[n].deleted for n in auditor.notices))
        await asyncio.sleep(0.05)
    # every DM, edit and image of at least one whole hand; edits are coalesced (the
    # newest state wins), so how many there are depends on how fast Discord answers
    assert auditor.checked > 10 and auditor.read_count > 10
    assert auditor.public_read > 5  # the lobby, the deal, table and summary messages
    # both private paths were read: Bob's ephemeral panel (opened, clicked, refreshed at
    # his turns) and Alice's notices posted after the wait
    assert auditor.panels_read > 5, auditor.panels_read
    assert auditor.images_to[bob.id] > 5  # his DMs are closed: his ephemeral panel's images
    assert auditor.notices
    assert not env.fake.dms(bob) and env.fake.ephemerals(bob)
    assert not auditor.violations, auditor.violations[:5]
    # and in a whole match nothing the bot sent broke one of Discord's limits; the one
    # refusal is Bob's closed DMs, at the first DM the bot tried (none tried after it)
    refused, errors = [], []
    for error in env.fake.errors:
        dm_refused = error.status == 403 and (error.response or {}).get("code") == 50007
        (refused if dm_refused else errors).append(error)
    assert not errors, errors[:3]
    assert len(refused) == 1, refused


async def _notice_posted(env: Env, auditor: Auditor, seq: int) -> None:
    """Alice's turn waits past the notice's delay; the notice is read on its way."""
    table = env.table()
    ui = env.bot.presenter.ui(table)

    def waiting() -> bool:
        ping = ui.pings.get(0)
        return ping is not None and ping.seq == seq and _waiting(env, 0)

    await env.until(waiting)
    before = len(auditor.notices)
    await env.tick(PING_AFTER + 1)  # the turn's warning comes later (20 s of a 30 s turn)
    await env.until(lambda: len(auditor.notices) > before)


async def _open_my_hand(env: Env, hand_button: str) -> Message:
    """Bob presses My hand on the table's newest message that has it: his ephemeral panel."""
    bob = env.users[1]
    message = await env.until(
        lambda: next(
            (m for m in reversed(env.place_messages()) if hand_button in m.custom_ids()), None
        )
    )
    handle = env.driver.click(message, hand_button, bob)
    (panel,) = await handle.wait_followups(1)
    assert panel.ephemeral and panel.ephemeral_for == bob.id
    return panel


async def _ephemeral_panel(env: Env, panel: Message, seq: int) -> Message:
    """Bob's ephemeral panel once it shows the decision ``seq`` (refreshed at his turn)."""
    prefix = f"sj:p:{env.table().id}:1:{seq}:"
    return await env.until(
        lambda: (
            any(c.startswith(prefix) for c in env.fake.messages[panel.id].custom_ids())
            and env.fake.messages[panel.id]
        )
    )
