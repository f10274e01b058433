"""Seasons: ``store.seasons``. A season is a stretch of a guild's games with its own ratings,
which start from zero (the new player's rating) when an admin starts a new season; the all-time
ratings and every result stay as they are. ``credit_season`` rates a finished game within the
guild's current season, inside ``results.finish``'s transaction, with the same arithmetic as the
all-time ratings (``bot.store.ratings.rate``).
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterable, Sequence
from typing import Any

from bot.store.boards import _BOARD_ORDER, MAX_PAGE, ORDERS
from bot.store.database import Database, Row, Tx
from bot.store.errors import StoreError, StoreRefusal
from bot.store.ratings import Rating, default_rating, ordinal, rate, rated_player
from bot.store.records import FamilyRating, LeaderRow, Season, SeatResult, win_pct
from bot.store.validate import containing, is_int

MAX_SEASON_NAME = 100


def season_record(row: Row) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


def credit_season(
    tx: Tx,
    *,
    guild_id: int,
    family: str,
    results: Sequence[SeatResult],
    players: Iterable[int],
    rated: bool,
    at: float,
) -> None:
    """Count a finished game in the guild's current season (if it has one that had started at
    ``at``): games and wins of ``players`` (those the all-time ratings counted), and their season
    ratings moved as the all-time ones were, from their season ratings."""
    season = tx.one(
        "SELECT id FROM seasons WHERE guild_id = ? AND ended_at IS NULL AND started_at <= ?", (guild_id, at)
    )
    if season is None:
        return
    before: dict[int, Rating] = {}
    for player in players:
        row = tx.one(
            "SELECT mu, sigma FROM season_ratings WHERE season_id = ? AND family = ? AND user_id = ?",
            (season["id"], family, player),
        )
        before[player] = (row["mu"], row["sigma"]) if row else default_rating()
    after = rate(before, results, rated)
    for player, (mu, sigma) in after.items():
        won = int(any(r.place == 1 for r in results if rated_player(r) == player))
        tx.run(
            "INSERT INTO season_ratings (season_id, guild_id, family, user_id, mu, sigma, ordinal, games,"
            " wins) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (season_id, family, user_id) DO UPDATE"
            " SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
            " games = season_ratings.games + 1, wins = season_ratings.wins + excluded.wins",
            (season["id"], guild_id, family, player, mu, sigma, ordinal((mu, sigma)), won),
        )


class Seasons:
    """Start and list a guild's seasons, and their leaderboards and player ratings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(self, guild_id: int, name: str) -> tuple[Season, Season | None]:
        """End the guild's current season (if any) and start a new one now, in one transaction:
        the new season and the one it ended."""
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_SEASON_NAME:
            raise StoreRefusal(f"a season needs a name of 1 to {MAX_SEASON_NAME} characters")

        def begin(tx: Tx) -> tuple[Season, Season | None]:
            now = time.time()
            row = tx.one("SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
            previous = None if row is None else season_record(row)
            if previous is not None:
                if previous.name.casefold() == name.casefold():
                    raise StoreRefusal(f"the current season is already called {name!r}: choose a new name")
                previous.ended_at = now
                tx.run("UPDATE seasons SET ended_at = ? WHERE id = ?", (now, previous.id))
            season_id = tx.insert(
                "INSERT INTO seasons (guild_id, name, started_at) VALUES (?, ?, ?)", (guild_id, name, now)
            )
            return Season(season_id or 0, guild_id, name, now, None), previous

        return await self._db.write(begin)

    async def current(self, guild_id: int) -> Season | None:
        """The guild's current season, or None if no season was ever started."""
        row = await self._db.read(
            Tx.one, "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        return None if row is None else season_record(row)

    async def get(self, season_id: int) -> Season | None:
        row = await self._db.read(Tx.one, "SELECT * FROM seasons WHERE id = ?", (season_id,))
        return None if row is None else season_record(row)

    async def list(self, guild_id: int, *, limit: int = 25, matching: str = "") -> builtins.list[Season]:
        """The guild's seasons, newest first; ``matching``: names containing that text (any case)."""
        pattern = containing(matching)
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM seasons WHERE guild_id = ? AND lower(name) LIKE lower(?) ESCAPE '\\'"
            " ORDER BY started_at DESC, id DESC LIMIT ?",
            (guild_id, pattern, limit),
        )
        return [season_record(row) for row in rows]

    async def named(self, guild_id: int, name: str) -> Season | None:
        """The guild's newest season with this name (any case), or None."""
        row = await self._db.read(
            Tx.one,
            "SELECT * FROM seasons WHERE guild_id = ? AND lower(name) = lower(?)"
            " ORDER BY started_at DESC, id DESC LIMIT 1",
            (guild_id, name.strip()),
        )
        return None if row is None else season_record(row)

    async def page(
        self,
        season_id: int,
        *,
        family: str | None = None,
        order: str = "rating",
        limit: int = 10,
        offset: int = 0,
    ) -> builtins.list[LeaderRow]:
        """One page of a season's leaderboard, best first (as ``boards.page`` for all time)."""
        if order not in ORDERS:
            raise StoreError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
        if not is_int(limit) or not 1 <= limit <= MAX_PAGE or not is_int(offset) or offset < 0:
            raise StoreError(f"limit must be 1 to {MAX_PAGE} and offset 0 or more")
        source = _SEASON_BOARD if family is None else _SEASON_FAMILY_BOARD
        params: dict[str, Any] = {"season": season_id, "family": family, "limit": limit, "offset": offset}
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM (" + source + ") AS board" + _BOARD_ORDER[order] + " LIMIT :limit OFFSET :offset",  # noqa: S608
            params,
        )
        return [
            LeaderRow(
                rank=offset + n,
                user_id=row["user_id"],
                rating=row["rating"],
                games=row["games"],
                wins=row["wins"],
                win_pct=win_pct(row["wins"], row["games"]),
            )
            for n, row in enumerate(rows, start=1)
        ]

    async def count(self, season_id: int, *, family: str | None = None) -> int:
        """How many players the season's board lists in all."""
        source = _SEASON_BOARD if family is None else _SEASON_FAMILY_BOARD
        return int(
            await self._db.read(
                Tx.value,
                "SELECT COUNT(*) FROM (" + source + ") AS board",  # noqa: S608  (constant SQL)
                {"season": season_id, "family": family},
            )
        )

    async def any_rated(self, season_id: int, *, family: str | None = None) -> bool:
        """Whether anyone (in ``family``, or any) has played a rated game this season."""
        _, new_sigma = default_rating()
        row = await self._db.read(
            Tx.one,
            "SELECT EXISTS (SELECT 1 FROM season_ratings WHERE season_id = ?"
            " AND (CAST(? AS TEXT) IS NULL OR family = ?) AND sigma < ?)",
            (season_id, family, family, new_sigma),
        )
        return bool(row and row[0])

    async def player_ratings(self, season_id: int, user_id: int) -> builtins.list[FamilyRating]:
        """A player's rating in each family this season, most played first (``trend`` is 0)."""
        rows = await self._db.read(
            Tx.all,
            "SELECT family, mu, sigma, ordinal, games, wins FROM season_ratings"
            " WHERE season_id = ? AND user_id = ? ORDER BY games DESC, family",
            (season_id, user_id),
        )
        return [
            FamilyRating(
                family=row["family"], rating=row["ordinal"], mu=row["mu"], sigma=row["sigma"],
                games=row["games"], wins=row["wins"], trend=0.0,
            )
            for row in rows
        ]  # fmt: skip


# Season boards, built only from these constants: (user_id, rating, games, wins) like boards.py's.
_SEASON_FAMILY_BOARD = (
    "SELECT user_id, ordinal AS rating, games, wins FROM season_ratings"
    " WHERE season_id = :season AND family = :family AND games > 0"
)
_SEASON_BOARD = (
    "SELECT user_id, MAX(ordinal) AS rating, SUM(games) AS games, SUM(wins) AS wins FROM season_ratings"
    " WHERE season_id = :season AND games > 0 GROUP BY user_id"
)
