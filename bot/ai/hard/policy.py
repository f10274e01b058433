"""The fast policy that plays out sampled worlds: ``basic``'s card play without views.

In a sampled world every hand is a guess, so the policy reads the world's state directly (hands,
the trick, trump) instead of building a view per card: a rollout costs the engine's steps and little
more. Card play is this module's own (the same ideas as ``basic``: win cheaply when safe, give a
partner's safe trick the counters, never throw a point card onto the other side's trick, lead sure
winners and draw trumps); every other decision (the auction, trump, passing, burying, meld) is
rare in a deal and goes to the family's ``basic`` player with a view.
"""

from __future__ import annotations

from bot.ai.base import Player, make_player
from bot.engine import Action, Card, Game, Kind, Rank, Suit
from bot.engine.events import Phase
from bot.engine.meld import identify
from bot.engine.pinochle.common import STRENGTH as PIN_STRENGTH
from bot.engine.pinochle.common import SUIT_INDEX, PinochleGame
from bot.engine.pitch import GAME_VALUE, STRENGTH, PitchBase, Trumps

_PLAY = Kind.PLAY
_DECLARE = Kind.DECLARE_OUT
_PLAY_PHASE = Phase.PLAY
_PLAYOFF = Phase.PLAYOFF
_MELD_PHASE = Phase.MELD


class RolloutPolicy:
    """``policy(world, seat, legal)`` for one game family (see ``rollout.play_out``)."""

    def __init__(self, family: str) -> None:
        self.family = family
        self.basic: Player = make_player(family, "basic", seed=0)

    def __call__(self, world: Game, seat: int, legal: list[Action]) -> Action:
        if legal[-1].kind is _DECLARE:  # rollouts never declare out (the deal's end decides)
            legal = legal[:-1] or legal
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind is _PLAY:
            if legal[-1].kind is not _PLAY:  # rollouts play on: no concession, no throw-in
                legal = [a for a in legal if a.kind is _PLAY]
            if isinstance(world, PinochleGame):
                if world.phase is _PLAY_PHASE and world.name == "pinochle-2":
                    return stock_play(world, seat, legal)
                return pinochle_play(world, seat, legal)
            if isinstance(world, PitchBase) and world.trumps is not None:
                return pitch_play(world, seat, legal)
        if isinstance(world, PinochleGame) and world.phase is _MELD_PHASE:
            return two_hand_meld(world, legal)
        return self.basic.choose(world.view(seat), legal)


# ----- pinochle -----------------------------------------------------------------------------------
def _beats(card: Card, best: Card, trump: Suit | None) -> bool:
    if card.suit is best.suit:
        return PIN_STRENGTH[card] > PIN_STRENGTH[best]
    return card.suit is trump


def _out(world: PinochleGame, seat: int, index: int) -> tuple[int, int]:
    """The strength of the highest card of suit ``index`` the other seats hold together, and how
    many they hold (what ``seat`` knows is out, not who holds it)."""
    by_suit = world.by_suit
    top = count = 0
    for base in range(index, len(by_suit), 4):
        cards = by_suit[base]
        if cards and base != seat * 4 + index:
            count += len(cards)
            strength = PIN_STRENGTH[cards[0]]
            top = max(top, strength)
    return top, count


def pinochle_play(world: PinochleGame, seat: int, legal: list[Action]) -> Action:
    """Trick play under the strict or crawl rules, from what ``seat`` could know: its hand, the
    cards played, and which cards are still out (not who holds them)."""
    cards = [action.cards[0] for action in legal]
    trick = world.trick
    trump = world.trump
    trump_index = SUIT_INDEX[trump] if trump is not None else -1
    points = world.points
    if not trick:
        return _action(legal, _pinochle_lead(world, seat, cards))
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
    if partner_winning and (holds(best) if best.suit is not trump else PIN_STRENGTH[best] >= trump_top):
        smear = max(cards, key=lambda c: (points[c] - (15 if c.suit is trump else 0), -PIN_STRENGTH[c]))
        return _action(legal, smear)
    winners = [c for c in cards if _beats(c, best, trump)]
    if winners and not partner_winning:
        if not to_come:
            return _action(
                legal, min(winners, key=lambda c: (c.suit is trump, points[c] < 10, PIN_STRENGTH[c]))
            )
        sure = [c for c in winners if holds(c)]
        if sure and (sum(points[c] for _, c in trick) >= 4 or any(points[c] >= 10 for c in sure)):
            return _action(legal, min(sure, key=lambda c: (c.suit is trump, PIN_STRENGTH[c])))
    return _action(legal, min(cards, key=lambda c: (points[c], c.suit is trump, PIN_STRENGTH[c])))


