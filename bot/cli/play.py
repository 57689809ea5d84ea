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
from bot.game import (
    SYSTEM,
    Buried,
    Bury,
    Declare,
    Event,
    Match,
    NextHand,
    Phase,
    Play,
    Played,
    Redeal,
    SeatView,
    ThrowFailed,
    TrickWon,
    team_of,
)
from bot.game.driver import AskBid, Driver, Step, Turn, next_step, system_action
from bot.rules import Card, RulesError, Trump, format_cards, obligation, parse_cards, suit_name

from .common import Printer, add_rules, parse_rules, seat_name, supports_symbols


class Quit(Exception):
    """The player typed ``quit`` (or the input ended)."""


class TerminalGame:
    """A match between one person (``seat``) and three computer players.

    ``read(prompt)`` returns a line (raises ``EOFError`` at the end of input) and
    ``write(text)`` prints; both are parameters so tests can drive a game.
    """

    HELP = (
        "Type cards in the notation, e.g. 'AH AH KH' (10 is T; jokers SJ, BJ). Commands: "
        "'hint' suggests a move, 'auto' lets the computer make this move, 'auto all' "
        "hands your seat to the computer (托管) for the rest of the match, 'quit' stops."
    )

    def __init__(
        self,
        match: Match,
        seat: int,
        opponents: str,
        read: Callable[[str], str],
        write: Callable[[str], None],
        symbols: bool,
        deal_round: int = 4,
    ) -> None:
        self.match = match
        self.seat = seat
        self.show = Printer(symbols)
        self.read = lambda prompt: read(self.show.text(prompt))
        self.write = lambda text: write(self.show.text(text))
        self.deal_round = max(1, deal_round)
        self.players = [make_player(opponents, seed=f"{match.seed}/{s}") for s in range(4)]
        self.autopilot = False
        self.offered: tuple[tuple[Card, ...], ...] = ()
        self.driver = Driver(match, self.deal_round)

    # --- the match loop ---------------------------------------------------------------

    def run(self, hands: int | None = None) -> int:
        """Play until the match ends, ``hands`` hands are done, or the player quits."""
        played = 0
        self.write(self.HELP)
        try:
            while True:
                self._hand()
                played += 1
                if self.match.phase == Phase.OVER or (hands is not None and played >= hands):
                    break
                self._ask("Press Enter for the next hand (or 'quit'): ", lambda _: True)
                self.match.apply(SYSTEM, NextHand())
        except (Quit, EOFError):
            self.write("Bye.")
            return 0
        if self.match.phase == Phase.OVER:
            winner = self.match.winner_team
            us = team_of(self.seat)
            self.write("You win the match!" if winner == us else "Your opponents win the match.")
        return 0

    def _hand(self) -> None:
        match = self.match
        self.offered = ()
        levels = match.levels
        us = team_of(self.seat)
        self.write("")
        self.write(
            f"=== Hand {match.hand_no + 1}: your team is at {levels[us]}, "
            f"the opponents at {levels[1 - us]} ==="
        )
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
                self._report(step.seat, match.apply(step.seat, action))
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
                events = match.apply(SYSTEM, system)
                self.driver.observe(events)
                if any(isinstance(e, Redeal) for e in events):
                    self.write("Nobody bid: the cards are dealt again.")
                    self.offered = ()

    def _bid(self, seat: int, cards: Sequence[Card]) -> None:
        """Apply a bid (the driver asks the others again) and say it."""
        self.driver.observe(self.match.apply(seat, Declare(tuple(cards))))
        who = "You" if seat == self.seat else seat_name(seat, self.seat)
        auto = " (auto)" if seat == self.seat and self.autopilot else ""
        self.write(f"{who}{auto} bid{'s' if seat != self.seat else ''} {self._bid_text(cards)}.")

    def _bid_text(self, cards: Sequence[Card]) -> str:
        bid = self.match.bids[-1] if self.match.bids else None
        target = "no trump"
        if bid is not None and bid.suit is not None:
            target = suit_name(bid.suit)
        return f"{self.show.cards(cards)} ({target})"

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
        self.write(f"Dealt {view.dealt}/{view.deal_total}. Your cards:")
        self.write(self.show.hand(view.hand, Trump(view.level, _bid_suit(view))))
        current = view.current_bid
        if current is not None:
            self.write(
                f"Current bid: {seat_name(current.seat, self.seat)} showed "
                f"{self.show.cards(current.cards)}."
            )
        menu = "  ".join(f"{i + 1}) {self.show.cards(b.cards)}" for i, b in enumerate(options))
        self.write(f"You may bid: {menu}")
        prompt = "Bid (number or cards, Enter to pass%s): " % (", last chance" if final else "")

        def accept(text: str) -> bool:
            if text == "":
                return True
            if text == "hint":
                bid = suggest_bid(match.view(self.seat))
                self.write(
                    f"Hint: bid {self.show.cards(bid.cards)}." if bid else "Hint: pass for now."
                )
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
        how = "nobody bid" if bid is None else f"{seat_name(bid.seat, self.seat)} bid it"
        defends = team_of(match.dealer) == team_of(self.seat)
        self.write(
            f"Trump: {match.trump} ({how}). Dealer: {seat_name(match.dealer, self.seat)}; "
            f"your team {'defends' if defends else 'attacks'}."
        )

    # --- the kitty and the tricks ---------------------------------------------------------

    def _my_turn(self) -> None:
        match = self.match
        view = match.view(self.seat)
        assert view.trump is not None
        if self.autopilot:
            self._report(self.seat, match.timeout(self.seat, suggest))
            return
        self.write("")
        if view.expecting == "bury":
            self.write(
                f"You are the dealer and took the kitty: {self.show.cards(view.kitty or ())}"
            )
            self.write("Your cards:")
            self.write(self.show.hand(view.hand, view.trump))
            size = view.rules.kitty_size
            self._ask(f"Bury {size} cards: ", lambda t: self._try(t, Bury))
            return
        self._show_table(view)
        self.write("Your cards:")
        self.write(self.show.hand(view.hand, view.trump))
        if view.lead is not None:
            need = obligation(view.hand, view.lead, view.trump, view.rules)
            if need:
                self.write(f"({need})")
        self._ask("Your play: ", lambda t: self._try(t, Play))

    def _try(self, text: str, kind: type[Bury] | type[Play]) -> bool:
        match = self.match
        if text == "":
            return False
        if text == "hint":
            action = suggest(match.view(self.seat))
            assert isinstance(action, Bury | Play)
            self.write(
                f"Hint: {self.show.cards(action.cards)}  (type: {format_cards(action.cards)})"
            )
            return False
        if text in ("auto", "auto all"):
            if text == "auto all":
                self.autopilot = True
                self.write("The computer plays your seat from now on (托管).")
            self._report(self.seat, match.timeout(self.seat, suggest))
            return True
        cards = tuple(parse_cards(text))
        events = match.apply(self.seat, kind(cards))
        if kind is Bury:
            self.write(f"You buried {self.show.cards(cards)}.")
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
                self.write(self.HELP)
                continue
            if lowered in ("hint", "auto", "auto all"):
                text = lowered
            if text == "" and self.autopilot:
                return
            try:
                if accept(text):
                    return
            except RulesError as error:
                self.write(f"Not allowed: {error}")

    def _show_table(self, view: SeatView) -> None:
        assert view.trump is not None
        us = team_of(self.seat)
        role = "attacking" if view.is_attacker(self.seat) else "defending"
        self.write(
            f"Trick {len(view.tricks) + 1} · trump {view.trump} · attackers' points "
            f"{view.attackers_points} · levels: you {view.levels[us]}, them {view.levels[1 - us]}"
            f" · your team is {role}"
        )
        if view.trick:
            for seat, cards in view.trick:
                self.write(f"  {seat_name(seat, self.seat):5}: {self.show.cards(cards)}")
        else:
            self.write("  You lead.")

    def _report(self, seat: int, events: list[Event]) -> None:
        for event in events:
            match event:
                case Played(seat=who_seat, cards=cards, auto=auto):
                    who = seat_name(who_seat, self.seat)
                    mark = " (auto)" if auto and who_seat == self.seat else ""
                    self.write(f"{who}{mark} played {self.show.cards(cards)}")
                case ThrowFailed(seat=who_seat, attempted=attempted, taken_back=back, penalty=pen):
                    self.write(
                        f"{seat_name(who_seat, self.seat)} tried to throw "
                        f"{self.show.cards(attempted)}, but it can be beaten: "
                        f"{self.show.cards(back)} go back, penalty {pen} points."
                    )
                case TrickWon(number=number, winner=winner, points=won, attackers_points=total):
                    who = seat_name(winner, self.seat)
                    self.write(
                        f"-> {who} won trick {number} ({won} points); attackers now have {total}."
                    )
                case Buried() if seat != self.seat:
                    self.write(f"{seat_name(seat, self.seat)} buried the kitty.")

    def _summary(self) -> None:
        result = self.match.result
        assert result is not None
        us = team_of(self.seat)
        self.write("")
        self.write(f"--- Hand {result.hand_no + 1} over ---")
        self.write(f"Kitty: {self.show.cards(result.kitty)} ({result.kitty_points} points)")
        if result.multiplier:
            self.write(
                f"The attackers won the last trick: kitty x{result.multiplier} = "
                f"{result.kitty_bonus} points."
            )
        for seat, penalty in result.failed_throws:
            self.write(f"Failed throw by {seat_name(seat, self.seat)}: {penalty} points.")
        winners = "dealer's team" if result.winner == "dealer" else "attackers"
        self.write(
            f"Attackers' points: {result.attacker_points} -> the {winners} go up "
            f"{result.levels_gained} level{'s' if result.levels_gained != 1 else ''}."
        )
        after = result.levels_after
        self.write(
            f"Levels: your team {after[us]}, opponents {after[1 - us]}. "
            f"Next dealer: {seat_name(result.next_dealer, self.seat)}."
        )


def _bid_suit(view: SeatView) -> str | None:
    bid = view.current_bid
    return bid.suit if bid is not None else None


def cmd_play(args: argparse.Namespace) -> int:
    rules = parse_rules(args.decks, args.rule)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    symbols = supports_symbols(sys.stdout) and not args.ascii
    match = Match.new(seed, rules)
    print(
        f"Shengji (双升) · seed {seed} · you are seat {args.seat} (South)"
        if symbols
        else f"Shengji · seed {seed} · you are seat {args.seat} (South)"
    )

    def read(prompt: str) -> str:
        return input(prompt)

    def write(text: str) -> None:
        print(text, flush=True)

    game = TerminalGame(match, args.seat, args.opponents, read, write, symbols, args.deal_round)
    return game.run(args.hands)


def register(sub: Any) -> None:
    play = sub.add_parser("play", help="play a match in the terminal against the computer")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat (0-3)")
    play.add_argument("--opponents", default="ai", choices=KINDS, help="computer player kind")
    play.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    play.add_argument("--deal-round", type=int, default=4, help="cards dealt between bid prompts")
    play.add_argument("--ascii", action="store_true", help="plain ASCII cards (AH, not A♥)")
    add_rules(play)
    play.set_defaults(func=cmd_play)
