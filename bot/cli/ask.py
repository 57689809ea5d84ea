"""The person's half of the terminal game: every prompt, and what an answer does.

``Asker`` asks for bids, the burial, overcalls and plays, takes ``hint``, ``auto``,
``review``, ``help`` and ``quit`` at any prompt, and shows a rules error and asks
again. Every action goes through ``_apply`` here, the computer players' too, so the
log the post-hand review replays misses none. ``bot.cli.play.TerminalGame`` drives
the match around it; ``Narrator`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.ai import suggest, suggest_bid
from bot.ai.review import review_hand
from bot.game import Action, Bury, Declare, Event, Pass, Phase, Play, SeatView, action_to_dict
from bot.game.driver import Driver
from bot.i18n import t
from bot.i18n.review import review_line
from bot.i18n.rules import explain, suit_name
from bot.rules import Card, RulesError, Trump, bid_kind, format_cards, obligation, parse_cards

from .narrate import Narrator

#: the commands in the words Chinese players use (the English ones work in both languages;
#: the zh help names these): 提示, 代出 (this turn), 托管 (from now on), 复盘, 退出
COMMAND_WORDS = {
    "提示": "hint",
    "代出": "auto",
    "托管": "auto all",
    "复盘": "review",
    "退出": "quit",
    "帮助": "help",
    "不反": "pass",
}


class Quit(Exception):
    """The player typed ``quit`` (or the input ended)."""


class Asker(Narrator):
    """Asks ``seat``'s person and applies what they choose (and every other action)."""

    autopilot: bool
    offered: tuple[tuple[Card, ...], ...]
    driver: Driver
    log: list[tuple[int, Action | dict[str, Any]]]
    start: dict[str, Any]
    read: Callable[[str], str]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Every action goes through here, so the log the review replays misses none."""
        events = self.match.apply(seat, action)
        self.log.append((seat, action))
        return events

    def _timeout(self) -> list[Event]:
        """The computer acts for the player (托管, a hint taken), logged as ``_apply`` logs."""
        events = self.match.timeout(self.seat, suggest)
        assert self.match.last_action is not None
        self.log.append((self.seat, action_to_dict(self.match.last_action, auto=True)))
        return events

    def _bid(self, seat: int, cards: Sequence[Card]) -> None:
        """Apply a bid (the driver asks the others again) and say it."""
        self.driver.observe(self._apply(seat, Declare(tuple(cards))))
        *earlier, bid = self.match.bids  # an accepted bid is the last one
        kind = bid_kind(bid, earlier[-1] if earlier else None)
        who = self.who(seat, seat == self.seat and self.autopilot)
        suit = suit_name(self.locale, bid.suit)
        self.say("cli-bid", who=who, cards=self.show.cards(cards), suit=suit, kind=kind)

    def _my_bid(self, final: bool) -> None:
        match = self.match
        options = match.legal_bids(self.seat)
        key = tuple(b.cards for b in options)
        if not options or (key == self.offered and not final) or self.autopilot:
            if self.autopilot and options:
                action = suggest_bid(match.view(self.seat))
                if action is not None:
                    self._bid(self.seat, action.cards)
            return
        self.offered = key
        view = match.view(self.seat)
        self.write("")
        self.say("cli-dealt", dealt=view.dealt, total=view.deal_total)
        self.write(self.show.hand(view.hand, Trump(view.level, _bid_suit(view))))
        current = view.current_bid
        if current is not None:
            self.say(
                "cli-current-bid", who=self.who(current.seat), cards=self.show.cards(current.cards)
            )
        menu = "  ".join(f"{i + 1}) {self.show.cards(b.cards)}" for i, b in enumerate(options))
        self.say("cli-may-bid", menu=menu)
        prompt = t(self.locale, "cli-bid-prompt-last" if final else "cli-bid-prompt")

        def accept(text: str) -> bool:
            if text == "":
                return True
            if text == "hint":
                bid = suggest_bid(match.view(self.seat))
                if bid is None:
                    self.say("cli-hint-pass")
                else:
                    self.say("cli-hint-bid", cards=self.show.cards(bid.cards))
                return False
            if text in ("auto", "auto all"):
                self._hand_over(text)
                bid = suggest_bid(match.view(self.seat))
                if bid is not None:
                    self._bid(self.seat, bid.cards)
                return True
            if text.isdigit() and 1 <= int(text) <= len(options):
                cards: Sequence[Card] = options[int(text) - 1].cards
            else:
                cards = parse_cards(text)
            self._bid(self.seat, cards)
            return True

        self._ask(prompt, accept)

    # --- the kitty and the tricks ---------------------------------------------------------

    def _my_turn(self) -> None:
        match = self.match
        view = match.view(self.seat)
        assert view.trump is not None
        if self.autopilot and not self.watch:
            self._report(self.seat, self._timeout())
            return
        self.write("")
        if view.expecting == "overcall":
            self._my_overcall(view)
            return
        if view.expecting == "bury":
            self.say("cli-took-kitty", cards=self.show.cards(view.kitty or ()))
            self.say("cli-your-cards")
            self.write(self.show.hand(view.hand, view.trump))
            size = view.rules.kitty_size
            if self.watch:
                self._report(self.seat, self._timeout())
                return
            self._ask(t(self.locale, "cli-bury-prompt", count=size), lambda x: self._try(x, Bury))
            return
        self._show_table(view)
        self.say("cli-your-cards")
        self.write(self.show.hand(view.hand, view.trump))
        if view.lead is not None:
            need = obligation(view.hand, view.lead, view.trump, view.rules)
            if need:
                self.say("cli-duty", duty=explain(self.locale, need))
        if self.watch:
            self._report(self.seat, self._timeout())
            return
        self._ask(t(self.locale, "cli-play-prompt"), lambda x: self._try(x, Play))

    def _my_overcall(self, view: SeatView) -> None:
        """The round after burying (000:43): overcall once, or Enter to pass."""
        match = self.match
        assert view.trump is not None
        options = match.legal_bids(self.seat)
        self.say("cli-overcall-trump", trump=self.show.trump(view.trump))
        self.write(self.show.hand(view.hand, view.trump))
        if not options or self.watch:
            action = self._timeout() if options else None
            self._report(self.seat, action or self._apply(self.seat, Pass()))
            return
        menu = "  ".join(f"{i + 1}) {self.show.cards(b.cards)}" for i, b in enumerate(options))
        self.say("cli-may-overcall", menu=menu)

        def accept(text: str) -> bool:
            if text == "hint":
                hint = suggest(match.view(self.seat))
                if isinstance(hint, Declare):
                    self.say("cli-hint-bid", cards=self.show.cards(hint.cards))
                else:
                    self.say("cli-hint-pass")
                return False
            if text in ("auto", "auto all"):
                self._hand_over(text)
                self._report(self.seat, self._timeout())
                return True
            if text in ("", "pass"):
                chosen: Declare | Pass = Pass()
            elif text.isdigit() and 1 <= int(text) <= len(options):
                chosen = Declare(options[int(text) - 1].cards)
            else:
                chosen = Declare(tuple(parse_cards(text)))
            self._report(self.seat, self._apply(self.seat, chosen))
            return True

        self._ask(t(self.locale, "cli-overcall-prompt"), accept)

    def _try(self, text: str, kind: type[Bury] | type[Play]) -> bool:
        match = self.match
        if text == "":
            return False
        if text == "hint":
            action = suggest(match.view(self.seat))
            assert isinstance(action, Bury | Play)
            self.say(
                "cli-hint-play",
                cards=self.show.cards(action.cards),
                code=format_cards(action.cards),
            )
            return False
        if text in ("auto", "auto all"):
            self._hand_over(text)
            self._report(self.seat, self._timeout())
            return True
        cards = tuple(parse_cards(text))
        self._report(self.seat, self._apply(self.seat, kind(cards)))
        return True

    def _hand_over(self, text: str) -> None:
        """``auto all``, at any prompt: the computer plays this seat from now on (托管)."""
        if text == "auto all" and not self.autopilot:
            self.autopilot = True
            self.say("cli-autopilot")

    def _ask(self, prompt: str, accept: Callable[[str], bool]) -> None:
        """Prompt until ``accept`` takes the answer; rule errors are shown and re-asked."""
        while True:
            text = self.read(prompt).strip()
            lowered = COMMAND_WORDS.get(text, text.lower())
            if lowered in ("quit", "exit", "q"):
                raise Quit
            if lowered in ("help", "?"):
                self._help()
                continue
            if lowered in ("hint", "review") and self.match.rules.assistance == "none":
                # seed 000's 不许提示、不许查牌, refused as the Discord table refuses them;
                # 'auto' still acts for the player, it shows no suggestion
                self.say("service-hint-off" if lowered == "hint" else "review-off")
                continue
            if lowered == "review":
                self._review()
                continue
            if lowered in ("hint", "auto", "auto all", "pass"):
                text = lowered
            if text == "" and self.autopilot:
                return
            try:
                if accept(text):
                    return
            except RulesError as error:
                self.say("cli-not-allowed", reason=explain(self.locale, error))

    def _review(self) -> None:
        """The player's three costliest decisions of the hand just played (``review``)."""
        match = self.match
        if self.watch or match.result is None or match.phase not in (Phase.SCORED, Phase.OVER):
            self.say("cli-review-later")
            return
        self.say("cli-review-wait")
        review = review_hand(
            match.seed, self.log, self.seat, hand_no=match.hand_no, start=self.start
        )
        if not review.decisions and (review.judged or not review.auto):
            self.say("cli-review-none", judged=review.judged)
        if review.auto:
            self.say("review-auto", plays=review.auto)
        for rank, decision in enumerate(review.decisions, 1):
            self.write(review_line(self.locale, rank, decision, self.who, self.show.cards))


def _bid_suit(view: SeatView) -> str | None:
    bid = view.current_bid
    return bid.suit if bid is not None else None
