"""A DM channel never holds more than two of the bot's messages for the current hand,
read from the fake's request log (every post and delete, in the order Discord saw them)."""

from __future__ import annotations

from bot.game import Phase

from .helpers import Env
from .test_bad_input import _started

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


def live_peak(env: Env, channel_id: int) -> int:
    """The most messages the bot had in ``channel_id`` at once (none deleted yet)."""
    posted: set[int] = set()
    peak = 0
    for r in env.fake.requests:
        if r.channel_id != channel_id or r.status >= 300:
            continue
        if r.method == "POST" and r.route == MESSAGES and isinstance(r.response, dict):
            posted.add(int(r.response["id"]))
        elif r.method == "DELETE" and r.route == MESSAGE:
            posted.discard(int(r.params["message_id"]))
        peak = max(peak, len(posted))
    return peak


async def test_the_dealer_s_bury_notice_goes_before_the_lead_notice(shengji: Env) -> None:
    """The human dealer buries, then leads: the bury notice is deleted before the lead's
    is posted (panel + one notice), even when Discord makes the deletion wait."""
    env = shengji
    # Discord answers the first notice deletion 429 (retry in 0.5 s), as its limits may:
    # the lead notice must still wait for the bury notice to be gone
    env.fake.faults.rate_limit("DELETE", MESSAGE, retry_after=0.5, times=1)
    await _started(env, humans=4)
    match = env.match()
    dealer = match.dealer
    assert dealer is not None and match.phase == Phase.PLAY and match.to_act == dealer
    user = env.seat_user(dealer)

    def notices() -> list:
        return [m for m in env.fake.dms(user, include_deleted=True) if m.content.startswith("🔔")]

    await env.until(lambda: len(notices()) >= 2 and not notices()[-1].deleted)  # bury, lead
    channel_id = env.fake.dms(user)[0].channel_id
    assert live_peak(env, channel_id) <= 2
