"""Who sits with whom: four seats, partners opposite (0 & 2 against 1 & 3)."""

from __future__ import annotations


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat across the table."""
    return (seat + 2) % 4
