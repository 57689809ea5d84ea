"""The offline command line: ``python -m bot play | simulate | arena``.

``play`` is a whole match in the terminal against three computer players;
``simulate`` plays many hands among computer players and reports results and
speed; ``arena`` compares two players on duplicate deals. The CLI holds no game
logic: everything goes through ``Match.apply`` and the players in ``bot.ai``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.ai import KINDS, make_player, play_hand, suggest, suggest_bid
from bot.ai.arena import arena, summarize
from bot.game import (
    SYSTEM,
    Buried,
    Bury,
    Deal,
    Dealt,
    Declare,
    EndBidding,
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
from bot.rules import (
    DEFAULT_RULES,
    TRUMP,
    Card,
    RulesError,
    RuleSet,
    Trump,
    format_cards,
    obligation,
    order_for,
    parse_cards,
    suit_name,
)
from bot.store.cli import register as register_migrate_db
from bot.tournament.cli import register as register_tournament

# --- rules from the command line ------------------------------------------------------


def parse_rules(decks: int, settings: Sequence[str]) -> RuleSet:
    """A ``RuleSet`` from ``--decks`` and ``--rule KEY=VALUE`` options.

    The values are read by ``RuleSet.parse_field``, as the bot's settings command
    reads them; a ``ValueError`` says what is wrong in a sentence.
    """
    data: dict[str, Any] = {"decks": decks}
    for item in settings:
        key, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"--rule takes KEY=VALUE, not {item!r}")
        data[key.strip()] = RuleSet.parse_field(key.strip(), text)
    return DEFAULT_RULES.replace(**data)


def rule_option(item: str) -> str:
    """argparse ``type`` of ``--rule``: refuse a bad setting with a usage error."""
    try:
        parse_rules(DEFAULT_RULES.decks, [item])
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return item


# --- showing cards --------------------------------------------------------------------


def supports_symbols(stream: TextIO) -> bool:
    """Whether ``stream`` can print suit symbols and the jokers' names."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣大王小王".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Printer:
    """Cards and tables as text, with suit symbols or plain ASCII."""

    def __init__(self, symbols: bool) -> None:
        self.symbols = symbols

    def card(self, card: Card) -> str:
        return card.pretty if self.symbols else str(card)

    def text(self, text: str) -> str:
        """``text`` as the terminal can show it (the rules' messages use symbols)."""
        if self.symbols:
            return text
        for symbol, plain in _PLAIN.items():
            text = text.replace(symbol, plain)
        return text.encode("ascii", "replace").decode("ascii")

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def hand(self, cards: Sequence[Card], trump: Trump) -> str:
        """The hand sorted as players hold it: by suit, trumps last, low to high."""
        order = order_for(trump)
        groups: dict[str, list[Card]] = {}
        for card in sorted(cards, key=order.sort_key):
            groups.setdefault(order.suit_of[card], []).append(card)
        parts = []
        for suit, group in groups.items():
            label = "trumps" if suit == TRUMP else suit_name(suit)
            parts.append(f"{label}: {self.cards(group)}")
        return "\n".join("  " + p for p in parts) if parts else "  (no cards)"


_PLAIN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "大王": "BJ", "小王": "SJ", "托管": "auto"}
SEAT_NAMES = ("South", "West", "North", "East")


def seat_name(seat: int, me: int) -> str:
    """Seats named from the player's chair: you are South, your partner North."""
    name = SEAT_NAMES[(seat - me) % 4]
    return "You" if seat == me else name


