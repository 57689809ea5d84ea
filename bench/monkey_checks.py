"""The monkey's invariants, read as the bot works: errors logged, errors shown, cards leaked.

``bench.monkey`` drives the bot at random; what it must never see is checked here, on
every message and every edit as it reaches the fake (a player reads what was on the
screen on the way, not only the last state), and on every log record as it is written:

- no record at ERROR or above (a caught bug the bot only logged still broke something);
- no traceback, and no "something went wrong", in anything a person reads;
- no card a reader may not know, in text or in an image drawn for them. A person may know
  the cards their seat was dealt in the hand on the table (the dealer the kitty too), and
  the public ones: played or tried in a failed throw, shown in a bid or a kitty draw,
  all of them once the hand is scored. An image names its table and hand (the
  presenter's audit hook), so it is judged against that hand alone, however late it is
  drawn. Other text names neither: the hand before of every table counts too, but only for a
  few steps after the next one began (a message about it may still be on its way), so a
  message written well into a hand that shows a card of the last hand is a leak. A
  table's message names both (its buttons the table, its heading the hand: "Hand 4 ·
  trick 19"), so it is judged as an image is: an edit of it that reaches Discord late
  (behind a slow or rate-limited edit, the next hand under way) shows the cards of the
  hand it names, public by then. Judged against its own table's hand, the message is
  also no longer excused by cards another table showed. (Seeds 10734 and 10791 on
  PostgreSQL flagged a table message's previous trick just after PostgreSQL ended the
  bot's session while another process held the store's lock; 10791 did so under this
  check too, so a late edit is not the cause, which is not known yet.)
  Replies about finished hands (``history``, ``review``) are not audited: every card of a
  finished hand is public.

Cards are compared by identity (two decks hold two A♥), so a leak of a card the reader
also holds goes unseen; what is caught is a card nobody showed them.

After the last shutdown the tables must be calm (``calm_tables``): what the bot left on
Discord is what it means to leave, not a trail of live buttons and stale notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.game import Event, HandScored, Match, Phase
from bot.i18n import t
from bot.i18n.rules import card_text
from bot.rules import ALL_CARDS, Card, parse_cards
from bot.service import CloseReason, SeatSignal, Sink, Table, Update, UpdateKind
from fakediscord import FakeDiscord
from fakediscord.state import Channel, Message, User

# how long after a new hand the last hand's cards may still show (a message about it on
# its way), and a closed table's: so many steps, and so many seconds (a busy render queue)
GRACE_STEPS = 3
GRACE_SECONDS = 2.0
Moment = tuple[int, float]  # a step and the monotonic time then
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]*\", line \d+")
FAILED = tuple(t(loc, "reply-failed") for loc in ("en-US", "zh-CN"))
# each card as a language writes it (10♥, 大王); a code (BJ, 10 as T) only as a whole word
_PRETTY = {
    name: card
    for loc in ("en-US", "zh-CN")
    for card in ALL_CARDS
    if (name := card_text(loc, (card,))) != str(card)
}
CARD_WORDS = re.compile(
    "|".join(re.escape(w) for w in sorted(_PRETTY, key=len, reverse=True))
    + r"|\b(?:[2-9TJQKA][SHDC]|SJ|BJ)\b"
)
LOCALES = Path(__file__).resolve().parents[1] / "data" / "locales"
# answers about finished hands, whose every card is public: the commands, the Review button
FINISHED_HANDS = ("shengji history", "shengji review")
REVIEW_BUTTON = "sj:r:"


def catalog_examples() -> list[str]:
    """The catalogs' own words that name cards (notation help, the rules guide's examples):
    written into a message they show no one's hand, so they are read past."""
    found: set[str] = set()
    for catalog in LOCALES.glob("*/*.ftl"):
        for line in catalog.read_text(encoding="utf-8").splitlines():
            line = re.sub(r"^[\w-]+ =|^\s*\*?\[\w+\]", "", line)
            for piece in re.split(r"[{}]", line):
                if len(piece.strip()) >= 4 and CARD_WORDS.search(piece):
                    found.add(piece.strip())
    return sorted(found, key=len, reverse=True)


class Broken(Exception):
    """An invariant broke: the bot's fault, unless the trace shows the monkey's."""


