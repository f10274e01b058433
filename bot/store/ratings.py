"""The rating update, as arithmetic only: no SQL, no clock (``Results.finish`` reads and writes).

Ratings use ``openskill``'s Plackett-Luce model per guild and per game family (``pitch``,
``pinochle``, ``double-deck``); partners on one side are rated as a team. In a rated game with a
person at the table, every computer seat of one level plays as one rated player of that level
("Computer (hard)"), under a reserved negative user id, so the leaderboard shows how people fare
against each level. Other computer seats (unrated games, levels without an id) take part with the
model's default rating, which never changes.
A rating is shown as its ordinal ``mu - 3 * sigma`` (0 for a new player, rising as the system
becomes confident a player is strong).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.levels import level_name
from bot.store.records import SeatResult

Rating = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()

# Never renumber: the ids are stored in ratings and rating_history. Discord ids are positive.
COMPUTER_PLAYERS: dict[str, int] = {"basic": -1, "hard": -2, "random": -3}
_LEVEL_OF = {player: level for level, player in COMPUTER_PLAYERS.items()}


def computer_player(level: str | None) -> int | None:
    """The rated player id of a computer level, or None for a level that is not rated."""
    return COMPUTER_PLAYERS.get(level) if level is not None else None


def computer_player_name(user_id: int) -> str | None:
    """The name "Computer (hard)" for a computer level's rated player id; None for a person's id."""
    level = _LEVEL_OF.get(user_id)
    return None if level is None else f"Computer ({level_name(level)})"


def rated_player(result: SeatResult) -> int | None:
    """Whose rating a seat's result is: the person's, or its computer level's player's."""
    return result.user_id if result.user_id is not None else computer_player(result.level)


def rated_players(results: Sequence[SeatResult], rated: bool) -> list[int]:
    """The players whose games, wins and (when ``rated``) ratings a finished game counts, each once:
    every person, and each computer level's player only in a rated game with a person in it."""
    people = [r.user_id for r in results if r.user_id is not None]
    computers = [rated_player(r) for r in results if r.user_id is None] if rated and people else []
    return list(dict.fromkeys(p for p in [*people, *computers] if p is not None))


def default_rating() -> Rating:
    """A new player's (mu, sigma), which is also every unrated computer seat's."""
    rating = _MODEL.rating()
    return rating.mu, rating.sigma


def ordinal(rating: Rating) -> float:
    """The number the leaderboard shows: ``mu - 3 * sigma``."""
    mu, sigma = rating
    return mu - 3 * sigma


def rate(before: Mapping[int, Rating], results: Sequence[SeatResult], rated: bool) -> dict[int, Rating]:
    """Every rated player's rating after a game, by user id.

    ``before`` holds the rating of each player that takes part (``rated_players``); a seat whose
    player is not in it plays at the default rating and does not move. Each side is a team ranked
    by its best place. A computer level's player seated on several sides gets the mean of its
    seats' new ratings. With ``rated`` False, fewer than two sides, or no person, nobody moves.
    """
    after = dict(before)
    sides = sorted({r.side for r in results})
    if not rated or len(sides) < 2 or not any(r.user_id is not None for r in results):
        return after

    def player(r: SeatResult) -> int | None:
        key = rated_player(r)
        return key if key in before else None

    members = [[r for r in results if r.side == side] for side in sides]
    teams = [
        [_MODEL.rating(*before[key]) if (key := player(r)) is not None else _MODEL.rating() for r in team]
        for team in members
    ]
    ranks = [float(min(r.place for r in team)) for team in members]
    seats_new: dict[int, list[Rating]] = {}
    for team, new in zip(members, _MODEL.rate(teams, ranks=ranks), strict=True):
        for r, rating in zip(team, new, strict=True):
            key = player(r)
            if key is not None:
                seats_new.setdefault(key, []).append((rating.mu, rating.sigma))
    for key, ratings in seats_new.items():
        after[key] = (sum(mu for mu, _ in ratings) / len(ratings), sum(s for _, s in ratings) / len(ratings))
    return after
