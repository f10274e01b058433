"""A player's past games and trends, and stored games for replays: ``store.history``.

Read-only; every query goes through the indexes ``results_player`` and ``rating_history_player``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.levels import computer_label
from bot.store.database import Database, Row, Tx
from bot.store.errors import GameNotFound, StoreError
from bot.store.games import read_game
from bot.store.records import GameRecord
from bot.store.validate import is_int

MAX_PAGE = 25
MAX_TREND = 500


@dataclass(frozen=True)
class HistorySeat:
    """One seat of a finished game as the history shows it (``user_id`` None: a computer)."""

    seat: int
    side: int
    user_id: int | None
    name: str
    score: int
    place: int


@dataclass(frozen=True)
class HistoryGame:
    """A finished game from one player's point of view, with every seat of the table."""

    game_id: int
    variant: str
    family: str
    finished_at: float
    seat: int
    side: int
    place: int
    score: int
    league_id: int | None
    seats: tuple[HistorySeat, ...]

    @property
    def won(self) -> bool:
        return self.place == 1

    def partners(self) -> list[HistorySeat]:
        return [s for s in self.seats if s.side == self.side and s.seat != self.seat]

    def opponents(self) -> list[HistorySeat]:
        return [s for s in self.seats if s.side != self.side]


@dataclass(frozen=True)
class TrendPoint:
    """One game on a trend: when it finished, its family, and the rating it left (``ordinal``)."""

    game_id: int
    finished_at: float
    family: str
    ordinal: float
    won: bool


def seat_name(seats: list[Any], seat: int) -> str:
    """The name of a stored game's seat (a computer by its level), as the table showed it."""
    data = seats[seat] if 0 <= seat < len(seats) else None
    if isinstance(data, dict) and data.get("kind") == "computer":
        return computer_label(str(data.get("name") or "Computer"), str(data.get("level", "basic")))
    if isinstance(data, dict) and data.get("name"):
        return str(data["name"])
    return f"Seat {seat + 1}"


class GameHistory:
    """Past games of a player in a guild, rating and result trends, and games to replay."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def count(self, guild_id: int, user_id: int) -> int:
        """How many finished games the player has in this guild."""
        value = await self._db.read(
            Tx.value, "SELECT COUNT(*) FROM results WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return int(value or 0)

    async def recent(
        self, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[HistoryGame]:
        """The player's finished games in this guild, newest first, with every seat of each."""
        if not is_int(limit) or not 1 <= limit <= MAX_PAGE or not is_int(offset) or offset < 0:
            raise StoreError(f"limit must be 1 to {MAX_PAGE} and offset 0 or more")

        def read(tx: Tx) -> tuple[list[Row], list[Row], list[Row]]:
            mine = tx.all(
                "SELECT game_id, seat, side, place, score, variant, family, finished_at, league_id"
                " FROM results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?",
                (guild_id, user_id, limit, offset),
            )
            ids = [row["game_id"] for row in mine]
            if not ids:
                return mine, [], []
            marks = ", ".join("?" * len(ids))
            # Only "?" marks are joined in: the ids themselves are bound parameters.
            everyone = tx.all(
                f"SELECT game_id, seat, side, user_id, score, place FROM results WHERE game_id IN ({marks})"  # noqa: S608
                " ORDER BY game_id, seat",
                ids,
            )
            games = tx.all(f"SELECT id, seats FROM games WHERE id IN ({marks})", ids)  # noqa: S608
            return mine, everyone, games

        mine, everyone, games = await self._db.read(read)
        seat_lists = {row["id"]: json.loads(row["seats"]) for row in games}
        tables: dict[int, list[HistorySeat]] = {}
        for row in everyone:
            seats = seat_lists.get(row["game_id"], [])
            tables.setdefault(row["game_id"], []).append(
                HistorySeat(row["seat"], row["side"], row["user_id"], seat_name(seats, row["seat"]),
                            row["score"], row["place"])
            )  # fmt: skip
        return [
            HistoryGame(
                game_id=row["game_id"],
                variant=row["variant"],
                family=row["family"],
                finished_at=row["finished_at"],
                seat=row["seat"],
                side=row["side"],
                place=row["place"],
                score=row["score"],
                league_id=row["league_id"],
                seats=tuple(tables.get(row["game_id"], [])),
            )
            for row in mine
        ]

    async def rating_trend(self, guild_id: int, user_id: int) -> list[TrendPoint]:
        """The rating after each of the player's rated games here (the latest ``MAX_TREND``),
        oldest first, every family."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM (SELECT h.game_id, h.finished_at, h.family, h.ordinal,"
            " COALESCE((SELECT CASE WHEN r.place = 1 THEN 1 ELSE 0 END FROM results r"
            " WHERE r.game_id = h.game_id AND r.user_id = h.user_id LIMIT 1), 0) AS won"
            " FROM rating_history h WHERE h.guild_id = ? AND h.user_id = ? AND h.rated = 1"
            " ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?) AS latest ORDER BY finished_at, game_id",
            (guild_id, user_id, MAX_TREND),
        )
        return [
            TrendPoint(row["game_id"], row["finished_at"], row["family"], row["ordinal"], bool(row["won"]))
            for row in rows
        ]

    async def results_trend(self, guild_id: int, user_id: int) -> list[TrendPoint]:
        """Every finished game of the player here (the latest ``MAX_TREND``), oldest first; the
        ordinal is 0 (for players without rated games: games and wins over time)."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM (SELECT game_id, finished_at, family, place FROM results"
            " WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT ?) AS latest"
            " ORDER BY finished_at, game_id",
            (guild_id, user_id, MAX_TREND),
        )
        return [
            TrendPoint(row["game_id"], row["finished_at"], row["family"], 0.0, row["place"] == 1)
            for row in rows
        ]

    async def names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Each player's name as their latest finished game here showed it (for pictures, which
        cannot show mentions); players without a game here are left out."""

        def read(tx: Tx) -> dict[int, str]:
            found: dict[int, str] = {}
            for user_id in dict.fromkeys(user_ids):
                row = tx.one(
                    "SELECT r.seat, g.seats FROM results r JOIN games g ON g.id = r.game_id"
                    " WHERE r.guild_id = ? AND r.user_id = ?"
                    " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT 1",
                    (guild_id, user_id),
                )
                if row is not None:
                    found[user_id] = seat_name(json.loads(row["seats"]), row["seat"])
            return found

        return await self._db.read(read)

    async def game_in_guild(self, game_id: int, guild_id: int) -> GameRecord:
        """The stored game with its action log, if it was played in this guild; else
        ``GameNotFound`` (the same answer as for no game at all: other servers' games stay private)."""
        if not is_int(game_id) or not 0 < game_id < 2**63:
            raise GameNotFound(f"there is no game {game_id}")
        record = await self._db.read(read_game, game_id)
        if record.guild_id != guild_id:
            raise GameNotFound(f"there is no game {game_id}")
        return record