def shown_cards(text: str) -> set[Card]:
    """Every card ``text`` names, in the players' form (``10♥``, 大王) or the notation."""
    for example in EXAMPLES:
        text = text.replace(example, " ")
    found: set[Card] = set()
    for word in CARD_WORDS.findall(text):
        found |= {_PRETTY[word]} if word in _PRETTY else set(parse_cards(word))
    return found


def words_of(message: Message) -> str:
    """All a reader sees of a message in words: content, embeds, buttons, menus."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get(k, "")) for k in ("title", "description")]
        parts += [str(embed.get(k, {}).get("text", "")) for k in ("footer",)]
        parts += [str(embed.get("author", {}).get("name", ""))]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    for row in message.components:
        for component in row.get("components", []):
            parts += [str(component.get("label", "")), str(component.get("placeholder", ""))]
            parts += [
                f"{o.get('label', '')} {o.get('value', '')}" for o in component.get("options", [])
            ]
    return "\n".join(p for p in parts if p)


EXAMPLES = catalog_examples()
# a table message's heading, in each language: "**Hand 4 · trick 19**", "**第4局**"
HAND_HEADING = re.compile(
    "^(?:"
    + "|".join(
        sorted(
            {
                re.escape(t(loc, key, hand=7, trick=1, levels="").split("7")[0])
                for loc in ("en-US", "zh-CN")
                for key in ("table-deal-head", "table-trick-head")
            }
        )
    )
    + r")(\d+)"
)


def table_hand(message: Message, text: str) -> tuple[int, int] | None:
    """The table and hand (numbered from 0) a table's message is about, or None."""
    heading = HAND_HEADING.match(text)
    table = next((i for i in message.custom_ids() if i.startswith("sj:t:")), None)
    if heading is None or table is None:
        return None
    return _table_of(table), int(heading.group(1)) - 1


def about_finished_hands(message: Message) -> bool:
    inter = message.interaction
    if inter is None:
        return False
    custom_id = str(inter.data.get("custom_id", ""))
    return inter.command_name() in FINISHED_HANDS or custom_id.startswith(REVIEW_BUTTON)


