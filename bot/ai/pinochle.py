"""A rule-based pinochle player for every variant: bids from its meld plus the counters it expects
to take, names the trump that gives the most, buries and passes sensibly, melds the best it can
(two-hand: in the order that scores most over several turns), plays to win counters and give them
to a partner, and declares out exactly when that wins."""

from __future__ import annotations

import random
from collections import Counter
from statistics import NormalDist
from typing import Any, NamedTuple

from bot.ai.base import register_level
from bot.ai.claims import declare_out_wins
from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine.meld import FOUR_HAND, NINETY_SIX, SINGLE_DECK, MeldTable, count_meld, identify, meld_total
from bot.engine.pinochle.common import POINTS, RANKS_48, RANKS_64, STRENGTH
from bot.engine.pinochle.three import chip_value

COUNTERS = POINTS["standard"]
# Three-hand: the bidder's meld + counters after the widow, over the pre-widow meld + trick estimate
# (mean and spread measured over 1,500 deals played by this player as the bidder).
THREE_HAND_OVER_ESTIMATE = 105
THREE_HAND_SPREAD = 70
# Partnership auction: the bidding side's meld + counted points over the bidder's meld + trick
# estimate (measured over 1,600 deals; spread 51), and with the partner's estimate known (the
# partner's counts for 0.65 of its own, spread 39); an average hand's estimate is about 100.
AUCTION_OVER_ESTIMATE = 130
AUCTION_SPREAD = 51
AUCTION_BASE_WITH_PARTNER = 67
AUCTION_PARTNER_WEIGHT = 0.65
AUCTION_SPREAD_WITH_PARTNER = 39
AUCTION_AVERAGE_HAND = 100
PARTNER_OVERCALL_MARGIN = 60  # a hand this much above average may overcall its partner
AUCTION_Z = 0.8
"""The bid limit is the side's expected take less this many spreads: a made contract scores all it
takes whatever the bid, so the limit only decides which auctions are worth winning. Made about 92%
in play among four of this player (bench/records/experiments.md#auction-z)."""
LOW_TRUMP_LEAD = 4
"""Trumps held at least for a hand with no sure winner to lead its lowest trump: +0.4 a deal in
pinochle-4 against the same player leading a plain card (bench/records/experiments.md#low-trump-lead)."""
_CARD_CACHE: dict[str, Card] = {}


def card(code: str) -> Card:
    found = _CARD_CACHE.get(code)
    if found is None:
        found = _CARD_CACHE[code] = Card.parse(code)
    return found


def cards(codes: list[str]) -> list[Card]:
    return [card(code) for code in codes]


