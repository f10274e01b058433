"""Which bids a menu shows, for the Discord controls and the terminal alike (no Discord here).

An auction can allow a hundred bids (double-deck 50-500, partnership auction 100-1000): a menu
shows the lowest few or a few jumps, and any other amount is typed (and judged by the engine).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot import render

STEPS = (10, 50)  # the jumps offered above the lowest legal bid
NEXT_BIDS = 4  # bids named in hints and listed by the terminal


def amounts(legal: Iterable[str]) -> list[int]:
    """The legal bid amounts among ``legal`` actions, lowest first."""
    return sorted(int(action.split()[1]) for action in legal if action.startswith("bid "))


def quick_bids(bids: list[int]) -> list[int]:
    """The lowest legal bid and the lowest legal bids at least each step above it (distinct,
    in order)."""
    if not bids:
        return []
    chosen = [bids[0]]
    for step in STEPS:
        above = next((amount for amount in bids if amount >= bids[0] + step), None)
        if above is not None and above not in chosen:
            chosen.append(above)
    return chosen


def ladder_hint(view: dict[str, Any], bids: list[int]) -> str:
    """``350, 360, 370, 380 … 500``: the next few bids and the highest."""
    shown = [render.bid_text(view, amount) for amount in bids[:NEXT_BIDS]]
    if len(bids) > NEXT_BIDS:
        shown.append(f"… {render.bid_text(view, bids[-1])}")
    return ", ".join(shown)
