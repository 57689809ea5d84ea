"""The table image: the hand's live table message, drawn for a phone.

Discord shows an image at the width of the screen, about 400 px on a phone, so
this image is laid out for that: 800 px wide (twice 400, sharp on phone screens)
with every word 35 px (``canvas.legible``): capitals 12.5 px high at 400 px wide.
Top to bottom: the strip (the hand and trick, the trump, both teams with their
levels and names, the attackers' points and the cards left), the trick on the
table as one row per seat in play order from the leader (name, badges: dealer,
led, winning or won, to play; the cards, the winning play ringed, a failed throw's
cards taken back greyed), then the previous trick in one line of card codes.
Every word comes from the scene (the caller's catalogs). Like the hand, it is
composed straight on the palette (``page.Page``); the tests draw the same layout in RGB.
"""

from __future__ import annotations

from bot.rules import Card, partner_of

from .canvas import legible, level_text, new_paper, png
from .cards import CARD_H, CARD_W, hand_order, suit_colours
from .fonts import fit, fit_name, text_width
from .labels import Lang
from .page import Page
from .scenes import TableScene, TrickScene
from .theme import Theme
from .trick import Fan, plate_badges, to_play

WIDTH = 800
MARGIN = 16
PAD = 16  # inside panels and the felt
TEXT = legible(WIDTH)  # every word: 35 px, capitals 12.5 px high at 400 px wide
HEAD = 40
LINE = 50  # one line of text
BADGE_H = round(TEXT * 1.6)
PLATE_W = 250  # the name and badges column of a seat's row
ROW_GAP = 14
RING_PAD = 7
INNER = WIDTH - 2 * (MARGIN + PAD)
FAN_W = INNER - PLATE_W - RING_PAD
ICON = 30  # suit symbols beside a rank in the previous trick's line
SEAT_GAP = 18  # before each seat's name in that line


def _row_order(trick: TrickScene) -> list[int]:
    """Seats in play order from the leader (from the seat to play when none has played)."""
    return [(trick.leader + k) % 4 for k in range(4)]


def _fan(trick: TrickScene, seat: int) -> Fan:
    played = hand_order(trick.plays.get(seat, ()), trick.trump)
    ghosts: list[Card] = []
    if trick.failed_throw is not None and trick.failed_throw[0] == seat and seat in trick.plays:
        ghosts = hand_order(trick.failed_throw[2], trick.trump)
    return Fan.build(played, ghosts, FAN_W)


def _row_height(trick: TrickScene, seat: int, fan: Fan) -> int:
    plate = LINE + len(plate_badges(trick, seat)) * (BADGE_H + 6)
    return max(plate, CARD_H + 2 * RING_PAD, fan.height + 2 * RING_PAD)


def _last_tokens(scene: TableScene) -> list[tuple[int, Card | None]]:
    """The previous trick's line as tokens: a seat's name (card None), then its cards."""
    last = scene.last
    if last is None:
        return []
    tokens: list[tuple[int, Card | None]] = []
    for seat in _row_order(last):
        tokens.append((seat, None))
        tokens += [(seat, card) for card in hand_order(last.plays.get(seat, ()), last.trump)]
    return tokens


def _token_width(scene: TableScene, token: tuple[int, Card | None]) -> int:
    seat, card = token
    if card is None:
        return SEAT_GAP + text_width(_short(scene, seat), TEXT, True) + 10
    if card.is_joker:
        return ICON + 6
    return text_width(level_text(card.rank), TEXT, True) + ICON + 6


def _short(scene: TableScene, seat: int) -> str:
    return fit_name(scene.trick.names[seat], TEXT, True, 160, seat=seat)


def _last_lines(scene: TableScene) -> list[list[tuple[int, Card | None]]]:
    """The previous trick's tokens wrapped into lines; a name never ends a line."""
    lines: list[list[tuple[int, Card | None]]] = [[]]
    x = 0
    tokens = _last_tokens(scene)
    for i, token in enumerate(tokens):
        w = _token_width(scene, token)
        if token[1] is None and i + 1 < len(tokens):
            w += _token_width(scene, tokens[i + 1])
        if lines[-1] and x + w > INNER:
            lines.append([])
            x = 0
        lines[-1].append(token)
        x += _token_width(scene, token)
    return [line for line in lines if line]


def height(scene: TableScene) -> int:
    trick = scene.trick
    strip = PAD + LINE * 4 + PAD
    rows = sum(_row_height(trick, s, _fan(trick, s)) for s in range(4)) + 3 * ROW_GAP
    felt = PAD + rows + PAD
    last = 0
    if scene.last is not None:
        last = ROW_GAP + PAD + LINE * (1 + len(_last_lines(scene))) + PAD
    return MARGIN + strip + ROW_GAP + felt + last + MARGIN