def beats(new: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``new`` played after ``best`` wins over it."""
    if new.suit is best.suit:
        return STRENGTH[new] > STRENGTH[best]
    return new.suit is trump


def table_for(view: dict[str, Any]) -> MeldTable:
    variant = view["variant"]
    if variant in ("pinochle-6", "pinochle-8"):
        return NINETY_SIX
    if variant in ("pinochle-4", "pinochle-4-auction"):
        return FOUR_HAND
    if view.get("options", {}).get("deck64"):
        from bot.engine.meld import SINGLE_DECK_64

        return SINGLE_DECK_64
    return SINGLE_DECK


class Seen(NamedTuple):
    """What a seat knows of the cards in play: trump, the copies it has not seen (outside its hand)
    and the suits each seat is known to be out of."""

    trump: Suit | None
    unseen: Counter[Card]
    voids: list[set[Suit]]


class PinochlePlayer:
    """Heuristic player for all pinochle variants."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----- entry point ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        declare = [a for a in legal if a.kind is Kind.DECLARE_OUT]
        if declare and self.should_declare_out(view):
            return declare[0]
        options = [a for a in legal if a.kind is not Kind.DECLARE_OUT] or legal
        if len(options) == 1:
            return options[0]
        kinds = {a.kind for a in options}
        if Kind.PLAY in kinds:
            return self.choose_play(view, [a for a in options if a.kind is Kind.PLAY])
        if Kind.BID in kinds:
            return self.choose_bid(view, options)
        if Kind.TRUMP in kinds:
            return self.choose_trump(view, options)
        if Kind.BURY in kinds:
            return self.choose_bury(view, options)
        if Kind.GIVE in kinds:
            return self.choose_give(view, options)
        if Kind.EXCHANGE in kinds or Kind.MELD in kinds:
            return self.choose_meld(view, options)
        passes = [a for a in options if a.kind is Kind.PASS]
        return passes[0] if passes else options[0]

    # ----- declaring out --------------------------------------------------------------------
    def should_declare_out(self, view: dict[str, Any]) -> bool:
        return declare_out_wins(view)

    @staticmethod
    def side(view: dict[str, Any], seat: int) -> int:
        for index, seats in enumerate(view["sides"]):
            if seat in seats:
                return index
        raise ValueError(seat)

    # ----- hand evaluation ------------------------------------------------------------------
    def trick_estimate(self, hand: list[Card], trump: Suit, hand_size: int, players: int) -> float:
        """Counters this hand can expect to take (a rough count for bidding)."""
        trumps = [c for c in hand if c.suit is trump]
        value = 0.0
        scale = 12 / max(hand_size, 1)
        for c in hand:
            if c.rank is Rank.ACE:
                value += 16 if c.suit is trump else 12
            elif c.rank is Rank.TEN and c.suit is trump:
                value += 8
        length = len(trumps) * scale
        value += max(0.0, length - 3) * 9
        voids = sum(1 for s in Suit if s is not trump and not any(c.suit is s for c in hand))
        value += voids * 6 * min(len(trumps), 3) / 3
        return value * (4 / players if players > 2 else 1.0)

    def best_trump(self, hand: list[Card], table: MeldTable, players: int) -> tuple[Suit, int, float]:
        best: tuple[Suit, int, float] | None = None
        for suit in Suit:
            meld = meld_total(hand, suit, table)
            tricks = self.trick_estimate(hand, suit, len(hand), players)
            if best is None or meld + tricks > best[1] + best[2]:
                best = (suit, meld, tricks)
        assert best is not None
        return best

    # ----- bidding --------------------------------------------------------------------------
    def choose_bid(self, view: dict[str, Any], options: list[Action]) -> Action:
        hand = cards(view["hand"])
        table = table_for(view)
        if view["variant"] == "pinochle-3":
            return self.three_hand_bid(view, options, hand, table)
        bids = sorted((a for a in options if a.kind is Kind.BID), key=lambda a: a.amount or 0)
        passes = [a for a in options if a.kind is Kind.PASS]
        if not passes:
            return bids[0]
        limit = self.partnership_limit(view, hand, table)
        first = bids[0].amount or 0
        seat = view["seat"]
        mine = self.side(view, seat)
        holder = next((b["seat"] for b in reversed(view["bids"]) if b["amount"] is not None), None)
        if holder is not None and self.side(view, holder) == mine:
            # My partner holds the bid: overcalling only raises our own price, unless an opponent
            # still bidding could take it from a partner who counts on an average hand from me
            # (so cannot go as high as we both can): then only with a hand well above average.
            passed = {b["seat"] for b in view["bids"] if b["amount"] is None}
            rivals = [s for s in range(view["players"]) if self.side(view, s) != mine and s not in passed]
            _, meld, tricks = self.best_trump(hand, table, view["players"])
            strong = meld + tricks >= AUCTION_AVERAGE_HAND + PARTNER_OVERCALL_MARGIN
            if not rivals or not strong or first > limit:
                return passes[0]
        return bids[0] if first <= limit else passes[0]

    def partnership_limit(self, view: dict[str, Any], hand: list[Card], table: MeldTable) -> float:
        """The highest bid worth making for my side: what we expect to make (my meld and tricks, my
        partner's as its bids show them), less ``AUCTION_Z`` spreads."""
        _, meld, tricks = self.best_trump(hand, table, view["players"])
        if table is not FOUR_HAND:  # six and eight players: the old rough count
            partners = len(view["sides"][0])
            return meld + tricks + 490 / len(view["sides"]) * 0.55 + 25 * (partners - 1)
        seat = view["seat"]
        partner_bids: list[int] = [
            b["amount"]
            for b in view["bids"]
            if b["amount"] is not None
            and b["seat"] != seat
            and self.side(view, b["seat"]) == self.side(view, seat)
        ]
        if not partner_bids:
            return meld + tricks + AUCTION_OVER_ESTIMATE - AUCTION_SPREAD * AUCTION_Z
        # The partner bid only what its own hand supports: its meld + tricks are at least this.
        shown = max(partner_bids) - AUCTION_OVER_ESTIMATE + AUCTION_SPREAD * AUCTION_Z
        partner = max(AUCTION_AVERAGE_HAND, shown + 15)
        expected = AUCTION_BASE_WITH_PARTNER + meld + tricks + AUCTION_PARTNER_WEIGHT * partner
        return expected - AUCTION_SPREAD_WITH_PARTNER * AUCTION_Z

    def three_hand_bid(
        self, view: dict[str, Any], options: list[Action], hand: list[Card], table: MeldTable
    ) -> Action:
        """Bid the amount that pays most on average: the chips grow with the bid (§5's chip table),
        so a strong hand jumps to the band it will likely make. Its total (meld + counters, the
        widow's help included) is about the estimate below, give or take 70 (measured over 1,500
        deals); a made bid is paid 3 times, a set one costs 6 (3 when conceded after the widow: count 4.5)."""
        _, meld, tricks = self.best_trump(hand, table, 3)
        made = NormalDist(meld + tricks + THREE_HAND_OVER_ESTIMATE, THREE_HAND_SPREAD)
        chip_table = tuple(view["chip_table"])

        def gain(bid: int) -> float:
            chance = 1 - made.cdf(bid)
            return chip_value(bid, chip_table) * (3 * chance - 4.5 * (1 - chance))

        if view["phase"] == "forced":  # play the forced 250, or concede it for one chip
            forced = self.pick(options, Kind.BID)
            return forced if gain(forced.amount or 0) > -1 else self.pick(options, Kind.CONCEDE)
        bids = [a for a in options if a.kind is Kind.BID]
        best = max(bids, key=lambda a: (gain(a.amount or 0), -(a.amount or 0)))
        passes = [a for a in options if a.kind is Kind.PASS]
        return best if gain(best.amount or 0) > 0 or not passes else passes[0]

    @staticmethod
    def pick(options: list[Action], kind: Kind) -> Action:
        return next(a for a in options if a.kind is kind)

    def choose_trump(self, view: dict[str, Any], options: list[Action]) -> Action:
        hand = cards(view["hand"])
        table = table_for(view)
        suit, meld, tricks = self.best_trump(hand, table, view["players"])
        if view["variant"] == "pinochle-3":
            value = meld + tricks + 95
            if value < (view.get("high_bid") or 0) - 40 and any(a.kind is Kind.CONCEDE for a in options):
                return self.pick(options, Kind.CONCEDE)
        for action in options:
            if action.kind is Kind.TRUMP and action.suit is suit:
                return action
        return options[0]

    # ----- bury (three-hand) ----------------------------------------------------------------
    def choose_bury(self, view: dict[str, Any], options: list[Action]) -> Action:
        hand = cards(view["hand"])
        trump = Suit.parse(view["trump"])
        meld = view.get("meld") or {}
        short = meld and meld.get("total", 0) + 95 < (view.get("high_bid") or 0) - 60
        if short and any(a.kind is Kind.CONCEDE for a in options):
            return self.pick(options, Kind.CONCEDE)
        counts = Counter(c.suit for c in hand)
        has_ace = {c.suit for c in hand if c.rank is Rank.ACE}

        def keep_value(action: Action) -> float:
            c = action.cards[0]
            if c.suit is trump:
                return 100 + STRENGTH[c]
            if c.rank is Rank.ACE:
                return 60
            value = float(STRENGTH[c]) - counts[c.suit] * 2
            if c.suit not in has_ace and c.rank in (Rank.TEN, Rank.KING):
                value -= 15  # a counter likely lost: bury it (it counts for the bidder)
            return value

        buries = [a for a in options if a.kind is Kind.BURY]
        return min(buries, key=keep_value)

    # ----- passing (partnership auction) ----------------------------------------------------
    def choose_give(self, view: dict[str, Any], options: list[Action]) -> Action:
        hand = cards(view["hand"])
        trump = Suit.parse(view["trump"])
        table = table_for(view)
        giving_to_bidder = view.get("bidder") != view["seat"]
        meld_cards = Counter(count_meld(hand, trump, table).used_cards())

        def value(action: Action) -> float:
            c = action.cards[0]
            in_meld = meld_cards[c] > 0
            if giving_to_bidder:  # the best cards for the bidder: trumps, aces, pinochle cards
                v = STRENGTH[c] + (40 if c.suit is trump else 0) + (20 if c.rank is Rank.ACE else 0)
                return v - (30 if in_meld and c.suit is not trump else 0)
            v = -STRENGTH[c] - (60 if c.suit is trump else 0) - (40 if in_meld else 0)
            return v + (10 if c.rank is Rank.ACE and c.suit is not trump else 0)

        gives = [a for a in options if a.kind is Kind.GIVE]
        return max(gives, key=value)

    # ----- two-hand melding -----------------------------------------------------------------
    def choose_meld(self, view: dict[str, Any], options: list[Action]) -> Action:
        exchanges = [a for a in options if a.kind is Kind.EXCHANGE]
        if exchanges:
            return exchanges[0]
        melds = [a for a in options if a.kind is Kind.MELD]
        if not melds:
            return self.pick(options, Kind.PASS)
        trump = Suit.parse(view["trump"])
        table = table_for(view)
        stock = view.get("stock", 0)
        scored = []
        for action in melds:
            combo = identify(action.cards, trump, table)
            if combo is None:
                continue
            points = combo.points
            if combo.key == "royal-marriage" and stock >= 6:
                hand = Counter(cards(view["hand"]))
                on_table = Counter(cards(view["table"][view["seat"]]))
                have = hand + on_table
                flush = [Card(trump, r) for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)]
                if all(have[c] for c in flush):
                    points += 200  # marry first, extend to the flush on a later trick (190 in all)
            scored.append((points, -len(action.cards), action))
        if not scored:
            return self.pick(options, Kind.PASS)
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return scored[0][2]

    # ----- card play ------------------------------------------------------------------------
    def choose_play(self, view: dict[str, Any], plays: list[Action]) -> Action:
        trump = Suit.parse(view["trump"]) if view["trump"] else None
        playable = [a.cards[0] for a in plays]
        if view["variant"] == "pinochle-2" and view["phase"] == "play":
            chosen = self.stock_play(view, playable, trump)
        else:
            chosen = self.trick_play(view, playable, trump)
        for action in plays:
            if action.cards[0] is chosen:
                return action
        return plays[0]

    def unseen(self, view: dict[str, Any], hand: list[Card]) -> Counter[Card]:
        ranks = RANKS_64 if view.get("options", {}).get("deck64") else RANKS_48
        copies = 4 if view["variant"] in ("pinochle-6", "pinochle-8") else 2
        left: Counter[Card] = Counter({Card(s, r): copies for s in Suit for r in ranks})
        left.subtract(hand)
        for trick in view.get("tricks", []):
            left.subtract(card(p["card"]) for p in trick["plays"])
        left.subtract(card(p["card"]) for p in view.get("trick", []))
        if "table" in view:
            for seat, laid in enumerate(view["table"]):
                if seat == view["seat"]:
                    left.subtract(cards(laid))
        return left

    def is_boss(self, c: Card, unseen: Counter[Card], trump: Suit | None) -> bool:
        """No unseen card of the suit beats ``c`` (an unseen twin does not: first played wins)."""
        return not any(n > 0 and o.suit is c.suit and STRENGTH[o] > STRENGTH[c] for o, n in unseen.items())

    def revealed_voids(
        self, view: dict[str, Any], unseen: Counter[Card], trump: Suit | None
    ) -> list[set[Suit]]:
        """The suits each seat is known to hold none of: it failed to follow (in tricks where it had
        to: not two-hand's stock phase), it failed to trump too, or no copy of the suit is unseen."""
        voids: list[set[Suit]] = [set() for _ in range(view["players"])]
        tricks = [t["plays"] for t in view.get("tricks", [])]
        if view["variant"] == "pinochle-2":
            stock_tricks = 20 if view.get("options", {}).get("deck64") else 12
            tricks = tricks[stock_tricks:]
        if view.get("trick") and not (view["variant"] == "pinochle-2" and view["phase"] == "play"):
            tricks.append(view["trick"])
        for plays in tricks:
            led = card(plays[0]["card"]).suit
            for p in plays[1:]:
                played = card(p["card"]).suit
                if played is not led:
                    voids[p["seat"]].add(led)
                    if played is not trump and trump is not None:
                        voids[p["seat"]].add(trump)
        for suit in Suit:
            if not any(n > 0 and o.suit is suit for o, n in unseen.items()):
                for seat_voids in voids:
                    seat_voids.add(suit)
        return voids

    def could_beat(self, c: Card, led: Suit, seats: list[int], seen: Seen) -> bool:
        """Whether one of ``seats`` (playing after ``c`` takes the lead) may still beat it: a higher
        unseen card of its suit (held by a seat not void in it), or a trump from a seat that is, or
        may be, out of the led suit."""
        trump, unseen, voids = seen
        left_in_led = sum(n for o, n in unseen.items() if n > 0 and o.suit is led)
        higher = any(n > 0 and o.suit is c.suit and STRENGTH[o] > STRENGTH[c] for o, n in unseen.items())
        trumps_out = trump is not None and any(n > 0 and o.suit is trump for o, n in unseen.items())
        for s in seats:
            may_be_void = led in voids[s] or left_in_led < len(seats)
            if c.suit is led:
                if led not in voids[s] and higher:
                    return True
                if led is not trump and trumps_out and may_be_void and trump not in voids[s]:
                    return True
            elif c.suit is trump and higher and may_be_void and trump not in voids[s]:
                return True  # over-trumped
        return False

    def trick_play(self, view: dict[str, Any], playable: list[Card], trump: Suit | None) -> Card:
        hand = cards(view["hand"])
        seat = view["seat"]
        unseen = self.unseen(view, hand)
        trick = [(p["seat"], card(p["card"])) for p in view["trick"]]
        mine = self.side(view, seat)
        players = view["players"]
        seen = Seen(trump, unseen, self.revealed_voids(view, unseen, trump))
        if not trick:
            return self.lead(view, playable, seen)
        led = trick[0][1].suit
        win_seat, win_card = trick[0]
        for s, c in trick[1:]:
            if beats(c, win_card, trump):
                win_seat, win_card = s, c
        later = [(seat + k) % players for k in range(1, players - len(trick))]
        opponents_later = [s for s in later if self.side(view, s) != mine]
        at_stake = sum(COUNTERS[c] for _, c in trick)
        partner_winning = self.side(view, win_seat) == mine
        winners = [c for c in playable if beats(c, win_card, trump)]
        secure = [c for c in winners if not self.could_beat(c, led, opponents_later, seen)]
        lowest = min(playable, key=lambda c: (COUNTERS[c], c.suit is trump, STRENGTH[c]))
        if partner_winning:
            if not self.could_beat(win_card, led, opponents_later, seen):
                return self.smear(playable, led, trump)
            if secure:  # cover the partner: an opponent still to play could take the trick
                return min(secure, key=lambda c: (c.suit is trump and led is not trump, STRENGTH[c]))
            return lowest
        if winners:
            if not opponents_later:
                if led is not trump and all(c.suit is trump for c in winners):
                    # Trumping last: the lowest trump that wins; a high one would take a trick later.
                    return min(winners, key=STRENGTH.__getitem__)
                return min(winners, key=lambda c: (c.suit is trump, COUNTERS[c] < 10, STRENGTH[c]))
            if secure and (at_stake >= 4 or any(COUNTERS[c] >= 10 for c in secure)):
                return min(secure, key=lambda c: (c.suit is trump, STRENGTH[c]))
        return lowest

    @staticmethod
    def smear(playable: list[Card], led: Suit, trump: Suit | None) -> Card:
        """The card to give a partner's sure trick: the most counters (a trump only for many more,
        being a winner kept), but the lowest trump when it must trump (the trick is ours anyway:
        a high trump would take a trick of its own later)."""
        if trump is not None and led is not trump and all(c.suit is trump for c in playable):
            return min(playable, key=STRENGTH.__getitem__)
        return max(playable, key=lambda c: (COUNTERS[c] - (15 if c.suit is trump else 0), -STRENGTH[c]))

    def lead(self, view: dict[str, Any], playable: list[Card], seen: Seen) -> Card:
        trump, unseen, voids = seen
        seat = view["seat"]
        opponents = [s for s in range(view["players"]) if self.side(view, s) != self.side(view, seat)]
        trumps = [c for c in playable if c.suit is trump]
        plain = [c for c in playable if c.suit is not trump]
        # A boss is sure only if no opponent can trump it: none known to be out of its suit.
        bosses = [
            c
            for c in plain
            if self.is_boss(c, unseen, trump) and not self.could_beat(c, c.suit, opponents, seen)
        ]
        unseen_trumps = sum(n for o, n in unseen.items() if o.suit is trump and n > 0)
        bidder = view.get("bidder")
        is_bidding_side = bidder is not None and self.side(view, bidder) == self.side(view, view["seat"])
        if trumps and unseen_trumps and (is_bidding_side or len(trumps) >= 5):
            top = max(trumps, key=STRENGTH.__getitem__)
            if self.is_boss(top, unseen, trump) and len(trumps) >= 3:
                return top
        if bosses:
            return max(bosses, key=lambda c: (COUNTERS[c], STRENGTH[c]))
        held = sum(1 for code in view["hand"] if card(code).suit is trump)
        if trumps and unseen_trumps and held >= LOW_TRUMP_LEAD:
            # No sure winner to cash: a low trump makes the others head it (they must, on a trump
            # lead) and draws their trumps, where a plain loser would give them the lead cheaply.
            return min(trumps, key=STRENGTH.__getitem__)
        by_suit = Counter(c.suit for c in playable)

        def exposed(c: Card) -> bool:  # a counter led into an opponent who will trump it
            return (
                c.suit is not trump
                and COUNTERS[c] > 0
                and bool(unseen_trumps)
                and any(c.suit in voids[o] and trump not in voids[o] for o in opponents)
            )

        # The cheapest plain card, no counter into a void; a trump rather than an ace or ten there.
        return min(
            playable,
            key=lambda c: (
                exposed(c) and COUNTERS[c] >= 10,
                c.suit is trump and bool(plain),
                COUNTERS[c] >= 10 or exposed(c),
                STRENGTH[c],
                -by_suit[c.suit],
            ),
        )

    # ----- two-hand stock phase -------------------------------------------------------------
    def stock_play(self, view: dict[str, Any], playable: list[Card], trump: Suit | None) -> Card:
        hand = cards(view["hand"])
        seat = view["seat"]
        laid = cards(view["table"][seat])
        table = table_for(view)
        assert trump is not None
        meld_now = count_meld(hand + laid, trump, table)
        keep = Counter(meld_now.used_cards())
        pending = meld_now.total > sum(m["points"] for m in view["meld_log"] if m["seat"] == seat)

        def spare_cost(c: Card) -> float:
            cost = COUNTERS[c] + (12 if c.suit is trump else 0) + (25 if keep[c] else 0)
            if c in laid and keep[c]:
                cost -= 10  # already scored on the table
            return cost + STRENGTH[c] * 0.5

        trick = view["trick"]
        if not trick:
            return min(playable, key=spare_cost)
        led = card(trick[0]["card"])
        winners = [c for c in playable if beats(c, led, trump)]
        if winners:
            cheapest = min(winners, key=spare_cost)
            gain = COUNTERS[led] + COUNTERS[cheapest]
            if COUNTERS[led] >= 10 or (pending and spare_cost(cheapest) < 25) or gain >= 14:
                return cheapest
        # Losing the trick: never hand over an ace or a ten while a lesser card will do.
        return min(playable, key=lambda c: (COUNTERS[c] >= 10 and not beats(c, led, trump), spare_cost(c)))


register_level("pinochle", "basic", PinochlePlayer)