def _pinochle_lead(world: PinochleGame, seat: int, cards: list[Card]) -> Card:
    trump = world.trump
    points = world.points
    tops = [_out(world, seat, index)[0] for index in range(4)]
    trumps = [c for c in cards if c.suit is trump]
    if trumps and trump is not None:
        trump_top, trump_count = _out(world, seat, SUIT_INDEX[trump])
        top = trumps[0] if len(trumps) == 1 else max(trumps, key=PIN_STRENGTH.__getitem__)
        bidder = getattr(world, "bidder", None)
        ours = bidder is not None and world.side_of[bidder] == world.side_of[seat]
        if trump_count and PIN_STRENGTH[top] >= trump_top and len(trumps) >= 3 and (ours or len(trumps) >= 5):
            return top  # draw trumps with a sure winner
    bosses = [c for c in cards if c.suit is not trump and PIN_STRENGTH[c] >= tops[SUIT_INDEX[c.suit]]]
    if bosses:
        return max(bosses, key=lambda c: (points[c], PIN_STRENGTH[c]))
    plain = [c for c in cards if c.suit is not trump] or cards
    length = [0, 0, 0, 0]
    for card in plain:
        length[SUIT_INDEX[card.suit]] += 1
    return min(plain, key=lambda c: (points[c] >= 10, PIN_STRENGTH[c], -length[SUIT_INDEX[c.suit]]))


def stock_play(world: PinochleGame, seat: int, legal: list[Action]) -> Action:
    """Two-hand's stock phase (no duty to follow): win counters cheaply, keep meld cards."""
    cards = [action.cards[0] for action in legal]
    trump = world.trump
    points = world.points
    hand = world.hands[seat]

    def cost(c: Card) -> float:
        value = points[c] + (12 if c.suit is trump else 0) + 0.5 * PIN_STRENGTH[c]
        if c.rank is Rank.KING or c.rank is Rank.QUEEN:
            mate = Card(c.suit, Rank.QUEEN if c.rank is Rank.KING else Rank.KING)
            if mate in hand:
                value += 12
        if (c.rank is Rank.QUEEN and c.suit is Suit.SPADES) or (
            c.rank is Rank.JACK and c.suit is Suit.DIAMONDS
        ):
            value += 10
        return value

    trick = world.trick
    if not trick:
        return _action(legal, min(cards, key=cost))
    led = trick[0][1]
    winners = [c for c in cards if _beats(c, led, trump)]
    if winners:
        cheapest = min(winners, key=cost)
        if points[led] >= 10 or points[led] + points[cheapest] >= 14 or cost(cheapest) < 8:
            return _action(legal, cheapest)
    return _action(legal, min(cards, key=cost))


def two_hand_meld(world: PinochleGame, legal: list[Action]) -> Action:
    """Two-hand's meld turn: exchange the dix, else lay the meld worth most, else pass."""
    best: Action | None = None
    best_points = 0
    trump = world.trump
    assert trump is not None
    table = world.meld_table_for(world.options)
    for action in legal:
        if action.kind is Kind.EXCHANGE:
            return action
        if action.kind is Kind.MELD:
            combo = identify(action.cards, trump, table)
            if combo is not None and combo.points > best_points:
                best, best_points = action, combo.points
    if best is not None:
        return best
    return next((a for a in legal if a.kind is Kind.PASS), legal[0])


# ----- pitch -----------------------------------------------------------------------------------
class _PitchTrick:
    """The current trick of a pitch world: led suit, the winning card and seat."""

    def __init__(self, world: PitchBase, trumps: Trumps) -> None:
        power = trumps.power
        trick = world.trick
        self.led = trumps.suit_of(trick[0][1])
        self.seat, self.card = trick[0]
        for seat, card in trick[1:]:
            if pitch_beats(card, self.card, power):
                self.seat, self.card = seat, card


