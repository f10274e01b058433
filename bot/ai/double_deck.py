"""A rule-based double-deck pinochle player (level ``basic`` for the ``double-deck`` family).

Bidding follows §9's meld-showing conventions with its partner (opening at the minimum wants
trump, one more shows aces, each further point shows 10 meld; later, a raise of one wants trump and
a jump of two or more shows 10 meld a point, up to 60) and reads its partner's bids the same way. It
names the trump that gives the most meld and tricks; as the bidder's partner it passes trumps (the
asked suit before trump), aces and pinochle cards while keeping its own meld, and as the bidder it
passes back what it needs least. The bidder throws in when the bid looks lost and throwing in
gives the opponents less than playing on would. Card play
follows the crawl rules (it only ever sees legal plays) and counts the cards: copies not yet seen,
who is void in what, and who could not head a trick (so holds nothing higher); it takes counters with
the cheapest card nobody after it can beat and gives counters to a partner who will take the trick.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, NamedTuple

from bot.ai.base import register_level
from bot.engine import Action, Card, Kind, Rank, Suit
from bot.engine.meld import MeldTable, meld_total
from bot.engine.pinochle.common import STRENGTH
from bot.engine.pinochle.double_deck import RANKS_80, TRICK_POINTS, DoubleDeck

_CARD: dict[str, Card] = {}
COUNTER = {Rank.ACE: 1, Rank.TEN: 1, Rank.KING: 1}
FULL: Counter[Card] = Counter({Card(suit, rank): 4 for suit in Suit for rank in RANKS_80})
# Bidding: a side makes about my meld + my trick estimate + its partner's meld (about 17 when
# unknown), give or take 14; each card passed adds about 4.3 and widens the spread by about 6
# (measured over 1,100 deals of each preset with this player as the bidder).
PARTNER_MELD = 17
PASS_GAIN = 4.3
# With the Toby Thomas meld table a card passed is worth more: the bidder's side gained 7.3 meld a
# card from the pass over 295 deals (bench/records/experiments.md#toby-thomas-pass-gain).
TOBY_THOMAS_PASS_GAIN = 7.3
SPREAD = 14
PASS_SPREAD = 6
BID_MARGIN = 0.75
"""The bid limit is the expected take less this many of its spreads without a pass (``SPREAD``), and
``PASS_BID_MARGIN`` of the spread a pass adds. 59.3% of 4,000 pairs against this player with 0.25
for both (bench/records/experiments.md#bid-margin)."""
PASS_BID_MARGIN = 0.25
JUMP_SHARE = 0.5  # a competing bid goes this share of the way to the limit
DRAW_TRUMPS = 4
"""Trumps the bidding side leads trump with while the opponents may hold some: the top one when it is
the highest left, else a low one they must head. +1.3 a deal against this player with its old rule
(5, and a low one only from 9: bench/records/experiments.md#draw-trumps)."""
SPADE_QUEEN = Card(Suit.SPADES, Rank.QUEEN)
DIAMOND_JACK = Card(Suit.DIAMONDS, Rank.JACK)


def card(code: str) -> Card:
    found = _CARD.get(code)
    if found is None:
        found = _CARD[code] = Card.parse(code)
    return found


def cards(codes: list[str]) -> list[Card]:
    return [card(code) for code in codes]


def points(c: Card) -> int:
    return COUNTER.get(c.rank, 0)


def beats(new: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``new`` played after ``best`` takes the lead from it (a twin does not)."""
    if new.suit is best.suit:
        return STRENGTH[new] > STRENGTH[best]
    return new.suit is trump


def side_of(view: dict[str, Any], seat: int) -> int:
    return 0 if seat in view["sides"][0] else 1


def table_of(view: dict[str, Any]) -> MeldTable:
    return DoubleDeck.meld_table_for(view["options"])


def pass_gain(view: dict[str, Any]) -> float:
    """What one card passed adds to the bidding side's take (meld and tricks), by the meld table."""
    return TOBY_THOMAS_PASS_GAIN if view["options"]["meld"] == "toby-thomas" else PASS_GAIN


def trick_strength(hand: list[Card], trump: Suit) -> float:
    """Counters (of 50) a bidding side can expect to take with ``hand`` holding ``trump``: a rough
    estimate from the trump length, high trumps, plain aces and short plain suits."""
    trumps = [c for c in hand if c.suit is trump]
    value = 19.0 + 1.6 * (len(trumps) - 5)
    value += sum(1.2 for c in trumps if c.rank is Rank.ACE) + sum(0.5 for c in trumps if c.rank is Rank.TEN)
    for suit in Suit:
        if suit is trump:
            continue
        held = [c for c in hand if c.suit is suit]
        value += 0.9 * sum(1 for c in held if c.rank is Rank.ACE)
        if not held:
            value += 1.5
        elif len(held) <= 2:
            value += 0.6
    return max(8.0, min(44.0, value))


class Knowledge(NamedTuple):
    """What card counting tells a seat: the copies not yet seen (outside its hand), each seat's
    known voids, and each seat's ceiling per suit (it holds nothing stronger: it could not head)."""

    trump: Suit
    unseen: Counter[Card]
    voids: list[set[Suit]]
    ceiling: list[dict[Suit, int]]


class DoubleDeckPlayer:
    """Heuristic player for every double-deck preset and option."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ----- entry point ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        kinds = {a.kind for a in legal}
        if Kind.PLAY in kinds:
            if Kind.THROW_IN in kinds and self.should_throw_in(view):
                return next(a for a in legal if a.kind is Kind.THROW_IN)
            return self.choose_play(view, [a for a in legal if a.kind is Kind.PLAY])
        if Kind.BID in kinds:
            return self.choose_bid(view, legal)
        if Kind.TRUMP in kinds:
            return self.choose_trump(view, legal)
        if Kind.ASK in kinds:
            return self.choose_ask(view, legal)
        if Kind.GIVE in kinds:
            return self.choose_give(view, legal)
        return legal[0]

    # ----- hand evaluation ------------------------------------------------------------------
    def suit_values(self, hand: list[Card], table: MeldTable, scale: int) -> dict[Suit, tuple[int, float]]:
        """Per trump suit: (my meld, counters my side may take), both in the game's scale."""
        return {suit: (meld_total(hand, suit, table), trick_strength(hand, suit) * scale) for suit in Suit}

    def best_suit(
        self, hand: list[Card], table: MeldTable, scale: int, allowed: list[Suit] | None = None
    ) -> tuple[Suit, int, float]:
        values = self.suit_values(hand, table, scale)
        suits = allowed or list(Suit)

        def worth(suit: Suit) -> float:
            return values[suit][0] + values[suit][1] + 0.1 * self.length(hand, suit)

        suit = max(suits, key=worth)
        return suit, values[suit][0], values[suit][1]

    @staticmethod
    def length(hand: list[Card], suit: Suit) -> int:
        return sum(1 for c in hand if c.suit is suit)

    @staticmethod
    def needs_marriage(view: dict[str, Any]) -> bool:
        options = view["options"]
        rule = options["trump-marriage"]
        return bool(rule == "required" or (rule == "after-pass" and options["pass-when"] == "before-trump"))

    @staticmethod
    def marriage_suits(hand: list[Card]) -> list[Suit]:
        return [s for s in Suit if Card(s, Rank.KING) in hand and Card(s, Rank.QUEEN) in hand]

    # ----- bidding (§9 conventions) -----------------------------------------------------------
    def read_bids(self, view: dict[str, Any]) -> tuple[int, bool, bool]:
        """What my partner showed with its first bid: (meld shown, wants trump, showed aces), by
        §9's conventions (jumps up to 10 points above the minimum bid: 60 in the standard game).
        Its later bids compete for the contract and show nothing."""
        partner = (view["seat"] + 2) % 4
        scale = view["scale"]
        low = view["min_bid"]
        top = low + 10 * scale
        prev: int | None = None
        for entry in view["bids"]:
            amount = entry["amount"]
            if amount is None:
                continue
            if entry["seat"] == partner:
                if amount > top:
                    break
                step = (amount - low) // scale if prev is None else (amount - prev) // scale
                if step <= (0 if prev is None else 1):
                    return 0, True, False
                if prev is None and step == 1:
                    return 0, False, True
                return 10 * step * scale, False, False
            prev = amount
        return 0, False, False

    def bid_limit(self, view: dict[str, Any], my_meld: int, tricks: float) -> float:
        """The highest bid worth making for my side: what we expect to make (my meld and tricks,
        my partner's meld as its first bid showed it, the pass's help), less the spread of that
        guess (wider with a pass: the cards to come are unknown)."""
        scale: int = view["scale"]
        passing: int = view["options"]["pass"]
        partner_meld, partner_wants, partner_aces = self.read_bids(view)
        expected = (
            my_meld + tricks + (partner_meld or PARTNER_MELD * scale) + pass_gain(view) * passing * scale
        )
        if partner_aces:
            expected += 3 * scale
        if partner_wants and not partner_meld:
            expected -= 4 * scale  # the partner wants trump too: one of us will be short
        return expected - (BID_MARGIN * SPREAD + PASS_BID_MARGIN * PASS_SPREAD * passing) * scale

    def choose_bid(self, view: dict[str, Any], legal: list[Action]) -> Action:
        bids = sorted((a for a in legal if a.kind is Kind.BID), key=lambda a: a.amount or 0)
        passes = [a for a in legal if a.kind is Kind.PASS]
        if not passes:
            return bids[0]
        hand = cards(view["hand"])
        table = table_of(view)
        scale = view["scale"]
        options = view["options"]
        allowed = None
        if self.needs_marriage(view) and not (options["pass"] and options["pass-when"] == "before-trump"):
            allowed = self.marriage_suits(hand)
            if not allowed:
                return passes[0]  # no marriage: the hand would be lost
        suit, my_meld, tricks = self.best_suit(hand, table, scale, allowed)
        limit = self.bid_limit(view, my_meld, tricks)
        partner_meld, _, _ = self.read_bids(view)
        base_meld = min(meld_total(hand, s, table) for s in Suit)
        seat = view["seat"]
        partner = (seat + 2) % 4
        high = view.get("high_bid") or 0
        first = bids[0].amount or 0
        low = view["min_bid"]
        top = low + 10 * scale
        amounts = {a.amount: a for a in bids}
        my_bids = [b for b in view["bids"] if b["seat"] == seat and b["amount"] is not None]
        passed = {b["seat"] for b in view["bids"] if b["amount"] is None}
        rivals = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if s not in passed]
        wants_trump = my_meld - base_meld >= 15 * scale or self.length(hand, suit) >= 8
        if view.get("bidder") == partner:
            # The partner holds the bid: with both opponents out it wins as it stands. Otherwise
            # show meld once by a jump (§9), or take over to name trump only with much more.
            if not rivals:
                return passes[0]
            if not my_bids and base_meld >= 20 * scale and high < top:
                jump = high + min(base_meld // (10 * scale), (top - high) // scale) * scale
                if jump - high >= 2 * scale and jump in amounts and jump <= limit:
                    return amounts[jump]
            if wants_trump and not partner_meld and not my_bids and first <= limit - 8 * scale:
                return bids[0]
            return passes[0]
        if first > limit:
            return passes[0]
        if first <= top and not my_bids:
            if not wants_trump and base_meld >= 20 * scale:
                shown = base_meld // (10 * scale)
                jump = min((high or low) + shown * scale, top, int(limit))
                if jump in amounts and jump > first:
                    return amounts[jump]
            if not high and not wants_trump:
                aces = sum(1 for c in hand if c.rank is Rank.ACE and c.suit is not suit)
                if aces >= 4 and low + scale in amounts and low + scale <= limit:
                    return amounts[low + scale]
            return bids[0]
        # Competing for the contract (my hand is shown): go half way to my limit at once rather
        # than one point at a time, so auctions take a few calls, not dozens.
        target = first + (limit - first) * JUMP_SHARE
        return max((a for a in bids if (a.amount or 0) <= max(first, target)), key=lambda a: a.amount or 0)

    # ----- trump, ask -------------------------------------------------------------------------
    def choose_trump(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = cards(view["hand"])
        allowed = [a.suit for a in legal if a.kind is Kind.TRUMP and a.suit is not None]
        values = self.suit_values(hand, table_of(view), view["scale"])
        options = view["options"]
        extra = 2.0 if options["pass"] and options["pass-when"] == "after-trump" else 0.1

        def worth(suit: Suit) -> float:  # the partner will pass trumps: length counts more
            return values[suit][0] + values[suit][1] + extra * self.length(hand, suit)

        suit = max(allowed, key=worth)
        return next(a for a in legal if a.kind is Kind.TRUMP and a.suit is suit)

    def choose_ask(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = cards(view["hand"])
        allowed = self.marriage_suits(hand) if self.needs_marriage(view) else None
        suit, _, _ = self.best_suit(hand, table_of(view), view["scale"], allowed or None)
        return next((a for a in legal if a.kind is Kind.ASK and a.suit is suit), legal[0])

    # ----- passing ----------------------------------------------------------------------------
    def choose_give(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = cards(view["hand"])
        table = table_of(view)
        seat = view["seat"]
        to_bidder = view["bidder"] != seat
        target = Suit.parse(view["trump"]) if view["trump"] else None
        if target is None and view.get("ask"):
            target = Suit.parse(view["ask"])
        if target is None and not to_bidder:  # before trump: the suit I mean to name
            allowed = self.marriage_suits(hand) if self.needs_marriage(view) else None
            target, _, _ = self.best_suit(hand, table, view["scale"], allowed or None)
        meld_suit = target or Suit.SPADES
        now = meld_total(hand, meld_suit, table)
        by_suit = Counter(c.suit for c in hand)

        def score(action: Action) -> float:
            c = action.cards[0]
            rest = hand[:]
            rest.remove(c)
            loss = now - meld_total(rest, meld_suit, table)
            if to_bidder:  # serve the bidder's trump, then aces and pinochle cards
                gain = 12.0 + STRENGTH[c] if target is not None and c.suit is target else 0.0
                gain += 5 if c.rank is Rank.ACE else 0
                gain += 3 if c is SPADE_QUEEN or c is DIAMOND_JACK else 0
                return gain - loss
            keep = float(loss + (30 + STRENGTH[c] if target is not None and c.suit is target else 0))
            keep += 3 if c.rank is Rank.ACE else 0
            keep += by_suit[c.suit] * 0.8  # shed short plain suits: voids let the bidder trump
            return -keep

        return max((a for a in legal if a.kind is Kind.GIVE), key=score)

    # ----- throw-in ---------------------------------------------------------------------------
    def should_throw_in(self, view: dict[str, Any]) -> bool:
        """Throw in when the bid looks lost and throwing in gives the opponents less than playing
        on would (their meld and the tricks we would not take), by the offer's own figures."""
        offer = view.get("throw_in_offer")
        if not offer or offer["played"]:
            return False  # the hand is played out anyway: keep the chance of making the bid
        hand = cards(view["hand"])
        trump = Suit.parse(view["trump"])
        scale = view["scale"]
        side = side_of(view, view["seat"])
        meld = view["side_meld"][side] if view["meld_laid"][side] else 0
        expected = (trick_strength(hand, trump) + 6) * scale
        if not offer["short"] and offer["bid"] - meld <= expected:
            return False
        other = 1 - side
        their_meld = view["side_meld"][other] if view["meld_laid"][other] else 0
        played_out = their_meld + max(0, TRICK_POINTS * scale - expected)
        return bool(offer["meld"] + offer["bonus"] <= played_out)

    # ----- card play --------------------------------------------------------------------------
    def choose_play(self, view: dict[str, Any], plays: list[Action]) -> Action:
        chosen = self.pick_card(view, [a.cards[0] for a in plays])
        for action in plays:
            if action.cards[0] is chosen:
                return action
        return plays[0]

    def knowledge(self, view: dict[str, Any], hand: list[Card], trump: Suit) -> Knowledge:
        """Count the cards seen in this deal's tricks (see ``Knowledge``)."""
        unseen = FULL.copy()
        unseen.subtract(hand)
        voids: list[set[Suit]] = [set(), set(), set(), set()]
        ceiling: list[dict[Suit, int]] = [{}, {}, {}, {}]
        tricks = [t["plays"] for t in view.get("tricks", [])]
        if view.get("trick"):
            tricks.append(view["trick"])
        for plays in tricks:
            trick = [(p["seat"], card(p["card"])) for p in plays]
            unseen.subtract(c for _, c in trick)
            note_trick(trick, trump, voids, ceiling)
        return Knowledge(trump, unseen, voids, ceiling)

    def pick_card(self, view: dict[str, Any], playable: list[Card]) -> Card:
        if len(playable) == 1:
            return playable[0]
        hand = cards(view["hand"])
        trump = Suit.parse(view["trump"])
        seat = view["seat"]
        at = AtTable(
            hand,
            seat,
            [(p["seat"], card(p["card"])) for p in view["trick"]],
            tuple(side_of(view, s) for s in range(4)),
            view.get("bidder"),
        )
        return play_from(at, self.knowledge(view, hand, trump), playable)


class AtTable(NamedTuple):
    """What card play reads besides the card count: the seat's hand, its seat, the trick in play
    as (seat, card) plays, each seat's side and the bidder (None before there is one)."""

    hand: list[Card]
    seat: int
    trick: list[tuple[int, Card]]
    sides: tuple[int, ...]
    bidder: int | None


def note_trick(
    trick: list[tuple[int, Card]], trump: Suit, voids: list[set[Suit]], ceiling: list[dict[Suit, int]]
) -> None:
    """Add what one trick's plays (complete or not) show to ``voids`` and ``ceiling``: a seat off the
    led suit is void in it (and in trump unless it trumped); a seat that could not head the trick
    (or over-trump it) holds nothing stronger."""
    win = trick[0][1]
    led = win.suit
    for s, c in trick[1:]:
        trumped = win.suit is trump and led is not trump
        if c.suit is not led:
            voids[s].add(led)
            if c.suit is not trump:
                voids[s].add(trump)
            elif trumped and not beats(c, win, trump):  # could not over-trump
                ceiling[s][trump] = min(ceiling[s].get(trump, 99), STRENGTH[win])
        elif not trumped and not beats(c, win, trump):  # could not head
            ceiling[s][led] = min(ceiling[s].get(led, 99), STRENGTH[win])
        if beats(c, win, trump):
            win = c


def could_beat(c: Card, led: Suit, seats: list[int], know: Knowledge) -> bool:
    """Whether one of ``seats`` (playing after me) may beat ``c`` winning the trick."""
    trump, unseen, voids, ceiling = know
    left_in_led = sum(n for o, n in unseen.items() if n > 0 and o.suit is led)
    for s in seats:
        if c.suit is led and led not in voids[s]:
            cap = ceiling[s].get(led, 99)
            if any(n > 0 and o.suit is led and STRENGTH[c] < STRENGTH[o] < cap for o, n in unseen.items()):
                return True
        if led is trump or trump in voids[s]:
            continue
        if led not in voids[s] and left_in_led > 2 * len(seats):
            continue  # most likely able to follow suit
        cap = ceiling[s].get(trump, 99)
        for o, n in unseen.items():
            if (
                n > 0
                and o.suit is trump
                and STRENGTH[o] < cap
                and (c.suit is not trump or beats(o, c, trump))
            ):
                return True
    return False


def play_from(at: AtTable, know: Knowledge, playable: list[Card]) -> Card:
    """``basic``'s card of ``playable`` (the legal ones, two or more) for the seat ``at`` the table,
    from the card count ``know``. Pure, so the search's rollouts play it from a sampled world."""
    trump = know.trump
    seat, trick, sides = at.seat, at.trick, at.sides
    mine = sides[seat]
    if not trick:
        return lead_from(at, know, playable)
    led = trick[0][1].suit
    win_seat, win = trick[0]
    for s, c in trick[1:]:
        if beats(c, win, trump):
            win_seat, win = s, c
    later = [(seat + k) % 4 for k in range(1, 4 - len(trick))]
    opponents_later = [s for s in later if sides[s] != mine]
    at_stake = sum(points(c) for _, c in trick)
    if sides[win_seat] == mine and not could_beat(win, led, opponents_later, know):
        if led is not trump and all(c.suit is trump for c in playable):
            # Made to trump a trick that is ours anyway: the lowest trump, keeping the high ones to
            # take tricks of their own (bench/records/experiments.md#double-deck-lowest-trump).
            return min(playable, key=lambda c: (STRENGTH[c], points(c)))
        # Ours: give a counter (keeping aces and trumps when another card will do).
        return max(
            playable, key=lambda c: (points(c) - (0.6 if c.rank is Rank.ACE else 0), c.suit is not trump)
        )
    winners = [c for c in playable if beats(c, win, trump)]
    safe = [c for c in winners if not could_beat(c, led, opponents_later, know)]
    if safe and (
        at_stake or not opponents_later or any(points(c) for c in safe) or len(safe) == len(playable)
    ):
        # The cheapest card that wins; the last to play banks a plain counter if it can.
        return min(
            safe,
            key=lambda c: (
                c.suit is trump,
                -points(c) if not opponents_later and c.suit is not trump else 0,
                STRENGTH[c],
            ),
        )
    return min(playable, key=lambda c: (points(c), c.suit is trump, STRENGTH[c]))


def lead_from(at: AtTable, know: Knowledge, playable: list[Card]) -> Card:
    """``play_from``'s lead."""
    seat, hand, sides = at.seat, at.hand, at.sides
    partner = (seat + 2) % 4
    opponents = [(seat + 1) % 4, (seat + 3) % 4]
    bidding_side = at.bidder is not None and sides[at.bidder] == sides[seat]
    trump, unseen, voids, _ = know
    trumps = [c for c in playable if c.suit is trump]
    trumps_out = sum(n for o, n in unseen.items() if n > 0 and o.suit is trump)
    opponents_trump = trumps_out > 0 and any(trump not in voids[o] for o in opponents)
    # Draw trumps when the bidding side is long in them: with the ace, or else a low trump the
    # opponents must head (crawl), spending their high trumps before they can ruff my aces.
    held = sum(1 for c in hand if c.suit is trump)  # ``playable`` lists each card once
    if bidding_side and opponents_trump and held >= DRAW_TRUMPS:
        top = max(trumps, key=STRENGTH.__getitem__)
        if not any(n > 0 and o.suit is trump and STRENGTH[o] > STRENGTH[top] for o, n in unseen.items()):
            return top  # the ace, or the highest left once the aces are gone
        return min(trumps, key=lambda c: (points(c), STRENGTH[c]))

    def exposed(c: Card) -> bool:  # an opponent known to be out of its suit may trump it
        return c.suit is not trump and any(c.suit in voids[o] and trump not in voids[o] for o in opponents)

    # Cards the opponents cannot beat (plain aces, mostly), richest first.
    sure = [c for c in playable if c.suit is not trump and not could_beat(c, c.suit, opponents, know)]
    if sure:
        return max(sure, key=lambda c: (points(c), STRENGTH[c]))
    # A suit my partner can trump and the opponents cannot.
    if trump not in voids[partner]:
        for c in sorted(playable, key=lambda c: (points(c), STRENGTH[c])):
            if (
                c.suit is not trump
                and c.suit in voids[partner]
                and all(c.suit not in voids[o] for o in opponents)
            ):
                return c
    # Never a counter into a known void while anything else will do.
    plain = [c for c in playable if c.suit is not trump] or playable
    lengths = Counter(c.suit for c in hand)
    if all(points(c) and exposed(c) for c in plain):  # a queen or jack of trump gives nothing away
        low_trumps = [c for c in trumps if not points(c)]
        if low_trumps:
            return min(low_trumps, key=STRENGTH.__getitem__)
    return min(plain, key=lambda c: (points(c) > 0 and exposed(c), points(c), STRENGTH[c], -lengths[c.suit]))


register_level("double-deck", "basic", DoubleDeckPlayer)
