"""The store's records: plain dataclasses handed to callers (none of them holds a connection).

Times are Unix seconds, which Discord renders as ``<t:…>``.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

STATUSES = ("lobby", "playing", "ended", "abandoned")
UNFINISHED = ("lobby", "playing")
# Where /table new opens a table: its own public thread, its own private thread, or the channel.
THREAD_MODES = ("public", "private", "off")


def win_pct(wins: int, games: int) -> float:
    """Wins as a percentage of games, to one decimal (0 for no games)."""
    return round(100.0 * wins / games, 1) if games else 0.0


@dataclass
class GameRecord:
    """One stored game: its table, seating, how to rebuild it (variant, options, seed, actions)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    family: str
    options: dict[str, Any]
    seed: int
    players: int
    seats: list[dict[str, Any] | None]
    message_id: int | None
    status: str
    created_at: float
    updated_at: float
    finished_at: float | None
    league_id: int | None
    actions: list[tuple[int, str]] = field(default_factory=list)
    announced_at: float | None = None  # when a finished game's last line was shown (None: not yet)
    ping_message_id: int | None = None  # the table's live "your turn" ping
    hints: bool = True  # whether /hint may be used at the table (its host may turn it off)

    @property
    def is_unfinished(self) -> bool:
        return self.status in UNFINISHED

    def engine_record(self) -> dict[str, Any]:
        """This game in ``Game.to_json`` form, ready for ``Game.from_json`` (which replays the log)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "log": [[seat, action] for seat, action in self.actions],
        }

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished. ``place`` 1 is the winner; partners share their side's place."""

    seat: int
    user_id: int | None  # None for a computer seat
    side: int
    score: int
    place: int
    level: str | None = None  # a computer seat's level ("basic", "hard"): rated as that level's player


@dataclass
class GuildSettings:
    """A guild's settings; a guild that never changed anything gets these defaults."""

    guild_id: int
    turn_timeout_seconds: int = 300  # 0 = no turn timer
    computer_delay_seconds: float = 1.0
    rate_computer_games: bool = False
    default_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # variant -> options
    table_threads: str = "public"  # where /table new opens a table: THREAD_MODES
    language: str = ""  # public messages' language: "" = the server's preferred locale, else a code

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass
class LeaderRow:
    """One line of a leaderboard. ``win_pct`` is a percentage (0-100)."""

    rank: int
    user_id: int
    rating: float
    games: int
    wins: int
    win_pct: float


@dataclass
class StandingRow:
    """One line of league standings: ordered by wins, then points (sum of final scores)."""

    rank: int
    user_id: int
    wins: int
    games: int
    points: int
    win_pct: float


@dataclass
class Season:
    """A stretch of a guild's games with its own ratings; the current one while ``ended_at`` is None."""

    id: int
    guild_id: int
    name: str
    started_at: float
    ended_at: float | None


@dataclass
class League:
    """A league night. It is scheduled until ``started_at``, then runs until ``ended_at`` is set;
    games finished while it runs count."""

    id: int
    guild_id: int
    name: str
    family: str | None  # None: every game family counts
    started_at: float
    ends_at: float | None  # planned end (None: until ended by hand)
    ended_at: float | None
    channel_id: int | None = None  # where its start and standings are announced
    standings_posted_at: float | None = None  # when its final standings reached the channel
    start_announced_at: float | None = None  # when its start was announced there

    @property
    def running(self) -> bool:
        return self.ended_at is None and self.started_at <= time.time()

    @property
    def scheduled(self) -> bool:
        """Not started yet (it starts at ``started_at``)."""
        return self.ended_at is None and self.started_at > time.time()

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass
class FamilyRating:
    """A player's rating in one game family; ``trend`` is its change over the last 10 games."""

    family: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    trend: float


@dataclass
class RecentGame:
    game_id: int
    variant: str
    family: str
    place: int
    score: int
    won: bool
    finished_at: float


@dataclass
class PlayerStats:
    """Everything ``/stats`` shows for one player in one guild."""

    guild_id: int
    user_id: int
    games: int
    wins: int
    win_pct: float
    best_streak: int
    current_streak: int
    average_score: float | None
    favourite_variant: str | None
    ratings: list[FamilyRating]
    recent: list[RecentGame]

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)
