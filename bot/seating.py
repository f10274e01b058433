"""Seats and people at a table (``manager.seating``): choosing a seat (and so a partner), the host's
seat swaps, removing a computer, kicking a player, handing over hosting, and invitations.

The rules live here, under the table's lock, and every change is stored before it is shown; the
Discord layer only calls these and shows the refusals (``TableError``) as they are. Seats are
numbered from 0 here and from 1 in every message (refusals say "Seat 2" or "that seat": the
Discord layer puts players' names in place of a lowercase "seat 2").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.engine import new_game
from bot.tables import Seat, Table, TableError

if TYPE_CHECKING:
    from bot.tables import TableManager


Sides = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=256)
def _sides(variant: str, players: int, options: str) -> Sides:
    return new_game(variant, players=players, options=json.loads(options), seed=0).sides


def sides(table: Table) -> Sides:
    """The table's sides (each a tuple of seats), as the game will have them: partners share one."""
    if table.game is not None:
        return table.game.sides
    return _sides(table.variant, table.players, json.dumps(table.options, sort_keys=True))


def partners_of(table: Table, seat: int) -> list[int]:
    """The seats playing on ``seat``'s side (empty in a game where everyone plays alone)."""
    return next([s for s in side if s != seat] for side in sides(table) if seat in side)


@dataclass(frozen=True)
class SeatChange:
    """What ``choose`` did: the seat chosen, and where the person came from (None: they sat down).
    ``asks``: the seat is another person's, who is to be asked to swap (nothing changed yet)."""

    seat: int
    came_from: int | None
    asks: int | None = None


