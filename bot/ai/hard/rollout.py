"""Playing a sampled world to the end of its deal, and what the deal was worth to a side. A world is
an independent copy of the game with the hidden cards re-dealt, so a policy may read it freely."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Action, Game

Policy = Callable[[Game, int, list[Action]], Action]
"""Picks one of ``legal`` for ``seat`` in a world (never shown to a player)."""

MAX_STEPS = 20
"""More than the plays left to any trick (a safety net for the step-by-step part)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one played-out deal gave each side: the score change, the scored summary (None when the
    deal ended without one, e.g. a declare-out) and the game's winning sides if it ended."""

    changes: tuple[float, ...]
    """Each side's score change, with the rounding of counters undone and, in pitch, a hair for the
    Game point's card values (so that more counters, or being closer to Game, always count)."""
    summary: dict[str, Any] | None
    winners: tuple[int, ...] | None
    first_trick: int | None = None
    """The seat that took the first trick completed in the rollout (None: no trick was)."""


def play_out(
    world: Game, policy: Policy, deal: int | None = None, before: Sequence[int] | None = None
) -> DealResult:
    """Play ``world`` (changed in place) until its deal is scored or the game ends: the trick under way
    step by step (to see who takes it), the rest by ``Game.rollout``. ``deal`` and ``before``: the deal
    number and scores before the action just applied (so an action that ended the deal is scored)."""
    deal = world.deal_no if deal is None else deal
    before = list(world.scores if before is None else before)
    first_trick: int | None = None
    for _ in range(MAX_STEPS):
        if world.outcome is not None or world.deal_no != deal or not world.trick_plays():
            break
        seat = world.to_act[0]
        events = world.apply(seat, policy(world, seat, world.legal_actions(seat)))
        if len(events) > 1:
            first_trick = trick_winner_of(events)
            break
    if world.outcome is None and world.deal_no == deal:
        world.rollout(policy)
    summary: dict[str, Any] | None = getattr(world, "last_deal", None)
    if summary is not None and summary.get("deal") != deal:
        summary = None  # the deal ended unscored (a declare-out, a concession, a redeal)
    if summary is not None:
        changes = smoothed(summary, world.side_of)
    else:
        after = world.scores
        changes = tuple(float(a - b) for a, b in zip(after, before, strict=True))
    winners = world.outcome.winning_sides if world.outcome is not None else None
    return DealResult(changes, summary, winners, first_trick)


GAME_VALUE_WEIGHT = 0.01
"""What one card value toward pitch's Game point is worth beside a deal's points. 4-player pitch:
67.2% of 200 pairs against ``basic`` (bench/records/experiments.md#game-value-weight)."""


CHIP_COUNTER_WEIGHT = 0.02
"""Three-hand: what one counter taken is worth beside the chips of a deal (a band is 3 a seat at least)."""


def smoothed(summary: dict[str, Any], side_of: Sequence[int]) -> tuple[float, ...]:
    """The deal's score changes made finer (see ``DealResult.changes``); a side set keeps its loss."""
    changes = [float(change) for change in summary["changes"]]
    raw, counted = summary.get("counters"), summary.get("counted")
    if isinstance(raw, list) and isinstance(counted, list) and len(raw) == len(changes):
        bidder = summary.get("bidder")
        bidder_side = side_of[bidder] if isinstance(bidder, int) else None
        for side, (taken, scored) in enumerate(zip(raw, counted, strict=True)):
            if not (summary.get("made") is False and side == bidder_side):
                changes[side] += taken - scored
    values = summary.get("game_values")
    if isinstance(values, list) and len(values) == len(changes):
        for side, value in enumerate(values):
            changes[side] += GAME_VALUE_WEIGHT * value
    tricks, buried = summary.get("trick_counters"), summary.get("buried_counters")
    if "chips" in summary and isinstance(tricks, list) and len(tricks) == len(changes):
        # Three-hand pays chips for the contract alone, so a deal every rollout makes (or sets)
        # values all cards alike; the counters each seat takes break the tie, and keep a margin.
        for side, taken in enumerate(tricks):
            changes[side] += CHIP_COUNTER_WEIGHT * taken
        bidder = summary.get("bidder")
        if isinstance(bidder, int) and isinstance(buried, int):
            changes[side_of[bidder]] += CHIP_COUNTER_WEIGHT * buried
    return tuple(changes)


def trick_winner_of(events: Sequence[Any]) -> int | None:
    """The winner of the trick completed among ``events`` (None: none was)."""
    for event in events:
        if event.get("type") == "trick":
            winner: int = event["winner"]
            return winner
    return None


def margin(changes: Sequence[float], side: int) -> float:
    """``side``'s deal score minus the mean of the other sides' (what a seat plays for)."""
    others = len(changes) - 1
    if others <= 0:
        return float(changes[side])
    return changes[side] - (sum(changes) - changes[side]) / others
