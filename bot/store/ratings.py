"""The rating update, as arithmetic only: no SQL, no clock (``Results.finish`` reads and writes).

Ratings use ``openskill``'s Plackett-Luce model per guild and per game family (``pitch``,
``pinochle``, ``double-deck``); partners on one side are rated as a team. Computer seats take part
with the model's default rating, which never changes (they are not players on the leaderboard).
A rating is shown as its ordinal ``mu - 3 * sigma`` (0 for a new player, rising as the system
becomes confident a player is strong).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.store.records import SeatResult

Rating = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()


def default_rating() -> Rating:
    """A new player's (mu, sigma), which is also every computer seat's."""
    rating = _MODEL.rating()
    return rating.mu, rating.sigma


def ordinal(rating: Rating) -> float:
    """The number the leaderboard shows: ``mu - 3 * sigma``."""
    mu, sigma = rating
    return mu - 3 * sigma


def rate(before: Mapping[int, Rating], results: Sequence[SeatResult], rated: bool) -> dict[int, Rating]:
    """Every human's rating after a game, by user id.

    ``before`` holds the rating of each human in ``results`` (computers have none). Each side is a
    team ranked by its best place. With ``rated`` False, fewer than two sides, or no humans, nobody
    moves.
    """
    after = dict(before)
    sides = sorted({r.side for r in results})
    if not rated or len(sides) < 2 or not before:
        return after
    members = [[r for r in results if r.side == side] for side in sides]
    teams = [
        [_MODEL.rating(*before[r.user_id]) if r.user_id is not None else _MODEL.rating() for r in team]
        for team in members
    ]
    ranks = [float(min(r.place for r in team)) for team in members]
    for team, new in zip(members, _MODEL.rate(teams, ranks=ranks), strict=True):
        for r, rating in zip(team, new, strict=True):
            if r.user_id is not None:
                after[r.user_id] = (rating.mu, rating.sigma)
    return after
