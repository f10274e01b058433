"""Small builders for store tests: seat dicts and whole finished games in one call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store import SeatResult, Store


def human(user_id: int, name: str | None = None) -> dict[str, Any]:
    return {"kind": "human", "user_id": user_id, "name": name or f"player{user_id}"}


def computer(level: str = "basic") -> dict[str, Any]:
    return {"kind": "computer", "level": level}


async def new_game(
    store: Store,
    guild_id: int,
    seats: Sequence[dict[str, Any]],
    *,
    variant: str = "pitch",
    family: str = "pitch",
    channel_id: int | None = None,
    status: str = "playing",
    seed: int = 1,
) -> int:
    return await store.create_game(
        guild_id=guild_id,
        channel_id=channel_id if channel_id is not None else guild_id * 1000,
        host_id=next((s["user_id"] for s in seats if s["kind"] == "human"), 0),
        variant=variant,
        family=family,
        options={},
        seed=seed,
        players=len(seats),
        seats=list(seats),
        status=status,
    )


async def play_game(
    store: Store,
    guild_id: int,
    players: Sequence[int | None],
    places: Sequence[int],
    *,
    sides: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    rated: bool = True,
    variant: str = "pitch",
    family: str = "pitch",
    finished_at: float | None = None,
) -> int:
    """Create and finish a game: ``players`` are user ids (None = computer), one per seat."""
    seats = [computer() if uid is None else human(uid) for uid in players]
    game_id = await new_game(store, guild_id, seats, variant=variant, family=family)
    sides = list(sides) if sides is not None else list(range(len(players)))
    scores = list(scores) if scores is not None else [10 if place == 1 else 5 for place in places]
    results = [
        SeatResult(seat=seat, user_id=uid, side=sides[seat], score=scores[seat], place=places[seat])
        for seat, uid in enumerate(players)
    ]
    assert await store.finish_game(
        game_id, guild_id=guild_id, family=family, results=results, rated=rated, finished_at=finished_at
    )
    return game_id
