"""Who sits with whom: four seats, partners opposite (0 & 2 against 1 & 3).

Seats are 0 to 3 in code and 1 to 4 where people read or type them (1号位 to 4号位:
nobody at a card table counts from 0); ``seat_number`` and ``seat_index`` cross that
line, in the Discord layer and the terminal only.
"""

from __future__ import annotations


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat across the table."""
    return (seat + 2) % 4


def seat_number(seat: int) -> int:
    """The number people read for ``seat``: 1 to 4."""
    return seat + 1


def seat_index(number: int) -> int:
    """The seat people mean by ``number`` (1 to 4)."""
    return number - 1
