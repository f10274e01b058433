"""Pinochle's fused trick loop (``PinochleGame.rollout_tricks``, ``rollout``'s fast path): every
decision sees the same legal list and the same state as when the deal is played through ``apply``,
declaring out and conceding included, and the loop is the one ``rollout`` takes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Action, Game, new_game
from bot.engine.pinochle.common import PinochleGame

# Match games (declaring out allowed) and single deals, each family with the strict follow rules.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("pinochle-4", 4, {}),
    ("pinochle-4", 4, {"match": "deal"}),
    ("pinochle-4-auction", 4, {"pass": 4}),
    ("pinochle-3", 3, {}),
    ("pinochle-6", 6, {}),
]


def recorder(seed: int, claims: float) -> tuple[Any, list[tuple[Any, ...]]]:
    """A random policy recording what it saw at each decision; it makes a claim (declare out,
    concede) with probability ``claims`` when one is legal."""
    rng = random.Random(seed)
    seen: list[tuple[Any, ...]] = []

    def policy(game: Game, seat: int, legal: list[Action]) -> Action:
        seen.append(
            (
                seat,
                game.to_act,
                [str(action) for action in legal],
                [card.code for card in game.hand(seat)],
                [(s, card.code) for s, card in game.trick_plays()],
                game.winning_play(),
                game.trick_leader(),
                game.deal_points(),
            )
        )
        plays = [action for action in legal if str(action) not in ("declare-out", "concede")]
        if not plays or rng.random() < claims:
            return rng.choice(legal)
        return rng.choice(plays)

    return policy, seen


def positions(name: str, players: int, options: dict[str, Any], count: int) -> list[Game]:
    """Games stopped at random points of a deal's play (a trick under way or not)."""
    rng = random.Random(f"tricks/{name}/{options}")
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        seed += 1
        game = new_game(name, players=players, options=options, seed=seed)
        stop = rng.randrange(1, 30)
        plays = 0
        while not game.is_over and plays < stop:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            plain = [action for action in legal if str(action) not in ("declare-out", "concede")]
            action = rng.choice(plain or legal)
            plays += str(action).startswith("play")
            game.apply(seat, action)
        if not game.is_over and plays == stop:
            out.append(game)
    return out


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
@pytest.mark.parametrize("claims", [0.0, 0.05])
def test_fused_tricks_see_and_leave_what_apply_does(
    name: str, players: int, options: dict[str, Any], claims: float
) -> None:
    for k, game in enumerate(positions(name, players, options, 8)):
        world = game.sample_world(game.to_act[0], random.Random(k))
        twin = world.copy()
        fast_policy, fast_seen = recorder(k, claims)
        fast = world.rollout(fast_policy)
        slow_policy, slow_seen = recorder(k, claims)
        deal, before = twin.deal_no, twin.scores[:]
        twin.rolling_out = True  # as ``rollout``: the next deal is not dealt
        while twin.outcome is None and twin.deal_no == deal:
            seat = twin.to_act[0]
            twin.apply(seat, slow_policy(twin, seat, twin.legal_actions(seat)))
        assert fast_seen == slow_seen
        assert fast == [after - was for after, was in zip(twin.scores, before, strict=True)]
        assert world.outcome == twin.outcome
        assert world.tricks == twin.tricks  # type: ignore[attr-defined]
        assert world.last_deal == twin.last_deal  # type: ignore[attr-defined]


def test_rollout_takes_the_fused_loop_in_the_play() -> None:
    game = positions("pinochle-4", 4, {}, 1)[0]
    world = game.sample_world(game.to_act[0], random.Random(1))

    def no_slow_path(seat: int) -> list[Action]:
        raise AssertionError("the slow loop asked for legal actions")

    world._legal_actions = no_slow_path  # type: ignore[method-assign]
    policy, seen = recorder(1, 0.0)
    world.rollout(policy)
    assert seen and world.deal_no == game.deal_no + 1  # type: ignore[attr-defined]
    assert type(world).rollout_tricks is PinochleGame.rollout_tricks