class ErrorLog(logging.Handler):
    """Every record at ERROR or above, from any logger, while installed; warnings counted
    by where they came from (a report's hint, not a failure)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []
        self.warnings: Counter[str] = Counter()
        self.examples: dict[str, str] = {}  # the first of each kind, in full

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.records.append(record)
        else:
            key = f"{record.name}: {str(record.msg)[:60]}"
            self.warnings[key] += 1
            self.examples.setdefault(key, record.getMessage()[:300])

    def describe(self, records: list[logging.LogRecord]) -> list[str]:
        return [f"{r.name} {r.levelname}: {self.format(r)}" for r in records]


@dataclass
class HandCards:
    """One hand of one table: who held what, what everyone saw."""

    held: dict[int, set[Card]] = field(default_factory=lambda: defaultdict(set))
    public: set[Card] = field(default_factory=set)


@dataclass
class Known:
    """One table as the auditor follows it: its hands, and when the newest began."""

    table: Table
    hands: dict[int, HandCards] = field(default_factory=lambda: defaultdict(HandCards))
    hand_no: int = -1
    began_at: Moment = (0, 0.0)  # when ``hand_no`` was first seen
    closed_at: Moment | None = None


class Auditor:
    """What each person may know, followed table by table as the matches move."""

    def __init__(self) -> None:
        # the live tables, looked up at each read: a restart's restored tables write before
        # the next step begins
        self.source: Callable[[], list[Table]] = list
        self.known: dict[int, Known] = {}
        self.closed: dict[int, Known] = {}  # tables gone from ``known``: their images still exact
        self.step = 0
        self.violations: list[str] = []
        self.read = 0

    def follow(self) -> None:
        tables = self.source()
        for table in tables:
            known = self.known.get(table.id)
            if known is None or known.table is not table:  # new, or restored after a restart
                old = known
                known = self.known[table.id] = Known(table)
                if old is not None:  # the hands so far are still known
                    known.hands, known.hand_no = old.hands, old.hand_no
                    known.began_at = old.began_at
        live = {t.id for t in tables}
        for known in self.known.values():
            if known.table.id not in live and known.closed_at is None:
                known.closed_at = self.now()
        for table_id in [i for i, k in self.known.items() if self._gone(k)]:
            self.closed[table_id] = self.known.pop(table_id)
        for known in self.known.values():
            self._observe(known)

    def now(self) -> Moment:
        return self.step, time.monotonic()

    def recent(self, moment: Moment) -> bool:
        step, at = moment
        return self.step - step <= GRACE_STEPS or time.monotonic() - at <= GRACE_SECONDS

    def _gone(self, known: Known) -> bool:
        return known.closed_at is not None and not self.recent(known.closed_at)

    def _observe(self, known: Known) -> None:
        match: Match | None = known.table.match
        if match is None:
            return
        if match.hand_no != known.hand_no:
            known.hand_no, known.began_at = match.hand_no, self.now()
        hand = known.hands[match.hand_no]
        size = match.rules.hand_size
        users = {i: s.user_id for i, s in enumerate(known.table.seats) if s and s.user_id}
        for i in range(match.dealt):
            seat = (match.deal_start + i) % 4
            if seat in users:
                hand.held[users[seat]].add(match.stock[i])
        for seat, user_id in users.items():
            hand.held[user_id] |= set(match.hands[seat])
        if match.dealer in users and match.phase != Phase.DEAL:
            hand.held[users[match.dealer]] |= set(match.stock[4 * size :]) | set(match.kitty)
        for trick in match.tricks:
            for _, cards in trick.plays:
                hand.public |= set(cards)
            hand.public |= set(trick.attempted or ())  # a failed throw is shown to all
        for _, cards in match.trick:
            hand.public |= set(cards)
        hand.public |= set(match.attempted or ())
        for bid in match.bids:
            hand.public |= set(bid.cards)
        hand.public |= set(match.turned)
        if match.result is not None:  # a scored hand: every card played, the kitty shown
            known.hands[match.result.hand_no].public |= set(ALL_CARDS)

    # --- the table service's hooks (``TableHooks``), installed at each start ---------

    async def on_events(self, table: Table, events: list[Event]) -> None:
        """A scored hand is public whole (every card played, the kitty shown), known from
        its event: a table may score a hand and deal the next between two of ``follow``'s
        looks (time jumping while it waited out a locked store), and the presenter draws
        the kitty after."""
        for event in events:
            if isinstance(event, HandScored):
                self.follow()
                known = self.known.get(table.id)
                if known is not None:
                    known.hands[event.result.hand_no].public |= set(ALL_CARDS)

    async def on_seat(self, table: Table, seat: int, signal: SeatSignal, player: Any) -> None:
        return None

    def may_deal(self, table: Table) -> bool:
        return True

    def allowed(self, user_id: int | None) -> set[Card]:
        cards: set[Card] = set()
        self.follow()
        for known in self.known.values():
            numbers = [known.hand_no]
            if self.recent(known.began_at) or known.closed_at is not None:
                numbers.append(known.hand_no - 1)
            for number in numbers:
                hand = known.hands.get(number)
                if hand is not None:
                    cards |= hand.public
                    if user_id is not None:
                        cards |= hand.held.get(user_id, set())
        return cards

    def image(
        self, table_id: int, to: int | None, scene: str, cards: list[Card], hand: int
    ) -> None:
        """The presenter's audit hook: an image of ``table_id``'s hand ``hand`` for ``to``
        (None: everyone) shows ``cards``. Judged against that hand of that table alone,
        however late it is drawn (a summary waits for the table's message to settle, and
        a thread a moderator locked holds that up): what was public in it (every card, once
        it was scored) and, for one reader, what they held in it."""
        leaked = set(cards) - self._hand_allowed(table_id, hand, to)
        if leaked:
            self.violations.append(f"image {scene} to {to or 'everyone'}: {_names(leaked)}")

    def hand_text(self, table_id: int, hand: int, text: str, where: str) -> None:
        """A table's message about hand ``hand`` of ``table_id``, judged as an image is."""
        leaked = shown_cards(text) - self._hand_allowed(table_id, hand, None)
        if leaked:
            shown = text[:160].replace("\n", " / ")
            self.violations.append(f"{where} to everyone: {_names(leaked)} in {shown!r}")

    def _hand_allowed(self, table_id: int, hand: int, to: int | None) -> set[Card]:
        self.follow()
        known = self.known.get(table_id) or self.closed.get(table_id)
        seen = None if known is None else known.hands.get(hand)
        return set() if seen is None else seen.public | seen.held.get(to or 0, set())

    def text(self, to: int | None, text: str, where: str, typed: str = "") -> None:
        """``typed``: what the reader typed in the command this answers (cards named there
        may be named back, held or not)."""
        leaked = shown_cards(text) - self.allowed(to) - shown_cards(typed)
        if leaked:
            shown = text[:160].replace("\n", " / ")
            self.violations.append(f"{where} to {to or 'everyone'}: {_names(leaked)} in {shown!r}")

    def choices(self, to: int, choices: list[dict[str, Any]], typed: str) -> None:
        """An autocomplete's answer: what it offers shows cards as much as a message."""
        words = " ".join(f"{c.get('name', '')} {c.get('value', '')}" for c in choices)
        self.text(to, words, "autocomplete", typed)