# --- play: a match in the terminal ----------------------------------------------------


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
        self.offered: tuple = ()

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
        while match.phase == Phase.DEAL:
            self._deal_step()
        self._announce_trump()
        while match.phase in (Phase.KITTY, Phase.PLAY):
            _, actor = match.expecting()
            assert actor is not None
            if actor == self.seat:
                self._my_turn()
            else:
                view = match.view(actor)
                action = self.players[actor].act(view)
                assert action is not None
                self._report(actor, match.apply(actor, action))
        self._summary()

    # --- the deal and bids --------------------------------------------------------------

    def _deal_step(self) -> None:
        match = self.match
        kind, _ = match.expecting()
        if kind == "deal":
            events = match.apply(SYSTEM, Deal(self.deal_round))
            got = [e.seat for e in events if isinstance(e, Dealt)]
            self._computer_bids([s for s in got if s != self.seat])
            self._my_bid(final=False)
            return
        # the bidding window after the last card: until a full round passes
        for _ in range(8):
            before = len(match.bids)
            first = match.deal_start
            self._computer_bids([(first + i) % 4 for i in range(4) if (first + i) % 4 != self.seat])
            self._my_bid(final=True)
            if len(match.bids) == before:
                break
        for event in match.apply(SYSTEM, EndBidding()):
            if isinstance(event, Redeal):
                self.write("Nobody bid: the cards are dealt again.")
                self.offered = ()

    def _computer_bids(self, seats: list[int]) -> None:
        queue = list(seats)
        while queue:
            seat = queue.pop(0)
            if seat == self.seat:
                continue
            action = self.players[seat].act(self.match.view(seat))
            if isinstance(action, Declare):
                self.match.apply(seat, action)
                bid = self.match.bids[-1]
                self.write(f"{seat_name(seat, self.seat)} bids {self._bid_text(bid.cards)}.")
                queue = [(seat + i) % 4 for i in (1, 2, 3)]

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
                    match.apply(self.seat, action)
                    self.write(f"You (auto) bid {self._bid_text(action.cards)}.")
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
                    match.apply(self.seat, bid)
                    self.write(f"You bid {self._bid_text(bid.cards)}.")
                return True
            if text.isdigit() and 1 <= int(text) <= len(options):
                cards: Sequence[Card] = options[int(text) - 1].cards
            else:
                cards = parse_cards(text)
            match.apply(self.seat, Declare(tuple(cards)))
            self.write(f"You bid {self._bid_text(cards)}.")
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


# --- simulate ---------------------------------------------------------------------------


class Recorder:
    """Writes simulated hands into a database with the bot's own store code.

    The CLI is synchronous and the store is asynchronous: the recorder keeps one
    event loop of its own and runs each store call to completion on it. Players
    sit as humans on autoplay with user ids 1-4 (guild 0), so the records show on
    the leaderboards and in the stats, as ``bot.store.simulate`` does.
    """

    def __init__(self, path: Path, kinds: Sequence[str]) -> None:
        from bot.store import SeatInfo, Store

        self.loop = asyncio.new_event_loop()
        self.store = self.loop.run_until_complete(Store.open(path))
        self.seats = [SeatInfo("human", 1 + i, f"{k} {i}", k, True) for i, k in enumerate(kinds)]
        self.table: int | None = None
        self.hands = 0

    def start(self, seed: int, rules: RuleSet) -> None:
        self.table = self.loop.run_until_complete(
            self.store.create_table(0, 0, 0, rules, seed, self.seats, None, time.time())
        )

    def hand(self, match: Match) -> None:
        assert self.table is not None and match.result is not None
        self.loop.run_until_complete(
            self.store.record_hand(self.table, match.result, match.tricks, self.seats, time.time())
        )
        self.hands += 1
        if match.phase == Phase.OVER:
            self.loop.run_until_complete(
                self.store.record_match_end(self.table, match.winner_team, time.time())
            )
            self.close_table("finished")

    def close_table(self, status: str) -> None:
        if self.table is not None:
            self.loop.run_until_complete(self.store.close_table(self.table, status, time.time()))
            self.table = None

    def close(self) -> None:
        self.close_table("aborted")  # a match cut short by the hand budget
        self.loop.run_until_complete(self.store.close())
        self.loop.close()