def _strip(page: Page, scene: TableScene, y: int) -> int:
    th = page.th
    bottom = y + PAD + LINE * 4 + PAD
    page.rounded((MARGIN, y, WIDTH - MARGIN, bottom), 18, th.panel, th.page)
    x0, x1 = MARGIN + PAD, WIDTH - MARGIN - PAD
    cy = y + PAD + LINE / 2
    trump = scene.trick.trump
    level = level_text(trump.level)
    trump_w = text_width(scene.trump_word, HEAD, True) + 10 + text_width(level, HEAD, True)
    if trump.suit is not None:
        trump_w += HEAD + 6
    x = x1 - trump_w
    x += page.text(x, cy, scene.trump_word, HEAD, th.text, bold=True, over=th.panel) + 10
    if trump.suit is not None:
        colour = suit_colours(th, page.four_color)[trump.suit]
        page.suit(x, cy, trump.suit, HEAD, colour, th.panel)
        x += HEAD + 6
    page.text(x, cy, level, HEAD, th.text, bold=True, over=th.panel)
    head = fit(scene.head, HEAD, True, x1 - x0 - trump_w - 20)
    page.text(x0, cy, head, HEAD, th.text, bold=True, over=th.panel)
    dealer = scene.trick.dealer
    for k, words in enumerate(scene.teams):
        first = (dealer + k) % 4
        colour = th.gold if k == 0 else th.text
        line_y = cy + LINE * (k + 1)
        x = x0 + page.text(x0, line_y, words + " · ", TEXT, colour, bold=True, over=th.panel)
        joiner = scene.pair_word
        room = (x1 - x - text_width(joiner, TEXT, True)) // 2
        for i, seat in enumerate((first, partner_of(first))):
            name = (joiner if i else "") + fit_name(
                scene.trick.names[seat], TEXT, True, room, seat=seat
            )
            x += page.text(x, line_y, name, TEXT, colour, bold=True, over=th.panel)
    score = fit(scene.score, TEXT, False, x1 - x0)
    page.text(x0, cy + LINE * 3, score, TEXT, th.text, over=th.panel)
    return bottom


def _seat_row(page: Page, scene: TableScene, seat: int, y: int) -> int:
    th = page.th
    trick = scene.trick
    fan = _fan(trick, seat)
    h = _row_height(trick, seat, fan)
    x0 = MARGIN + PAD
    edge = th.win if seat == trick.winner else th.accent if seat == to_play(trick) else None
    name = fit_name(trick.names[seat], TEXT, True, PLATE_W - 10, seat=seat)
    page.text(x0, y + LINE / 2, name, TEXT, edge or th.text, bold=True, over=th.felt)
    colours = {
        "dealer": (th.gold, th.badge_ink),
        "led": (th.panel_edge, th.text),
        "won": (th.win, th.badge_ink),
        "winning": (th.win, th.badge_ink),
        "to_play": (th.accent, th.badge_ink),
    }
    by = y + LINE + BADGE_H / 2
    for key in plate_badges(trick, seat):
        word = fit(scene.badges[key], TEXT, True, PLATE_W - 44)
        fill, ink_ = colours[key]
        w = page.badge(x0, by, word, fill, ink_, TEXT, th.felt)
        pad = round(TEXT * 0.55)
        page.words.append((x0 + pad, round(by - TEXT / 2), x0 + w - pad, round(by + TEXT / 2)))
        by += BADGE_H + 6
    fx = x0 + PLATE_W + RING_PAD
    fy = y + (h - max(CARD_H, fan.height)) // 2
    ring = None
    if seat == trick.winner and fan.items:
        stood = [p for (_, v), p in zip(fan.items, fan.positions, strict=True) if v != "ghost"]
        if stood:
            right = max(dx for dx, _ in stood) + CARD_W
            low = max(dy for _, dy in stood) + CARD_H
            ring = (fx - RING_PAD, fy - RING_PAD, fx + right + RING_PAD, fy + low + RING_PAD)
    page.cards(
        [
            (card, variant, fx + dx, fy + dy)
            for (card, variant), (dx, dy) in zip(fan.items, fan.positions, strict=True)
        ],
        ring,
    )
    return y + h


def _last(page: Page, scene: TableScene, y: int) -> None:
    th = page.th
    last = scene.last
    assert last is not None
    lines = _last_lines(scene)
    bottom = y + PAD + LINE * (1 + len(lines)) + PAD
    page.rounded((MARGIN, y, WIDTH - MARGIN, bottom), 18, th.panel, th.page)
    x0 = MARGIN + PAD
    cy = y + PAD + LINE / 2
    title = fit(scene.last_title, TEXT, True, INNER)
    page.text(x0, cy, title, TEXT, th.muted, bold=True, over=th.panel)
    colours = suit_colours(th, page.four_color)
    for line in lines:
        cy += LINE
        x = x0  # a line that goes on with cards starts there too, not over the panel's edge
        for k, (seat, card) in enumerate(line):
            if card is None:
                colour = th.win if seat == last.winner else th.text
                x += SEAT_GAP if k else 0
                name = _short(scene, seat)
                x += page.text(x, cy, name, TEXT, colour, bold=True, over=th.panel) + 10
            elif card.is_joker:
                big = card.rank == "B"
                colour = colours["H"] if big else th.text
                page.star(x, round(cy - ICON / 2), ICON, big, colour, th.panel)
                x += ICON + 6
            else:
                colour = colours[card.suit]
                rank = level_text(card.rank)
                x += page.text(x, cy, rank, TEXT, colour, bold=True, over=th.panel)
                page.suit(x + 2, cy, card.suit, ICON, colour, th.panel)
                x += ICON + 6


def draw(scene: TableScene, page: Page) -> Page:
    """The table image drawn on ``page`` (at least ``WIDTH`` × ``height(scene)``)."""
    th = page.th
    y = _strip(page, scene, MARGIN) + ROW_GAP
    trick = scene.trick
    rows = sum(_row_height(trick, s, _fan(trick, s)) for s in range(4)) + 3 * ROW_GAP
    felt_bottom = y + PAD + rows + PAD
    page.rounded((MARGIN, y, WIDTH - MARGIN, felt_bottom), 24, th.felt, th.page)
    row_y = y + PAD
    for seat in _row_order(trick):
        row_y = _seat_row(page, scene, seat, row_y) + ROW_GAP
    if scene.last is not None:
        _last(page, scene, felt_bottom + ROW_GAP)
    return page


def render(scene: TableScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    size = (WIDTH, height(scene))
    page = Page(new_paper(*size, th, scratch=True), th, four_color, lang)
    return png(draw(scene, page).canvas, size)
