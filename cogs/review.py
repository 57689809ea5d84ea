"""The post-hand review on Discord: the Review button under a hand's summary and
``/shengji review [hand_id]``.

Both answer only the asking player, ephemerally and in their language: their
costliest decisions of the hand, judged from what they knew at the time
(``bot.service.reviews`` finds the hand and runs the review off the tables'
way). The answer is deferred first: a review takes seconds, Discord waits 3.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.ai.review import Review
from bot.i18n import t
from bot.i18n.review import relative_seat, review_line

from .common import deps, ephemeral, shengji
from .ids import ReviewButton, format_id
from .lang import reply_locale
from .tableview import Components
from .text import cards_text


def review_buttons(table_id: int, hand_no: int, loc: object) -> Components:
    """The Review button under a hand's summary."""
    view = Components()
    view.add_item(
        discord.ui.Button(
            label=t(loc, "review-button"),
            custom_id=format_id(ReviewButton(table_id, hand_no)),
            emoji="🔍",
        )
    )
    return view


def review_text(loc: object, hand_id: int, review: Review) -> str:
    """The review as the player reads it: a title, then the costliest decisions first."""
    lines = [t(loc, "review-title", hand=str(hand_id))]
    for rank, d in enumerate(review.decisions, 1):
        lines.append(
            review_line(
                loc,
                rank,
                d,
                lambda seat: relative_seat(loc, seat, review.seat),
                lambda cards: cards_text(cards, loc),
            )
        )
    if not review.decisions and (review.judged or not review.auto):
        lines.append(t(loc, "review-clean", judged=review.judged))
    if review.auto:
        lines.append(t(loc, "review-auto", plays=review.auto))
    if not review.complete:
        lines.append(t(loc, "review-partial", judged=review.judged))
    return "\n".join(lines)


async def answer_review(
    interaction: discord.Interaction,
    *,
    hand_id: int | None = None,
    table_id: int | None = None,
    hand_no: int | None = None,
) -> None:
    """Acknowledge at once, then answer with the review (or why there is none)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    shown, review = await deps(interaction).service.review(
        interaction.guild_id or 0,
        interaction.channel_id,
        interaction.user.id,
        hand_id=hand_id,
        table_id=table_id,
        hand_no=hand_no,
    )
    text = review_text(await reply_locale(interaction), shown, review)
    await interaction.followup.send(**ephemeral(text))


@shengji.command(
    name="review", description="Your costliest decisions of a hand (the last one here by default)"
)
@app_commands.describe(hand_id="A hand number from the history list")
async def review(
    interaction: discord.Interaction, hand_id: app_commands.Range[int, 1] | None = None
) -> None:
    await answer_review(interaction, hand_id=hand_id)


async def review_button(interaction: discord.Interaction, cid: ReviewButton) -> None:
    """Review under a summary: that hand, that table (the service checks the place)."""
    await answer_review(interaction, table_id=cid.table_id, hand_no=cid.hand_no)