def simulate(
    kinds: Sequence[str], hands: int, seed: int, rules: RuleSet, db: Path | None = None
) -> dict[str, Any]:
    """Play ``hands`` hands among computer players; totals per team and timings.

    With ``db``, every hand and match is also recorded in that database file.
    """
    players = [make_player(k, seed=f"{seed}/{s}") for s, k in enumerate(kinds)]
    recorder = Recorder(db, kinds) if db is not None else None
    teams = [
        {
            "seats": [t, t + 2],
            "players": [kinds[t], kinds[t + 2]],
            "hands_dealing": 0,
            "hands_held": 0,
            "hands_attacking": 0,
            "attacking_points": 0,
            "levels_gained": 0,
            "matches_won": 0,
        }
        for t in (0, 1)
    ]
    match = Match.new(seed, rules)
    matches = 1
    if recorder is not None:
        recorder.start(seed, rules)
    play_seconds = deal_seconds = 0.0
    start = time.perf_counter()
    for i in range(hands):
        stats = play_hand(match, players)
        if recorder is not None:
            recorder.hand(match)
        play_seconds += stats.play_seconds
        deal_seconds += stats.deal_seconds
        result = stats.result
        dealer_team = team_of(result.dealer)
        teams[dealer_team]["hands_dealing"] += 1
        teams[1 - dealer_team]["hands_attacking"] += 1
        teams[1 - dealer_team]["attacking_points"] += result.attacker_points
        if result.winner == "dealer":
            teams[dealer_team]["hands_held"] += 1
            teams[dealer_team]["levels_gained"] += result.levels_gained
        else:
            teams[1 - dealer_team]["levels_gained"] += result.levels_gained
        if match.phase == Phase.OVER:
            assert result.match_winner is not None
            teams[result.match_winner]["matches_won"] += 1
            if i + 1 < hands:
                match = Match.new(seed + matches, rules)
                if recorder is not None:
                    recorder.start(seed + matches, rules)
                matches += 1
        elif i + 1 < hands:
            match.apply(SYSTEM, NextHand())
    seconds = time.perf_counter() - start
    if recorder is not None:
        recorder.close()
    for team in teams:
        n = team["hands_attacking"]
        team["mean_attacking_points"] = round(team["attacking_points"] / n, 2) if n else None
    return {
        "hands": hands,
        "players": list(kinds),
        "seed": seed,
        "rules": rules.to_dict(),
        "matches_started": matches,
        "seconds": round(seconds, 4),
        "hands_per_second": round(hands / seconds, 2) if seconds else None,
        "play_phase_seconds": round(play_seconds, 4),
        "play_phase_hands_per_second": round(hands / play_seconds, 2) if play_seconds else None,
        "deal_phase_seconds": round(deal_seconds, 4),
        "teams": teams,
    }


def cmd_simulate(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.players.split(",")]
    if len(kinds) != 4:
        raise SystemExit("--players needs four comma-separated players, seat 0 first")
    for kind in kinds:
        make_player(kind)  # fail early on a typo
    rules = parse_rules(args.decks, args.rule)
    report = simulate(kinds, args.hands, args.seed, rules, args.db)
    print(f"{report['hands']} hands, players {','.join(kinds)} (seats 0-3), seed {args.seed}")
    for t, team in enumerate(report["teams"]):
        print(
            f"  team {t} (seats {team['seats'][0]},{team['seats'][1]}: "
            f"{'/'.join(team['players'])}): dealt {team['hands_dealing']}, "
            f"held {team['hands_held']}, mean attacking points "
            f"{team['mean_attacking_points']}, levels gained {team['levels_gained']}, "
            f"matches won {team['matches_won']}"
        )
    print(
        f"  {report['seconds']:.2f} s: {report['hands_per_second']} hands/s overall, "
        f"{report['play_phase_hands_per_second']} hands/s in the play phase"
    )
    if args.db is not None:
        print(f"  recorded {report['hands']} hands in {args.db}")
    if args.json:
        print(json.dumps(report, sort_keys=True))
    return 0


# --- arena ---------------------------------------------------------------------------------

