"""Golden outputs of the search API: ``sample_world`` and ``rollout`` must give exactly the worlds
and the rollout results they gave before the speed work of issue 15 (the same rng state gives the
same world, and the same policy choices the same end of the deal), in every variant.

Each case plays random positions of a first deal, samples several worlds per position (the
sampling plan kept between them, as a search does) for two seats, plays each world out with a
seeded random policy, and hashes a canonical text of every world's whole state before and after
its rollout. The digests were recorded with the code before the speed work; a change that alters
any world, any random draw or any rollout result changes them."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from enum import Enum
from typing import Any

import pytest

from bot.engine import Action, Card, Game, new_game
from tests.engine.test_sample_world import CASES, IDS, first_deal_position

POSITIONS = 12
WORLDS = 3


def canon(value: Any) -> str:
    """A text of ``value`` that does not depend on memory addresses or hash order."""
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(canon(item) for item in value) + "]"
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(canon(item) for item in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canon(k)}:{canon(v)}" for k, v in value.items())) + "}"
    if dataclasses.is_dataclass(value):
        fields = ",".join(f"{f.name}={canon(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    raise TypeError(f"no canonical text for {type(value).__name__}")


def state_text(game: Game) -> str:
    """The whole state of ``game`` (the kept sampling plans aside: they hold functions)."""
    return canon({key: value for key, value in vars(game).items() if key != "_plans"})


def chooser(seed: int) -> Any:
    rng = random.Random(seed)

    def policy(game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[int(rng.random() * len(legal))]

    return policy


def digest(name: str, players: int, options: dict[str, Any]) -> str:
    """The hash of every sampled world and rollout of ``name``'s case."""
    out = hashlib.sha256()
    rng = random.Random(f"golden/{name}/{players}/{sorted(options.items())}")
    for k in range(POSITIONS):
        game, _, _, _ = first_deal_position(name, players, options, rng)
        for seat in (k % players, (k + 1) % players):
            sampler = random.Random(1000 * k + seat)
            for w in range(WORLDS):
                world = game.sample_world(seat, sampler)
                out.update(state_text(world).encode())
                changes = world.rollout(chooser(100 * k + w))
                out.update(f"{changes}|".encode())
                out.update(state_text(world).encode())
            out.update(f"{sampler.random()}".encode())  # the sampler's draws, to the last one
    return out.hexdigest()[:16]


def bench_digest() -> str:
    """``bench/engine.py``'s headline: single-deal pinochle-4 half-way through the play."""
    out = hashlib.sha256()
    rng = random.Random(3)
    sampler = random.Random(4)
    for seed in range(1, 13):
        game = new_game("pinochle-4", players=4, seed=seed, options={"match": "deal"})
        while not game.is_over and (len(game.tricks) < 6 or game.trick):  # type: ignore[attr-defined]
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rng.random() * len(legal))])
        if game.is_over:
            continue
        for w in range(8):
            world = game.sample_world(game.to_act[0], sampler)
            out.update(state_text(world).encode())
            out.update(f"{world.rollout(chooser(w))}|".encode())
            out.update(state_text(world).encode())
    return out.hexdigest()[:16]


GOLDEN: dict[str, str] = {
    "pitch-2": "fc6c178bceae0517",
    "pitch-4": "465de73f0e54d37d",
    "pitch-7": "3d1809f148bed8b1",
    "pitch-joker-4": "b04ea524a2bd4cfc",
    "pitch-smudge-4": "fd782494c4dcc1b7",
    "pitch-4-off-jack=True-jokers=2": "2d6afba62b787b70",
    "pitch-partnership-4": "cb218f942557c026",
    "pitch-10-4": "50c45d7eb7b4884b",
    "pitch-10-6": "c1faf30e1b67439e",
    "pinochle-4-4": "4d67ad44de06c4d9",
    "pinochle-4-auction-4": "9938390795b5dd3e",
    "pinochle-4-auction-4-pass=4": "38d7d89269ae913f",
    "pinochle-6-6": "5d9bcd1c8936270a",
    "pinochle-6-6-rules=auction-pass=4": "da8bf9f6bded8c51",
    "pinochle-8-8": "612de7f86f1ed530",
    "pinochle-2-2": "8afd8585911b8609",
    "pinochle-3-3": "a118f7dc4596f308",
    "double-deck-4": "cf645e7729b31426",
    "double-deck-4-meld-info=True-min-20=True-giveup=play": "fc48765482957c90",
    "double-deck-npa-4": "7f753ba84a8ba781",
    "double-deck-pass-4": "4b8b6e30b18f0f0f",
    "double-deck-toby-thomas-4": "23a5f3f1357e4fda",
    "double-deck-jim-davis-4-pass-order=partner-first-trump-marriage=after-pass": "6e3bf56d5f17575f",
    "pinochle-2-2-deck64=True": "2756d82bbf1a0a88",
}
BENCH_GOLDEN = "ba61b9a244fe8222"


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_sampled_worlds_and_rollouts_are_unchanged(name: str, players: int, options: dict[str, Any]) -> None:
    ident = IDS[CASES.index((name, players, options))]
    assert digest(name, players, options) == GOLDEN[ident]


def test_the_bench_positions_give_the_same_worlds_and_rollouts() -> None:
    assert bench_digest() == BENCH_GOLDEN


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_playing_sampled_worlds_leaves_the_real_game_as_it_was(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Worlds share nothing they change with the game they were sampled from (``copy_by`` shares
    only what is immutable): the game's whole state is the same after its worlds are played out
    with ``rollout`` and with ``apply``."""
    rng = random.Random(f"independent/{name}/{players}/{sorted(options.items())}")
    for k in range(4):
        game, _, _, _ = first_deal_position(name, players, options, rng)
        seat = k % players
        game.sample_world(seat, random.Random(99))  # the game keeps what sampling works out once
        before = state_text(game)
        for w in range(2):
            game.sample_world(seat, random.Random(w)).rollout(chooser(w))
            world = game.sample_world(seat, random.Random(w))
            policy = chooser(w)
            deal = world.deal_no  # type: ignore[attr-defined]
            while not world.is_over and world.deal_no == deal:  # type: ignore[attr-defined]
                actor = world.to_act[0]
                world.apply(actor, policy(world, actor, world.legal_actions(actor)))
            assert state_text(game) == before


def test_a_game_that_gained_an_attribute_since_its_copy_recipe_is_copied_the_long_way() -> None:
    game = new_game("pinochle-4", players=4, seed=5)
    recipe = game.copy_recipe()
    game.notes = [[1], [2]]  # type: ignore[attr-defined]
    copy = game.copy_by(recipe)
    copy.notes[0].append(3)  # type: ignore[attr-defined]
    assert game.notes == [[1], [2]]  # type: ignore[attr-defined]
    assert state_text(copy) != state_text(game)


if __name__ == "__main__":  # prints the table above (run on the reference code only)
    for (name, players, options), ident in zip(CASES, IDS, strict=True):
        print(f'    "{ident}": "{digest(name, players, options)}",')
    print(f'BENCH_GOLDEN = "{bench_digest()}"')
