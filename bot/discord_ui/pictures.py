"""Cards as pictures in Discord: the hand in a player's panel, and the trick (or the laid melds) on
the public table message.

``bot.pictures`` draws them (off the event loop, cached per state); this module picks what to draw
from the views, and attaches the PNG with its alt text as the attachment's description. The text
beside a picture keeps its one-line summary (the hand line, the embed's Trick field), so screen
readers and text-only clients lose nothing. Pictures need the **Attach Files** permission.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.pictures import (
    MeldGroup,
    Rendered,
    SeatMelds,
    render_hand,
    render_melds,
    render_off_loop,
    render_trick,
)
from bot.tables import Table

HAND_FILE = "hand.png"
TABLE_FILE = "table.png"


def can_attach(channel: object) -> bool:
    """Whether the bot may attach files in ``channel`` (a channel it cannot judge: yes)."""
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return channel.permissions_for(channel.guild.me).attach_files
    return True


def as_file(rendered: Rendered, filename: str) -> discord.File:
    """A fresh upload of the picture (a ``discord.File`` is read once), its alt text attached."""
    return discord.File(io.BytesIO(rendered.png), filename, description=rendered.alt_text)


async def hand_picture(view: dict[str, Any], seat: int, *, four_colour: bool) -> Rendered:
    """The seat's cards (the hand, then its melded cards still on the table), the playable ones
    raised when it is the seat's turn to play a card."""
    cards = list(view["hand"])
    table_cards = view.get("table")
    if isinstance(table_cards, list) and seat < len(table_cards):
        cards += table_cards[seat]
    plays = [action[5:] for action in view["legal"] if action.startswith("play ")]
    return await render_off_loop(render_hand, cards, legal=plays or None, four_colour=four_colour)


def _waiting(plays: list[dict[str, Any]], names: list[str]) -> list[str]:
    """Who is still to play to the trick, in turn after the last card."""
    count = len(names)
    last = plays[-1]["seat"]
    played = {play["seat"] for play in plays}
    order = [(last + step) % count for step in range(1, count)]
    return [names[seat] for seat in order if seat not in played]


def laid_melds(view: dict[str, Any], names: list[str]) -> list[SeatMelds]:
    """The melds on the table as the public view shows them (any pinochle variant)."""
    if isinstance(view.get("melds"), list):  # partnership, double-deck: every seat's melds
        shown = view["melds"]
    elif isinstance(view.get("meld"), dict):  # three-hand: the bidder's melds
        shown = [view["meld"]]
    else:
        shown = []
    seats = [
        SeatMelds(
            names[entry["seat"]],
            [MeldGroup(m["name"], m["cards"], m.get("points"), m.get("class")) for m in entry["melds"]],
            entry.get("total"),
        )
        for entry in shown
    ]
    table_cards = view.get("table")
    if not seats and isinstance(table_cards, list) and any(table_cards):  # two-hand: laid one by one
        log = view.get("meld_log") or []
        for seat, cards in enumerate(table_cards):
            if cards:
                groups = [MeldGroup(m["name"], m["cards"], m.get("points")) for m in log if m["seat"] == seat]
                seats.append(SeatMelds(names[seat], groups, cards=cards))
    return seats


async def table_picture(table: Table) -> Rendered | None:
    """The picture for the public table message: the trick being played; between tricks the laid
    melds, or else the last trick with its winner; nothing before the cards come out."""
    game = table.game
    if table.status != "playing" or game is None:
        return None
    view = game.public_view()
    names = table.names()
    trump = view.get("trump")
    if view.get("trick"):
        plays = view["trick"]
        pairs = [(names[p["seat"]], p["card"]) for p in plays]
        waiting = _waiting(plays, names)
        return await render_off_loop(render_trick, pairs, waiting=waiting, trump=trump)
    melds = laid_melds(view, names)
    if melds:
        return await render_off_loop(render_melds, melds, trump=trump)
    last = view.get("last_trick")
    if isinstance(last, dict) and last.get("plays"):
        pairs = [(names[p["seat"]], p["card"]) for p in last["plays"]]
        winner = next(i for i, p in enumerate(last["plays"]) if p["seat"] == last["winner"])
        return await render_off_loop(render_trick, pairs, winner=winner, trump=trump, title="Last trick")
    return None
