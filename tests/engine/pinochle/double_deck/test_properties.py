"""Properties of whole double-deck games for random option combinations: they end (computer
players), cards are conserved at every step, counters total 50 per played deal (500 with 100
aces), events and views are JSON, no view shows another seat's hidden cards (passes included),
records replay, copies are independent and illegal actions are refused with a reason."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import decide, make_player
from bot.engine import Card, Game, IllegalAction, new_game
from bot.engine.pinochle.double_deck import DoubleDeck
from tests.engine.helpers import strings_in
from tests.engine.pinochle.double_deck.helpers import check_cards
from tests.engine.pinochle.helpers import check_view_private

PRESETS = ["double-deck", "double-deck-npa", "double-deck-toby-thomas", "double-deck-pass"]
MAX_DEALS = 60


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    """A preset and a random valid combination of options on top of it (short games)."""
    variant = draw(st.sampled_from(PRESETS))
    count = draw(st.sampled_from([0, 1, 2, 3, 4]))
    options: dict[str, Any] = {
        "match": draw(st.sampled_from([250, "deal"])),
        "bidding": draw(st.sampled_from(["standard", "any", "toby-thomas"])),
        "tens-over-100": draw(st.booleans()),
        "rounds": draw(st.sampled_from(["unlimited", 1, 2])),
        "pass": count,
        "meld": draw(st.sampled_from(["standard", "book", "npa", "toby-thomas"])),
        "roundhouse": draw(st.sampled_from([24, 32, 39])),
        "double-roundhouse": draw(st.sampled_from([160, 240])),
        "min-20": draw(st.booleans()),
        "giveup": draw(st.sampled_from(["standard", "nothing", "meld", "meld+25", "meld+50", "play"])),
        "100-aces": draw(st.booleans()),
        "pass-order": "simultaneous",
        "pass-when": "after-trump",
        "ask": "off",
        "trump-marriage": draw(st.sampled_from(["required", "none"])),
    }
    options["pinochle-14"] = options["meld"] != "npa" and draw(st.booleans())
    if count:
        options["pass-order"] = draw(st.sampled_from(["simultaneous", "partner-first"]))
        options["pass-when"] = draw(st.sampled_from(["after-trump", "before-trump"]))
        options["trump-marriage"] = draw(st.sampled_from(["required", "none", "after-pass"]))
        if options["pass-when"] == "before-trump":
            options["ask"] = draw(st.sampled_from(["off", "optional", "must-give"]))
    return variant, options, draw(st.integers(0, 2**32))


@settings(max_examples=30, deadline=None)
@given(setups())
def test_games_end_conserve_cards_and_counters_total_50(setup: tuple[str, dict[str, Any], int]) -> None:
    variant, options, seed = setup
    game = new_game(variant, options=options, seed=seed)
    assert isinstance(game, DoubleDeck)
    bots = [make_player("double-deck", "basic", seed + s) for s in range(4)]
    played = 0
    while not game.is_over:
        assert game.deal_no <= MAX_DEALS, "the game does not end"
        check_cards(game)
        seat = game.to_act[0]
        events = game.apply(seat, decide(bots[seat], game, seat))
        json.dumps(events)
        for event in events:
            if event["type"] != "deal_scored":
                continue
            if event["played"]:
                played += 1
                assert sum(event["counters"]) == 50 * game.scale
                assert sum(event["tricks_won"]) == 20
            else:
                assert event["counters"] == [0, 0]
            if event["made"]:
                bidding = game.side_of[event["bidder"]]
                assert event["meld_counted"][bidding] + event["counters"][bidding] >= event["bid"]
    assert game.outcome is not None and game.outcome.winners and game.to_act == ()
    if game.target is not None:
        assert max(game.scores) >= game.target


def test_computer_players_against_random_ones_finish_their_games() -> None:
    for seed in range(4):
        game = new_game("double-deck", seed=seed, options={"match": 250})
        bots = [make_player("double-deck", "basic" if s % 2 == 0 else "random", seed + s) for s in range(4)]
        while not game.is_over:
            assert game.deal_no <= MAX_DEALS
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
        assert game.outcome is not None and game.outcome.winning_sides == (0,)


# ----- privacy ------------------------------------------------------------------------------------
def own_cards(game: DoubleDeck, seat: int) -> list[Card]:
    return game.hands[seat] + game.giving[seat] + game.gave[seat] + game.received[seat]


def public_cards(game: DoubleDeck) -> list[Card]:
    cards = [card for _, card in game.trick]
    for trick, _ in game.tricks:
        cards += [card for _, card in trick]
    for seat, result in enumerate(game.meld_results() or []):
        if result is not None and game.shown[seat]:
            cards += [card for meld in result.melds for card in meld.cards]
    return cards


def hidden_places(game: DoubleDeck, seat: int) -> list[list[Card]]:
    """The lists holding cards ``seat`` may not see: other hands, others' cards chosen to pass."""
    places = [hand for other, hand in enumerate(game.hands) if other != seat]
    return places + [giving for other, giving in enumerate(game.giving) if other != seat]


def check_private(game: DoubleDeck, seat: int, rng: random.Random, shuffle: bool) -> None:
    check_view_private(
        game, seat, rng, shuffle, lambda: own_cards(game, seat) + public_cards(game), hidden_places
    )