ARENA_HELP = """\
Duplicate deals: each deal is played twice from the same deck, dealer fixed at
seat 0. Run 1: A holds seats 0 and 2 (the dealer's side) and B attacks; run 2: B
holds seats 0 and 2 and A attacks with the cards B had. Point difference of a
deal = A's attacking points in run 2 minus B's attacking points in run 1 (final
attacking points: tricks, kitty bonus, throw penalties); positive means A is the
better player. (With joker bidding the attackers may take the deal: each run then
counts for A when A's team attacked and against A when B's did.) Level
difference of a deal = levels gained by A's team minus
levels gained by B's team over both runs. Both are reported as a mean per deal
with a 95%% confidence interval (normal approximation). A player against itself
scores exactly 0.
"""


def cmd_arena(args: argparse.Namespace) -> int:
    for kind in (args.a, args.b):
        make_player(kind)
    rules = parse_rules(args.decks, args.rule)
    start = time.perf_counter()
    outcomes = arena(args.a, args.b, args.deals, args.seed, rules)
    seconds = time.perf_counter() - start
    pts = summarize([o.point_diff for o in outcomes])
    lev = summarize([o.level_diff for o in outcomes])
    n = len(outcomes)
    a_att = sum(o.a_attacking for o in outcomes) / n
    b_att = sum(o.b_attacking for o in outcomes) / n
    print(f"arena: {args.a} (A) vs {args.b} (B), {n} duplicate deals, seed {args.seed}")
    print(f"  mean attacking points: A {a_att:.1f}, B {b_att:.1f}")
    print(
        f"  point difference per hand (A - B): {pts.mean:+.2f}  "
        f"95% CI [{pts.low:+.2f}, {pts.high:+.2f}]"
    )
    print(
        f"  level difference per deal (A - B): {lev.mean:+.3f}  "
        f"95% CI [{lev.low:+.3f}, {lev.high:+.3f}]"
    )
    print(f"  {seconds:.1f} s")
    if args.json:
        print(
            json.dumps(
                {
                    "a": args.a,
                    "b": args.b,
                    "deals": n,
                    "seed": args.seed,
                    "a_mean_attacking": round(a_att, 3),
                    "b_mean_attacking": round(b_att, 3),
                    "point_diff": {"mean": pts.mean, "low": pts.low, "high": pts.high},
                    "level_diff": {"mean": lev.mean, "low": lev.low, "high": lev.high},
                    "seconds": round(seconds, 3),
                }
            )
        )
    return 0


# --- the parser --------------------------------------------------------------------------


def _add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--decks", type=int, choices=(1, 2, 3), default=2)
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=rule_option,
        help="a RuleSet field from docs/RULES.md, e.g. --rule kitty_multiplier=flat",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Shengji (双升) bot. With no command, runs the Discord bot.",
    )
    sub = parser.add_subparsers(
        dest="command", metavar="{play,simulate,arena,tournament,migrate-db}"
    )

    play = sub.add_parser("play", help="play a match in the terminal against the computer")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat (0-3)")
    play.add_argument("--opponents", default="ai", choices=KINDS, help="computer player kind")
    play.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    play.add_argument("--deal-round", type=int, default=4, help="cards dealt between bid prompts")
    play.add_argument("--ascii", action="store_true", help="plain ASCII cards (AH, not A♥)")
    _add_rules(play)
    play.set_defaults(func=cmd_play)

    sim = sub.add_parser("simulate", help="play hands among computer players, print results")
    sim.add_argument("--hands", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--players", default="ai,ai,ai,ai", help="four of ai, greedy, random (seat 0 first)"
    )
    sim.add_argument("--json", action="store_true", help="end with one JSON line of results")
    sim.add_argument(
        "--db", default=None, help="also record the hands in this database (file or URL)"
    )
    _add_rules(sim)
    sim.set_defaults(func=cmd_simulate)

    are = sub.add_parser(
        "arena",
        help="compare two players on duplicate deals",
        description=ARENA_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    are.add_argument("a", choices=KINDS, help="player A")
    are.add_argument("b", choices=KINDS, help="player B")
    are.add_argument("--deals", type=int, default=200)
    are.add_argument("--seed", type=int, default=1)
    are.add_argument("--json", action="store_true", help="end with one JSON line of results")
    _add_rules(are)
    are.set_defaults(func=cmd_arena)
    register_tournament(sub)
    register_migrate_db(sub)
    return parser
