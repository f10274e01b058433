"""``bot.engine.actions``: the one interning point. Every action the engine lists is the object
``parse_action`` returns for its text, and the module-level constants are the only ones."""

from __future__ import annotations

import random

import pytest

import bot.engine
from bot.engine import Kind, new_game, parse_action, variant_names
from bot.engine.actions import (
    ASK_OF,
    CONCEDE,
    DECLARE_OUT,
    PASS,
    THROW_IN,
    TRUMP_OF,
    bid,
    bid_action,
    card_action,
    play,
)
from bot.engine.cards import Card, Suit
from bot.engine.pinochle import double_deck, partnership, three, two


def test_there_is_one_pass_and_one_of_each_bare_action() -> None:
    assert bot.engine.PASS is PASS
    assert parse_action("pass") is PASS and parse_action(" PASS ") is PASS
    assert parse_action("declare-out") is DECLARE_OUT
    assert parse_action("concede") is CONCEDE
    assert parse_action("throw-in") is THROW_IN
    assert double_deck.THROW_IN is THROW_IN and double_deck.ASK_OF is ASK_OF
    assert two.PASS is three.PASS is partnership.PASS is PASS
    assert two.DECLARE_OUT is partnership.DECLARE_OUT is DECLARE_OUT
    assert three.CONCEDE is CONCEDE


def test_bids_suits_and_single_cards_are_interned() -> None:
    assert bid(300) is bid_action(300) is parse_action("bid 300")
    assert parse_action("trump h") is TRUMP_OF[Suit.HEARTS]
    assert parse_action("ask S") is ASK_OF[Suit.SPADES]
    ten = Card.parse("10H")
    assert parse_action("play 10♥") is play(ten) is card_action(Kind.PLAY, ten)
    assert parse_action("bury 10h") is card_action(Kind.BURY, ten)
    assert parse_action("give 10H") is card_action(Kind.GIVE, ten)


def test_outlandish_bids_and_card_lists_are_not_kept() -> None:
    assert bid(10**9) == bid(10**9) and bid(10**9) is not bid(10**9)
    assert parse_action("bury 9H 9C") == parse_action("bury 9H 9C")
    assert parse_action("bury 9H 9C") is not parse_action("bury 9H 9C")


@pytest.mark.parametrize("variant", variant_names())
def test_every_listed_action_is_the_parsed_object(variant: str) -> None:
    rng = random.Random(variant)
    for seed in range(3):
        game = new_game(variant, seed=seed)
        for _ in range(400):
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            for action in legal:
                if len(action.cards) <= 1:
                    assert parse_action(str(action)) is action, action
            choices = [a for a in legal if a is not DECLARE_OUT] or legal
            game.apply(seat, rng.choice(choices))
