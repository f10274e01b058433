"""A rule-based Pitch player: bids from its hand's chances at High, Low, Jack and Game, pulls
trump with the top trump, captures the jack and low when it can, and never throws away points
it does not have to."""

from __future__ import annotations

import random
from typing import Any

from bot.ai.base import register_level
from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine import play as _play
from bot.engine.pitch import GAME_VALUE, STRENGTH

RANKS_HIGH_FIRST = sorted(Rank, key=lambda rank: -STRENGTH[rank])
SMUDGE = 5


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


class PitchPlayer:
    """Heuristic player for every pitch variant (individual or partnership)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----- bidding --------------------------------------------------------------------------
    def estimate(self, hand: list[Card], suit: Suit, players: int) -> float:
        """Expected points (of High, Low, Jack, Game) taken with ``suit`` as trump."""
        trumps = sorted((c for c in hand if c.suit is suit), key=lambda c: -STRENGTH[c.rank])
        if not trumps:
            return 0.0
        share = (players - 1) * 6 / 46  # chance a given unseen card is in another hand
        top = trumps[0]
        higher = sum(1 for r in Rank if STRENGTH[r] > STRENGTH[top.rank])
        value = (1 - share) ** higher  # High: nobody else holds a higher trump
        bottom = trumps[-1]
        lower = STRENGTH[bottom.rank]
        keep_low = (1 - share) ** lower
        value += keep_low * (0.75 if len(trumps) >= 3 or top.rank is Rank.ACE else 0.45)
        if Card(suit, Rank.JACK) in trumps:
            guarded = sum(1 for c in trumps if STRENGTH[c.rank] > STRENGTH[Rank.JACK])
            value += 0.55 + 0.15 * min(guarded, 2)
        elif top.rank in (Rank.ACE, Rank.KING):
            value += 0.2 * share * 2
        tens = sum(1 for c in hand if c.rank is Rank.TEN)
        power = sum(GAME_VALUE.get(c.rank, 0) for c in trumps if c.rank is not Rank.TEN)
        value += min(0.8, 0.12 * tens + 0.04 * power + 0.08 * len(trumps))
        return value

    def best_suit(self, hand: list[Card], players: int) -> tuple[Suit, float]:
        scored = [(self.estimate(hand, suit, players), suit) for suit in Suit]
        value, suit = max(scored, key=lambda pair: pair[0])
        return suit, value

    def choose_bid(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = _cards(view["hand"])
        _, value = self.best_suit(hand, view["players"])
        partnership = len(view["sides"][0]) > 1
        high_bidder = None
        for bid in view["bids"]:
            if bid["amount"] is not None:
                high_bidder = bid["seat"]
        if partnership and high_bidder is not None and high_bidder in _side(view, view["seat"]):
            value -= 1.0  # partner already carries the bid; only overcall when much stronger
        bids = [a for a in legal if a.kind is Kind.BID and a.amount is not None]
        wanted = int(value + 0.35)
        for action in sorted(bids, key=lambda a: -(a.amount or 0)):
            amount = action.amount or 0
            if amount == SMUDGE and partnership:
                if value >= 3.9:
                    return action
                continue
            if amount == 4 and value < 3.5:
                continue
            if amount <= wanted:
                return action
        passes = [a for a in legal if a.kind is Kind.PASS]
        return passes[0] if passes else min(bids, key=lambda a: a.amount or 0)

    # ----- play -----------------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if view["phase"] == "bidding":
            return self.choose_bid(view, legal)
        hand = _cards(view["hand"])
        playable = [a.card for a in legal]
        trump = Suit.parse(view["trump"]) if view["trump"] else None
        if trump is None:  # the pitcher's opening lead names trump: lead the top of the best suit
            suit, _ = self.best_suit(hand, view["players"])
            return _play(max((c for c in playable if c.suit is suit), key=_strength))
        seen = {Card.parse(p["card"]) for t in view["tricks"] for p in t["plays"]}
        seen.update(Card.parse(p["card"]) for p in view["trick"])
        unseen_trumps = [
            Card(trump, r) for r in Rank if Card(trump, r) not in seen and Card(trump, r) not in hand
        ]
        if not view["trick"]:
            return _play(self.lead(playable, trump, unseen_trumps))
        return _play(self.follow(view, playable, trump, unseen_trumps))

    def lead(self, playable: list[Card], trump: Suit, unseen_trumps: list[Card]) -> Card:
        trumps = [c for c in playable if c.suit is trump]
        if trumps and unseen_trumps:
            top = max(trumps, key=_strength)
            if all(_strength(top) > _strength(c) for c in unseen_trumps):
                return top  # a sure winner that pulls the others' trumps
        plain = [c for c in playable if c.suit is not trump]
        if plain:
            aces = [c for c in plain if c.rank is Rank.ACE]
            if aces:
                return aces[0]
            return min(plain, key=lambda c: (_cost(c, trump, unseen_trumps), _strength(c)))
        return min(playable, key=lambda c: (_cost(c, trump, unseen_trumps), _strength(c)))

    def follow(
        self, view: dict[str, Any], playable: list[Card], trump: Suit, unseen_trumps: list[Card]
    ) -> Card:
        plays = [(p["seat"], Card.parse(p["card"])) for p in view["trick"]]
        led = plays[0][1].suit
        best_seat, best = plays[0]
        for seat, card in plays[1:]:
            if _beats(card, best, trump):
                best_seat, best = seat, card
        mine = _side(view, view["seat"])
        last = len(plays) == view["players"] - 1
        partner_winning = best_seat in mine
        winners = [c for c in playable if _beats(c, best, trump)]
        at_stake = sum(_cost(c, trump, unseen_trumps) for _, c in plays)

        def cheapest(cards: list[Card]) -> Card:
            return min(cards, key=lambda c: (_cost(c, trump, unseen_trumps), _strength(c)))

        if partner_winning and (last or _is_boss(best, trump, unseen_trumps, led)):
            return max(playable, key=lambda c: (_dump_value(c, trump), -_strength(c)))
        if winners and not partner_winning:
            sure = [c for c in winners if last or _is_boss(c, trump, unseen_trumps, led)]
            if at_stake >= 10 or (sure and at_stake > 0) or last:
                return cheapest(sure or winners)
            own_points = [c for c in sure if _cost(c, trump, unseen_trumps) >= 10]
            if own_points:
                return own_points[0]  # a ten or the jack that is safe to cash now
        return cheapest(playable)


def _side(view: dict[str, Any], seat: int) -> list[int]:
    side: list[int] = next(s for s in view["sides"] if seat in s)
    return side


def _strength(card: Card) -> int:
    return STRENGTH[card.rank]


def _beats(card: Card, best: Card, trump: Suit) -> bool:
    if card.suit is best.suit:
        return STRENGTH[card.rank] > STRENGTH[best.rank]
    return card.suit is trump


def _is_boss(card: Card, trump: Suit, unseen_trumps: list[Card], led: Suit) -> bool:
    """Whether no unseen card can beat ``card`` (ignoring plain cards when trump is out)."""
    if card.suit is trump:
        return all(STRENGTH[c.rank] < STRENGTH[card.rank] for c in unseen_trumps)
    return not unseen_trumps and card.rank is Rank.ACE


def _cost(card: Card, trump: Suit, unseen_trumps: list[Card]) -> int:
    """How much it hurts to lose this card to the other side."""
    cost = GAME_VALUE.get(card.rank, 0)
    if card.suit is trump:
        cost += 6
        if card.rank is Rank.JACK:
            cost += 30
        if all(STRENGTH[c.rank] > STRENGTH[card.rank] for c in unseen_trumps):
            cost += 25  # possibly the low trump
        if all(STRENGTH[c.rank] < STRENGTH[card.rank] for c in unseen_trumps):
            cost += 15  # the boss trump wins tricks later
    return cost


def _dump_value(card: Card, trump: Suit) -> int:
    """What a card is worth to give to a partner who is winning the trick."""
    value = GAME_VALUE.get(card.rank, 0)
    if card.suit is trump and card.rank is Rank.JACK:
        value += 30
    if card.suit is trump and card.rank in (Rank.TWO, Rank.THREE):
        value += 20
    return value


register_level("pitch", "basic", PitchPlayer)
