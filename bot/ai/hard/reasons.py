"""One-line reasons for hints: what the search found, in numbers over sampled deals. A reason
names only the seat's own cards and public facts, never another seat's hidden card."""

from __future__ import annotations

from typing import Any

from bot.ai.hard.search import Tally
from bot.engine import Action, Kind


def describe(action: Action) -> str:
    """An action as a player reads it: ``A♠``, ``bid 250``, ``pass``, ``trump ♥``."""
    if action.kind is Kind.PLAY:
        return action.cards[0].pretty
    if action.kind is Kind.TRUMP and action.suit is not None:
        return f"trump {action.suit.symbol}"
    if action.cards:
        return f"{action.kind.value} " + " ".join(card.pretty for card in action.cards)
    return str(action)


def _points(value: float) -> str:
    return f"{value:+.0f}" if abs(value) >= 10 else f"{value:+.1f}"


def play_reason(chosen: Tally, tallies: list[Tally], view: dict[str, Any]) -> str:
    """``A♠ — wins the trick 78% of sampled deals, +23 a deal (next best 9♠ +11)``."""
    deals = chosen.count
    parts = [describe(chosen.action), "—"]
    if chosen.action.kind is Kind.PLAY and deals:
        parts.append(f"wins the trick {100 * chosen.tricks // deals}% of {deals} sampled deals,")
    elif deals:
        parts.append(f"over {deals} sampled deals")
    parts.append(f"{_points(chosen.mean)} a deal for your side")
    others = sorted((t for t in tallies if t is not chosen and t.count), key=lambda t: -t.mean)
    if others:
        parts.append(f"(next best {describe(others[0].action)} {_points(others[0].mean)})")
    return " ".join(parts)


def bid_reason(chosen: Tally, tallies: list[Tally]) -> str:
    """``bid 250 — the contract is made 82% of 16 sampled deals, +61 a deal (next best pass +12)``."""
    if not chosen.count:
        return f"{describe(chosen.action)} — no time to sample deals"
    parts = [describe(chosen.action), "—"]
    if chosen.action.kind is Kind.BID and chosen.contracts:
        parts.append(f"the contract is made {100 * chosen.made // chosen.contracts}% of")
        parts.append(f"{chosen.count} sampled deals,")
    else:
        parts.append(f"over {chosen.count} sampled deals")
    parts.append(f"{_points(chosen.mean)} a deal for your side")
    others = sorted((t for t in tallies if t is not chosen and t.count), key=lambda t: -t.mean)
    if others:
        parts.append(f"(next best {describe(others[0].action)} {_points(others[0].mean)})")
    return " ".join(parts)
