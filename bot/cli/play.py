"""``python -m bot play``: a whole match in the terminal against three computer players.

The table procedure (deal, bids, the window, turns) is ``bot.game.driver``'s, as
everywhere; this module only asks the person and prints.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bot.ai import KINDS, make_player, suggest, suggest_bid
from bot.ai.review import review_hand
from bot.game import (
    SYSTEM,
    Action,
    Bury,
    Declare,
    Event,
    Match,
    NextHand,
    Pass,
    Phase,
    Play,
    Redeal,
    SeatView,
    team_of,
)
from bot.game.driver import AskBid, Driver, Step, Turn, next_step, system_action
from bot.i18n import pick, t
from bot.i18n.rules import explain, suit_name
from bot.rules import Card, RulesError, Trump, format_cards, obligation, parse_cards

from .common import Printer, add_rules, parse_rules, supports_symbols
from .narrate import Narrator


class Quit(Exception):
    """The player typed ``quit`` (or the input ended)."""


class TerminalGame(Narrator):
    """A match between one person (``seat``) and three computer players.

    ``read(prompt)`` returns a line (raises ``EOFError`` at the end of input) and
    ``write(text)`` prints; both are parameters so tests can drive a game. Every
    line comes from the ``cli`` catalog in ``locale``. ``watch`` hands the seat to
    the computer from the start and still prints what its player sees (hand, table,
    what a follow must contain) without asking anything: a hand to watch and learn.
    """

    def __init__(
        self,
        match: Match,
        seat: int,
        opponents: str,
        read: Callable[[str], str],
        write: Callable[[str], None],
        symbols: bool,
        deal_round: int = 4,
        locale: str = "en-US",
        watch: bool = False,
    ) -> None:
        self.match = match
        self.seat = seat
        self.locale = pick(locale)
        self.show = Printer(symbols, self.locale)
        self.read: Callable[[str], str] = lambda prompt: read(self.show.text(prompt))
        self.write: Callable[[str], None] = lambda text: write(self.show.text(text))
        self.deal_round = max(1, deal_round)
        self.players = [make_player(opponents, seed=f"{match.seed}/{s}") for s in range(4)]
        self.watch = watch
        self.autopilot = watch
        self.offered: tuple[tuple[Card, ...], ...] = ()
        self.driver = Driver(match, self.deal_round)
        # every accepted action, for the post-hand review (it replays the hand)
        self.log: list[tuple[int, Action]] = []
        self.start = match.to_dict()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Every action goes through here, so the log the review replays misses none."""
        events = self.match.apply(seat, action)
        self.log.append((seat, action))
        return events

    def _timeout(self) -> list[Event]:
        """The computer acts for the player (托管, a hint taken), logged as ``_apply`` logs."""
        events = self.match.timeout(self.seat, suggest)
        assert self.match.last_action is not None
        self.log.append((self.seat, self.match.last_action))
        return events

    # --- the match loop ---------------------------------------------------------------

    def run(self, hands: int | None = None) -> int:
        """Play until the match ends, ``hands`` hands are done, or the player quits."""
        played = 0
        if not self.watch:
            self.say("cli-help")
        try:
            while True:
                self._hand()
                played += 1
                if self.match.phase == Phase.OVER or (hands is not None and played >= hands):
                    break
                if not self.watch:
                    self._ask(t(self.locale, "cli-next-hand"), lambda _: True)
                self._apply(SYSTEM, NextHand())
        except (Quit, EOFError):
            self.say("cli-bye")
            return 0
        if self.match.phase == Phase.OVER:
            winner = self.match.winner_team
            us = team_of(self.seat)
            self.say("cli-you-win" if winner == us else "cli-they-win")
        return 0

    def _hand(self) -> None:
        match = self.match
        self.offered = ()
        levels = match.levels
        us = team_of(self.seat)
        self.write("")
        self.say("cli-hand-start", hand=match.hand_no + 1, ours=levels[us], theirs=levels[1 - us])
        self.driver = Driver(match, self.deal_round)
        while match.phase is Phase.DEAL:
            self._deal_step(self.driver.next())
        self._announce_trump()
        while isinstance(step := next_step(match), Turn):
            if step.seat == self.seat:
                self._my_turn()
            else:
                action = self.players[step.seat].act(match.view(step.seat))
                assert action is not None
                self._report(step.seat, self._apply(step.seat, action))
        self._summary()

    # --- the deal and bids --------------------------------------------------------------

    def _deal_step(self, step: Step) -> None:
        match = self.match
        match step:
            case AskBid(seat=seat) if seat == self.seat:
                self._my_bid(final=match.deal_done)
            case AskBid(seat=seat):
                action = self.players[seat].act(match.view(seat))
                if isinstance(action, Declare):
                    self._bid(seat, action.cards)
            case _:
                system = system_action(step)
                assert system is not None
                events = self._apply(SYSTEM, system)
                self.driver.observe(events)
                self._report(SYSTEM, events)
                if any(isinstance(e, Redeal) for e in events):
                    self.say("cli-redeal")
                    self.offered = ()

    def _bid(self, seat: int, cards: Sequence[Card]) -> None:
        """Apply a bid (the driver asks the others again) and say it."""
        self.driver.observe(self._apply(seat, Declare(tuple(cards))))
        bid = self.match.bids[-1] if self.match.bids else None
        key = "cli-bid-auto" if seat == self.seat and self.autopilot else "cli-bid"
        suit = suit_name(self.locale, None if bid is None else bid.suit)
        self.say(key, who=self.who(seat), cards=self.show.cards(cards), suit=suit)

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
            if text == "auto":
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

    def _announce_trump(self) -> None:
        match = self.match
        assert match.trump is not None and match.dealer is not None
        bid = match.bids[-1] if match.bids else None
        defends = "yes" if team_of(match.dealer) == team_of(self.seat) else "no"
        trump, dealer = self.show.trump(match.trump), self.who(match.dealer)
        if bid is None:
            self.say("cli-trump-nobody", trump=trump, dealer=dealer, defends=defends)
        else:
            bidder = self.who(bid.seat)
            self.say("cli-trump-bid", trump=trump, bidder=bidder, dealer=dealer, defends=defends)

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
                events = self._timeout()
                self.say("cli-buried-mine", cards=self.show.cards(match.kitty))
                self._report(self.seat, events)
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
            if text == "auto all":
                self.autopilot = True
                self.say("cli-autopilot")
            self._report(self.seat, self._timeout())
            return True
        cards = tuple(parse_cards(text))
        events = self._apply(self.seat, kind(cards))
        if kind is Bury:
            self.say("cli-buried-mine", cards=self.show.cards(cards))
        else:
            self._report(self.seat, events)
        return True

    def _ask(self, prompt: str, accept: Callable[[str], bool]) -> None:
        """Prompt until ``accept`` takes the answer; rule errors are shown and re-asked."""
        while True:
            text = self.read(prompt).strip()
            lowered = text.lower()
            if lowered in ("quit", "exit", "q"):
                raise Quit
            if lowered in ("help", "?"):
                self.say("cli-help")
                continue
            if lowered == "review":
                self._review()
                continue
            if lowered in ("hint", "auto", "auto all"):
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
        if not review.decisions:
            self.say("cli-review-none", judged=review.judged)
        for decision in review.decisions:
            self.say(
                "cli-review-line",
                trick=decision.trick,
                played=self.show.cards(decision.played),
                better=self.show.cards(decision.better),
                loss=f"{decision.loss:.1f}",
            )