def _names(cards: set[Card]) -> list[str]:
    return sorted(map(str, cards))


class Reader:
    """Reads each message the bot sends, and each edit of it, as it reaches the fake."""

    def __init__(self, fake: FakeDiscord, auditor: Auditor, humans: set[int]) -> None:
        self.fake = fake
        self.auditor = auditor
        self.humans = humans
        self.seen: dict[int, int] = {}
        self.shown_errors: list[str] = []
        self._task: asyncio.Task[Any] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self.fake.notifier.wait_for(self.read_new, timeout=1e9))

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self.read_new()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def read_new(self) -> bool:
        """Never done (False): it reads until it is stopped."""
        for message in list(self.fake.messages.values()):
            if message.author.id != self.fake.bot_user.id:
                continue
            if self.seen.get(message.id) == message.edits:
                continue
            self.seen[message.id] = message.edits
            self._read(message)
        return False

    def _read(self, message: Message) -> None:
        to = self._reader(message)
        if to is not None and to not in self.humans:
            return
        text = words_of(message)
        where = "ephemeral" if message.ephemeral else "DM" if to is not None else "public"
        self.auditor.read += 1
        if TRACEBACK.search(text) or any(f in text for f in FAILED):
            self.shown_errors.append(f"{where} message {message.id}: {text[:300]!r}")
        if about_finished_hands(message):
            return
        typed = str(message.interaction.data.get("options")) if message.interaction else ""
        ids = message.custom_ids()
        about = f" ({ids[0]}…)" if ids else ""
        where = f"{where} message {message.id}{about}"
        named = table_hand(message, text) if to is None else None
        if named is not None:
            self.auditor.hand_text(*named, text, where)
        else:
            self.auditor.text(to, text, where, typed)

    def _reader(self, message: Message) -> int | None:
        if message.ephemeral:
            return message.ephemeral_for
        channel = self.fake.channels.get(message.channel_id)
        if channel is not None and channel.is_dm and channel.recipient is not None:
            return channel.recipient.id
        return None


# --- calm tables: what the last shutdown leaves on Discord --------------------------

TABLE_BUTTONS = "sj:t:"  # the table's buttons (hand, last trick, rules), in its place
PANEL_IDS = ("sj:p:", "sj:d:", "sj:b:")  # a hand panel's picker, bid and panel buttons
NOTICE = ("🔔", "⏰")  # a "your turn" DM, or the same edited to the ten-seconds warning
PLACE_NOTICE = re.compile(r"🔔 <@(\d+)>")  # the notice of a player with closed DMs
NOTICE_TABLE = re.compile(r"#(\d+)")  # "双升 #12": a DM notice names its table (the
# warning does not: one edited to it, or posted as it, counts for its player alone)


