"""Alt text for every picture: the same cards in the usual notation (``10♠ K♥ …``) for screen readers.

Discord carries alt text as an attachment's ``description``, at most
``ATTACHMENT_DESCRIPTION_LIMIT`` characters (Discord API, attachment object: "description (alt
text) for the file, max 1024 characters"; discord.py's ``File(description=...)`` passes it on
without checking). Every text built here is fitted to that limit: a shorter wording first, then a
cut at a word boundary marked with an ellipsis.
"""

from __future__ import annotations

from bot.pictures.cards import SUIT_SYMBOLS, notation
from bot.pictures.melds import SeatMelds

ATTACHMENT_DESCRIPTION_LIMIT = 1024


def fit(*wordings: str, limit: int = ATTACHMENT_DESCRIPTION_LIMIT) -> str:
    """The first wording that fits ``limit``, else the last one cut at a space with ``…``."""
    for text in wordings:
        if len(text) <= limit:
            return text
    text = wordings[-1][: limit - 1]
    cut = text.rfind(" ")
    if cut > limit // 2:
        text = text[:cut]
    return text.rstrip(" ,;:") + "…"


def _playable(hand: tuple[str, ...], legal: frozenset[str]) -> str:
    shown = [code for code in dict.fromkeys(hand) if code in legal]
    if len(shown) == len(set(hand)):
        return "all"
    return notation(shown) if shown else "none"


def hand_alt(
    hand: tuple[str, ...], legal: frozenset[str] | None, selected: tuple[str, ...], title: str | None
) -> str:
    """``Your hand (12 cards): A♠ 10♠ …; playable: A♠ 10♠; selected: Q♥``."""
    head = title or "Your hand"
    if not hand:
        return fit(f"{head}: no cards.")
    cards = f"{len(hand)} card" if len(hand) == 1 else f"{len(hand)} cards"
    parts = [f"{head} ({cards}): {notation(hand)}"]
    if legal is not None:
        parts.append(f"playable: {_playable(hand, legal)}")
    if selected:
        parts.append(f"selected: {notation(selected)}")
    return fit("; ".join(parts) + ".")


def _trump_text(trump: str | None) -> str:
    return f"trump {SUIT_SYMBOLS[trump]}" if trump else ""


def trick_alt(
    plays: tuple[tuple[str, str], ...],
    winner: int | None,
    waiting: tuple[str, ...],
    trump: str | None,
    title: str | None,
) -> str:
    """``Trick: Ann led 10♠, Bob K♠ (winning), Cy 9♠; waiting for Di; trump ♥.``"""
    head = title or "Trick"
    if plays:
        said = []
        for index, (name, code) in enumerate(plays):
            verb = " led " if index == 0 else " "
            mark = " (winning)" if index == winner else ""
            said.append(f"{name}{verb}{notation((code,))}{mark}")
        parts = [", ".join(said)]
    else:
        parts = ["no cards played yet"]
    if waiting:
        parts.append("waiting for " + ", ".join(waiting))
    if trump:
        parts.append(_trump_text(trump))
    return fit(f"{head}: " + "; ".join(parts) + ".")


def _seat_melds_text(seat: SeatMelds, *, detail: bool) -> str:
    head = f"{seat.name} {seat.total}" if seat.total else seat.name
    if not seat.groups and not seat.cards:
        return f"{head} ({seat.heading_note()})"
    if detail and seat.groups:
        groups = []
        for group in seat.groups:
            label = f"{group.name} " if group.name else ""
            points = f" = {group.points}" if group.points is not None else ""
            groups.append(f"{label}{notation(group.cards)}{points}")
        return f"{head}: " + ", ".join(groups)
    names = seat.meld_names()
    return f"{head}: {notation(seat.shown_cards())}" + (f" ({names})" if names else "")


def melds_alt(seats: tuple[SeatMelds, ...], trump: str | None, title: str | None) -> str:
    """``Melds (trump ♥): Ann 150: Run A♥ 10♥ K♥ Q♥ J♥ = 150; Bob: no meld shown.``"""
    head = title or "Melds"
    if trump:
        head += f" ({_trump_text(trump)})"
    if not seats:
        return fit(f"{head}: none.")
    full = f"{head}: " + "; ".join(_seat_melds_text(seat, detail=True) for seat in seats) + "."
    short = f"{head}: " + "; ".join(_seat_melds_text(seat, detail=False) for seat in seats) + "."
    return fit(full, short)