def _bid_suit(view: SeatView) -> str | None:
    bid = view.current_bid
    return bid.suit if bid is not None else None


def cmd_play(args: argparse.Namespace) -> int:
    rules = parse_rules(args.decks, args.rule)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    symbols = supports_symbols(sys.stdout) and not args.ascii
    match = Match.new(seed, rules)
    # a terminal that cannot show suit symbols cannot show Chinese either
    locale = pick(args.lang) if symbols else "en-US"
    title = "cli-title-watch" if args.watch else "cli-title"
    print(Printer(symbols, locale).text(t(locale, title, seed=seed, seat=args.seat)))

    def read(prompt: str) -> str:
        return input(prompt)

    def write(text: str) -> None:
        print(text, flush=True)

    game = TerminalGame(
        match,
        args.seat,
        args.opponents,
        read,
        write,
        symbols,
        args.deal_round,
        locale=locale,
        watch=args.watch,
    )
    return game.run(1 if args.watch and args.hands is None else args.hands)


def register(sub: Any) -> None:
    play = sub.add_parser("play", help="play a match in the terminal against the computer")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat (0-3)")
    play.add_argument("--opponents", default="ai", choices=KINDS, help="computer player kind")
    play.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    play.add_argument("--deal-round", type=int, default=4, help="cards dealt between bid prompts")
    play.add_argument("--ascii", action="store_true", help="plain ASCII cards (AH, not A♥)")
    play.add_argument(
        "--watch",
        action="store_true",
        help="watch one hand among four computer players, from seat --seat's chair",
    )
    play.add_argument("--lang", default="en", help="language: en or zh (中文)")
    add_rules(play)
    play.set_defaults(func=cmd_play)
