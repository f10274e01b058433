"""Properties of whole pinochle games, for every variant and option combination: they end, cards
are conserved at every step, counters add up per deal, and no view shows another seat's cards."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import decide, make_player
from bot.engine import Card, new_game
from bot.engine.pinochle.common import PinochleGame
from bot.engine.pinochle.partnership import PartnershipBase
from bot.engine.pinochle.three import ThreeHand
from bot.engine.pinochle.two import TwoHand
from tests.engine.helpers import strings_in
from tests.engine.pinochle.helpers import check_cards, check_view_private

MAX_DEALS = 150
COUNTS = ["standard", "tens-fives", "tens"]


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, list[str]]:
    variant = draw(
        st.sampled_from(
            ["pinochle-2", "pinochle-3", "pinochle-4", "pinochle-4-auction", "pinochle-6", "pinochle-8"]
        )
    )
    options: dict[str, Any] = {}
    if variant == "pinochle-2":
        options = {"match": draw(st.sampled_from([1000, "deal"])), "deck64": draw(st.booleans())}
    elif variant == "pinochle-3":
        options = {
            "deals": draw(st.sampled_from([1, 3])),
            "chips": draw(st.sampled_from(["3-5-10-15-20-25-30", "3-5-10-20-40-80-160", "1-2-4-6-8-10-12"])),
            "suit-bonus": draw(st.booleans()),
            "set-single": draw(st.booleans()),
        }
    else:
        options = {"match": draw(st.sampled_from([1000, "deal"])), "count": draw(st.sampled_from(COUNTS))}
        if variant in ("pinochle-6", "pinochle-8"):
            options["rules"] = draw(st.sampled_from(["partnership", "auction"]))
        if variant == "pinochle-4-auction" or options.get("rules") == "auction":
            options["pass"] = draw(st.sampled_from([0, 4]))
    players = new_game(variant).players
    seed = draw(st.integers(0, 2**32))
    levels = ["basic"] * players
    if draw(st.booleans()):  # half the games seat a random player at every other seat
        levels = ["basic" if seat % 2 == 0 else "random" for seat in range(players)]
    return variant, options, seed, levels


def deal_total(game: PinochleGame) -> int:
    return 490 if game.copies == 4 else 250


@settings(max_examples=36, deadline=None)
@given(setups())
def test_games_end_conserve_cards_and_counters_add_up(
    setup: tuple[str, dict[str, Any], int, list[str]],
) -> None:
    variant, options, seed, levels = setup
    game = new_game(variant, options=options, seed=seed)
    assert isinstance(game, PinochleGame)
    bots = [make_player("pinochle", level, seed + s) for s, level in enumerate(levels)]
    while not game.is_over:
        assert game.deal_no <= MAX_DEALS, "the game does not end"
        check_cards(game)
        seat = game.to_act[0]
        events = game.apply(seat, decide(bots[seat], game, seat))
        json.dumps(events)
        for event in events:
            if event["type"] != "deal_scored":
                continue
            if isinstance(game, ThreeHand):
                if event["conceded"] is None:
                    assert sum(event["trick_counters"]) + event["buried_counters"] == 250
                assert sum(event["changes"]) + event["kitty_change"] == 0
            else:
                assert sum(event["counters"]) == deal_total(game)
                if options.get("count", "standard") == "standard":
                    assert all(c % 10 == 0 for c in event["counted"])
                    assert all(
                        abs(c - raw) <= 6 for c, raw in zip(event["counted"], event["counters"], strict=True)
                    )
                else:  # the simplified counts are not rounded
                    assert event["counted"] == event["counters"]
    assert game.outcome is not None and game.to_act == ()
    assert game.outcome.winners
    if isinstance(game, ThreeHand):
        assert sum(game.scores) + game.kitty == 0
    if isinstance(game, PinochleGame) and game.target is not None and not isinstance(game, ThreeHand):
        assert game.target in (1000, 1250, 1500, 1750, 2000, 2250, 2500)


# ----- privacy ------------------------------------------------------------------------------------
def own_cards(game: PinochleGame, seat: int) -> list[Card]:
    cards = list(game.hands[seat])
    if isinstance(game, TwoHand):
        cards += [card for card, _ in game.laid[seat]]
    if isinstance(game, ThreeHand) and seat == game.bidder:
        cards += game.buried
    if isinstance(game, PartnershipBase):
        cards += game.gave[seat] + game.received[seat]
        if game.pass_from == seat:
            cards += game.giving
    return cards


def public_cards(game: PinochleGame) -> list[Card]:
    cards = [card for _, card in game.trick]
    for trick, _ in game.tricks:
        cards += [card for _, card in trick]
    if isinstance(game, TwoHand):
        for laid in game.laid:
            cards += [card for card, _ in laid]
        for item in game.meld_log:
            cards += [Card.parse(code) for code in item["cards"]]
        if game.turned is not None:
            cards.append(game.turned)
    if isinstance(game, PartnershipBase):
        if game.turned is not None:
            cards.append(game.turned)
        cards += [card for _, card in game.exchanges]
        for result in game.meld_results() or []:
            for meld in result.melds:
                cards += meld.cards
    if isinstance(game, ThreeHand):
        if game.widow_shown:
            cards += game.widow
        if game.meld is not None:
            cards += [card for meld in game.meld.melds for card in meld.cards]
    return cards


def hidden_places(game: PinochleGame, seat: int) -> list[list[Card]]:
    """The lists holding cards ``seat`` may not see."""
    places = [hand for other, hand in enumerate(game.hands) if other != seat]
    if isinstance(game, TwoHand):
        places.append(game.stock)
    if isinstance(game, ThreeHand):
        if not game.widow_shown:
            places.append(game.widow)
        if seat != game.bidder:
            places.append(game.buried)
    if isinstance(game, PartnershipBase) and game.pass_from != seat:
        places.append(game.giving)
    return places


def check_private(game: PinochleGame, seat: int, rng: random.Random, shuffle: bool) -> None:
    check_view_private(
        game, seat, rng, shuffle, lambda: own_cards(game, seat) + public_cards(game), hidden_places
    )


VIEW_CASES = [
    ("pinochle-2", {}, 1),
    ("pinochle-2", {"deck64": True}, 2),
    ("pinochle-3", {"deals": 3}, 3),
    ("pinochle-4", {}, 4),
    ("pinochle-4-auction", {"pass": 4}, 5),
    ("pinochle-6", {"rules": "auction", "pass": 4}, 6),
    ("pinochle-6", {}, 7),
    ("pinochle-8", {"match": "deal"}, 8),
]


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES)
def test_no_view_shows_another_seats_hidden_cards(variant: str, options: dict[str, Any], seed: int) -> None:
    game = new_game(variant, options=options, seed=seed)
    assert isinstance(game, PinochleGame)
    bots = [make_player("pinochle", "basic", seed + s) for s in range(game.players)]
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and game.deal_no <= 3:
        for seat in range(game.players):
            check_private(game, seat, rng, shuffle=steps % 5 == 0)
        public = set(strings_in(game.public_view()))
        everyone_hidden = {c.code for place in hidden_places(game, -1) for c in place} - {
            c.code for c in public_cards(game)
        }
        assert not public & everyone_hidden
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
        steps += 1
    assert steps > 30


def test_a_game_round_trips_through_json() -> None:
    from bot.engine import Game

    for variant, options, seed in VIEW_CASES:
        game = new_game(variant, options=options, seed=seed)
        bots = [make_player("pinochle", "basic", seed + s) for s in range(game.players)]
        for _ in range(120):
            if game.is_over:
                break
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
        again = Game.from_json(game.to_json())
        assert again.to_json() == game.to_json()
        assert [again.view(s) for s in range(game.players)] == [game.view(s) for s in range(game.players)]


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES)
def test_copies_are_independent_in_every_phase(variant: str, options: dict[str, Any], seed: int) -> None:
    game = new_game(variant, options=options, seed=seed)
    assert isinstance(game, PinochleGame)
    rng = random.Random(seed)
    for _ in range(150):
        if game.is_over:
            break
        record = game.to_json()
        views = [game.view(s) for s in range(game.players)]
        clone = game.copy()
        for _ in range(6):  # a few moves on the copy must leave the original untouched
            if clone.is_over:
                break
            seat = clone.to_act[0]
            clone.apply(
                seat, rng.choice([a for a in clone.legal_actions(seat) if a.kind.value != "declare-out"])
            )
        assert game.to_json() == record
        assert [game.view(s) for s in range(game.players)] == views
        check_cards(game)
        seat = game.to_act[0]
        game.apply(seat, rng.choice([a for a in game.legal_actions(seat) if a.kind.value != "declare-out"]))
        check_cards(game)


@pytest.mark.parametrize("variant", ["pinochle-2", "pinochle-3", "pinochle-4", "pinochle-8"])
def test_fast_legal_plays_agree_with_the_follow_rules(variant: str) -> None:
    """The suit-indexed fast path gives exactly the cards ``strict_playable`` allows."""
    for seed in range(6):
        game = new_game(
            variant, seed=seed, options={"deals": 1} if variant == "pinochle-3" else {"match": "deal"}
        )
        assert isinstance(game, PinochleGame)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            if game.phase in ("play", "playoff") and not (isinstance(game, TwoHand) and game.phase == "play"):
                plays = {a.cards[0] for a in legal if a.kind.value == "play"}
                assert plays == set(game.strict_playable(game.hands[seat]))
                if game.trick:  # the same rules read from any trick's led suit and best card
                    assert game.win_card is not None
                    led = game.trick[0][1].suit
                    assert plays == set(game.follow_rules(game.hands[seat], led, game.win_card))
            game.apply(seat, rng.choice(legal))


def _probe_actions(rng: random.Random) -> list[str]:
    cards = ["AS", "10H", "KD", "QS", "JD", "9C", "7H", "QH", "KH", "9H"]
    out = ["pass", "concede", "declare-out", "bid 90", "bid 100", "bid 305", "bid 300", "bid 5000", "trump H"]
    out += [f"play {rng.choice(cards)}", f"bury {rng.choice(cards)}", f"give {rng.choice(cards)}"]
    out += [
        f"exchange {rng.choice(cards)}",
        "meld KS QS JD",
        "meld QS JD",
        "meld KH QH",
        "meld 9H",
        "meld AS",
    ]
    return out


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES)
def test_every_illegal_action_is_refused_with_a_reason_and_changes_nothing(
    variant: str, options: dict[str, Any], seed: int
) -> None:
    from bot.engine import IllegalAction

    game = new_game(variant, options=options, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 120:
        before = game.to_json()
        for text in _probe_actions(rng):
            seat = rng.randrange(game.players)
            if text in {str(a) for a in game.legal_actions(seat)}:
                continue
            with pytest.raises(IllegalAction) as refused:
                game.apply(seat, text)
            assert len(str(refused.value)) > 10, text
            assert game.to_json() == before
        seat = game.to_act[0]
        choices = [a for a in game.legal_actions(seat) if a.kind.value != "declare-out"]
        game.apply(seat, rng.choice(choices))
        steps += 1
