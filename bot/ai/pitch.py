"""A rule-based Pitch player: bids from its hand's chances at the points (all of them when it can
take every trick), pulls trump with a sure top trump and never pitches an unguarded jack. In play it
tracks the cards played and the voids each seat has shown, so it knows which trumps are still out,
how likely each of its trumps is to be the Low and which cards no opponent can beat, and plays the
card worth most: what it expects to win with it less what it gives away. Extra trumps (off-jack,
jokers) and ten-point pitch's widow, trump naming and discard are read from the view
(``trump_rules``)."""

from __future__ import annotations

import random
from math import comb
from typing import Any

from bot.ai.base import register_level
from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine import play as _play
from bot.engine.pitch import GAME_VALUE, STRENGTH, TrumpRules, Trumps
from bot.engine.pitch.base import HAND_SIZE

ALL_OR_NOTHING = frozenset({"smudge", "slam"})
"""Named bids that need every trick and all four points."""
BID_NEEDS = {1: 0.9, 2: 1.5, 3: 2.4, 4: 3.2}
"""The estimate at which each bid is made about three times in four (4 about nine in ten; measured
over 3,000 deals of 4-player pitch between basic players; higher bids: the bid less 0.9)."""
PARTNER_HELP = 0.3
"""What a partner adds to a partnership pitcher's points, for bids below 4 (measured the same way)."""
SURE_SWEEP = 0.85
"""The chance of taking every trick at which an all-or-nothing bid (smudge, slam: +5 or -5) beats 4."""
PLAIN = TrumpRules()
# Card play values, in units of 1/30 point (a ten counts 10 toward Game):
TRUMP_SPEND = 15.0
"""What playing a trump costs (a winner spent)."""
BOSS_SPEND = 20.0
"""What playing the boss trump costs on top of that."""
TRUMP_IN = 0.4
"""The chance that an opponent who may hold a trump trumps a plain winner."""
_RANKS_ABOVE = {rank: tuple(r for r in Rank if STRENGTH[r] > STRENGTH[rank]) for rank in Rank}


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
    def estimate(
        self,
        hand: list[Card],
        suit: Suit,
        players: int,
        rules: TrumpRules = PLAIN,
        opponents: int | None = None,
    ) -> float:
        """Expected points (of High, Low, Jack, Game and any extra point cards) taken with
        ``suit`` as trump: every point in play when the hand takes every trick (``sweep_chance``),
        else the chances of each point on its own."""
        order = rules.order(suit)
        sweep = sweep_chance(hand, order, players - 1 if opponents is None else opponents)
        in_play = (players - 1) * HAND_SIZE / (52 + len(order.jokers) - len(hand))
        everything = 3.0 + sum(
            1.0 if card in hand else in_play
            for card in (Card(suit, Rank.JACK), order.off_jack, *order.jokers)
            if card is not None
        )
        if rules.extra:
            return sweep * everything + (1 - sweep) * self.estimate_extra(hand, order, players)
        return sweep * everything + (1 - sweep) * self.estimate_plain(hand, suit, players)

    def estimate_plain(self, hand: list[Card], suit: Suit, players: int) -> float:
        """``estimate`` point by point, for plain pitch (short of taking every trick)."""
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

    def best_suit(
        self, hand: list[Card], players: int, rules: TrumpRules = PLAIN, opponents: int | None = None
    ) -> tuple[Suit, float]:
        scored = [(self.estimate(hand, suit, players, rules, opponents), suit) for suit in Suit]
        value, suit = max(scored, key=lambda pair: pair[0])
        return suit, value

    def choose_bid(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = _cards(view["hand"])
        if view.get("widow_size"):
            return self.choose_widow_bid(view, legal, hand)
        rules = _rules(view)
        opponents = view["players"] - len(_side(view, view["seat"]))
        suit, value = self.best_suit(hand, view["players"], rules, opponents)
        partnership = len(view["sides"][0]) > 1
        high_bidder = None
        for bid in view["bids"]:
            if bid["amount"] is not None:
                high_bidder = bid["seat"]
        if partnership and high_bidder is not None and high_bidder in _side(view, view["seat"]):
            value -= 1.0  # partner already carries the bid; only overcall when much stronger
        bids = [a for a in legal if a.kind is Kind.BID and a.amount is not None]
        names = view.get("bid_names") or {}
        for action in sorted(bids, key=lambda a: -(a.amount or 0)):
            amount = action.amount or 0
            if names.get(str(amount)) in ALL_OR_NOTHING:
                order = rules.order(suit)
                jack = 1.0 if Card(suit, Rank.JACK) in hand else 0.0
                if sweep_chance(hand, order, opponents) * jack >= SURE_SWEEP:
                    return action  # every trick and all four points: only with the jack in hand
                continue
            partner_help = PARTNER_HELP if partnership and amount < 4 else 0.0
            if value + partner_help >= BID_NEEDS.get(amount, amount - 0.9):
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
        if trumps is None:  # the pitcher's opening lead names trump
            opponents = view["players"] - len(_side(view, view["seat"]))
            return _play(self.pitch(hand, playable, view["players"], _rules(view), opponents))
        ctx = Context.from_view(view, trumps, hand)
        plays = [(p["seat"], Card.parse(p["card"])) for p in view["trick"]]
        return _play(play_card(ctx, playable, plays))

    def pitch(
        self, hand: list[Card], playable: list[Card], players: int, rules: TrumpRules, opponents: int
    ) -> Card:
        """The opening lead, which names trump: the best suit's top card when it is a sure
        winner or no point card (an unguarded jack pitched into an unseen A, K or Q is lost), else
        the best suit's highest card that is neither the jack nor the probable Low."""
        suit, _ = self.best_suit(hand, players, rules, opponents)
        natural = sorted(
            (c for c in playable if c.suit is suit and not c.is_joker), key=_strength, reverse=True
        )
        if not natural:
            return max(playable, key=_strength)
        top = natural[0]
        if top.rank is not Rank.JACK or len(natural) == 1:
            return top
        middle = natural[1:-1]  # neither the jack nor the lowest, the likeliest Low
        return middle[0] if middle else natural[-1]


def play_card(ctx: Context, playable: list[Card], plays: list[tuple[int, Card]]) -> Card:
    """The card to play once trump is known: a lead when ``plays`` (the trick so far) is empty,
    else a follow. Shared by ``basic`` and hard's rollouts, which build ``ctx`` from a sampled world."""
    if not plays:
        return lead_card(playable, ctx)
    return follow_card(plays, playable, ctx)


def lead_card(playable: list[Card], ctx: Context) -> Card:
    """Cash the trumps when nobody else can hold one, lead a sure top trump, then a sure plain
    winner, an ace, or the plain card cheapest to lose."""
    trumps = [c for c in playable if ctx.is_trump(c)]
    others = ctx.seats_after(ctx.seat)[1:]
    if trumps and not ctx.opponents_may_trump(others):
        # Nobody else can hold a trump: every trump led wins; cash the points first.
        return max(trumps, key=lambda c: (ctx.points(c), -ctx.power(c)))
    if trumps:
        top = max(trumps, key=ctx.power)
        if ctx.holds(top, others):
            return top  # a sure winner that pulls the others' trumps
    plain = [c for c in playable if not ctx.is_trump(c)]
    if plain:
        sure = [c for c in plain if ctx.holds(c, others)]
        if sure:
            return max(sure, key=lambda c: (ctx.points(c), _strength(c)))
        aces = [c for c in plain if c.rank is Rank.ACE]
        if aces:
            return aces[0]
        return min(plain, key=lambda c: (ctx.cost(c), _strength(c)))
    return min(playable, key=lambda c: (ctx.cost(c), ctx.power(c)))


def follow_card(plays: list[tuple[int, Card]], playable: list[Card], ctx: Context) -> Card:
    """The card worth most: what my side expects to win with it (the trick's points and its
    own, times the chance the trick is ours) less what it costs to give away or spend."""
    best_seat, best = plays[0]
    for seat, card in plays[1:]:
        if ctx.beats(card, best):
            best_seat, best = seat, card
    after = ctx.seats_after(ctx.seat)[1 : ctx.players - len(plays)]  # still to play after me
    partner_chance = ctx.win_chance(best, plays[0][1], after) if best_seat in ctx.mine else 0.0
    pot = sum(ctx.points(c) for _, c in plays)

    def worth(card: Card) -> float:
        beats = ctx.beats(card, best)
        chance = ctx.win_chance(card, plays[0][1], after) if beats else partner_chance
        own = ctx.points(card)
        return chance * (pot + own) - (1 - chance) * own - ctx.spend(card)

    return max(playable, key=lambda c: (worth(c), -ctx.power(c)))


class Context:
    """What the player knows of the deal in play: the trumps and their order, the cards played,
    which seats have shown they hold no trump or no card of a suit, and so which trumps are still
    unseen and how likely each of its trumps is to be the Low."""

    def __init__(
        self,
        trumps: Trumps,
        hand: list[Card],
        seat: int,
        mine: set[int],
        *,
        tricks: list[list[tuple[int, Card]]],
        hand_sizes: list[int],
        three_counts: bool,
        low_is_taken: bool,
    ) -> None:
        """``tricks``: every trick of the deal so far, the one in play last, as (seat, card) plays;
        ``mine``: the seats of ``seat``'s side; ``hand_sizes``: every seat's cards in hand."""
        self.trumps = trumps
        self.seat = seat
        self.players = players = len(hand_sizes)
        self.mine = mine
        self.points_cards = {Card(trumps.suit, Rank.JACK), *trumps.jokers}
        if trumps.off_jack is not None:
            self.points_cards.add(trumps.off_jack)
        self.three = Card(trumps.suit, Rank.THREE) if three_counts else None
        played: set[Card] = set()
        self.void: dict[int, set[Suit]] = {other: set() for other in range(players)}
        suit_of = trumps.suit_of
        for cards in tricks:
            played.update(card for _, card in cards)
            if not cards:
                continue
            led = suit_of(cards[0][1])
            for other, card in cards[1:]:
                suit = suit_of(card)
                if suit is not led and (led is trumps.suit or suit is not trumps.suit):
                    self.void[other].add(led)  # a trump lead not followed, or a third suit shown
        self.played = played
        seen = played | set(hand)
        self.unseen_trumps = [c for c in trumps.order if c not in seen]
        pack = 52 + len(trumps.jokers)
        unseen = pack - len(seen)
        sizes = hand_sizes
        self.holds_share = {  # the chance that a given unseen card is in this seat's hand
            other: sizes[other] / unseen if unseen else 0.0 for other in range(players) if other != seat
        }
        self.low_chance = self._low_chances(hand, played, seen, low_is_taken)

    @classmethod
    def from_view(cls, view: dict[str, Any], trumps: Trumps, hand: list[Card]) -> Context:
        """What ``view``'s seat knows (views do not carry the table's options, so each variant's
        default is assumed: ten-point pitch, the one with a widow, counts the Three and gives Low to
        the side that played it; the others give it to whoever takes it)."""
        tricks = [t["plays"] for t in view["tricks"]] + [view["trick"]]
        ten_point = view.get("widow_size") is not None
        return cls(
            trumps,
            hand,
            view["seat"],
            set(_side(view, view["seat"])),
            tricks=[[(p["seat"], Card.parse(p["card"])) for p in trick] for trick in tricks],
            hand_sizes=view["hand_sizes"],
            three_counts=ten_point,
            low_is_taken=not ten_point,
        )

    def _low_chances(
        self, hand: list[Card], played: set[Card], seen: set[Card], low_is_taken: bool
    ) -> dict[Card, float]:
        """The chance that the hand's lowest natural trump is the Low (no lower one in play)."""
        trumps = self.trumps
        natural = trumps.natural()
        mine = [c for c in natural if c in hand]
        chances: dict[Card, float] = {}
        # Low counts for whoever takes it, unless old-high-low gives it to the side that played it.
        if low_is_taken and mine and not any(c in played for c in natural[natural.index(mine[-1]) + 1 :]):
            lower = [c for c in natural[natural.index(mine[-1]) + 1 :] if c not in seen]
            in_play = sum(
                share for seat, share in self.holds_share.items() if trumps.suit not in self.void[seat]
            )
            chances[mine[-1]] = (1 - min(1.0, in_play)) ** len(lower)
        return chances

    # ----- the trumps ---------------------------------------------------------------------------
    def is_trump(self, card: Card) -> bool:
        return card in self.trumps.power

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

    # ----- who may beat what --------------------------------------------------------------------
    def seats_after(self, seat: int) -> list[int]:
        """``seat`` and the seats after it round the table."""
        return [(seat + k) % self.players for k in range(self.players)]

    def may_hold(self, seat: int, suit: Suit) -> bool:
        return suit not in self.void[seat]

    def opponents_may_trump(self, seats: list[int]) -> bool:
        return bool(self.unseen_trumps) and any(
            s not in self.mine and self.may_hold(s, self.trumps.suit) for s in seats
        )

    def holds(self, card: Card, seats: list[int]) -> bool:
        """Whether no opponent among ``seats`` can beat ``card`` (as the trick's best card)."""
        return self.win_chance(card, card, seats) == 1.0

    def win_chance(self, card: Card, lead: Card, seats: list[int]) -> float:
        """The chance that ``card``, now the trick's best, is not beaten by an opponent among
        ``seats`` (a partner beating it wins the trick for the side just the same)."""
        rivals = [s for s in seats if s not in self.mine]
        if not rivals:
            return 1.0
        trump = self.trumps.suit
        led = self.trumps.suit_of(lead)
        chance = 1.0
        if self.is_trump(card):
            higher = sum(1 for c in self.unseen_trumps if self.power(c) > self.power(card))
            share = sum(self.holds_share[s] for s in rivals if self.may_hold(s, trump))
            return (1 - min(1.0, share)) ** higher
        played, power, suit = self.played, self.trumps.power, card.suit
        suit_higher = 0
        for rank in _RANKS_ABOVE[card.rank]:
            above = Card(suit, rank)
            if above not in played and above not in power:
                suit_higher += 1
        share = sum(self.holds_share[s] for s in rivals if self.may_hold(s, led))
        chance = (1 - min(1.0, share)) ** suit_higher
        if self.opponents_may_trump(rivals):
            chance *= 1 - TRUMP_IN  # an opponent may trump in (allowed even while holding the suit led)
        return chance

    # ----- what cards are worth -------------------------------------------------------------------
    def points(self, card: Card) -> float:
        """What a card is worth to the side that takes it, in units of 1/30 point: the jack, the
        extra point cards and the Three, the chance it is the Low, and its count for Game."""
        value = 0.0 if card.is_joker else float(GAME_VALUE.get(card.rank, 0))
        if card in self.points_cards:
            value += 30
        if card == self.three:
            value += 90
        return value + 30 * self.low_chance.get(card, 0.0)

    def spend(self, card: Card) -> float:
        """What playing a card costs whoever takes the trick: a trump is a winner kept for later,
        the boss trump most of all."""
        if not self.is_trump(card):
            return 0.0
        boss = all(self.power(c) < self.power(card) for c in self.unseen_trumps)
        return TRUMP_SPEND + (BOSS_SPEND if boss else 0.0)

    def cost(self, card: Card) -> float:
        """How much it hurts to lose this card to the other side."""
        return self.points(card) + self.spend(card)


def sweep_chance(hand: list[Card], trumps: Trumps, opponents: int) -> float:
    """The chance that a pitcher holding ``hand`` takes every trick: it leads its unbroken top
    trumps until no opponent has a trump left, then cashes its other trumps and its plain cards,
    each of which must be the best of its suit still in play (or the higher ones not dealt)."""
    if not any(c in hand for c in trumps.order):
        return 0.0
    top = next((i for i, c in enumerate(trumps.order) if c not in hand), len(trumps.order))
    unheld = sum(1 for c in trumps.order if c not in hand)
    each = HAND_SIZE / (52 + len(trumps.jokers) - len(hand))  # a given unseen card in a given hand
    # An opponent still holds a trump after ``top`` rounds only if it was dealt more than ``top``.
    outlasts = sum(comb(unheld, n) * each**n * (1 - each) ** (unheld - n) for n in range(top + 1, unheld + 1))
    chance = (1 - outlasts) ** opponents
    in_play = min(1.0, opponents * each)
    for card in hand:
        if card in trumps.power:
            continue
        higher = sum(
            1
            for rank in Rank
            if STRENGTH[rank] > STRENGTH[card.rank]
            and Card(card.suit, rank) not in hand
            and Card(card.suit, rank) not in trumps.power
        )
        chance *= (1 - in_play) ** higher
    return chance


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


register_level("pitch", "basic", PitchPlayer)
