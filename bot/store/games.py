"""Games and their action logs: ``store.games``.

A game is rebuilt from its variant, options, seed and the log of accepted actions, so the log is
the source of truth; each action is its own transaction, written before the new state is used.
"""

from __future__ import annotations

import json
import time
from typing import Any

from bot.store.database import Database, Row, Tx
from bot.store.errors import ActionOutOfOrder, GameNotFound, StoreError
from bot.store.records import UNFINISHED, GameRecord
from bot.store.validate import check_id, check_status, dumps, is_int, seats_json


def game_record(row: Row, actions: list[tuple[int, str]]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        variant=row["variant"],
        family=row["family"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        players=row["players"],
        seats=json.loads(row["seats"]),
        message_id=row["message_id"],
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        league_id=row["league_id"],
        actions=actions,
        announced_at=row["announced_at"],
        ping_message_id=row["ping_message_id"],
        hints=bool(row["hints"]),
    )


def read_game(tx: Tx, game_id: int) -> GameRecord:
    """The game with this id and its action log, inside ``tx``; raises ``GameNotFound``."""
    row = tx.one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    actions = tx.all("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))
    return game_record(row, [(a["seat"], a["action"]) for a in actions])


def _check_players(players: Any) -> None:
    if not is_int(players) or players < 1:
        raise StoreError(f"players must be a positive whole number, not {players!r}")


class Games:
    """Create, change, log and load games."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        family: str,
        options: dict[str, Any],
        seed: int,
        players: int,
        seats: list[dict[str, Any] | None],
        status: str = "lobby",
    ) -> int:
        """Record a new table and return its game id."""
        check_status(status)
        if status not in UNFINISHED:
            raise StoreError(f"a new game starts as lobby or playing, not {status}")
        _check_players(players)
        params = (
            check_id(guild_id, "guild_id"),
            check_id(channel_id, "channel_id"),
            check_id(host_id, "host_id"),
            variant,
            family,
            dumps(options, "options"),
            check_id(seed, "seed"),
            players,
            seats_json(seats),
            status,
        )
        now = time.time()
        game_id = await self._db.write(
            Tx.insert,
            "INSERT INTO games (guild_id, channel_id, host_id, variant, family, options, seed, players,"
            " seats, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*params, now, now),
        )
        assert game_id is not None
        return game_id

    async def update(
        self,
        game_id: int,
        *,
        seats: list[dict[str, Any] | None] | None = None,
        status: str | None = None,
        message_id: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        players: int | None = None,
        host_id: int | None = None,
        hints: bool | None = None,
    ) -> None:
        """Change the given fields of an existing game (None leaves a field as it is).

        A game is ended only by ``results.finish``; an ended or abandoned game keeps its status.
        """
        if status is not None:
            check_status(status)
            if status == "ended":
                raise StoreError("a game is ended by results.finish, which also records its result")
        if players is not None:
            _check_players(players)
        if hints is not None and not isinstance(hints, bool):
            raise StoreError(f"hints must be True or False, not {hints!r}")
        params = (
            None if seats is None else seats_json(seats),
            status,
            None if message_id is None else check_id(message_id, "message_id"),
            None if options is None else dumps(options, "options"),
            None if seed is None else check_id(seed, "seed"),
            players,
            None if host_id is None else check_id(host_id, "host_id"),
            None if hints is None else int(hints),
            time.time(),
            game_id,
        )

        def change(tx: Tx) -> None:
            row = tx.one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if status is not None and status != row["status"] and row["status"] not in UNFINISHED:
                raise StoreError(f"game {game_id} is {row['status']}; it cannot become {status}")
            # COALESCE keeps the stored value for every field passed as None: one fixed statement.
            tx.run(
                "UPDATE games SET seats = COALESCE(?, seats), status = COALESCE(?, status),"
                " message_id = COALESCE(?, message_id), options = COALESCE(?, options),"
                " seed = COALESCE(?, seed), players = COALESCE(?, players), host_id = COALESCE(?, host_id),"
                " hints = COALESCE(?, hints), updated_at = ? WHERE id = ?",
                params,
            )

        await self._db.write(change)

    async def append_action(self, game_id: int, idx: int, seat: int, action: str) -> None:
        """Append one accepted action to a game's log, in its own transaction.

        The action's key is ``(game_id, idx)``: writing the same action again (a retry after a
        commit whose answer was lost) is answered as done and writes nothing more. ``idx`` must
        otherwise be the number of actions already logged; anything else (another action at
        that index, a gap) raises ``ActionOutOfOrder`` and writes nothing.
        """
        if not is_int(idx) or not is_int(seat) or not isinstance(action, str):
            raise StoreError("append_action needs an integer index and seat and the action as text")

        def append(tx: Tx) -> None:
            now = time.time()
            # The usual case in two statements (a round trip each on a server): the game is open and
            # this is its next action.
            found = tx.one(
                "UPDATE games SET updated_at = ? WHERE id = ? AND status IN ('lobby', 'playing')"
                " RETURNING (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE game_id = ?)",
                (now, game_id, game_id),
            )
            if found is not None and found[0] == idx:
                tx.run(
                    "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, idx, seat, action, now),
                )
                return
            logged = tx.one("SELECT seat, action FROM actions WHERE game_id = ? AND idx = ?", (game_id, idx))
            if logged is not None and (logged["seat"], logged["action"]) == (seat, action):
                return  # stored already: this is a retry of the same write
            if found is None:
                row = tx.one("SELECT status FROM games WHERE id = ?", (game_id,))
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                raise StoreError(f"game {game_id} is {row['status']}; no more actions can be recorded")
            count = found[0]
            raise ActionOutOfOrder(
                f"game {game_id} has {count} actions logged, so the next is number {count}, not {idx}"
            )

        await self._db.write(append)

    async def set_ping(self, game_id: int, message_id: int | None) -> None:
        """Remember the table's live "your turn" ping (None: there is none now)."""
        ping = None if message_id is None else check_id(message_id, "message_id")
        await self._db.write(Tx.run, "UPDATE games SET ping_message_id = ? WHERE id = ?", (ping, game_id))

    async def mark_announced(self, game_id: int) -> None:
        """A finished game's last line and final table message have been shown."""
        await self._db.write(
            Tx.run,
            "UPDATE games SET announced_at = ? WHERE id = ? AND status IN ('ended', 'abandoned')",
            (time.time(), game_id),
        )

    async def unannounced(self) -> list[GameRecord]:
        """Finished games whose last line was never shown (the bot stopped first), oldest first."""

        def finished(tx: Tx) -> list[GameRecord]:
            rows = tx.all(
                "SELECT id FROM games WHERE announced_at IS NULL AND status IN ('ended', 'abandoned')"
                " ORDER BY id"
            )
            return [read_game(tx, row["id"]) for row in rows]

        return await self._db.read(finished)

    async def load(self, game_id: int) -> GameRecord:
        """The game with this id and its action log; raises ``GameNotFound``."""
        return await self._db.read(read_game, game_id)

    async def unfinished(self) -> list[GameRecord]:
        """Every game in the lobby or being played (what start-up resumes), oldest first."""

        def unfinished(tx: Tx) -> tuple[list[Row], list[Row]]:
            rows = tx.all("SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY id")
            actions = tx.all(
                "SELECT a.game_id, a.seat, a.action FROM games g JOIN actions a ON a.game_id = g.id"
                " WHERE g.status IN ('lobby', 'playing') ORDER BY a.game_id, a.idx"
            )
            return rows, actions

        rows, actions = await self._db.read(unfinished)
        logs: dict[int, list[tuple[int, str]]] = {}
        for action in actions:
            logs.setdefault(action["game_id"], []).append((action["seat"], action["action"]))
        return [game_record(row, logs.get(row["id"], [])) for row in rows]

    async def in_channel(self, channel_id: int) -> GameRecord | None:
        """The unfinished game in this channel (the newest, should there be several), or None."""

        def newest(tx: Tx) -> GameRecord | None:
            row = tx.one(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')"
                " ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
            return None if row is None else read_game(tx, row["id"])

        return await self._db.read(newest)
