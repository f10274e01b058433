"""Inference from the play: how well a sampled world explains the cards the other seats played.

A sampled world fits every fact seen but not the choices behind the plays (a seat that ducked a
trick it could have trumped probably holds no trump). ``pitch_misreads`` and ``pinochle_misreads``
count the plays the other seats would not have made with the world's hands as ``basic`` (pinochle:
the fast policy) plays; search keeps the world with the fewest, so no player is ever ruled out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.ai.hard.policy import pinochle_card, pitch_context
from bot.ai.pitch import play_card
from bot.engine import Card, Suit
from bot.engine.pinochle.common import RANK_STRENGTH, SORT_KEY, SUIT_OF_CARD, PinochleGame
from bot.engine.pitch import PitchBase
from bot.engine.tricks import trick_winner


def pitch_misreads(world: PitchBase, seat: int, limit: int, only: int | None = None) -> int:
    """How many plays by seats other than ``seat`` (``only``, if given) differ from ``basic``'s with the
    hand ``world`` gives that seat then (up to ``limit``; not the pitch, nor plays with no choice)."""
    if world.trumps is None or limit <= 0:
        return 0
    tricks = [plays for plays, _ in world.tricks]
    tricks.append(world.trick)
    hands = world.hands
    later: list[list[Card]] = [[] for _ in hands]
    sizes = [len(hand) for hand in hands]
    misses = 0
    for number in range(len(tricks) - 1, -1, -1):
        plays = tricks[number]
        for position in range(len(plays) - 1, -1, -1):
            other, card = plays[position]
            later[other].append(card)
            sizes[other] += 1
            if other == seat or (number == 0 and position == 0) or (only is not None and other != only):
                continue
            hand = world.sort_cards(hands[other] + later[other])
            before = plays[:position]
            playable = world.playable_from(hand, before)
            if len(playable) <= 1:
                continue
            # The context reads the sizes as it is built and keeps nothing of the list.
            ctx = pitch_context(world, other, hand, [*tricks[:number], before], sizes)
            if play_card(ctx, playable, before) != card:
                misses += 1
                if misses >= limit:
                    return misses
    return misses


@dataclass(slots=True)
class Moment:
    """A pinochle world as it stood before a play made earlier: what ``pinochle_card`` reads."""

    trick: list[tuple[int, Card]]
    trump: Suit | None
    points: Mapping[Card, int]
    players: int
    win_card: Card | None
    win_seat: int
    side_of: Sequence[int]
    name: str
    family: str
    bidder: int | None
    by_suit: list[list[Card]]


def pinochle_misreads(world: PinochleGame, seat: int, limit: int, window: int) -> int:
    """``pitch_misreads`` for pinochle's trick play, the fast policy's card play as the model, over the
    last ``window`` tricks (the one under way counted)."""
    if limit <= 0 or window <= 0:
        return 0
    tricks = [plays for plays, _ in world.tricks]
    if world.trick:
        tricks.append(world.trick)
    tricks = tricks[-window:]
    if not tricks:
        return 0
    hands = [hand[:] for hand in world.hands]
    for plays in tricks:
        for other, card in plays:
            hands[other].append(card)
    # In the engine's order (the model breaks ties between equal cards by it).
    by_suit: list[list[Card]] = []
    sort_key = SORT_KEY.__getitem__
    suit_at = SUIT_OF_CARD
    for hand in hands:
        hand.sort(key=sort_key)
        suits: list[list[Card]] = [[], [], [], []]
        for card in hand:
            suits[suit_at[card]].append(card)
        by_suit.extend(suits)
    moment = Moment(
        [],
        world.trump,
        world.points,
        world.players,
        None,
        -1,
        world.side_of,
        world.name,
        world.family,
        getattr(world, "bidder", None),
        by_suit,
    )
    trump = world.trump
    misses = 0
    for plays in tricks:
        trick: list[tuple[int, Card]] = []
        moment.trick = trick
        win: Card | None = None
        for other, card in plays:
            hand = hands[other]
            if other != seat:
                playable = world.follow_rules(hand, plays[0][1].suit, win) if win is not None else hand
                if len(set(playable)) > 1:
                    moment.win_card = win
                    if pinochle_card(moment, other, list(dict.fromkeys(playable))) is not card:
                        misses += 1
                        if misses >= limit:
                            return misses
            hand.remove(card)
            by_suit[other * 4 + suit_at[card]].remove(card)
            trick.append((other, card))
            moment.win_seat, win = trick[trick_winner(trick, trump, RANK_STRENGTH)]
    return misses
