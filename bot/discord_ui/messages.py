"""The text and embeds people see: the public table message, the private hand, announcements.

Nothing public here comes from a private view; ``hand_text`` is shown only to the seat's owner.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import render
from bot.discord_ui import limits
from bot.engine import find_variant
from bot.seating import sides
from bot.store import League
from bot.tables import Table

COLOUR = discord.Colour.dark_green()

# Events worth a public message of their own (end of a deal or of the game, laid meld, …).
ANNOUNCED = frozenset(
    {
        "deal_scored",
        "game_over",
        "redeal",
        "meld",
        "melds",
        "widow",
        "declare_out",
        "gave_up",
        "throw_in",
    }
)


def announcement(table: Table, event: dict[str, Any]) -> str | None:
    """The public line for an event worth a message of its own (end of deal, end of game)."""
    if event["type"] not in ANNOUNCED or table.game is None:
        return None
    view = table.game.public_view()
    names = table.names()
    if event["type"] == "game_over":
        final = render.scores_line(view, event["scores"], names)
        return f"🏁 **{table.title}**: {render.describe_event(event, view, names)}\nFinal scores: {final}"
    return render.describe_event(event, view, names)


def options_text(table: Table) -> str:
    cls = find_variant(table.variant)
    parts = []
    for spec in cls.option_specs:
        value = table.options.get(spec.name, spec.default)
        shown = ("on" if value else "off") if spec.is_flag else str(value)
        parts.append(f"{spec.name} {shown}")
    return ", ".join(parts) or "none"


def table_embed(table: Table) -> discord.Embed:
    """The public picture of a table: nothing here comes from a private view."""
    embed = discord.Embed(
        title=limits.clip(f"{table.title} — table #{table.id}", limits.EMBED_TITLE), colour=COLOUR
    )
    names = table.names()
    if table.status == "lobby":
        seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names))
        partnered = [side for side in sides(table) if len(side) > 1]
        if partnered:
            seats += "\nPartners: " + " · ".join(" & ".join(str(s + 1) for s in side) for side in partnered)
        embed.description = (
            f"Lobby — host <@{table.host_id}>. **Join** to take a seat, or choose one (and so your "
            "partner) below; empty seats get computer players when the host presses **Start**."
        )
        return limits.add_fields(embed, [("Seats", seats), ("House rules", options_text(table))])
    if table.game is None:
        embed.description = "This table was closed."
        return embed
    view = table.game.public_view()
    embed.description = (
        render.status_text(view, names)
        if table.status != "ended" or view.get("outcome")
        else ("This table was ended without a result.")
    )
    embed.set_footer(text=limits.clip(f"House rules: {options_text(table)}", limits.FOOTER))
    return limits.add_fields(embed, render.table_fields(view, names), inline=("Trump", "Bids"))


def table_content(table: Table) -> str | None:
    """The plain text above the embed: whose turn it is (a mention; edits do not ping)."""
    if table.status != "playing" or table.game is None:
        return None
    people = []
    for seat in table.game.to_act:
        sitter = table.seats[seat]
        if sitter is not None and sitter.is_human and not sitter.away:
            people.append(f"<@{sitter.user_id}>")
    return f"Your turn: {', '.join(people)}" if people else None


def hand_text(table: Table, seat: int, view: dict[str, Any]) -> str:
    names = table.names()
    lines = [f"**Your hand** — {table.title}, seat {seat + 1}: {render.pretty_cards(view['hand'])}"]
    lines.extend(private_lines(view, seat, names))
    if view.get("trump"):
        lines.append(f"Trump: {render.suit_name(view['trump'])}")
    if view.get("trick"):
        lines.append(f"Trick: {render.trick_text(view['trick'], names)}")
    elif isinstance(view.get("last_trick"), dict):  # the panel is often all a player looks at
        last = view["last_trick"]
        lines.append(f"Last trick: {render.trick_text(last['plays'], names)} → {names[last['winner']]}")
    legal = view["legal"]
    if legal and seat in view["to_act"]:
        lines.append(f"**Your turn:** {render.doing_text(view)}.")
        if "declare-out" in legal:
            lines.append("You may also **Declare out** now (right or wrong).")
    else:
        lines.append(render.status_text(view, names))
        if "declare-out" in legal:
            lines.append("You may **Declare out** at any moment while the cards are played (right or wrong).")
    sitter = table.seats[seat]
    if sitter is not None and sitter.away:
        lines.append("A computer is playing for you. Click **Take my seat back** to play yourself.")
    return "\n".join(lines)


def private_lines(view: dict[str, Any], seat: int, names: list[str]) -> list[str]:
    """What only this seat's view holds besides the hand (buried, passed, own meld …)."""
    return render.seat_lines(view, names)


def standings_text(league: League, rows: list[Any]) -> str:
    """A league's standings (the first 20), inside one message."""
    if not rows:
        return f"**{league.name}**: no games were finished in this league."
    lines = [f"**{league.name}** standings:"]
    lines += [
        f"{row.rank}. <@{row.user_id}> — {render.count(row.wins, 'win')} in "
        f"{render.count(row.games, 'game')}, {render.count(row.points, 'point')}"
        for row in rows[:20]
    ]
    return limits.clip("\n".join(lines), limits.CONTENT - 100)  # room for "League over!"
