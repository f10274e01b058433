"""A rule-based pinochle player for every variant: bids from its meld plus the counters it expects
to take, names the trump that gives the most, buries and passes sensibly, melds the best it can
(two-hand: in the order that scores most over several turns), plays to win counters and give them
to a partner, and declares out exactly when that wins."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine.meld import FOUR_HAND, NINETY_SIX, SINGLE_DECK, MeldTable, count_meld, identify, meld_total
from bot.engine.pinochle.common import POINTS, RANKS_48, RANKS_64, STRENGTH, counted_counters

COUNTERS = POINTS["standard"]
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
        target = view.get("target")
        if target is None:
            return False
        side = self.side(view, view["seat"])
        count = view["options"].get("count", "standard")
        total = view["scores"][side] + counted_counters(view["counters"][side], count)
        side_meld = view.get("side_meld")
        if side_meld is not None and view["tricks_won"][side]:
            total += side_meld[side]
        return bool(total >= target)

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
        players = view["players"]
        if view["variant"] == "pinochle-3":
            if view["phase"] == "forced":
                _, meld, tricks = self.best_trump(hand, table, 3)
                value = meld + tricks + 70 + 25  # about a third of the counters, plus the widow
                return self.pick(options, Kind.BID) if value >= 230 else self.pick(options, Kind.CONCEDE)
            _, meld, tricks = self.best_trump(hand, table, 3)
            value = meld + tricks + 95 + 20
        else:
            _, meld, tricks = self.best_trump(hand, table, players)
            share = 250 if table is not NINETY_SIX else 490
            partners = len(view["sides"][0])
            value = meld + tricks + share / len(view["sides"]) * 0.55 + 25 * (partners - 1)
            high = view.get("high_bid") or 0
            bidder = next((b["seat"] for b in reversed(view["bids"]) if b["amount"] is not None), None)
            if bidder is not None and self.side(view, bidder) == self.side(view, view["seat"]):
                value = min(value, high + 20 if meld >= 60 else high)  # partner carries it
        bids = sorted((a for a in options if a.kind is Kind.BID), key=lambda a: a.amount or 0)
        passes = [a for a in options if a.kind is Kind.PASS]
        if bids and (bids[0].amount or 0) <= value:
            return bids[0]
        return passes[0] if passes else bids[0]

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
        if meld and meld.get("total", 0) + 95 < (view.get("high_bid") or 0) - 60:
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

    def trick_play(self, view: dict[str, Any], playable: list[Card], trump: Suit | None) -> Card:
        hand = cards(view["hand"])
        seat = view["seat"]
        unseen = self.unseen(view, hand)
        trick = [(p["seat"], card(p["card"])) for p in view["trick"]]
        mine = self.side(view, seat)
        players = view["players"]
        if not trick:
            return self.lead(view, hand, playable, trump, unseen)
        led = trick[0][1].suit
        win_seat, win_card = trick[0]
        for s, c in trick[1:]:
            if beats(c, win_card, trump):
                win_seat, win_card = s, c
        last = len(trick) == players - 1
        at_stake = sum(COUNTERS[c] for _, c in trick)
        partner_winning = self.side(view, win_seat) == mine
        winners = [c for c in playable if beats(c, win_card, trump)]
        safe_partner = partner_winning and (
            last
            or (win_card.suit is trump and self.is_boss(win_card, unseen, trump))
            or (
                win_card.suit is led
                and led is not trump
                and self.is_boss(win_card, unseen, trump)
                and sum(n for o, n in unseen.items() if o.suit is led) >= players - 1 - len(trick)
            )
        )
        if safe_partner:
            return max(playable, key=lambda c: (COUNTERS[c] - (15 if c.suit is trump else 0), -STRENGTH[c]))
        if winners and not partner_winning:
            if last:
                return min(winners, key=lambda c: (c.suit is trump, COUNTERS[c] < 10, STRENGTH[c]))
            sure = [
                c for c in winners if self.is_boss(c, unseen, trump) or (c.suit is trump and led is not trump)
            ]
            if sure and (at_stake >= 4 or any(COUNTERS[c] >= 10 for c in sure)):
                return min(sure, key=lambda c: (c.suit is trump, STRENGTH[c]))
        return min(playable, key=lambda c: (COUNTERS[c], c.suit is trump, STRENGTH[c]))

    def lead(
        self,
        view: dict[str, Any],
        hand: list[Card],
        playable: list[Card],
        trump: Suit | None,
        unseen: Counter[Card],
    ) -> Card:
        trumps = [c for c in playable if c.suit is trump]
        plain = [c for c in playable if c.suit is not trump]
        bosses = [c for c in plain if self.is_boss(c, unseen, trump)]
        unseen_trumps = sum(n for o, n in unseen.items() if o.suit is trump and n > 0)
        bidder = view.get("bidder")
        is_bidding_side = bidder is not None and self.side(view, bidder) == self.side(view, view["seat"])
        if trumps and unseen_trumps and (is_bidding_side or len(trumps) >= 5):
            top = max(trumps, key=STRENGTH.__getitem__)
            if self.is_boss(top, unseen, trump) and len(trumps) >= 3:
                return top
        if bosses:
            return max(bosses, key=lambda c: (COUNTERS[c], STRENGTH[c]))
        pool = plain or playable
        by_suit = Counter(c.suit for c in pool)
        return min(pool, key=lambda c: (COUNTERS[c] >= 10, STRENGTH[c], -by_suit[c.suit]))

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
        return min(playable, key=spare_cost)
