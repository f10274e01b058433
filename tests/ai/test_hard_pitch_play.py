"""The rollout policy's pitch card play (what ``hard`` plays its sampled worlds out with) reads the
voids the seats have shown, as ``basic`` does: it shares ``basic``'s card play."""

from __future__ import annotations

from bot.ai.hard.policy import RolloutPolicy
from bot.engine import Action
from bot.engine.pitch import PitchBase
from tests.ai.test_pitch_ai import auction_deal


def policy_play(game: PitchBase, seat: int) -> str:
    legal: list[Action] = game.legal_actions(seat)
    return str(RolloutPolicy("pitch")(game, seat, legal))


def test_rollouts_win_a_trick_with_the_sure_low_when_no_one_after_can_overtrump() -> None:
    game = auction_deal(
        {0: "AS 8C 2C 3C 4C 5C", 1: "6S 9C 10D JD QD KD", 2: "5S 2S 4H 5H 6H 7H", 3: "8H 9H 10H JH QH KH"},
        ["bid 2", "pass", "pass", "pass"],
    )
    for seat, card in [(0, "AS"), (1, "6S"), (2, "5S"), (3, "8H"), (0, "8C"), (1, "9C")]:
        game.apply(seat, f"play {card}")
    # Seat 3 showed it holds no trump: the 2♠ takes the trick and the Low with it. The old rollout
    # policy did not read voids and kept the 2♠ back (playing the 4♥), so its Low was taken later.
    assert policy_play(game, 2) == "play 2S"


def test_rollouts_cash_the_low_when_no_one_else_holds_a_trump() -> None:
    game = auction_deal(
        {0: "AS 2S 9C 10C 4D 5D", 1: "6C 9D 10D JD QD KD", 2: "7C 8C 4H 5H 6H 7H", 3: "8H 9H 10H JH QH KH"},
        ["bid 2", "pass", "pass", "pass"],
    )
    for seat, card in [(0, "AS"), (1, "6C"), (2, "7C"), (3, "8H")]:
        game.apply(seat, f"play {card}")
    # Every other seat has shown it holds no trump: the 2♠ led wins the Low (the old policy led the 4♦).
    assert policy_play(game, 0) == "play 2S"
