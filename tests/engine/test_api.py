"""The shared engine API: cards, actions, options, the variant registry, saving and views."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engine
from bot.ai import decide, make_player
from bot.engine import (
    BadAction,
    BadCard,
    BadGameRecord,
    BadOption,
    Card,
    EngineError,
    Game,
    IllegalAction,
    Rank,
    Suit,
    UnknownVariant,
    find_variant,
    new_game,
    parse_action,
    parse_cards,
    variant_names,
)
from bot.engine.options import parse_option_pairs


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("10H", Suit.HEARTS, Rank.TEN),
        ("th", Suit.HEARTS, Rank.TEN),
        ("10♥", Suit.HEARTS, Rank.TEN),
        ("QS", Suit.SPADES, Rank.QUEEN),
        ("9c", Suit.CLUBS, Rank.NINE),
        ("aD", Suit.DIAMONDS, Rank.ACE),
        ("2♣", Suit.CLUBS, Rank.TWO),
        (" Jd ", Suit.DIAMONDS, Rank.JACK),
    ],
)
def test_card_text_is_parsed_case_insensitively(text: str, suit: Suit, rank: Rank) -> None:
    card = Card.parse(text)
    assert card is Card(suit, rank)
    assert card.suit is suit and card.rank is rank


def test_cards_show_with_suit_symbols_and_codes() -> None:
    assert Card.parse("10h").pretty == "10♥"
    assert str(Card.parse("qs")) == "QS"
    assert [c.code for c in parse_cards("AS, 10D 9c")] == ["AS", "10D", "9C"]


@pytest.mark.parametrize("text", ["", "11H", "1H", "ZS", "10X", "QSS", "Q"])
def test_bad_card_text_is_refused_clearly(text: str) -> None:
    with pytest.raises(BadCard, match="not a card|not a suit"):
        Card.parse(text)


def test_cards_are_interned_and_immutable() -> None:
    card = Card.parse("KH")
    assert Card(Suit.HEARTS, Rank.KING) is card
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc]
    import pickle

    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("text", ["pass", "bid 3", "play 10H", "trump S", "bury 9H 9C JD", "declare-out"])
def test_action_text_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text
    assert parse_action(text.upper()) == parse_action(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("jump", "unknown action"),
        ("bid", "needs one number"),
        ("bid x", "needs one number"),
        ("play", "needs cards"),
        ("play 10H QS", "exactly one card"),
        ("pass 3", "takes nothing"),
        ("play 1Z", "not a card"),
        ("trump", "needs one suit"),
    ],
)
def test_bad_action_text_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises((BadAction, BadCard), match=message):
        parse_action(text)


def test_registry_knows_the_pitch_variants_and_lists_them_on_a_typo() -> None:
    assert {"pitch", "pitch-partnership"} <= set(variant_names())
    assert find_variant("PITCH").name == "pitch"
    with pytest.raises(UnknownVariant, match="choose one of: .*pitch"):
        find_variant("pitchh")


def test_player_counts_are_checked() -> None:
    assert find_variant("pitch").player_counts == (2, 3, 4, 5, 6, 7)
    with pytest.raises(EngineError, match="players must be a whole number from 2 to 7 for pitch; got 8"):
        new_game("pitch", players=8)
    with pytest.raises(EngineError, match="players must be 4 for pitch-partnership; got 3"):
        new_game("pitch-partnership", players=3)


def test_options_have_defaults_and_unknown_ones_list_the_valid_ones() -> None:
    game = new_game("pitch", seed=1)
    assert game.options == {"target": 11, "old-high-low": False, "dealer-steal": False, "smudge": False}
    with pytest.raises(BadOption, match=r"no option 'smudgee'.*smudge \(on/off\)"):
        new_game("pitch", options={"smudgee": True})
    with pytest.raises(BadOption, match="on or off"):
        new_game("pitch", options={"smudge": "maybe"})
    assert new_game("pitch", options=parse_option_pairs(["smudge=on", "target=21"])).options["target"] == 21
    with pytest.raises(BadOption, match="not key=value"):
        parse_option_pairs(["smudge"])


def ai_game(variant: str, players: int, seed: int) -> Game:
    game = new_game(variant, players=players, seed=seed)
    bots = [make_player("pitch", "basic", seed + s) for s in range(players)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
    return game


@pytest.mark.parametrize(("variant", "players"), [("pitch", 3), ("pitch", 6), ("pitch-partnership", 4)])
def test_to_json_round_trip_is_exact(variant: str, players: int) -> None:
    game = ai_game(variant, players, seed=4)
    record = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(record)
    assert again.to_json() == game.to_json()
    assert again.public_view() == game.public_view()
    assert again.outcome == game.outcome


def test_round_trip_mid_deal_keeps_hands_and_turn() -> None:
    game = new_game("pitch", players=4, seed=9)
    rng = random.Random(2)
    for _ in range(9):
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    again = Game.from_json(game.to_json())
    assert [again.view(s) for s in range(4)] == [game.view(s) for s in range(4)]


def test_a_broken_record_is_refused() -> None:
    record = new_game("pitch", seed=1).to_json()
    record["log"] = [[0, "play ZZ"]]
    with pytest.raises(BadGameRecord):
        Game.from_json(record)
    with pytest.raises(BadGameRecord, match="missing"):
        Game.from_json({"variant": "pitch"})


def test_same_seed_same_game() -> None:
    assert ai_game("pitch", 4, seed=12).to_json() == ai_game("pitch", 4, seed=12).to_json()


def test_copy_is_independent() -> None:
    game = new_game("pitch", players=4, seed=3)
    clone = game.copy()
    seat = clone.to_act[0]
    clone.apply(seat, clone.legal_actions(seat)[-1])
    assert game.log == [] and game.to_act == (seat,)
    assert clone.log != []


def test_illegal_action_is_a_value_error_and_changes_nothing() -> None:
    game = new_game("pitch", players=4, seed=3)
    before = game.to_json()
    other = (game.to_act[0] + 1) % 4
    with pytest.raises(ValueError, match="not your turn"):
        game.apply(other, "pass")
    with pytest.raises(IllegalAction, match="no seat 9"):
        game.apply(9, "pass")
    assert game.to_json() == before


def test_the_engine_imports_no_discord_or_database_code() -> None:
    code = (
        "import sys, bot.engine, bot.ai;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'aiosqlite', 'aiohttp')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_imports_nothing_of_the_project_outside_itself() -> None:
    engine = Path(bot.engine.__file__).parent
    outside = []
    for path in engine.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                ours = name.split(".")[0] in ("bot", "cogs", "tests")
                if ours and name != "bot.engine" and not name.startswith("bot.engine."):
                    outside.append(f"{path.name}: {name}")
    assert not outside


# ----- a chosen position: new_game(decks=..., dealer=...) -----------------------------------------
@pytest.mark.parametrize("variant", variant_names())
def test_a_stacked_pack_deals_the_first_deal_whatever_the_seed(variant: str) -> None:
    pack = new_game(variant, seed=3).pack()
    random.Random(4).shuffle(pack)
    dealer = find_variant(variant).default_players - 1
    one = new_game(variant, seed=3, decks=[pack], dealer=dealer)
    other = new_game(variant, seed=4, decks=[pack], dealer=dealer)
    assert one.dealer == other.dealer == dealer  # type: ignore[attr-defined]
    assert one.hands == other.hands  # type: ignore[attr-defined]
    assert [one.view(s) for s in range(one.players)] == [other.view(s) for s in range(one.players)]
    assert one.hands != new_game(variant, seed=3, dealer=dealer).hands  # type: ignore[attr-defined]
    record = one.to_json()
    assert record["setup"] == {"decks": [[card.code for card in pack]], "dealer": dealer}
    assert json.loads(json.dumps(record)) == record
    assert "setup" not in new_game(variant, seed=3).to_json()  # a seeded game's record is unchanged


def _play_to_deal(game: Game, deal: int, rng: random.Random) -> None:
    while not game.is_over and game.deal_no < deal:  # type: ignore[attr-defined]
        seat = game.to_act[0]
        legal = [a for a in game.legal_actions(seat) if a.kind.value != "declare-out"]
        game.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("variant", ["pinochle-4", "pitch", "double-deck", "pinochle-3"])
def test_a_stacked_game_replays_from_its_record_and_later_deals_are_seeded(variant: str) -> None:
    seeded = new_game(variant, seed=5)
    pack = seeded.pack()
    random.Random(1).shuffle(pack)
    game = new_game(variant, seed=5, decks=[pack], dealer=0)
    _play_to_deal(game, 2, random.Random(2))
    replayed = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert replayed.public_view() == game.public_view()
    assert [replayed.view(s) for s in range(game.players)] == [game.view(s) for s in range(game.players)]
    if not game.is_over:
        # Deal 2 is the seeded game's deal 2 (same seed, no stacked pack for it).
        other = new_game(variant, seed=5, dealer=game.first_dealer)
        _play_to_deal(other, 2, random.Random(2))
        if not other.is_over and other.dealer == game.dealer:  # type: ignore[attr-defined]
            assert other.hands == game.hands  # type: ignore[attr-defined]


def test_a_stacked_pack_must_be_the_whole_pack() -> None:
    pack = new_game("pinochle-4", seed=1).pack()
    with pytest.raises(EngineError, match="stacked pack 1 is not a pinochle-4 pack of 48 cards"):
        new_game("pinochle-4", seed=1, decks=[pack[:-1]])
    with pytest.raises(EngineError, match="stacked pack 2 is not a pinochle-4 pack"):
        new_game("pinochle-4", seed=1, decks=[pack, [*pack[:-1], pack[0]]])
    with pytest.raises(EngineError, match="dealer must be a seat number from 0 to 3 .*; got 4"):
        new_game("pinochle-4", seed=1, dealer=4)


def test_a_damaged_setup_in_a_record_does_not_replay() -> None:
    record = new_game("pitch", seed=1, dealer=2).to_json()
    assert record["setup"] == {"decks": [], "dealer": 2}
    record["setup"] = {"decks": [["AS", "XX"]], "dealer": 2}
    with pytest.raises(BadGameRecord, match="does not replay"):
        Game.from_json(record)
    record["setup"] = {"decks": [["AS"]], "dealer": 2}
    with pytest.raises(BadGameRecord, match="stacked pack 1"):
        Game.from_json(record)


def test_pitch_with_a_chosen_dealer_draws_no_card_for_it() -> None:
    game = new_game("pitch", players=5, seed=1, dealer=2)
    view = game.public_view()
    assert view["dealer"] == 2 and view["first_dealer_draws"] == 0
    assert game.to_act == (3,)
