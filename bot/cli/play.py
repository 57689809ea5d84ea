"""``python -m bot play``: a whole match in the terminal against three computer players.

The table procedure (deal, bids, the window, turns) is ``bot.game.driver``'s, as
everywhere; ``TerminalGame`` follows it, ``ask`` (``Asker``) asks the person and
applies every action, ``narrate`` (``Narrator``) prints.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from bot.ai import KINDS, make_player
from bot.game import SYSTEM, Action, Declare, Match, NextHand, Phase, Redeal, team_of
from bot.game.driver import AskBid, Driver, Step, Turn, next_step, system_action
from bot.i18n import pick, t
from bot.rules import Card, seat_index

from .ask import Asker, Quit
from .common import Printer, add_rules, language, parse_rules, supports_symbols


class TerminalGame(Asker):
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
        self.log: list[tuple[int, Action | dict[str, Any]]] = []
        self.start = match.to_dict()

    # --- the match loop ---------------------------------------------------------------

    def run(self, hands: int | None = None) -> int:
        """Play until the match ends, ``hands`` hands are done, or the player quits."""
        played = 0
        if not self.watch:
            self._help()
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


def cmd_play(args: argparse.Namespace) -> int:
    rules = parse_rules(args.decks, args.rule)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    symbols = supports_symbols(sys.stdout) and not args.ascii
    match = Match.new(seed, rules)
    # a terminal that cannot show suit symbols cannot show Chinese either
    locale = args.lang if symbols else "en-US"
    title = "cli-title-watch" if args.watch else "cli-title"
    print(Printer(symbols, locale).text(t(locale, title, seed=seed, seat=args.seat)))
    seat = seat_index(args.seat)

    def read(prompt: str) -> str:
        return input(prompt)

    def write(text: str) -> None:
        print(text, flush=True)

    game = TerminalGame(
        match,
        seat,
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
    play.add_argument("--seat", type=int, choices=range(1, 5), default=1, help="your seat (1-4)")
    play.add_argument("--opponents", default="ai", choices=KINDS, help="computer player kind")
    play.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    play.add_argument("--deal-round", type=int, default=4, help="cards dealt between bid prompts")
    play.add_argument("--ascii", action="store_true", help="plain ASCII cards (AH, not A♥)")
    play.add_argument(
        "--watch",
        action="store_true",
        help="watch one hand among four computer players, from seat --seat's chair",
    )
    play.add_argument("--lang", default="en", type=language, help="language: en or zh (中文)")
    add_rules(play)
    play.set_defaults(func=cmd_play)
