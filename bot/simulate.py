"""Computer-only games: the ``simulate`` command and the computer-vs-random measurements."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ai import decide, make_player
from bot.engine import new_game
from bot.levels import level_name
from bot.render import count


@dataclass
class SimulationResult:
    """Totals over a batch of computer-only games, by registered level ("basic"); the report
    shows the names people see ("easy")."""

    variant: str
    players: int
    seat_levels: list[str]
    games: int = 0
    unfinished: int = 0
    seat_wins: list[int] = field(default_factory=list)
    level_wins: dict[str, int] = field(default_factory=dict)
    level_seats: dict[str, int] = field(default_factory=dict)
    level_points: dict[str, int] = field(default_factory=dict)
    deals: int = 0
    seconds: float = 0.0

    def report(self) -> str:
        lines = [
            f"{self.variant}, {self.players} players, {self.games} games "
            f"({self.unfinished} stopped unfinished at the deal limit)",
            f"seat levels (rotated one seat each game): {', '.join(map(level_name, self.seat_levels))}",
        ]
        finished = self.games - self.unfinished
        for level in sorted(self.level_wins):
            seats = self.level_seats[level]
            wins = self.level_wins[level]
            share = wins / (finished * seats / self.players) if finished else 0.0
            lines.append(
                f"  {level_name(level):>7} ({count(seats, 'seat')}): won {count(wins, 'game')} "
                f"({100 * wins / max(1, finished):.1f}% of games; {share:.2f}x a fair share), "
                f"average final score {self.level_points[level] / max(1, self.games * seats):.1f}"
            )
        for seat, wins in enumerate(self.seat_wins):
            lines.append(f"  seat {seat + 1}: won {count(wins, 'game')}")
        lines.append(
            f"  {self.deals / max(1, self.games):.1f} deals per game; "
            f"{self.games / self.seconds:.1f} games/s, {self.deals / self.seconds:.0f} deals/s"
        )
        return "\n".join(lines)


def simulate(
    variant: str,
    *,
    games: int,
    seed: int | str,
    players: int | str | None = None,
    seat_levels: list[str] | None = None,
    options: Mapping[str, Any] | None = None,
    max_deals: int = 1000,
) -> SimulationResult:
    """Play ``games`` computer-only games; the seat levels rotate one seat per game. ``seed`` and
    ``players`` may be text as typed (the engine checks them)."""
    probe = new_game(variant, players=players, options=options, seed=seed)
    count, seed = probe.players, probe.seed
    levels = seat_levels or ["basic"] * count
    if len(levels) != count:
        raise ValueError(f"--seats names {len(levels)} levels for {count} players")
    result = SimulationResult(variant, count, levels, seat_wins=[0] * count)
    for level in levels:
        result.level_wins.setdefault(level, 0)
        result.level_points.setdefault(level, 0)
        result.level_seats[level] = result.level_seats.get(level, 0) + 1
    start = time.perf_counter()
    for index in range(games):
        game = new_game(variant, players=count, options=options, seed=seed + index)
        shift = index % count if len(game.sides[0]) == 1 else (index % 2)
        at_seat = [levels[(seat + shift) % count] for seat in range(count)]
        family = type(game).family
        bots = [make_player(family, level, seed * 7919 + index * 31 + s) for s, level in enumerate(at_seat)]
        while not game.is_over and getattr(game, "deal_no", 0) <= max_deals:
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
        result.games += 1
        result.deals += getattr(game, "deal_no", 1)
        for seat in range(count):
            score = game.public_view()["scores"][game.side_of[seat]]
            result.level_points[at_seat[seat]] += score
        if game.outcome is None:
            result.unfinished += 1
            continue
        for seat in game.outcome.winners:
            result.seat_wins[seat] += 1
        for level in {at_seat[seat] for seat in game.outcome.winners}:
            result.level_wins[level] += 1
    result.seconds = time.perf_counter() - start
    return result
