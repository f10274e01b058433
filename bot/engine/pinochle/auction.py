"""The shared auction of the pinochle variants: the double-deck bid ladder."""

from __future__ import annotations

from functools import cache

from bot.engine.actions import Action, bid_action

TOP_BID = 500


@cache
def bid_ladder(style: str, tens_over_100: bool, scale: int) -> tuple[int, ...]:
    """Every bid allowed, lowest first: standard 50, 51 … 60, 65, 70 … (by 5); ``any`` every number
    from 50; ``toby-thomas`` 25 … 50, 55, 60 …; ``tens_over_100``: above 100 only multiples of 10.
    Up to 500 [gap]; everything times ``scale`` (100 aces)."""
    low, by_one_to = (25, 50) if style == "toby-thomas" else (50, 60)
    out = []
    amount = low
    while amount <= TOP_BID:
        out.append(amount * scale)
        step = 1 if style == "any" or amount < by_one_to else 5
        if tens_over_100 and amount >= 100:
            step = 10
        amount = amount + 1 if step == 1 else (amount // step + 1) * step
    return tuple(out)


@cache
def ladder_actions(ladder: tuple[int, ...]) -> tuple[Action, ...]:
    """The interned bid actions of ``ladder``, in its order."""
    return tuple(bid_action(amount) for amount in ladder)
