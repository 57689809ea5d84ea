"""The expert: always legal, decides from the view alone, searches within its time.

The legality hand runs under every variant with ``-m slow``; the default run keeps
each family of variants: the deck counts, bidding (the jokers, the overcall after the
bury, the kitty draw), the trump order (the fixed trump two), following (by suit
only) and scoring (the kitty's multiplier, the race, reaching A, the cap). The soak of
``test_legal`` still plays every variant in the default run (the expert at two of its
tables).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable

import pytest

from bot.ai import ExpertPlayer, HeuristicPlayer, check_action, expert, make_player, play_hand
from bot.ai import sampler as sampler_module
from bot.ai.context import Context
from bot.ai.expert import RACE_AFTER, pick, ranked_candidates, search
from bot.ai.sampler import Sampler
from bot.ai.soak import VARIANTS
from bot.game import Match, Play
from bot.rules import TRUMP, Card, RuleSet

from .test_view_only import _checkpoint, _reshuffled


def _variant_id(variant: dict[str, object]) -> str:
    return ",".join(map(str, variant.values())) or "default"


# the variants the default run plays (the rest: ``-m slow``): every family among them
EVERY_RUN = {
    "1,race45,reach_a",
    "3,linear,joker,after_bury",
    "joker,after_bury,kitty_draw,none,200",
    "True",  # fixed_two_trump
    "suit_only",
}
assert set(map(_variant_id, VARIANTS)) >= EVERY_RUN  # a renamed variant must not drop out


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(
            v,
            id=_variant_id(v),
            marks=() if _variant_id(v) in EVERY_RUN else pytest.mark.slow,
        )
        for v in VARIANTS
    ],
)
def test_expert_is_legal_under_every_variant(variant: dict) -> None:
    """Searching experts (racing: one sample past the race's start) with a heuristic and a
    random player."""
    rules = RuleSet().replace(**variant)
    players = [
        ExpertPlayer(10_000, worlds=RACE_AFTER + 1, strict=True),
        make_player("random", seed=1),
        ExpertPlayer(10_000, worlds=RACE_AFTER + 1, strict=True),
        HeuristicPlayer(strict=True),
    ]
    match = Match.new(17, rules)
    plays = 0

    def recheck(m: Match, seat: int, action: object) -> None:
        nonlocal plays
        check_action(m.view(seat), action)  # type: ignore[arg-type]
        plays += isinstance(action, Play)

    stats = play_hand(match, players, on_action=recheck)
    # the whole hand was played: with three decks, triples and tractors, a play is two
    # cards on average (77 plays of 156 cards in one hand)
    assert stats.result is not None and plays >= rules.hand_size * 4 // 3


@pytest.mark.parametrize(("seed", "stop_after"), [(2, 1), (4, 36), (5, 62), (6, 81)])
def test_expert_decides_from_the_view_alone(seed: int, stop_after: int) -> None:
    match = _checkpoint(seed, stop_after)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0
    view = match.view(seat)
    expert = ExpertPlayer(60_000, worlds=12)
    decision = expert.act(view)
    rng = random.Random(seed)
    for _ in range(2):
        other = _reshuffled(match, seat, rng)
        assert other.hands != match.hands
        assert other.view(seat) == view
        assert expert.act(other.view(seat)) == decision


def test_samples_agree_with_what_the_seat_knows() -> None:
    match = _checkpoint(4, 36)
    _, seat = match.expecting()
    view = match.view(seat)
    ctx = Context(view)
    sampler = Sampler(ctx)
    rng = random.Random(1)
    for _ in range(20):
        world = sampler.sample(rng)
        assert world is not None
        hands, _kitty = world
        assert sorted(map(str, hands[seat])) == sorted(map(str, view.hand))
        for s in range(4):
            assert len(hands[s]) == view.hand_sizes[s]
            # a seat known void in a suit never gets a card of it
            suits = {ctx.order.suit_of[c] for c in hands[s]}
            assert not suits & ctx.mem.void[s] or s == seat
        dealt = sorted(str(c) for s in range(4) if s != seat for c in hands[s])
        unseen = sorted(str(c) for c, k in ctx.mem.unseen.items() for _ in range(k))
        assert set(dealt) <= set(unseen)


def _kitty_of(ctx: Context, hands: list[list[Card]]) -> list[Card]:
    """The sampled kitty: the unseen cards no other hand was dealt."""
    left = Counter({c: k for c, k in ctx.mem.unseen.items() if k})
    for seat, hand in enumerate(hands):
        if seat != ctx.seat:
            left.subtract(hand)
    return list(left.elements())


@pytest.mark.parametrize(
    ("weights", "most_trumps", "most_points"), [(True, 0.5, 4), (False, 9, 20)]
)
def test_the_hidden_kitty_is_drawn_like_a_dealer_buries(
    monkeypatch: pytest.MonkeyPatch, weights: bool, most_trumps: float, most_points: float
) -> None:
    """A dealer keeps trumps and points: drawn uniformly, a kitty held 3.7 trumps and 8.9
    points here (the heuristic's real kitties: no trumps, about 4 points)."""
    monkeypatch.setattr(sampler_module, "KITTY_WEIGHTS", weights)
    match = _checkpoint(4, 20)
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    assert ctx.seat != match.dealer and ctx.mem.kitty_hidden
    sampler = Sampler(ctx)
    rng = random.Random(1)
    trumps = kitty_points = 0.0
    for _ in range(200):
        world = sampler.sample(rng)
        assert world is not None
        kitty = _kitty_of(ctx, world[0])
        assert len(kitty) == match.rules.kitty_size
        assert world[1] == sum(c.points for c in kitty)
        trumps += sum(ctx.order.suit_of[c] == TRUMP for c in kitty) / 200
        kitty_points += world[1] / 200
    assert trumps < most_trumps and kitty_points < most_points
    if not weights:
        assert trumps > 2 and kitty_points > 6


def test_a_seat_that_showed_it_holds_no_pair_is_dealt_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Following a pair lead with two odd cards of the suit shows there is no pair of it
    in that hand; a deal that gives it one is drawn again."""
    shown = 0
    for tries in (0, sampler_module.PAIR_TRIES):
        monkeypatch.setattr(sampler_module, "PAIR_TRIES", tries)
        bad = 0
        for seed, stop in [(1, 30), (3, 30), (6, 30), (13, 30)]:
            match = _checkpoint(seed, stop)
            _, seat = match.expecting()
            sampler = Sampler(Context(match.view(seat)))
            rng = random.Random(seed)
            for _ in range(40):
                world = sampler.sample(rng)
                assert world is not None
                bad += sampler._shows_pair(world[0])
        if tries == 0:
            shown = bad
    assert shown >= 20 and bad * 10 <= shown


def test_the_heuristics_choice_stands_unless_clearly_beaten() -> None:
    assert pick([[1.0, 2.0, 3.0], [1.5, 2.5, 3.4]]) == 1  # better on every sample
    assert pick([[1.0, 2.0, 3.0], [9.0, -5.0, 3.5]]) == 0  # better on average, not clearly
    assert pick([[0.0] * 5, [0.0] * 5]) == 0


def test_the_race_stops_playing_out_challengers_that_trail() -> None:
    """Same samples in the same order with or without the race; a dropped challenger
    trailed the heuristic's choice when it left, and the pick never takes it."""
    match = _checkpoint(2, 1)  # the first lead: six candidates
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    ranked = ranked_candidates(ctx)[:6]
    assert len(ranked) == 6
    full = search(ctx, ranked, float("inf"), worlds=24, seed="race/1")
    raced = search(ctx, ranked, float("inf"), worlds=24, seed="race/1", race=True)
    assert full is not None and raced is not None
    assert all(len(v) == 24 for v in full)
    dropped = [i for i in range(1, len(ranked)) if len(raced[i]) < len(raced[0])]
    assert dropped
    for i, values in enumerate(raced):
        assert values == full[i][: len(values)]
    for i in dropped:
        n = len(raced[i])
        assert n >= 4 and sum(raced[i]) <= sum(raced[0][:n])
    assert pick(raced) not in dropped
    assert pick([[1.0, 2.0, 3.0], [9.0, 9.0]]) == 0  # a shorter (dropped) list is out


def test_search_stops_at_its_deadline_and_without_samples_defers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = _checkpoint(1, 4)
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    ranked = ranked_candidates(ctx)
    assert search(ctx, ranked[:4], time.perf_counter()) is None  # no time: the heuristic
    # play-outs on a stepped clock: a real one on a busy machine would measure the
    # machine, not the stopping rule. At 5 ms a play-out (20 ms a sample of four) ten
    # samples fit before 0.21 s, and an eleventh would end past it
    clock = [0.0]
    pace: list[Callable[[float], float]] = [lambda now: 0.005]
    real_outcome = expert.outcome

    def outcome_on_the_clock(*args: object) -> float:
        clock[0] += pace[0](clock[0])
        return real_outcome(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(expert, "outcome", outcome_on_the_clock)
    monkeypatch.setattr(expert.time, "perf_counter", lambda: clock[0])
    values = search(ctx, ranked[:4], 0.21)
    assert values is not None and [len(v) for v in values] == [10] * 4
    assert clock[0] <= 0.21

    # a deadline that falls inside a sample drops that sample for every candidate: on
    # a clock where the first play-outs are quick and then the machine gets busy,
    # the second sample starts in time and ends past the deadline after one play-out
    clock[0] = 0.0
    pace[0] = lambda now: 0.1 if now < 0.35 else 2.0
    monkeypatch.setattr(expert, "MIN_WORLDS", 1)
    cut = search(ctx, ranked[:4], 1.0)
    assert cut is not None and [len(v) for v in cut] == [1, 1, 1, 1]


def test_expert_without_time_plays_like_the_heuristic() -> None:
    for seed, stop in [(2, 1), (4, 36), (5, 62)]:
        match = _checkpoint(seed, stop)
        _, seat = match.expecting()
        view = match.view(seat)
        heuristic = HeuristicPlayer().act(view)
        assert ExpertPlayer(0).act(view) == heuristic
        # asked a minute ago (a table's job that waited for a thinker): out of time too
        assert ExpertPlayer(60_000).act(view, time.perf_counter() - 60) == heuristic


def test_levels_by_name_and_their_fixed_ratings() -> None:
    from bot.ai import LEVELS, level_of
    from bot.store.ratings import BOT_RATINGS, bot_rating, rate_match

    assert LEVELS == ("easy", "normal", "expert")
    assert [make_player(k).name for k in LEVELS] == ["greedy", "ai", "expert"]
    assert level_of(" Heuristic ") == "normal" and level_of("greedy") == "easy"
    with pytest.raises(ValueError, match="unknown player"):
        make_player("grandmaster")
    expert = make_player("expert", think_ms=7)
    assert isinstance(expert, ExpertPlayer) and expert.think_ms == 7
    # each level plays at its own fixed rating, ordered by strength
    easy, normal, strong = (BOT_RATINGS[k][0] for k in LEVELS)
    assert easy < normal < strong and bot_rating("heuristic") == BOT_RATINGS["normal"]
    # every kind a seat may hold rates as its level (the store keeps its own copy of the names)
    from bot.ai.levels import KINDS
    from bot.store.ratings import _LEVEL_NAMES

    assert all(bot_rating(k) == BOT_RATINGS[level_of(k)] for k in KINDS)
    assert set(_LEVEL_NAMES) <= set(KINDS)
    fresh = (25.0, 25.0 / 3)
    beat_easy = rate_match([fresh, "easy", "easy", "easy"], 0)[0][0]
    beat_expert = rate_match([fresh, "expert", "expert", "expert"], 0)[0][0]
    assert beat_expert > beat_easy > fresh[0]  # beating stronger bots counts for more
    assert rate_match([fresh, None, None, None], 0) == rate_match([fresh, *["normal"] * 3], 0)


def test_arena_cli_takes_levels_and_think_ms(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bot.__main__ import main

    assert (
        main(
            ["arena", "--deals", "2", "--seed", "4", "expert", "easy", "--think-ms", "3", "--json"]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result["point_diff"]) == {"mean", "low", "high"}
    assert result["a"] == "expert" and result["point_diff"]["mean"] > 0