VIEW_CASES = [
    ("double-deck", {}, 1),
    ("double-deck-pass", {}, 2),
    ("double-deck-pass", {"pass": 4, "trump-marriage": "after-pass", "giveup": "play"}, 3),
    ("double-deck-toby-thomas", {}, 4),
    ("double-deck", {"pass": 2, "pass-when": "before-trump", "ask": "optional"}, 5),
    ("double-deck", {"pass": 1, "pass-order": "partner-first", "min-20": True, "giveup": "meld+25"}, 6),
    ("double-deck-npa", {"min-20": True, "100-aces": True, "roundhouse": 39}, 7),
]


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES)
def test_no_view_shows_another_seats_hidden_cards(variant: str, options: dict[str, Any], seed: int) -> None:
    game = new_game(variant, options=options, seed=seed)
    assert isinstance(game, DoubleDeck)
    bots = [make_player("double-deck", "basic", seed + s) for s in range(4)]
    rng = random.Random(seed)
    steps = 0
    phases = set()
    while not game.is_over and game.deal_no <= 3:
        phases.add(game.phase)
        for seat in range(4):
            check_private(game, seat, rng, shuffle=steps % 7 == 0 or game.phase == "pass")
        public = set(strings_in(game.public_view()))
        everyone_hidden = {c.code for place in hidden_places(game, -1) for c in place}
        assert not public & (everyone_hidden - {c.code for c in public_cards(game)})
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
        steps += 1
    assert steps > 100 and "play" in phases
    if options.get("pass") or "pass" in variant or "toby" in variant:
        assert "pass" in phases


def test_simultaneous_pass_hides_each_sides_choice_from_the_other() -> None:
    game = new_game("double-deck-pass", seed=11)
    bots = [make_player("double-deck", "basic", s) for s in range(4)]
    while game.phase != "pass":
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
    assert isinstance(game, DoubleDeck) and len(game.to_act) == 2
    first, second = game.to_act
    before = game.view(second)
    game.apply(first, decide(bots[first], game, first))
    chosen = game.giving[first][0]
    after = game.view(second)
    assert after["hand"] == before["hand"] and after["received"] == []
    assert after["passing"]["chosen"][first] == 1
    assert chosen.code in game.view(first)["giving"]
    for seat in (second, (first + 1) % 4, (first + 3) % 4):
        mine = {c.code for c in game.hands[seat]}
        assert chosen.code in mine or chosen.code not in strings_in(game.view(seat))


# ----- records, copies, illegal actions ---------------------------------------------------------
def test_a_game_round_trips_through_json() -> None:
    for variant, options, seed in VIEW_CASES:
        game = new_game(variant, options=options, seed=seed)
        bots = [make_player("double-deck", "basic", seed + s) for s in range(4)]
        for _ in range(150):
            if game.is_over:
                break
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
        again = Game.from_json(game.to_json())
        assert again.to_json() == game.to_json()
        assert [again.view(s) for s in range(4)] == [game.view(s) for s in range(4)]


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES[:4])
def test_copies_are_independent_in_every_phase(variant: str, options: dict[str, Any], seed: int) -> None:
    game = new_game(variant, options={**options, "match": "deal", "giveup": "play"}, seed=seed)
    assert isinstance(game, DoubleDeck)
    rng = random.Random(seed)
    while not game.is_over:
        record = game.to_json()
        views = [game.view(s) for s in range(4)]
        clone = game.copy()
        for _ in range(5):
            if clone.is_over:
                break
            seat = clone.to_act[-1]
            clone.apply(seat, rng.choice(clone.legal_actions(seat)))
        assert game.to_json() == record
        assert [game.view(s) for s in range(4)] == views
        check_cards(game)
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def probes(rng: random.Random) -> list[str]:
    cards = ["AS", "10H", "KD", "QS", "JD", "JC", "9H", "QH", "KH", "AC"]
    out = ["pass", "throw-in", "bid 49", "bid 50", "bid 61", "bid 65", "bid 505", "trump H", "ask D"]
    out += [f"play {rng.choice(cards)}", f"give {rng.choice(cards)}", "give AS KD", "meld KS QS", "concede"]
    return out


@pytest.mark.parametrize(("variant", "options", "seed"), VIEW_CASES)
def test_every_illegal_action_is_refused_with_a_reason_and_changes_nothing(
    variant: str, options: dict[str, Any], seed: int
) -> None:
    game = new_game(variant, options={**options, "match": "deal", "giveup": "play"}, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 120:
        before = game.to_json()
        for text in probes(rng):
            seat = rng.randrange(4)
            if text in {str(a) for a in game.legal_actions(seat)}:
                continue
            with pytest.raises(IllegalAction) as refused:
                game.apply(seat, text)
            assert len(str(refused.value)) > 10, text
            assert game.to_json() == before
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1


@pytest.mark.parametrize("seed", range(4))
def test_fast_legal_plays_agree_with_the_crawl_rules(seed: int) -> None:
    game = new_game("double-deck", seed=seed, options={"match": "deal", "giveup": "play"})
    assert isinstance(game, DoubleDeck)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if game.phase == "play":
            plays = {a.cards[0] for a in legal if a.kind.value == "play"}
            assert plays == set(game.crawl_playable(game.hands[seat]))
            if game.trick:  # the same rules read from any trick's led suit and best card
                assert game.win_card is not None
                assert plays == set(game.follow_rules(game.hands[seat], game.trick[0][1].suit, game.win_card))
        game.apply(seat, rng.choice(legal))