class Seating:
    """The seat and host rules of the table manager."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def choose(self, table: Table, user_id: int, name: str, seat: int) -> SeatChange:
        """A person sits in (or moves to) ``seat`` before the start: a free seat, or one a computer
        holds (the computer moves to the person's old seat, or to a free one)."""
        async with table.lock:
            self._check_lobby(table, "choose a seat at")
            self._check_seat(table, seat)
            came_from = table.seat_of(user_id)
            if came_from == seat:
                raise TableError("You already sit in that seat.")
            held = table.seats[seat]
            if held is not None and held.is_human:
                if came_from is None:
                    raise TableError(f"Seat {seat + 1} is {held.name}'s. Choose a free seat.")
                return SeatChange(seat, came_from, asks=held.user_id)  # they decide: accept_swap
            person = table.seats[came_from] if came_from is not None else Seat("human", name, user_id)
            if held is not None:  # a computer: it takes the person's old seat or a free one
                spare = came_from if came_from is not None else self._free_seat(table)
                if spare is None:
                    raise TableError("The table is full: that seat keeps its computer.")
                self._put(table, spare, held, seat)
            elif came_from is not None:
                table.seats[came_from] = None
            table.seats[seat] = person
            await self.manager.save_seats(table)
        self.manager.publisher.table_changed(table)
        return SeatChange(seat, came_from)

    async def accept_swap(
        self, table: Table, user_id: int, asker_id: int, asker_seat: int, seat: int
    ) -> None:
        """The person in ``seat`` accepts the swap ``asker_id`` (in ``asker_seat``) asked for."""
        async with table.lock:
            self._check_lobby(table, "swap seats at")
            held = table.seats[seat] if 0 <= seat < table.players else None
            if held is None or held.user_id != user_id:
                raise TableError("This swap was asked of someone else (or they have moved since).")
            if table.seat_of(asker_id) != asker_seat:
                raise TableError("That swap is out of date: the one who asked has moved or left since.")
            table.seats[seat], table.seats[asker_seat] = table.seats[asker_seat], held
            await self.manager.save_seats(table)
        self.manager.publisher.table_changed(table)

    async def swap(self, table: Table, user_id: int, first: int, second: int, *, is_admin: bool) -> None:
        """The host swaps what two seats hold (people, computers, or an empty seat) before the start."""
        async with table.lock:
            self._check_lobby(table, "swap seats at")
            self._check_host(table, user_id, is_admin, "swap seats")
            self._check_seat(table, first)
            self._check_seat(table, second)
            if first == second:
                raise TableError("Choose two different seats to swap.")
            a, b = table.seats[first], table.seats[second]
            if a is None and b is None:
                raise TableError(f"Seats {first + 1} and {second + 1} are both empty: nothing to swap.")
            table.seats[first] = table.seats[second] = None
            self._put(table, first, b, second)
            self._put(table, second, a, first)
            await self.manager.save_seats(table)
        self.manager.publisher.table_changed(table)

    async def remove_computer(self, table: Table, user_id: int, seat: int, *, is_admin: bool) -> str:
        """The host takes a computer out of the lobby; returns its name."""
        async with table.lock:
            self._check_lobby(table, "remove a computer from")
            self._check_host(table, user_id, is_admin, "remove a computer")
            self._check_seat(table, seat)
            held = table.seats[seat]
            if held is None or held.is_human:
                raise TableError(f"Seat {seat + 1} has no computer player.")
            table.seats[seat] = None
            await self.manager.save_seats(table)
        self.manager.publisher.table_changed(table)
        return held.name

    async def kick(self, table: Table, user_id: int, member_id: int, *, is_admin: bool) -> str:
        """The host removes a person: before the start their seat is freed, during the game a
        computer takes it (announced to everyone). Returns their name."""
        async with table.lock:
            self.manager.refuse_while_closing()
            self._check_open(table)
            self._check_host(table, user_id, is_admin, "remove a player")
            if member_id == user_id:
                raise TableError("To leave the table yourself, use `/table leave`.")
            seat = table.seat_of(member_id)
            if seat is None:
                raise TableError("That member has no seat at this table.")
            sitter = table.seats[seat]
            assert sitter is not None
            still_open = await self.manager.vacate(table, seat, f"was removed from the table by <@{user_id}>")
        if still_open:
            self.manager.publisher.table_changed(table)
            self.manager.after_change(table)  # their turn now goes to the computer
        return sitter.name

    async def hand_over(self, table: Table, user_id: int, member_id: int, *, is_admin: bool) -> str:
        """The host makes a seated person the host (announced); returns their name."""
        async with table.lock:
            self.manager.refuse_while_closing()
            self._check_open(table)
            self._check_host(table, user_id, is_admin, "hand over hosting")
            seat = table.seat_of(member_id)
            if seat is None:
                raise TableError("Hosting passes only to a person seated at this table.")
            if member_id == table.host_id:
                raise TableError("That person is already the host.")
            sitter = table.seats[seat]
            assert sitter is not None
            await self.manager.store.games.update(table.id, host_id=member_id)
            table.host_id = member_id
        self.manager.publisher.announce(table, f"<@{user_id}> handed hosting to {sitter.name}.")
        self.manager.publisher.table_changed(table)
        return sitter.name

    def check_invite(self, table: Table, user_id: int, member_id: int, *, member_is_bot: bool) -> None:
        """Refuse unless a seated person may invite this member now (a lobby with a free seat)."""
        self.manager.refuse_while_closing()
        self._check_lobby(table, "invite anyone to")
        if table.seat_of(user_id) is None:
            raise TableError("Only a seated player can invite someone. Join the table first.")
        if member_is_bot:
            raise TableError("Bots cannot be invited. For a computer player use `/table add-computer`.")
        if table.seat_of(member_id) is not None:
            raise TableError("That member already has a seat at this table.")
        if self._free_seat(table) is None:
            raise TableError("The table is full: there is no seat to invite anyone to.")

    async def accept_invite(self, table: Table, user_id: int, name: str, invited_id: int) -> int:
        """The invited member takes the first free seat; returns it."""
        if user_id != invited_id:
            raise TableError("This invitation is for someone else. Use **Join** on the table to sit down.")
        return await self.manager.join(table, user_id, name)

    # ----- checks --------------------------------------------------------------------------------
    def _check_lobby(self, table: Table, verb: str) -> None:
        self.manager.refuse_while_closing()
        self._check_open(table)
        if table.status != "lobby":
            raise TableError(f"The game has already started: you cannot {verb} it now.")

    @staticmethod
    def _check_open(table: Table) -> None:
        if table.status == "ended":
            raise TableError("That table has ended.")

    @staticmethod
    def _check_host(table: Table, user_id: int, is_admin: bool, verb: str) -> None:
        if user_id != table.host_id and not is_admin:
            raise TableError(f"Only the host (or someone with Manage Server) can {verb}.")

    @staticmethod
    def _check_seat(table: Table, seat: int) -> None:
        if not 0 <= seat < table.players:
            raise TableError(f"There is no seat {seat + 1}: this table has seats 1 to {table.players}.")

    @staticmethod
    def _free_seat(table: Table) -> int | None:
        return next((i for i, s in enumerate(table.seats) if s is None), None)

    @staticmethod
    def _put(table: Table, seat: int, sitter: Seat | None, came_from: int) -> None:
        """Seat ``sitter`` at ``seat``; a computer named after its old seat is renamed after the new."""
        if sitter is not None and not sitter.is_human:
            sitter.name = re.sub(rf"^Computer {came_from + 1}\b", f"Computer {seat + 1}", sitter.name)
        table.seats[seat] = sitter
