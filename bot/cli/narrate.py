"""What the terminal game says about the table: the trick so far, every event, the hand's end.

``Narrator`` holds the printing half of ``bot.cli.play.TerminalGame`` (``Asker``
asks the person, ``TerminalGame`` drives the match); every line comes from the ``cli``
catalog.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.game import (
    BidMade,
    Buried,
    Event,
    HandScored,
    KittyBuried,
    KittyDrawn,
    Match,
    OvercallRound,
    Passed,
    Played,
    RoundOver,
    SeatView,
    ThrowFailed,
    TrickWon,
    team_of,
)
from bot.i18n import Arg, t
from bot.i18n.rules import suit_name
from bot.rules import DRAW, trick_side

from .common import Printer


class Narrator:
    """Prints the match as ``seat``'s player sees it, in ``locale``."""

    match: Match
    seat: int
    locale: str
    show: Printer
    watch: bool
    write: Callable[[str], None]

    def say(self, key: str, **args: Arg) -> None:
        self.write(t(self.locale, key, **args))

    def _help(self) -> None:
        """The commands; a table without assistance (seed 000) offers no hint or review."""
        none = self.match.rules.assistance == "none"
        self.say("cli-help-no-assistance" if none else "cli-help")

    def who(self, seat: int, auto: bool = False) -> str:
        """The seat's name; ``auto``: a person's seat the computer plays for (托管)."""
        name = self.show.seat(seat, self.seat)
        return t(self.locale, "cli-who-auto", who=name) if auto else name

    def _show_table(self, view: SeatView) -> None:
        assert view.trump is not None
        us = team_of(self.seat)
        self.say(
            "cli-table",
            trick=len(view.tricks) + 1,
            trump=self.show.trump(view.trump),
            points=view.attackers_points,
            ours=view.levels[us],
            theirs=view.levels[1 - us],
            attacking="yes" if view.is_attacker(self.seat) else "no",
        )
        if view.trick:
            for seat, cards in view.trick:
                shown = self.show.cards(cards)
                self.write("  " + t(self.locale, "cli-trick-line", who=self.who(seat), cards=shown))
        else:
            self.write("  " + t(self.locale, "cli-you-lead"))

    def _report(self, seat: int, events: list[Event]) -> None:
        # the hand's dealer, for whose a trick's points are: a hand's last trick comes
        # with its score, when the match already names the next hand's dealer
        dealer = next((e.result.dealer for e in events if isinstance(e, HandScored)), None)
        if dealer is None:
            dealer = self.match.dealer
        for event in events:
            match event:
                case Played(seat=who_seat, cards=cards, auto=auto):
                    mine = auto and who_seat == self.seat and not self.watch
                    who = self.who(who_seat, mine)
                    self.say("cli-played", who=who, cards=self.show.cards(cards))
                case ThrowFailed(seat=who_seat, attempted=attempted, taken_back=back, penalty=pen):
                    self.say(
                        "cli-throw-failed",
                        who=self.who(who_seat),
                        attempted=self.show.cards(attempted),
                        back=self.show.cards(back),
                        penalty=pen,
                    )
                case TrickWon(number=number, winner=winner, points=won, attackers_points=total):
                    self.say(
                        "cli-trick-won",
                        who=self.who(winner),
                        trick=number,
                        points=won,
                        side=trick_side(winner, dealer),
                        total=total,
                    )
                case Buried() if seat != self.seat:
                    self.say("cli-buried", who=self.who(seat))
                case KittyBuried(dealer=dealer, cards=cards) if dealer == self.seat:
                    # the player's own kitty, typed or chosen by the computer (托管): only
                    # they get this event, so only they learn what went under
                    auto = any(isinstance(e, Buried) and e.auto for e in events)
                    who = self.who(dealer, auto and not self.watch)
                    self.say("cli-buried-mine", who=who, cards=self.show.cards(cards))
                case KittyDrawn(cards=cards, dealer=None):
                    self.say("cli-kitty-drawn-none", cards=self.show.cards(cards))
                case KittyDrawn(cards=cards, dealer=int() as dealer, suit=suit):
                    self.say(
                        "cli-kitty-drawn",
                        cards=self.show.cards(cards),
                        who=self.who(dealer),
                        suit=suit_name(self.locale, suit),
                    )
                case OvercallRound(first=first):
                    self.say("cli-overcall-round", who=self.who(first))
                case BidMade(seat=who_seat, cards=cards, suit=suit):
                    shown = self.show.cards(cards)
                    name = suit_name(self.locale, suit)
                    self.say("cli-overcall", who=self.who(who_seat), cards=shown, suit=name)
                case Passed(seat=who_seat):
                    self.say("cli-passes", who=self.who(who_seat))
                case RoundOver(dealer=dealer):
                    assert self.match.trump is not None
                    trump = self.show.trump(self.match.trump)
                    self.say("cli-round-over", trump=trump, who=self.who(dealer))

    def _summary(self) -> None:
        result = self.match.result
        assert result is not None
        us = team_of(self.seat)
        self.write("")
        self.say("cli-hand-over", hand=result.hand_no + 1)
        self.say("cli-kitty", cards=self.show.cards(result.kitty), points=result.kitty_points)
        if result.multiplier:
            self.say("cli-kitty-bonus", multiplier=result.multiplier, bonus=result.kitty_bonus)
        for seat, penalty in result.failed_throws:
            self.say("cli-failed-throw", who=self.who(seat), penalty=penalty)
        if result.winner == DRAW:
            self.say("cli-draw", points=result.attacker_points)
        else:
            self.say(
                "cli-result",
                points=result.attacker_points,
                winner=result.winner,
                levels=result.levels_gained,
            )
        after = result.levels_after
        self.say(
            "cli-levels", ours=after[us], theirs=after[1 - us], dealer=self.who(result.next_dealer)
        )