def pitch_beats(card: Card, best: Card, power: dict[Card, int]) -> bool:
    """Whether ``card`` played after ``best`` takes the trick from it."""
    mine = power.get(card)
    theirs = power.get(best)
    if mine is not None:
        return theirs is None or mine > theirs
    if theirs is not None:
        return False
    return card.suit is best.suit and STRENGTH[card.rank] > STRENGTH[best.rank]


def _pitch_can_beat(hand: list[Card], best: Card, led: Suit, trumps: Trumps) -> bool:
    power = trumps.power
    follows = any(c.suit is led and c not in power for c in hand) if led is not trumps.suit else False
    for card in hand:
        if follows and card not in power and card.suit is not led:
            continue
        if pitch_beats(card, best, power):
            return True
    return False


def pitch_costs(world: PitchBase, trumps: Trumps) -> dict[Card, int]:
    """What losing each card still in play costs its side: game value, and much more for the
    Jack, the other point trumps, the Low (the lowest trump in play) and the top trump."""
    power = trumps.power
    in_play = [c for hand in world.hands for c in hand]
    trumps_in_play = [c for c in in_play if c in power]
    natural = [c for c in trumps_in_play if not c.is_joker]
    low = min(natural, key=power.__getitem__) if natural else None
    high = max(trumps_in_play, key=power.__getitem__) if trumps_in_play else None
    costs: dict[Card, int] = {}
    for card in in_play:
        cost = 0 if card.is_joker else GAME_VALUE.get(card.rank, 0)
        if card in power:
            cost += 6
            if card.is_joker or card.rank is Rank.JACK:
                cost += 30
            if card is low:
                cost += 35
            if card is high:
                cost += 15
        costs[card] = cost
    return costs


def pitch_play(world: PitchBase, seat: int, legal: list[Action]) -> Action:
    """Trick play with trump known, knowing the world's hands."""
    trumps = world.trumps
    assert trumps is not None
    power = trumps.power
    cards = [action.cards[0] for action in legal]
    costs = pitch_costs(world, trumps)
    side_of = world.side_of
    mine = side_of[seat]
    trick = world.trick
    players = world.players
    later = [(seat + k) % players for k in range(1, players - len(trick))]
    opponents = [s for s in later if side_of[s] != mine]
    hands = world.hands
    if not trick:
        return _action(legal, _pitch_lead(world, seat, cards, trumps, costs))
    now = _PitchTrick(world, trumps)
    safe_now = not any(_pitch_can_beat(hands[o], now.card, now.led, trumps) for o in opponents)
    if side_of[now.seat] == mine and safe_now:
        return _action(
            legal, max(cards, key=lambda c: (costs[c] - (40 if c in power else 0), -_power(c, power)))
        )
    winners = [c for c in cards if pitch_beats(c, now.card, power)]
    safe = [c for c in winners if not any(_pitch_can_beat(hands[o], c, now.led, trumps) for o in opponents)]
    at_stake = sum(costs.get(c, 0) for _, c in trick)
    if safe and (at_stake > 0 or any(costs[c] >= 10 for c in safe) or not opponents):
        return _action(
            legal, min(safe, key=lambda c: (costs[c] if at_stake else -costs[c], _power(c, power)))
        )
    return _action(legal, min(cards, key=lambda c: (costs[c], _power(c, power))))


def _pitch_lead(
    world: PitchBase, seat: int, cards: list[Card], trumps: Trumps, costs: dict[Card, int]
) -> Card:
    power = trumps.power
    side_of = world.side_of
    mine = side_of[seat]
    opponents = [s for s in range(world.players) if side_of[s] != mine]
    hands = world.hands
    enemy_trumps = any(c in power for o in opponents for c in hands[o])
    bosses = [
        c
        for c in cards
        if not any(_pitch_can_beat(hands[o], c, trumps.suit_of(c), trumps) for o in opponents)
    ]
    boss_trumps = [c for c in bosses if c in power]
    if boss_trumps and enemy_trumps:
        return max(boss_trumps, key=power.__getitem__)  # draw their trumps with a sure winner
    if bosses:
        return max(bosses, key=lambda c: (c not in power, costs[c]))
    return min(cards, key=lambda c: (costs[c], _power(c, power)))


def _power(card: Card, power: dict[Card, int]) -> int:
    found = power.get(card)
    return 100 + found if found is not None else STRENGTH[card.rank]


def _action(legal: list[Action], card: Card) -> Action:
    for action in legal:
        if action.cards and action.cards[0] is card:
            return action
    return legal[0]
