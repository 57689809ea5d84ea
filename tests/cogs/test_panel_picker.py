"""What a hand panel's picker stages: each menu holds the cards chosen in it.

Discord sends a menu's whole choice at each change, so the bot keeps one choice per
menu and a play is their union; whatever stages cards (a menu, the Suggest button)
must leave each card under the menu that offers it, or a change in that menu would
not reach it.
"""

from __future__ import annotations

from bot.rules import Card
from cogs.panels import menus_for

from .helpers import Env
from .test_bad_input import _started


def _menus_of(env: Env, seat: int, cards: list[Card]) -> list[int]:
    """The menus of the seat's panel that offer some of ``cards``."""
    menus = menus_for(env.match().view(seat))
    return [i for i, options in enumerate(menus) if any(c in cards for _, c in options)]


async def test_a_suggestion_taken_back_card_by_card_in_its_menu_leaves_the_selection(
    shengji: Env,
) -> None:
    """Suggest stages the suggested cards; the player then takes one back out of its
    menu (the client sends that menu's other choices): the card leaves the selection,
    whichever menu offers it (it stayed, and the Play button stayed refused, when the
    suggestion was kept as the first menu's choice)."""
    env = shengji
    await _started(env)
    table, match = env.table(), env.match()
    for _ in range(60):  # on to a turn whose suggestion is not all in the first menu
        seat, seq = match.to_act, match.seq
        cards = env.suggestion(seat)
        if _menus_of(env, seat, cards) != [0]:
            break
        await env.play_with_slash(seat, cards)
    menu = _menus_of(env, seat, cards)[-1]
    assert menu > 0
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)
    await env.driver.click(panel, f"sj:b:{table.id}:{seat}:{seq}:suggest", user)
    presenter = env.bot.presenter
    suggested = await env.until(lambda: presenter.staged_values(table, seat, seq))
    offered = {value for value, _ in menus_for(match.view(seat))[menu]}
    in_menu = [v for v in suggested if v in offered]
    taken_back, kept = in_menu[0], in_menu[1:]
    picker = f"sj:p:{table.id}:{seat}:{seq}:{menu}"
    await env.driver.select(env.fake.messages[panel.id], picker, kept, user)
    staged = presenter.staged_values(table, seat, seq)
    assert sorted(staged) == sorted(v for v in suggested if v != taken_back)
