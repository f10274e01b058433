"""A rule-based Pitch player: bids from its hand's chances at the points, pulls trump with the top
trump, captures the jack, low and the other point cards when it can, and never throws away points
it does not have to. Extra trumps (off-jack, jokers) and ten-point pitch's widow, trump naming and
discard are read from the view (``trump_rules``)."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine import play as _play
from bot.engine.pitch import GAME_VALUE, STRENGTH, TrumpRules, Trumps

RANKS_HIGH_FIRST = sorted(Rank, key=lambda rank: -STRENGTH[rank])
SMUDGE = 5
ALL_OR_NOTHING = frozenset({"smudge", "slam"})
"""Named bids that need every trick and all four points."""
PLAIN = TrumpRules()


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def _rules(view: dict[str, Any]) -> TrumpRules:
    return TrumpRules.from_json(view.get("trump_rules"))


class PitchPlayer:
    """Heuristic player for every pitch variant (individual or partnership, with or without extra
    trumps, with or without a widow)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----- bidding --------------------------------------------------------------------------
    def estimate(self, hand: list[Card], suit: Suit, players: int, rules: TrumpRules = PLAIN) -> float:
        """Expected points (of High, Low, Jack, Game and any extra point cards) taken with
        ``suit`` as trump."""
        if rules.extra:
            return self.estimate_extra(hand, rules.order(suit), players)
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

    def estimate_extra(self, hand: list[Card], trumps: Trumps, players: int) -> float:
        """``estimate`` with the off-jack and jokers in the trump order, each a point of its own."""
        held = [c for c in trumps.order if c in hand]
        if not held:
            return 0.0
        share = min(0.95, (players - 1) * 6 / max(1, 52 + len(trumps.jokers) - len(hand)))
        order = list(trumps.order)
        value = (1 - share) ** order.index(held[0])  # High
        natural = trumps.natural()
        own_natural = [c for c in natural if c in hand]
        if own_natural:
            lower = len(natural) - 1 - natural.index(own_natural[-1])
            value += (1 - share) ** lower * (0.75 if len(held) >= 3 else 0.45)
        guarded = sum(1 for c in held if c.rank in (Rank.ACE, Rank.KING, Rank.QUEEN) and not c.is_joker)
        for card in (Card(trumps.suit, Rank.JACK), trumps.off_jack, *trumps.jokers):
            if card is not None and card in hand:
                value += 0.5 + 0.12 * min(guarded, 2)
        tens = sum(1 for c in hand if c.rank is Rank.TEN and not c.is_joker)
        power = sum(GAME_VALUE.get(c.rank, 0) for c in held if c.rank is not Rank.TEN and not c.is_joker)
        value += min(0.8, 0.12 * tens + 0.04 * power + 0.08 * len(held))
        return value

    def best_suit(self, hand: list[Card], players: int, rules: TrumpRules = PLAIN) -> tuple[Suit, float]:
        scored = [(self.estimate(hand, suit, players, rules), suit) for suit in Suit]
        value, suit = max(scored, key=lambda pair: pair[0])
        return suit, value

    def choose_bid(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = _cards(view["hand"])
        if view.get("widow_size"):
            return self.choose_widow_bid(view, legal, hand)
        _, value = self.best_suit(hand, view["players"], _rules(view))
        partnership = len(view["sides"][0]) > 1
        high_bidder = None
        for bid in view["bids"]:
            if bid["amount"] is not None:
                high_bidder = bid["seat"]
        if partnership and high_bidder is not None and high_bidder in _side(view, view["seat"]):
            value -= 1.0  # partner already carries the bid; only overcall when much stronger
        bids = [a for a in legal if a.kind is Kind.BID and a.amount is not None]
        names = view.get("bid_names") or {}
        wanted = int(value + 0.35)
        for action in sorted(bids, key=lambda a: -(a.amount or 0)):
            amount = action.amount or 0
            if names.get(str(amount)) in ALL_OR_NOTHING:
                if value >= 3.9:
                    return action
                continue
            if amount == 4 and value < 3.5:
                continue
            if amount <= wanted:
                return action
        passes = [a for a in legal if a.kind is Kind.PASS]
        return passes[0] if passes else min(bids, key=lambda a: a.amount or 0)

    def choose_widow_bid(self, view: dict[str, Any], legal: list[Action], hand: list[Card]) -> Action:
        """Ten-point pitch: the pitcher adds the widow and keeps six, so what counts is length
        and the point cards in the best suit; partners do not outbid each other lightly."""
        rules = _rules(view)
        best = 0.0
        # Four players leave an 18-card widow: the pitcher nearly always keeps six top trumps.
        base = 4.0 if view["players"] == 4 else 2.5
        for suit in Suit:
            trumps = rules.order(suit)
            held = [c for c in trumps.order if c in hand]
            points = sum(1 for c in held if c.is_joker or c.rank is Rank.JACK)
            three = Card(suit, Rank.THREE) in held
            top = sum(1 for c in held if c.rank in (Rank.ACE, Rank.KING) and not c.is_joker)
            best = max(best, base + 0.55 * len(held) + 0.8 * points + 1.5 * three + 0.6 * top)
        high_bidder = next((b["seat"] for b in reversed(view["bids"]) if b["amount"] is not None), None)
        if high_bidder is not None and high_bidder in _side(view, view["seat"]):
            best -= 2.0
        names = view.get("bid_names") or {}
        bids = sorted(
            (a for a in legal if a.kind is Kind.BID and a.amount is not None), key=lambda a: -(a.amount or 0)
        )
        for action in bids:
            if names.get(str(action.amount)) and best < 12:
                continue  # shoot the moon only with a hand that cannot miss
            if (action.amount or 0) <= best:
                return action
        passes = [a for a in legal if a.kind is Kind.PASS]
        return passes[0] if passes else bids[-1]

    # ----- trump, widow and discard ----------------------------------------------------------------
    def choose_trump(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = _cards(view["hand"])
        rules = _rules(view)
        if rules.extra and view.get("widow_size") is not None:
            suit = max(Suit, key=lambda s: _hand_power(hand, rules.order(s)))
        else:
            suit, _ = self.best_suit(hand, view["players"], rules)
        return next((a for a in legal if a.suit is suit), legal[0])

    def choose_discard(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """Keep the strongest cards (trumps high first, then aces and tens); discard the weakest."""
        trumps = _trumps(view)
        assert trumps is not None
        if legal[0].kind is Kind.KEEP:
            return max(legal, key=lambda a: _keep_value(a.card, trumps))
        return min(legal, key=lambda a: _keep_value(a.card, trumps))

    # ----- play -----------------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        phase = view["phase"]
        if phase == "bidding":
            return self.choose_bid(view, legal)
        if phase == "trump":
            return self.choose_trump(view, legal)
        if phase == "discard":
            return self.choose_discard(view, legal)
        hand = _cards(view["hand"])
        playable = [a.card for a in legal]
        trumps = _trumps(view)
        if trumps is None:  # the pitcher's opening lead names trump: lead the top of the best suit
            suit, _ = self.best_suit(hand, view["players"], _rules(view))
            natural = [c for c in playable if c.suit is suit and not c.is_joker] or playable
            return _play(max(natural, key=_strength))
        seen = {Card.parse(p["card"]) for t in view["tricks"] for p in t["plays"]}
        seen.update(Card.parse(p["card"]) for p in view["trick"])
        unseen_trumps = [c for c in trumps.order if c not in seen and c not in hand]
        ctx = _Context(trumps, unseen_trumps, view.get("widow_size") is not None)
        if not view["trick"]:
            return _play(self.lead(playable, ctx))
        return _play(self.follow(view, playable, ctx))

    def lead(self, playable: list[Card], ctx: _Context) -> Card:
        trumps = [c for c in playable if ctx.is_trump(c)]
        if trumps and ctx.unseen_trumps:
            top = max(trumps, key=ctx.power)
            if all(ctx.power(top) > ctx.power(c) for c in ctx.unseen_trumps):
                return top  # a sure winner that pulls the others' trumps
        plain = [c for c in playable if not ctx.is_trump(c)]
        if plain:
            aces = [c for c in plain if c.rank is Rank.ACE]
            if aces:
                return aces[0]
            return min(plain, key=lambda c: (ctx.cost(c), _strength(c)))
        return min(playable, key=lambda c: (ctx.cost(c), ctx.power(c)))

    def follow(self, view: dict[str, Any], playable: list[Card], ctx: _Context) -> Card:
        plays = [(p["seat"], Card.parse(p["card"])) for p in view["trick"]]
        led = ctx.suit_of(plays[0][1])
        best_seat, best = plays[0]
        for seat, card in plays[1:]:
            if ctx.beats(card, best):
                best_seat, best = seat, card
        mine = _side(view, view["seat"])
        last = len(plays) == view["players"] - 1
        partner_winning = best_seat in mine
        winners = [c for c in playable if ctx.beats(c, best)]
        at_stake = sum(ctx.cost(c) for _, c in plays)

        def cheapest(cards: list[Card]) -> Card:
            return min(cards, key=lambda c: (ctx.cost(c), ctx.power(c)))

        if partner_winning and (last or ctx.is_boss(best, led)):
            return max(playable, key=lambda c: (ctx.dump_value(c), -ctx.power(c)))
        if winners and not partner_winning:
            sure = [c for c in winners if last or ctx.is_boss(c, led)]
            if at_stake >= 10 or (sure and at_stake > 0) or last:
                return cheapest(sure or winners)
            own_points = [c for c in sure if ctx.cost(c) >= 10]
            if own_points:
                return own_points[0]  # a ten or the jack that is safe to cash now
        return cheapest(playable)


class _Context:
    """The deal's trumps as the player sees them: order, what is still out, what each card costs."""

    def __init__(self, trumps: Trumps, unseen_trumps: list[Card], three_counts: bool) -> None:
        self.trumps = trumps
        self.unseen_trumps = unseen_trumps
        self.points = {Card(trumps.suit, Rank.JACK), *trumps.jokers}
        if trumps.off_jack is not None:
            self.points.add(trumps.off_jack)
        self.three = Card(trumps.suit, Rank.THREE) if three_counts else None

    def is_trump(self, card: Card) -> bool:
        return card in self.trumps.power

    def suit_of(self, card: Card) -> Suit:
        return self.trumps.suit_of(card)

    def power(self, card: Card) -> int:
        """Trumps above every plain card, in trump order; plain cards by rank."""
        found = self.trumps.power.get(card)
        return 100 + found if found is not None else STRENGTH[card.rank]

    def beats(self, card: Card, best: Card) -> bool:
        if self.is_trump(card):
            return not self.is_trump(best) or self.power(card) > self.power(best)
        if self.is_trump(best):
            return False
        return card.suit is best.suit and STRENGTH[card.rank] > STRENGTH[best.rank]

    def is_boss(self, card: Card, led: Suit) -> bool:
        """Whether no unseen card can beat ``card`` (ignoring plain cards when trump is out)."""
        if self.is_trump(card):
            return all(self.power(c) < self.power(card) for c in self.unseen_trumps)
        return not self.unseen_trumps and card.rank is Rank.ACE

    def cost(self, card: Card) -> int:
        """How much it hurts to lose this card to the other side."""
        cost = 0 if card.is_joker else GAME_VALUE.get(card.rank, 0)
        if self.is_trump(card):
            cost += 6
            if card in self.points:
                cost += 30
            if card is self.three:
                cost += 60
            natural = [c for c in self.unseen_trumps if not c.is_joker]
            if not card.is_joker and all(self.power(c) > self.power(card) for c in natural):
                cost += 25  # possibly the low trump
            if all(self.power(c) < self.power(card) for c in self.unseen_trumps):
                cost += 15  # the boss trump wins tricks later
        return cost

    def dump_value(self, card: Card) -> int:
        """What a card is worth to give to a partner who is winning the trick."""
        value = 0 if card.is_joker else GAME_VALUE.get(card.rank, 0)
        if card in self.points:
            value += 30
        if card is self.three:
            value += 60
        elif self.is_trump(card) and card.rank in (Rank.TWO, Rank.THREE) and not card.is_joker:
            value += 20
        return value


def _trumps(view: dict[str, Any]) -> Trumps | None:
    if not view.get("trump"):
        return None
    return _rules(view).order(Suit.parse(view["trump"]))


def _hand_power(hand: list[Card], trumps: Trumps) -> float:
    """How good ``hand`` is with ``trumps``: its six best trumps by rank, point cards counting double."""
    held = [c for c in trumps.order if c in hand][:6]
    return sum(trumps.power[c] + (8 if c.is_joker or c.rank in (Rank.JACK, Rank.THREE) else 0) for c in held)


def _keep_value(card: Card, trumps: Trumps) -> int:
    if card in trumps.power:
        return 100 + trumps.power[card]
    return {Rank.ACE: 40, Rank.TEN: 35, Rank.KING: 20, Rank.QUEEN: 15, Rank.JACK: 12}.get(
        card.rank, STRENGTH[card.rank]
    )


def _side(view: dict[str, Any], seat: int) -> list[int]:
    side: list[int] = next(s for s in view["sides"] if seat in s)
    return side


def _strength(card: Card) -> int:
    return STRENGTH[card.rank]