class LostPlaces:
    """The service's sink, passed through, noting the tables closed because their place
    was lost (``CloseReason.CHANNEL_GONE``): the presenter leaves that place alone then,
    as it may not post or edit there (a moderator took the bot's permissions for a
    moment, or archived, locked or deleted the thread), so the table's buttons stay on
    its last message, and that is no calm check's business."""

    def __init__(self, inner: Sink, lost: set[int]) -> None:
        self.inner = inner
        self.lost = lost

    async def publish(self, table: Table, update: Update) -> None:
        if update.kind is UpdateKind.CLOSED and update.reason is CloseReason.CHANNEL_GONE:
            self.lost.add(table.id)
        await self.inner.publish(table, update)


def _table_of(custom_id: str) -> int:
    """The table a component id names (``sj:<kind>:<table>:...``: ``cogs.ids``)."""
    return int(custom_id.split(":")[2])


def _shut(channel: Channel) -> bool:
    """A place whose messages the bot cannot edit or delete any more: gone, or a thread
    archived or locked (by a moderator: edits there answer 400, ``fakediscord.world``)."""
    return channel.deleted or channel.archived or channel.locked


def _said(message: Message) -> str:
    return f"{message.id} {message.content[:60]!r} {message.custom_ids()[:2]}"


def calm_tables(
    fake: FakeDiscord, users: list[User], live: list[Table], lost: set[int]
) -> list[str]:
    """What the bot left on Discord after its last shutdown (``live``: the tables it drove
    then; a table not among them, or closed, is closed), each rule broken, worded:

    - the table's buttons (``sj:t:``) on at most one message of its place, none once it
      closed; a place the bot could not edit (``_shut``) and a table that closed because
      it lost its place (``LostPlaces``) are left out;
    - at most one DM panel with components (``PANEL_IDS``) a player and table, none once
      it closed: the bot posts one a match and edits it (closed DMs refuse new messages
      only: the bot can still edit and delete the ones there, and it does);
    - a "your turn" notice not deleted: at most one a player and table, none once it
      closed. The last shutdown leaves a live table's notice standing (a restarted
      process deletes it); a DM notice turned into the warning names no table, so a
      player's DM notices number at most the live tables. In a place: at most one a
      player where a live table plays, none elsewhere.
    """
    open_ids = {t.id for t in live if not t.closed}
    places = {int(t.meta.get("thread_id") or t.channel_id) for t in live if not t.closed}
    found: list[str] = []

    def bound(what: str, messages: list[Message], allowed: int) -> None:
        if len(messages) > allowed:
            shown = "; ".join(_said(m) for m in messages[:3])
            found.append(f"{what}: {len(messages)}, at most {allowed}: {shown}")

    buttons: dict[int, list[Message]] = defaultdict(list)
    in_place: dict[tuple[int, int], list[Message]] = defaultdict(list)
    for channel in list(fake.channels.values()):
        if channel.is_dm or _shut(channel):
            continue
        for message in fake.channel_messages(channel):
            if message.author.id != fake.bot_user.id:
                continue
            ids = {_table_of(c) for c in message.custom_ids() if c.startswith(TABLE_BUTTONS)}
            for table_id in ids - lost:
                buttons[table_id].append(message)
            if mention := PLACE_NOTICE.match(message.content):
                in_place[(channel.id, int(mention[1]))].append(message)
    for table_id, messages in buttons.items():
        bound(f"table {table_id}'s buttons", messages, int(table_id in open_ids))
    for (place, user_id), messages in in_place.items():
        bound(f"notices to {user_id} in {place}", messages, int(place in places))

    for user in users:
        panels: dict[int, list[Message]] = defaultdict(list)
        notices: dict[int | None, list[Message]] = defaultdict(list)
        for message in fake.dms(user):
            if message.author.id != fake.bot_user.id:
                continue
            ids = [c for c in message.custom_ids() if c.startswith(PANEL_IDS)]
            if ids:
                panels[_table_of(ids[0])].append(message)
            if message.content.startswith(NOTICE):
                named = NOTICE_TABLE.search(message.content)
                notices[int(named[1]) if named else None].append(message)
        for table_id, messages in panels.items():
            bound(f"{user.name}'s panels of table {table_id}", messages, int(table_id in open_ids))
        for key, messages in notices.items():
            if key is not None:
                bound(f"{user.name}'s notices of table {key}", messages, int(key in open_ids))
        every = [m for messages in notices.values() for m in messages]
        bound(f"{user.name}'s notices in all", every, len(open_ids))
    return found
