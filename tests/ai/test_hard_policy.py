"""The fast policy ``hard`` plays sampled worlds out with: in pinochle it keeps ``basic``'s trump
rules, so the seats it models play as ``basic`` would."""

from __future__ import annotations

import pytest

from bot.ai import decide
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.pinochle import PinochlePlayer
from tests.ai.test_pinochle_ai import ALL_HEARTS, _four_hand
from tests.engine.pinochle.helpers import play

LOW_LEAD_HANDS = {
    0: "KH QH JH JH KS QS JS 9S KC QC JC 9D",
    3: "AS AS 10S 10S AD AD 10D 10D AC AC 9H 9H",
}


@pytest.mark.parametrize(
    ("hands", "played", "seat", "expected"),
    [
        # Made to trump a partner's sure trick: the lowest trump (it used to give the A♥).
        (ALL_HEARTS, [(0, "play 9D"), (1, "play AD"), (2, "play JD")], 3, "play 9H"),
        # Trumping last: the lowest trump that wins (it used to take it with the 10♥).
        (ALL_HEARTS, [(0, "play AS"), (1, "play 9S"), (2, "play 9C")], 3, "play 9H"),
        # Four trumps and no sure winner to lead: the lowest trump (it used to lead the 9♠).
        (LOW_LEAD_HANDS, [], 0, "play JH"),
    ],
)
def test_pinochle_rollouts_keep_basics_trump_rules(
    hands: dict[int, str], played: list[tuple[int, str]], seat: int, expected: str
) -> None:
    game = _four_hand(hands)
    play(game, *played)
    legal = game.legal_actions(seat)
    assert str(decide(PinochlePlayer(1), game, seat)) == expected
    assert str(RolloutPolicy(game.family)(game.copy(), seat, legal)) == expected
