"""The search fast path: ``Game.rollout`` plays a deal to its end exactly as ``apply`` would (but
does not deal the next deal), and the read-only accessors agree with the views."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Action, Card, Game, Rank, Suit, new_game
from bot.engine.pitch import SAME_COLOUR
from tests.engine.test_sample_world import CASES, IDS, first_deal_position, pick


def chooser(seed: int) -> Any:
    rng = random.Random(seed)

    def policy(game: Game, seat: int, legal: list[Action]) -> Action:
        return rng.choice([a for a in legal if str(a) not in ("declare-out", "concede")] or legal)

    return policy


def play_with_apply(game: Game, seed: int) -> tuple[list[int], list[dict[str, Any]]]:
    """The same deal through the checked API (``apply``), with the same choices."""
    policy = chooser(seed)
    deal, before = game.deal_no, game.scores[:]  # type: ignore[attr-defined]
    events: list[dict[str, Any]] = []
    while not game.is_over and game.deal_no == deal:  # type: ignore[attr-defined]
        seat = game.to_act[0]
        events.extend(game.apply(seat, policy(game, seat, game.legal_actions(seat))))
    # The scores when the deal was scored (two-hand scores a turned-up dix of the next deal at once).
    after = next((e["scores"] for e in events if e["type"] == "deal_scored" and "scores" in e), game.scores)  # type: ignore[attr-defined]
    return [a - b for a, b in zip(after, before, strict=True)], events


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_rollout_plays_the_deal_as_apply_does(name: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(f"rollout/{name}/{players}")
    for k in range(10):
        game, _, _, _ = first_deal_position(name, players, options, rng)
        world = game.sample_world(rng.randrange(players), random.Random(k))
        twin = world.copy()
        fast = world.rollout(chooser(k))
        slow, events = play_with_apply(twin, k)
        assert fast == slow
        assert world.to_json()["log"] == []  # the fast path keeps no log
        # The same end: scores, outcome and deal number (a rollout does not deal the next deal).
        assert world.outcome == twin.outcome
        assert world.deal_no == twin.deal_no  # type: ignore[attr-defined]
        scored = [e for e in events if e["type"] == "deal_scored"]
        # The deal's whole change, when nothing was scored before the rollout began (two-hand
        # meld is scored as it is laid; the rollout counts from where it starts).
        if scored and "changes" in scored[0] and not twin.is_over and name != "pinochle-2":
            assert fast == scored[0]["changes"]


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_search_accessors_agree_with_the_view(name: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(f"accessors/{name}/{players}")
    for _ in range(10):
        game, _, _, _ = first_deal_position(name, players, options, rng)
        view = game.view(0)
        assert [c.code for c in game.hand(0)] == view["hand"]
        assert [{"seat": s, "card": c.code} for s, c in game.trick_plays()] == view["trick"]
        trump = game.trump_suit()
        assert (trump.value if trump else None) == view["trump"]
        plays = game.trick_plays()
        if plays:
            assert game.led_suit() is not None
            win = game.winning_play()
            assert win is not None and win in plays
            assert view["leader"] == game.trick_leader() == plays[0][0]
        else:
            assert game.led_suit() is None and game.winning_play() is None
        assert len(game.deal_points()) == len(game.sides)
        assert set(game.teammates(0)) == set(game.sides[game.side_of[0]]) - {0}
        declarer = game.declarer()
        assert declarer is None or declarer in range(players)


def test_is_trump_counts_the_off_jack_in_pitch() -> None:
    game = new_game("pitch", players=4, options={"off-jack": True}, seed=2)
    rng = random.Random(1)
    while game.phase.value != "play" or not game.trick_plays():  # type: ignore[attr-defined]
        game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
    trump = game.trump_suit()
    assert trump is not None
    off_jack = Card(SAME_COLOUR[trump], Rank.JACK)
    assert game.is_trump(off_jack) and game.is_trump(Card(trump, Rank.TWO))
    other = next(suit for suit in Suit if suit not in (trump, SAME_COLOUR[trump]))
    assert not game.is_trump(Card(other, Rank.JACK))
