"""The fast policy that plays out sampled worlds: ``basic``'s card play without views, reading the
world's state directly (hands, trick, trump), so a rollout costs the engine's steps and little more.
Pinochle card play is this module's own on ``basic``'s ideas, keeping its high trumps as ``basic``
does (bench/records/experiments.md#rollout-high-trumps); double-deck's and pitch's are ``basic``'s
own. Every other decision (auction, trump, passing, burying, meld) goes to ``basic`` with a view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from bot.ai.base import Player, make_player
from bot.ai.double_deck import AtTable, Knowledge, note_trick, play_from
from bot.ai.pinochle import LOW_TRUMP_LEAD
from bot.ai.pitch import Context as PitchContext
from bot.ai.pitch import play_card
from bot.engine import Action, Card, Game, Kind, Rank, Suit
from bot.engine.events import Phase
from bot.engine.meld import count_meld, identify
from bot.engine.pinochle.common import STRENGTH as PIN_STRENGTH
from bot.engine.pinochle.common import SUIT_INDEX, PinochleGame
from bot.engine.pinochle.double_deck import DoubleDeck
from bot.engine.pinochle.two import TwoHand
from bot.engine.pitch import PitchBase

_PLAY = Kind.PLAY
_DECLARE = Kind.DECLARE_OUT
_CONCEDE = Kind.CONCEDE
_BID = Kind.BID
_PLAY_PHASE = Phase.PLAY
_PLAYOFF = Phase.PLAYOFF
_MELD_PHASE = Phase.MELD
_TEN = Card(Suit.SPADES, Rank.TEN)
"""The card whose counter value sets the scale of the pinochle card play below (ten points; one a
counter in double-deck, whose rollouts once played it: bench/records/experiments.md#ten)."""


class RolloutPolicy:
    """``policy(world, seat, legal)`` for one game family (see ``rollout.play_out``)."""

    def __init__(self, family: str) -> None:
        self.family = family
        self.basic: Player = make_player(family, "basic", seed=0)
        self.plays: dict[type, CardPlay] = {}

    def __call__(self, world: Game, seat: int, legal: list[Action]) -> Action:
        last = legal[-1].kind
        if last is _DECLARE:  # rollouts never declare out (the deal's end decides)
            legal = legal[:-1] or legal
            last = legal[-1].kind
        elif last is _CONCEDE and legal[0].kind is not _BID:
            # Three-hand's declarer plays on once the widow is seen: its own search weighs conceding.
            legal = legal[:-1]
            last = legal[-1].kind
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind is _PLAY:
            if last is not _PLAY:  # rollouts play on: no concession, no throw-in
                legal = [a for a in legal if a.kind is _PLAY]
            play = self.plays.get(type(world))
            if play is None:
                play = self.plays[type(world)] = card_play_for(world)
            chosen = play(world, seat, legal)
            if chosen is not None:
                return chosen
        elif isinstance(world, TwoHand) and world.phase is _MELD_PHASE:
            return two_hand_meld(world, seat, legal)
        return self.basic.choose(world.view(seat), legal)


CardPlay = Callable[[Any, int, list[Action]], Action | None]


def card_play_for(world: Game) -> CardPlay:
    """The fast card play for ``world``'s variant (None from it: ask ``basic``)."""
    if isinstance(world, DoubleDeck):
        return DoubleDeckPlay()
    if isinstance(world, PinochleGame):
        if world.name == "pinochle-2":
            return _two_hand_play
        return pinochle_play
    if isinstance(world, PitchBase):
        return _pitch_play_known
    return lambda world, seat, legal: None


class DoubleDeckPlay:
    """``basic``'s double-deck card play (``double_deck.play_from``) from what the seat could know in a
    world: its hand, the cards still out, the voids and ceilings the tricks showed (kept between calls
    on one world). Double-deck: 69.1% of 500 pairs (bench/records/experiments.md#double-deck-play)."""

    def __init__(self) -> None:
        # (the world's list of tricks, how many of them were read, the voids and ceilings they
        # showed): replaced, never changed, so a reader never sees it half made.
        self.read: tuple[object, int, list[set[Suit]], list[dict[Suit, int]]] | None = None

    def __call__(self, world: DoubleDeck, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        trump = world.trump
        assert trump is not None
        hands = world.hands
        unseen: Counter[Card] = Counter()
        for other in range(world.players):
            if other != seat:
                unseen.update(hands[other])
        voids, ceiling = self.shown(world, trump)
        trick = world.trick
        if trick:
            voids = [set(v) for v in voids]
            ceiling = [dict(c) for c in ceiling]
            note_trick(trick, trump, voids, ceiling)
        at = AtTable(hands[seat], seat, trick, world.side_of, world.bidder)
        know = Knowledge(trump, unseen, voids, ceiling)
        return _action(legal, play_from(at, know, [a.cards[0] for a in legal]))

    def shown(self, world: DoubleDeck, trump: Suit) -> tuple[list[set[Suit]], list[dict[Suit, int]]]:
        """The voids and ceilings the finished tricks of ``world`` showed (not to be changed)."""
        tricks = world.tricks
        read = self.read
        if read is not None and read[0] is tricks and read[1] <= len(tricks):
            done, voids, ceiling = read[1], read[2], read[3]
            if done == len(tricks):
                return voids, ceiling
            voids = [set(v) for v in voids]
            ceiling = [dict(c) for c in ceiling]
        else:
            done, voids, ceiling = 0, [set(), set(), set(), set()], [{}, {}, {}, {}]
        for plays, _ in tricks[done:]:
            note_trick(plays, trump, voids, ceiling)
        self.read = (tricks, len(tricks), voids, ceiling)
        return voids, ceiling


def _two_hand_play(world: TwoHand, seat: int, legal: list[Action]) -> Action:
    if world.phase is _PLAY_PHASE:
        return stock_play(world, seat, legal)
    return pinochle_play(world, seat, legal)


def _pitch_play_known(world: PitchBase, seat: int, legal: list[Action]) -> Action | None:
    """``pitch_play`` once trump is known (the pitch itself is ``basic``'s)."""
    return pitch_play(world, seat, legal) if world.trumps is not None else None


# ----- pinochle -----------------------------------------------------------------------------------
COVERING = frozenset({"pinochle-4", "pinochle-4-auction"})
"""Variants whose rollouts cover a partner's trick an opponent could still take, as ``basic`` does
(three-hand's defenders measured no better so: bench/records/experiments.md#covering)."""
TRUMP_DRAW = (3, 5)
"""Trumps a hand leads a sure trump with at least, on the bidding side and on the other (``basic``'s rule)."""


class TrickState(Protocol):
    """What the fast pinochle card play reads of a world: a ``PinochleGame``, or a stand-in for one as
    it stood before an earlier play (``reading``), with its ``bidder`` where there is one."""

    @property
    def trick(self) -> Sequence[tuple[int, Card]]: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def points(self) -> Mapping[Card, int]: ...
    @property
    def players(self) -> int: ...
    @property
    def win_card(self) -> Card | None: ...
    @property
    def win_seat(self) -> int: ...
    @property
    def side_of(self) -> Sequence[int]: ...
    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def by_suit(self) -> Sequence[Sequence[Card]]:
        """Every seat's cards by suit, highest first: ``by_suit[seat * 4 + suit index]``."""
        ...


def _beats(card: Card, best: Card, trump: Suit | None) -> bool:
    if card.suit is best.suit:
        return PIN_STRENGTH[card] > PIN_STRENGTH[best]
    return card.suit is trump


def _out(world: TrickState, seat: int, index: int) -> tuple[int, int]:
    """The top strength of suit ``index`` among the other seats' cards, and how many they hold together."""
    by_suit = world.by_suit
    top = count = 0
    for base in range(index, len(by_suit), 4):
        cards = by_suit[base]
        if cards and base != seat * 4 + index:
            count += len(cards)
            strength = PIN_STRENGTH[cards[0]]
            top = max(top, strength)
    return top, count


def _tops(world: TrickState, seat: int) -> list[int]:
    """``_out``'s top strength for every suit at once."""
    by_suit = world.by_suit
    tops = [0, 0, 0, 0]
    mine = seat * 4
    for base in range(0, len(by_suit), 4):
        if base == mine:
            continue
        for index in range(4):
            cards = by_suit[base + index]
            if cards:
                strength = PIN_STRENGTH[cards[0]]
                if strength > tops[index]:  # noqa: PLR1730  (max() is slower here)
                    tops[index] = strength
    return tops


def pinochle_play(world: PinochleGame, seat: int, legal: list[Action]) -> Action:
    """Trick play under the strict or crawl rules from what ``seat`` could know (its hand, the cards
    played, which cards are still out), not the world's hands (bench/records/experiments.md#pinochle-play)."""
    return _action(legal, pinochle_card(world, seat, [action.cards[0] for action in legal]))


def pinochle_card(world: TrickState, seat: int, cards: list[Card]) -> Card:
    """``pinochle_play``'s card of ``cards`` (the legal ones). ``world`` is read for its trick,
    trump, counters, seats and suit index only, so a stand-in with those will do (``reading``)."""
    trick = world.trick
    trump = world.trump
    trump_index = SUIT_INDEX[trump] if trump is not None else -1
    points = world.points
    ten = points[_TEN]  # the counting scale
    if not trick:
        return _pinochle_lead(world, seat, cards, ten)
    led = trick[0][1].suit
    to_come = world.players - 1 - len(trick)
    led_top, led_count = _out(world, seat, SUIT_INDEX[led])
    trump_top = _out(world, seat, trump_index)[0] if trump_index >= 0 else 0

    def holds(card: Card) -> bool:
        """Whether ``card``, now winning, keeps the trick against every card still to come."""
        if not to_come:
            return True
        if card.suit is trump:
            return led is not trump or PIN_STRENGTH[card] >= trump_top
        return PIN_STRENGTH[card] >= led_top and led_count >= to_come

    best = world.win_card
    assert best is not None
    partner_winning = world.side_of[world.win_seat] == world.side_of[seat]
    # Last to play, a partner's trick is sure whatever it was won with (a trump out above it or not).
    if partner_winning and (
        not to_come or (holds(best) if best.suit is not trump else PIN_STRENGTH[best] >= trump_top)
    ):
        if led is not trump and all(c.suit is trump for c in cards):
            return min(cards, key=PIN_STRENGTH.__getitem__)  # made to trump our trick: the lowest
        trump_cost = 1.5 * ten  # a trump kept is worth more than a counter given
        smear = max(cards, key=lambda c: (points[c] - trump_cost * (c.suit is trump), -PIN_STRENGTH[c]))
        return smear
    winners = [c for c in cards if _beats(c, best, trump)]
    if partner_winning and world.name in COVERING:
        # Cover the partner: an opponent still to play could take the trick (basic does this too).
        sure = [c for c in winners if holds(c)]
        if sure:
            cover = min(sure, key=lambda c: (c.suit is trump and led is not trump, PIN_STRENGTH[c]))
            return cover
    if winners and not partner_winning:
        if not to_come:
            if led is not trump and all(c.suit is trump for c in winners):
                return min(winners, key=PIN_STRENGTH.__getitem__)  # trumping last: the lowest that wins
            return min(winners, key=lambda c: (c.suit is trump, points[c] < ten, PIN_STRENGTH[c]))
        sure = [c for c in winners if holds(c)]
        if sure and (sum(points[c] for _, c in trick) >= 0.4 * ten or any(points[c] >= ten for c in sure)):
            return min(sure, key=lambda c: (c.suit is trump, PIN_STRENGTH[c]))
    return min(cards, key=lambda c: (points[c], c.suit is trump, PIN_STRENGTH[c]))


def _pinochle_lead(world: TrickState, seat: int, cards: list[Card], ten: int) -> Card:
    trump = world.trump
    points = world.points
    tops = _tops(world, seat)
    trumps = [c for c in cards if c.suit is trump]
    if trumps and trump is not None:
        trump_top, trump_count = _out(world, seat, SUIT_INDEX[trump])
        top = trumps[0] if len(trumps) == 1 else max(trumps, key=PIN_STRENGTH.__getitem__)
        bidder = getattr(world, "bidder", None)
        ours = bidder is not None and world.side_of[bidder] == world.side_of[seat]
        draw, alone = TRUMP_DRAW
        enough = len(trumps) >= draw and (ours or len(trumps) >= alone)
        if trump_count and PIN_STRENGTH[top] >= trump_top and enough:
            return top  # draw trumps with a sure winner
    bosses = [c for c in cards if c.suit is not trump and PIN_STRENGTH[c] >= tops[SUIT_INDEX[c.suit]]]
    if bosses:
        return max(bosses, key=lambda c: (points[c], PIN_STRENGTH[c]))
    if trumps and trump is not None:
        index = SUIT_INDEX[trump]
        if len(world.by_suit[seat * 4 + index]) >= LOW_TRUMP_LEAD and _out(world, seat, index)[1]:
            return min(trumps, key=PIN_STRENGTH.__getitem__)  # no sure winner: a low trump (basic's rule)
    plain = [c for c in cards if c.suit is not trump] or cards
    length = [0, 0, 0, 0]
    for card in plain:
        length[SUIT_INDEX[card.suit]] += 1
    return min(plain, key=lambda c: (points[c] >= ten, PIN_STRENGTH[c], -length[SUIT_INDEX[c.suit]]))


def stock_play(world: TwoHand, seat: int, legal: list[Action]) -> Action:
    """Two-hand's stock phase (no duty to follow): keep the cards of the meld the hand and table
    make, win counters cheaply, and win tricks while meld waits to be laid (``basic``'s rules)."""
    cards = [action.cards[0] for action in legal]
    trump = world.trump
    points = world.points
    assert trump is not None
    laid = [card for card, _ in world.laid[seat]]
    meld = count_meld(world.hands[seat] + laid, trump, world.table_rules)
    keep = Counter(meld.used_cards())
    pending = meld.total > world.deal_meld[seat]

    def cost(c: Card) -> float:
        value = points[c] + (12 if c.suit is trump else 0) + 0.5 * PIN_STRENGTH[c]
        if keep[c]:
            value += 15 if c in laid else 25  # a card already scored on the table costs less
        return value

    trick = world.trick
    if not trick:
        return _action(legal, min(cards, key=cost))
    led = trick[0][1]
    winners = [c for c in cards if _beats(c, led, trump)]
    if winners:
        cheapest = min(winners, key=cost)
        gain = points[led] + points[cheapest]
        if points[led] >= 10 or (pending and cost(cheapest) < 25) or gain >= 14:
            return _action(legal, cheapest)
    return _action(legal, min(cards, key=cost))


FLUSH_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)


def two_hand_meld(world: TwoHand, seat: int, legal: list[Action]) -> Action:
    """Two-hand's meld turn: exchange the dix, else lay the meld worth most (a royal marriage first
    when the flush can follow while the stock lasts: 40 now and 150 later), else pass."""
    trump = world.trump
    assert trump is not None
    table = world.table_rules
    best: Action | None = None
    best_points = 0
    for action in legal:
        if action.kind is Kind.EXCHANGE:
            return action
        if action.kind is not Kind.MELD:
            continue
        combo = identify(action.cards, trump, table)
        if combo is None:
            continue
        points = combo.points
        if combo.key == "royal-marriage" and len(world.stock) >= 6:
            have = world.hands[seat] + [card for card, _ in world.laid[seat]]
            if all(Card(trump, rank) in have for rank in FLUSH_RANKS):
                points += 200
        if points > best_points:
            best, best_points = action, points
    if best is not None:
        return best
    return next((a for a in legal if a.kind is Kind.PASS), legal[0])


# ----- pitch -----------------------------------------------------------------------------------
def pitch_play(world: PitchBase, seat: int, legal: list[Action]) -> Action:
    """Trick play with trump known: ``basic``'s card play (``pitch.play_card``), from what ``seat``
    could know in the world (its hand, the tricks played, who has shown a void, the hand sizes)."""
    ctx = pitch_context(
        world,
        seat,
        world.hands[seat],
        [plays for plays, _ in world.tricks] + [world.trick],
        [len(hand) for hand in world.hands],
    )
    return _action(legal, play_card(ctx, [action.cards[0] for action in legal], world.trick))


def pitch_context(
    world: PitchBase, seat: int, hand: list[Card], tricks: list[list[tuple[int, Card]]], sizes: list[int]
) -> PitchContext:
    """What ``basic``'s card play reads, for ``seat`` holding ``hand`` in ``world`` after
    ``tricks`` (the one in play last) with every seat holding ``sizes`` cards."""
    trumps = world.trumps
    assert trumps is not None
    return PitchContext(
        trumps,
        hand,
        seat,
        set(world.sides[world.side_of[seat]]),
        tricks=tricks,
        hand_sizes=sizes,
        three_counts=world.three_counts(),
        low_is_taken=not world.option("old-high-low"),
    )


def _action(legal: list[Action], card: Card) -> Action:
    for action in legal:
        if action.cards and action.cards[0] is card:
            return action
    return legal[0]
