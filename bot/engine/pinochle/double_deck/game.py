"""Double-deck partnership pinochle (80 cards): the game, with every house rule of §8 read from its
options (``double_deck.options``). Spec: ``docs/rules/double-deck-pinochle.md``; the meld counter
is ``bot.engine.meld`` (types I, II, III)."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any, ClassVar

from bot.engine.actions import ASK_OF, PASS, TELL_MELD, THROW_IN, Action, Kind, card_actions, trump_action
from bot.engine.cards import Card, Rank, Suit
from bot.engine.events import Event, Phase, SeatMeldJSON
from bot.engine.game import Outcome
from bot.engine.meld import MeldResult, MeldTable, count_meld, double_deck_table, meld_total
from bot.engine.pinochle.auction import bid_ladder, ladder_actions
from bot.engine.pinochle.common import (
    SORT_KEY,
    STRENGTH,
    SUIT_INDEX,
    PinochleGame,
    codes,
    meld_json,
    plays_above,
    unique_plays,
)
from bot.engine.pinochle.double_deck import explain
from bot.engine.pinochle.double_deck.options import OPTIONS, validate
from bot.engine.pinochle.double_deck.worlds import DoubleDeckPlan, redeal_double_deck
from bot.engine.views import ThrowInOfferJSON

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_BIDDING, _ASKING, _PASSING, _NAMING_TRUMP, _PLAYING, _SCORING = (
    Phase.BIDDING,
    Phase.ASK,
    Phase.PASS,
    Phase.TRUMP,
    Phase.PLAY,
    Phase.SCORING,
)


RANKS_80: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
HAND_SIZE = 20
COUNTER_RANKS = (Rank.ACE, Rank.TEN, Rank.KING)
LAST_TRICK = 2
TRICK_POINTS = 50
MIN_SCORE = 20
_ALONE: tuple[tuple[int], ...] = ((0,), (1,), (2,), (3,))


class DoubleDeck(PinochleGame):
    """Double-deck partnership pinochle; presets are subclasses with other option defaults."""

    family: ClassVar[str] = "double-deck"
    player_counts = (4,)
    default_players = 4
    ranks: ClassVar[tuple[Rank, ...]] = RANKS_80
    copies: ClassVar[int] = 4
    meld_table = double_deck_table()
    option_specs = OPTIONS

    @classmethod
    def meld_table_for(cls, options: Mapping[str, Any]) -> MeldTable:
        validate(options, cls.option_specs)
        return cls.unchecked_meld_table(options)

    @staticmethod
    def unchecked_meld_table(options: Mapping[str, Any]) -> MeldTable:
        """``meld_table_for`` without checking the option combination (``start`` checks it)."""
        return double_deck_table(
            str(options.get("meld", "standard")),
            bool(options.get("pinochle-14", False)),
            int(options.get("roundhouse", 24)),
            int(options.get("double-roundhouse", 160)),
            10 if options.get("100-aces") else 1,
        )

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    def declaring_out_allowed(self) -> bool:
        return False

    def check_options(self) -> None:
        validate(self.options, self.option_specs)

    # ----- set-up ---------------------------------------------------------------------------
    def start(self) -> None:
        o = self.options
        self.scale = 10 if o["100-aces"] else 1
        self.table = self.unchecked_meld_table(o)  # super().start() checks the options
        self.ladder = bid_ladder(str(o["bidding"]), bool(o["tens-over-100"]), self.scale)
        self.pass_count = int(o["pass"])
        self.simultaneous = o["pass-order"] == "simultaneous"
        self.pass_before = self.pass_count > 0 and o["pass-when"] == "before-trump"
        self.ask_mode = str(o["ask"])
        rule = o["trump-marriage"]
        self.marriage_at_naming = rule == "required" or (rule == "after-pass" and self.pass_before)
        self.marriage_after_pass = rule == "after-pass" and not self.pass_before
        self.rounds = 0 if o["rounds"] == "unlimited" else int(o["rounds"])
        self.min20 = bool(o["min-20"])
        self.giveup_mode = str(o["giveup"])
        self.meld_info = bool(o["meld-info"])
        super().start()

    def counter_values(self) -> dict[Card, int]:
        return {card: self.scale if card.rank in COUNTER_RANKS else 0 for card in STRENGTH}

    def match_target(self) -> int | None:
        match = self.options["match"]
        return None if match == "deal" else int(match) * self.scale

    def deal_cards(self) -> list[Event]:
        self.deal_no += 1
        deck = self.new_deck()
        hands: list[list[Card]] = [[], [], [], []]
        for k in range(4):
            hand = deck[k * HAND_SIZE : (k + 1) * HAND_SIZE]
            hand.sort(key=SORT_KEY.__getitem__)
            hands[(self.dealer + 1 + k) % 4] = hand
        self.hands = hands
        self.trump = None
        self.bids: list[tuple[int, int | None]] = []
        self.passed = [False] * 4
        self.spoken = [0] * 4
        self.told: list[int | None] = [None] * 4
        self.high_bid = 0
        self.bidder: int | None = None
        self.asked: Suit | None = None
        self.giving: list[list[Card]] = [[], [], [], []]
        self.gave: list[list[Card]] = [[], [], [], []]
        self.received: list[list[Card]] = [[], [], [], []]
        self.received_from: list[int | None] = [None] * 4
        self.seat_meld = [0] * 4
        self.side_meld = [0, 0]
        self.laid = [False, False]
        self.meld_hands: list[tuple[Card, ...] | None] = [None] * 4
        self.shown = [False] * 4
        self.melds: list[MeldResult | None] | None = None
        self.meld_trump: Suit | None = None
        self.gave_up: str | None = None
        self.giveup_meld = 0
        self.reset_trick_state((self.dealer + 1) % 4)
        self.phase = _BIDDING
        self.set_turn((self.dealer + 1) % 4)
        return []

    def has_marriage(self, seat: int, suit: Suit) -> bool:
        hand = self.hands[seat]
        return Card(suit, Rank.KING) in hand and Card(suit, Rank.QUEEN) in hand

    def marriage_suits(self, seat: int) -> list[Suit]:
        return [suit for suit in Suit if self.has_marriage(seat, suit)]

    # ----- legal actions --------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is _PLAYING:
            if seat != self.turn:
                return []
            out = self.crawl_actions(seat)
            if not self.tricks and seat == self.bidder and self.throw_in_open():
                out.append(THROW_IN)
            return out
        if seat not in self.acting:
            return []
        if phase is _BIDDING:
            tell = [TELL_MELD] if self.meld_info and self.told[seat] is None else []
            if self.dealer_stuck(seat):
                return [ladder_actions(self.ladder)[0], *tell]
            start = bisect_right(self.ladder, self.high_bid) if self.bidder is not None else 0
            return [PASS, *ladder_actions(self.ladder)[start:], *tell]
        if phase is _ASKING:
            asks = [ASK_OF[suit] for suit in Suit]
            return [*asks, PASS] if self.ask_mode == "optional" else asks
        if phase is _PASSING:
            cards = self.hands[seat]
            if self.must_give_suit(seat) is not None:
                cards = [card for card in cards if card.suit is self.asked]
            return card_actions(Kind.GIVE, cards)
        if phase is _NAMING_TRUMP:
            suits = self.marriage_suits(seat) if self.marriage_at_naming else list(Suit)
            return [trump_action(suit) for suit in suits]
        return []

    def crawl_actions(self, seat: int) -> list[Action]:
        """The crawl rules (§6) as ``play`` actions without repeats, from the suit index."""
        trick = self.trick
        if not trick:
            return unique_plays(self.hands[seat])
        led = trick[0][1].suit
        trump = self.trump
        win = self.win_card
        assert win is not None and trump is not None
        base = seat * 4
        cards = self.by_suit[base + SUIT_INDEX[led]]
        if cards:
            if win.suit is led:  # not trumped (or trump led): head the trick if able
                out = plays_above(cards, STRENGTH[win])
                if out:
                    return out
        else:
            trumps = self.by_suit[base + SUIT_INDEX[trump]]
            if trumps:
                cards = trumps
                if win.suit is trump:  # already trumped: over-trump if able
                    out = plays_above(trumps, STRENGTH[win])
                    if out:
                        return out
            else:
                cards = self.hands[seat]
        return unique_plays(cards)

    def crawl_playable(self, hand: list[Card]) -> list[Card]:
        """The crawl rules spelled out on a plain hand (what ``crawl_actions`` computes fast)."""
        if not self.trick:
            return list(hand)
        assert self.win_card is not None
        return self.follow_rules(hand, self.trick[0][1].suit, self.win_card)

    def follow_rules(self, hand: list[Card], led: Suit, win: Card) -> list[Card]:
        """The crawl rules onto a trick led in ``led`` whose best card so far is ``win``."""
        trump = self.trump
        follow = [card for card in hand if card.suit is led]
        if follow:
            trumped = led is not trump and win.suit is trump
            heads = [card for card in follow if STRENGTH[card] > STRENGTH[win]]
            return follow if trumped or not heads else heads
        trumps = [card for card in hand if card.suit is trump]
        if trumps:
            over = [card for card in trumps if win.suit is not trump or STRENGTH[card] > STRENGTH[win]]
            return over or trumps
        return list(hand)

    def play_card(self, seat: int, card: Card) -> list[Event]:
        """``PinochleGame.play_card`` and ``add_to_trick`` in one (the hot path of every deal)."""
        suit = card.suit
        self.hands[seat].remove(card)
        self.by_suit[seat * 4 + SUIT_INDEX[suit]].remove(card)
        trick = self.trick
        trick.append((seat, card))
        win = self.win_card
        if win is None:
            self.win_seat = seat
            self.win_card = card
        elif suit is win.suit:
            if STRENGTH[card] > STRENGTH[win]:
                self.win_seat = seat
                self.win_card = card
        elif suit is self.trump:
            self.win_seat = seat
            self.win_card = card
        event: Event = {"type": "play", "seat": seat, "card": card.code}
        if len(trick) < 4:
            seat = (seat + 1) & 3
            self.turn = seat
            self.acting = _ALONE[seat]
            return [event]
        winner = self.win_seat
        side = self.side_of[winner]
        points = self.points
        value = points[trick[0][1]] + points[trick[1][1]] + points[trick[2][1]] + points[card]
        self.taken[side] += value
        self.tricks_won[side] += 1
        self.last_trick = (trick, winner)
        self.tricks.append((trick, winner))
        self.trick = []
        self.win_card = None
        self.leader = self.turn = winner
        self.acting = _ALONE[winner]
        events: list[Event] = [
            event,
            {"type": "trick", "winner": winner, "cards": [c.code for _, c in trick], "points": value},
        ]
        if self.hands[winner]:
            return events
        return events + self.after_trick(winner, value)

    def throw_in_open(self) -> bool:
        return self.phase is _PLAYING and self.gave_up is None and not self.tricks and not self.trick

    def must_give_suit(self, seat: int) -> Suit | None:
        """The asked suit ``seat`` must pass now (must-give rule), or None."""
        asked = self.asked
        if asked is None or self.ask_mode != "must-give" or seat == self.bidder:
            return None
        return asked if any(card.suit is asked for card in self.hands[seat]) else None

    # ----- actions --------------------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        phase = self.phase
        if phase is _BIDDING:
            if kind is Kind.TELL_MELD:
                return self.tell_meld(seat)
            return self.take_bid(seat, action)
        if phase is _ASKING:
            return self.take_ask(seat, action.suit if kind is Kind.ASK else None)
        if kind is Kind.GIVE:
            return self.give(seat, action.cards[0])
        if kind is Kind.TRUMP:
            assert action.suit is not None
            return self.name_trump(seat, action.suit)
        if kind is Kind.THROW_IN:
            return [{"type": "throw_in", "seat": seat}, *self.give_up("throw-in")]
        raise AssertionError(f"unexpected action {action}")

    def take_bid(self, seat: int, action: Action) -> list[Event]:
        events = self.record_bid(seat, action.amount)
        self.spoken[seat] += 1
        nxt = None
        for k in range(1, 5):
            other = (seat + k) % 4
            if self.passed[other] or (self.rounds and self.spoken[other] >= self.rounds):
                continue
            nxt = other
            break
        if nxt is not None and nxt != self.bidder:
            self.set_turn(nxt)
            return events
        bidder = self.bidder
        assert bidder is not None
        events.append({"type": "bidder", "seat": bidder, "bid": self.high_bid})
        if self.pass_before:
            if self.ask_mode != "off":
                self.phase = _ASKING
                self.set_turn(bidder)
                return events
            return events + self.start_pass()
        return events + self.to_trump()

    def tell_meld(self, seat: int) -> list[Event]:
        """Option meld-info: ``seat`` tells its meld with its bid, counted without trump (so it
        points at no suit); it still bids or passes."""
        told = meld_total(self.hands[seat], None, self.table)
        self.told[seat] = told
        return [{"type": "meld_told", "seat": seat, "meld": told}]

    def take_ask(self, seat: int, suit: Suit | None) -> list[Event]:
        self.asked = suit
        events: list[Event] = [{"type": "ask", "seat": seat, "suit": suit.value if suit else None}]
        return events + self.start_pass()

    def to_trump(self) -> list[Event]:
        bidder = self.bidder
        assert bidder is not None
        if self.marriage_at_naming and not self.marriage_suits(bidder):
            return self.give_up("no-marriage")
        self.phase = _NAMING_TRUMP
        self.set_turn(bidder)
        return []

    def name_trump(self, seat: int, suit: Suit) -> list[Event]:
        self.trump = suit
        events: list[Event] = [{"type": "trump", "seat": seat, "suit": suit.value}]
        if self.pass_count and not self.pass_before:
            return events + self.start_pass()
        return events + self.lay_meld()

    # ----- the pass -------------------------------------------------------------------------
    def start_pass(self) -> list[Event]:
        bidder = self.bidder
        assert bidder is not None
        partner = self.partner(bidder)
        self.phase = _PASSING
        self.acting = tuple(sorted((bidder, partner))) if self.simultaneous else (partner,)
        self.turn = self.acting[0]
        return [
            {
                "type": "pass_start",
                "seats": list(self.acting) if self.simultaneous else [partner, bidder],
                "count": self.pass_count,
                "order": "simultaneous" if self.simultaneous else "partner-first",
            }
        ]

    def give(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        giving = self.giving[seat]
        giving.append(card)
        events: list[Event] = [
            {"type": "give", "seat": seat, "chosen": len(giving), "count": self.pass_count}
        ]
        if len(giving) < self.pass_count:
            return events
        bidder = self.bidder
        assert bidder is not None
        partner = self.partner(bidder)
        if self.simultaneous:
            self.acting = tuple(s for s in self.acting if s != seat)
            if self.acting:
                self.turn = self.acting[0]
                return events
            events += self.hand_over(partner, bidder)
            events += self.hand_over(bidder, partner)
            return events + self.after_pass()
        if seat == partner:
            events += self.hand_over(partner, bidder)
            self.set_turn(bidder)
            return events
        events += self.hand_over(bidder, partner)
        return events + self.after_pass()

    def hand_over(self, giver: int, taker: int) -> list[Event]:
        """The cards ``giver`` chose reach ``taker`` (face down: only the two of them see them)."""
        cards = self.giving[giver]
        self.giving[giver] = []
        self.gave[giver] = cards[:]
        self.received[taker] = cards[:]
        self.received_from[taker] = giver
        hand = self.hands[taker]
        hand.extend(cards)
        hand.sort(key=SORT_KEY.__getitem__)
        return [{"type": "passed", "from": giver, "to": taker, "count": len(cards)}]

    def after_pass(self) -> list[Event]:
        if self.pass_before:
            return self.to_trump()
        bidder = self.bidder
        assert bidder is not None and self.trump is not None
        if self.marriage_after_pass and not self.has_marriage(bidder, self.trump):
            return self.give_up("no-marriage")
        return self.lay_meld()

    # ----- meld -----------------------------------------------------------------------------
    def count_seats(self, seats: tuple[int, ...], trump: Suit | None) -> None:
        """Count the meld of ``seats`` (their hands now) with ``trump``."""
        table = self.table
        for seat in seats:
            hand = self.hands[seat]
            self.meld_hands[seat] = tuple(hand)
            self.seat_meld[seat] = meld_total(hand, trump, table)
        self.meld_trump = trump
        self.melds = None
        for side in (0, 1):
            a, b = self.sides[side]
            self.side_meld[side] = self.seat_meld[a] + self.seat_meld[b]

    def count_all_meld(self) -> None:
        """Every seat counts its meld; a side lays it down (a side under 20 with min-20 only
        announces it)."""
        self.count_seats((0, 1, 2, 3), self.trump)
        floor = MIN_SCORE * self.scale
        self.laid = [not self.min20 or meld >= floor for meld in self.side_meld]
        self.shown = [self.laid[self.side_of[seat]] for seat in range(4)]

    def lay_meld(self) -> list[Event]:
        """Meld is laid down; the bidding side gives up at once under 20 (min-20); otherwise play
        starts (a side more than 50 short of the bid is offered the throw-in: ``throw_in_offer``)."""
        self.count_all_meld()
        events: list[Event] = [
            {
                "type": "melds",
                "seat_meld": self.seat_meld[:],
                "side_meld": self.side_meld[:],
                "laid": self.laid[:],
            }
        ]
        bidder = self.bidder
        assert bidder is not None
        side = self.side_of[bidder]
        if not self.laid[side]:
            return events + self.give_up("under-20")
        return events + self.start_play()

    def start_play(self) -> list[Event]:
        bidder = self.bidder
        assert bidder is not None
        self.reset_trick_state(bidder)
        self.phase = _PLAYING
        self.start_strict_play()
        return []

    def meld_results(self) -> list[MeldResult | None] | None:
        """Each seat's meld in detail (None for a seat not counted), worked out when first asked."""
        if all(hand is None for hand in self.meld_hands):
            return None
        if self.melds is None:
            trump = self.meld_trump
            self.melds = [
                count_meld(hand, trump, self.table) if hand is not None else None for hand in self.meld_hands
            ]
        return self.melds

    def counted_meld(self, side: int) -> int:
        return self.side_meld[side] if self.laid[side] else 0

    # ----- search ---------------------------------------------------------------------------
    def plan_sampling(self, seat: int) -> DoubleDeckPlan:
        return DoubleDeckPlan(self, seat)

    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        redeal_double_deck(self, seat, rng)

    # ----- giving up and scoring ------------------------------------------------------------
    def is_short(self) -> bool:
        """Whether the bidding side's meld is more than 50 (all the trick points) short of the bid."""
        bidder = self.bidder
        if bidder is None or self.meld_hands[bidder] is None:
            return False
        return self.counted_meld(self.side_of[bidder]) + TRICK_POINTS * self.scale < self.high_bid

    def throw_in_offer(self) -> ThrowInOfferJSON | None:
        """What throwing in costs now (None when the bidder may not throw in): the bid lost, and
        what the opponents score by the give-up rule (or that the hand is played out anyway)."""
        if not self.throw_in_open():
            return None
        played = self.giveup_mode == "play"
        meld, bonus = (0, 0) if played else self.giveup_award("throw-in")
        short = self.is_short()
        return {"bid": self.high_bid, "meld": meld, "bonus": bonus, "played": played, "short": short}

    def opponents_score_meld(self, reason: str) -> bool:
        """Whether the give-up rule scores the opponents' meld when the bidding side gives up."""
        mode = self.giveup_mode
        return mode in ("meld", "meld+25", "meld+50") or (mode == "standard" and reason != "no-marriage")

    def giveup_award(self, reason: str) -> tuple[int, int]:
        """What the opponents score when the bidding side gives up for ``reason`` (their meld
        counted): their meld as the give-up rule counts it, and the bonus for the cards."""
        assert self.bidder is not None
        other = 1 - self.side_of[self.bidder]
        bonus = {"meld+25": 25, "meld+50": 50}.get(self.giveup_mode, 0) * self.scale
        if not self.opponents_score_meld(reason):
            return 0, bonus
        meld = self.side_meld[other]
        if self.giveup_mode == "standard":
            return (meld if self.laid[other] else 0), bonus
        return (meld if meld >= MIN_SCORE * self.scale else 0), bonus

    def give_up(self, reason: str) -> list[Event]:
        """The bidding side gives up before play (no marriage, under-20, throw-in)."""
        bidder = self.bidder
        assert bidder is not None
        self.gave_up = reason
        events: list[Event] = [{"type": "gave_up", "seat": bidder, "reason": reason}]
        if self.giveup_mode == "play" and self.trump is not None:
            if self.phase is not _PLAYING:
                if self.meld_hands[0] is None:  # no marriage after the pass: meld still counts
                    self.count_all_meld()
                events += self.start_play()
            return events
        other = 1 - self.side_of[bidder]
        if self.opponents_score_meld(reason) and self.meld_hands[self.sides[other][0]] is None:
            # No trump named: the opponents' meld is counted without one.
            self.count_seats(self.sides[other], self.trump)
            self.laid[other] = not self.min20 or self.side_meld[other] >= MIN_SCORE * self.scale
        meld, bonus = self.giveup_award(reason)
        for seat in self.sides[other]:
            self.shown[seat] = self.shown[seat] or meld > 0
        self.giveup_meld = meld
        self.phase = _SCORING
        self.acting = ()
        return events + self.score_deal(meld + bonus)

    def meld_lost(self, counted: list[int], played: bool) -> list[str | None]:
        """Why each side's meld was not scored (None where it was, or there was none): ``set`` (the
        bid not made), ``gave-up`` (the bidding side gave up the hand), ``under-20`` (min-20: under
        20 meld), ``tricks-under-20`` (min-20: under 20 in tricks), ``giveup-rule`` (the opponents
        of a side that gave up, when the give-up rule scores them no meld)."""
        assert self.bidder is not None
        bidding = self.side_of[self.bidder]
        floor = MIN_SCORE * self.scale
        out: list[str | None] = [None, None]
        for side in (0, 1):
            if counted[side] >= self.side_meld[side]:
                continue
            if not self.laid[side]:
                out[side] = "under-20"
            elif played and self.min20 and self.taken[side] < floor:
                out[side] = "tricks-under-20"
            elif side == bidding:
                out[side] = "gave-up" if self.gave_up is not None else "set"
            else:
                out[side] = "giveup-rule"
        return out

    def after_trick(self, winner: int, value: int) -> list[Event]:
        if self.hands[winner]:
            return []
        side = self.side_of[winner]
        self.taken[side] += LAST_TRICK * self.scale
        self.last_trick_side = side
        return self.score_deal(None)

    def score_deal(self, giveup_gain: int | None) -> list[Event]:
        """Score the deal (``giveup_gain``: the opponents' score when it was not played)."""
        bidder = self.bidder
        assert bidder is not None
        bidding = self.side_of[bidder]
        other = 1 - bidding
        bid = self.high_bid
        floor = MIN_SCORE * self.scale
        counted = [self.counted_meld(side) for side in (0, 1)]
        changes = [0, 0]
        made: bool | None
        if giveup_gain is not None:
            made = False
            changes[bidding] = -bid
            changes[other] = giveup_gain
            counted[bidding] = 0
            counted[other] = self.giveup_meld
        else:
            totals = [counted[side] + self.taken[side] for side in (0, 1)]
            if self.min20:
                for side in (0, 1):
                    if self.taken[side] < floor:
                        totals[side] = 0
                        counted[side] = 0
            changes[other] = totals[other]
            if self.gave_up is not None:
                made = False
            else:
                made = counted[bidding] + self.taken[bidding] >= bid
                if self.min20 and self.taken[bidding] < floor:
                    made = False
            changes[bidding] = totals[bidding] if made else -bid
            if not made:
                counted[bidding] = 0
        for side in (0, 1):
            self.scores[side] += changes[side]
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump.value if self.trump else None,
            "bidder": bidder,
            "bid": bid,
            "made": made,
            "gave_up": self.gave_up,
            "played": giveup_gain is None,
            "meld": self.side_meld[:],
            "meld_counted": counted,
            "meld_lost": self.meld_lost(counted, giveup_gain is None),
            "counters": self.taken[:],
            "tricks_won": self.tricks_won[:],
            "last_trick": self.last_trick_side,
            "changes": changes,
            "scores": self.scores[:],
        }
        if giveup_gain is not None:
            # Not played: the meld laid this deal is reported here (no view will show it).
            summary["melds"] = self.shown_melds()
        self.last_deal = summary
        self.history.append(summary)
        events: list[Event] = [{"type": "deal_scored", **summary}]
        outcome = self.check_end(bidding)
        if outcome is not None:
            return events + self.finish(outcome)
        self.dealer = (self.dealer + 1) % 4
        more = self.deal_cards() if self.deal_again() else []
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events + more

    def check_end(self, bidding: int) -> Outcome | None:
        scores = self.scores
        if self.target is None:
            if scores[0] == scores[1]:
                return self.win([bidding], "a tie after the single deal goes to the bidding side")
            best = 0 if scores[0] > scores[1] else 1
            return self.win([best], "highest score after the single deal")
        reached = [side for side in (0, 1) if scores[side] >= self.target]
        if len(reached) == 2:
            name = self.side_name(bidding)
            return self.win([bidding], f"both sides reached {self.target}: the bidding side ({name}) wins")
        if reached:
            return self.win(reached, f"{self.side_name(reached[0])} reached {self.target}")
        return None

    # ----- explanations ---------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: Action) -> str:
        return explain.explain_illegal(self, seat, action)

    # ----- views ----------------------------------------------------------------------------
    def shown_melds(self) -> list[SeatMeldJSON] | None:
        """Each counted seat's meld as shown: its melds when laid down, else only its total."""
        results = self.meld_results()
        if results is None:
            return None
        melds = []
        for seat, result in enumerate(results):
            if result is None:
                continue
            entry: SeatMeldJSON
            if self.shown[seat]:
                entry = meld_json(seat, result)
                entry["laid"] = True
            else:
                entry = {"seat": seat, "melds": [], "total": self.seat_meld[seat], "laid": False}
            melds.append(entry)
        return melds

    def public_view(self) -> dict[str, Any]:
        out = self.base_view()
        out.update(self.trick_view())
        melds = self.shown_melds()
        bidder = self.bidder
        out.update(
            {
                "bids": [{"seat": seat, "amount": amount} for seat, amount in self.bids],
                "high_bid": self.high_bid or None,
                "bidder": bidder,
                "min_bid": self.ladder[0],
                "meld_told": self.told[:],
                "ask": self.asked.value if self.asked else None,
                "melds": melds,
                "side_meld": self.side_meld[:] if melds is not None else None,
                "meld_laid": self.laid[:] if melds is not None else None,
                "passing": (
                    {
                        "seats": sorted((bidder, self.partner(bidder))),
                        "order": "simultaneous" if self.simultaneous else "partner-first",
                        "count": self.pass_count,
                        "chosen": [len(cards) for cards in self.giving],
                        "waiting": list(self.acting),
                    }
                    if self.phase is _PASSING and bidder is not None
                    else None
                ),
                "passed": self.pass_count > 0 and any(self.gave),
                "gave_up": self.gave_up,
                "throw_in": self.throw_in_open(),
                "throw_in_offer": self.throw_in_offer(),
                "hand_sizes": [len(hand) for hand in self.hands],
                "scale": self.scale,
            }
        )
        return out

    def private_view(self, seat: int) -> dict[str, Any]:
        results = self.meld_results()
        own = results[seat] if results is not None else None
        return {
            "hand": codes(self.hands[seat]),
            "giving": codes(self.giving[seat]),
            "gave": codes(self.gave[seat]),
            "received": codes(self.received[seat]),
            "received_from": self.received_from[seat],
            "my_meld": meld_json(seat, own) if own is not None else None,
        }
