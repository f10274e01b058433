"""Three-hand auction pinochle (§5 of ``docs/rules/pinochle.md``): the widow, bidding from 300
with the dealer forced to 250, burying, and settlement in chips with the kitty."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.actions import CONCEDE, PASS, Action, Kind, bid_action, card_actions, trump_action
from bot.engine.cards import Card, Suit
from bot.engine.events import Event, Phase
from bot.engine.game import Outcome, register
from bot.engine.meld import SINGLE_DECK, MeldResult, count_meld
from bot.engine.options import OptionSpec
from bot.engine.pinochle.common import (
    LAST_TRICK,
    SORT_KEY,
    PinochleGame,
    codes,
    meld_json,
)
from bot.engine.pinochle.worlds import ThreeHandPlan, redeal_three_hand
from bot.engine.prose import rules_prose

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_BIDDING, _FORCED, _NAMING_TRUMP, _BURYING, _PLAYING = (
    Phase.BIDDING,
    Phase.FORCED,
    Phase.TRUMP,
    Phase.BURY,
    Phase.PLAY,
)


HAND_SIZE = 15
WIDOW = 3
MIN_BID = 300
FORCED_BID = 250
MAX_BID = 800
BID_STEP = 10
CHIP_TABLES: dict[str, tuple[int, ...]] = {
    "3-5-10-15-20-25-30": (3, 5, 10, 15, 20, 25, 30),
    "3-5-10-20-40-80-160": (3, 5, 10, 20, 40, 80, 160),
    "1-2-4-6-8-10-12": (1, 2, 4, 6, 8, 10, 12),
}
SUIT_FACTOR = {Suit.SPADES: 2, Suit.HEARTS: 3}


def chip_value(bid: int, table: tuple[int, ...]) -> int:
    """Chips for a bid: 300–349 the first value, 350–399 the second, …, 600 and more the last
    (the forced 250 counts as the first band [gap])."""
    band = max(0, min(len(table) - 1, (bid - MIN_BID) // 50))
    return table[band]


def settlement(bidder: int, each: int, made: bool) -> tuple[list[int], int]:
    """Each seat's chips and the kitty's when a contract is settled at ``each`` chips a payer: made,
    both opponents and the kitty pay the bidder ``each``; else the bidder pays each of them."""
    sign = 1 if made else -1
    changes = [sign * each * 3 if seat == bidder else -sign * each for seat in range(3)]
    return changes, -sign * each


@register
class ThreeHand(PinochleGame):
    """Three-hand auction pinochle with a widow and chip settlement."""

    name = "pinochle-3"
    title = "Three-Hand Auction Pinochle"
    player_counts = (3,)
    default_players = 3
    meld_table = SINGLE_DECK
    option_specs = (
        OptionSpec("deals", 6, "Deals in the session (the most chips wins)", (1, 3, 6, 9, 12)),
        OptionSpec(
            "chips",
            "3-5-10-15-20-25-30",
            "Chips per bid band (300, 350, 400, 450, 500, 550, 600+)",
            tuple(CHIP_TABLES),
        ),
        OptionSpec("suit-bonus", False, "Spades trump pays double, hearts triple"),
        OptionSpec("set-single", False, "A set costs 1x the chips and a concession 1/2 (rounded up)"),
    )
    rules_text = rules_prose("pinochle-3")

    def declaring_out_allowed(self) -> bool:
        return False

    def start(self) -> None:
        self.kitty = 0
        super().start()

    def match_target(self) -> int | None:
        return None  # a session of deals (option deals), not a target

    def deals_in_session(self) -> int:
        return int(self.options["deals"])

    # ----- the deal -------------------------------------------------------------------------
    def deal_cards(self) -> list[Event]:
        self.deal_no += 1
        deck = self.new_deck()
        hands: list[list[Card]] = [[], [], []]
        for k in range(3):
            seat = (self.dealer + 1 + k) % 3
            hands[seat] = sorted(deck[k * HAND_SIZE : (k + 1) * HAND_SIZE], key=SORT_KEY.__getitem__)
        self.hands = hands
        self.widow: list[Card] = deck[3 * HAND_SIZE :]
        self.widow_shown = False
        self.trump = None
        self.bids: list[tuple[int, int | None]] = []
        self.passed = [False, False, False]
        self.high_bid = 0
        self.bidder: int | None = None
        self.forced = False
        self.meld: MeldResult | None = None
        self.meld_used: list[Card] = []
        self.buried: list[Card] = []
        self.conceded: str | None = None
        self.reset_trick_state((self.dealer + 1) % 3)
        self.phase = _BIDDING
        return []

    # ----- legal actions --------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn or not self.acting:
            return []
        phase = self.phase
        if phase is _PLAYING:
            # Only before the first lead may the bidder concede (``concede_open``): every later
            # play is told apart without the call.
            if (self.tricks or self.trick) or not self.concede_open():
                return self.strict_play_actions(seat)
            return [*self.strict_play_actions(seat), CONCEDE]
        if phase is _BIDDING:
            floor = self.high_bid + BID_STEP if self.high_bid else MIN_BID
            return [PASS, *(bid_action(n) for n in range(floor, MAX_BID + 1, BID_STEP))]
        if phase is _FORCED:
            return [bid_action(FORCED_BID), CONCEDE]
        if phase is _NAMING_TRUMP:
            return [*(trump_action(suit) for suit in Suit), CONCEDE]
        if phase is _BURYING:
            return [*card_actions(Kind.BURY, self.buryable(seat)), CONCEDE]
        return []

    def rollout_extra(self) -> tuple[Action, ...] | None:
        # Before the first lead the bidder may concede: the slow loop plays that lead.
        return () if self.tricks or self.trick else None

    def concede_open(self) -> bool:
        """Whether the bidder, who leads, may still concede: after burying, until the first lead
        (§5: "after seeing the widow the bidder may concede")."""
        return not self.tricks and not self.trick

    def buryable(self, seat: int) -> list[Card]:
        """Cards not used in the meld (all cards once only meld cards are left)."""
        hand = self.hands[seat]
        spare = hand[:]
        for card in self.meld_used:
            if card in spare:
                spare.remove(card)
        return spare or hand

    # ----- actions --------------------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        phase = self.phase
        if phase is _BIDDING:
            return self.take_bid(seat, action.amount)
        if kind is Kind.CONCEDE:
            return self.concede(seat)
        if phase is _FORCED:
            return self.take_widow(seat)
        if kind is Kind.TRUMP:
            assert action.suit is not None
            return self.name_trump(seat, action.suit)
        return self.bury(seat, action.cards[0])

    def take_bid(self, seat: int, amount: int | None) -> list[Event]:
        events = self.record_bid(seat, amount)
        live = [s for s in range(3) if not self.passed[s]]
        if not live:
            self.bidder = self.dealer
            self.high_bid = FORCED_BID
            self.forced = True
            self.phase = _FORCED
            self.set_turn(self.dealer)
            events.append({"type": "forced_bid", "seat": self.dealer, "bid": FORCED_BID})
            return events
        if len(live) == 1 and self.bidder == live[0]:
            events.append({"type": "bidder", "seat": live[0], "bid": self.high_bid})
            return events + self.take_widow(live[0])
        nxt = seat
        for _ in range(3):
            nxt = (nxt + 1) % 3
            if not self.passed[nxt]:
                break
        self.set_turn(nxt)
        return events

    def take_widow(self, seat: int) -> list[Event]:
        self.widow_shown = True
        self.hands[seat].extend(self.widow)
        self.hands[seat].sort(key=SORT_KEY.__getitem__)
        self.phase = _NAMING_TRUMP
        self.set_turn(seat)
        return [{"type": "widow", "seat": seat, "cards": codes(self.widow)}]

    def name_trump(self, seat: int, suit: Suit) -> list[Event]:
        self.trump = suit
        self.meld = count_meld(self.hands[seat], suit, self.meld_table)
        self.meld_used = self.meld.used_cards()
        self.phase = _BURYING
        return [
            {"type": "trump", "seat": seat, "suit": suit.value},
            {"type": "meld_shown", **meld_json(seat, self.meld)},
        ]

    def bury(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        self.buried.append(card)
        events: list[Event] = [{"type": "bury", "seat": seat, "count": len(self.buried)}]
        if len(self.buried) < WIDOW:
            return events
        trump = self.trump
        assert trump is not None and self.meld is not None
        kept = count_meld(self.hands[seat], trump, self.meld_table)
        if kept.total != self.meld.total:
            self.meld = kept
            events.append({"type": "meld_shown", **meld_json(seat, kept)})
        self.phase = _PLAYING
        self.start_strict_play()
        self.leader = seat
        self.set_turn(seat)
        return events

    def concede(self, seat: int) -> list[Event]:
        self.conceded = "forced" if self.phase is _FORCED else "widow"
        return self.settle()

    def after_trick(self, winner: int, value: int) -> list[Event]:
        if self.hands[winner]:
            return []
        self.taken[winner] += LAST_TRICK
        self.last_trick_side = winner
        return self.settle()

    # ----- search ---------------------------------------------------------------------------
    def plan_sampling(self, seat: int) -> ThreeHandPlan:
        return ThreeHandPlan(self, seat)

    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        redeal_three_hand(self, seat, rng)

    # ----- settlement -----------------------------------------------------------------------
    def bidder_points(self) -> tuple[int, int]:
        """The bidder's meld and counters (tricks plus buried cards)."""
        assert self.bidder is not None
        meld = self.meld.total if self.meld is not None else 0
        buried = sum(self.points[card] for card in self.buried)
        return meld, self.taken[self.bidder] + buried

    def settle(self) -> list[Event]:
        bidder = self.bidder
        assert bidder is not None
        table = CHIP_TABLES[self.options["chips"]]
        value = chip_value(self.high_bid, table)
        if self.options["suit-bonus"] and self.trump is not None:
            value *= SUIT_FACTOR.get(self.trump, 1)
        single = bool(self.options["set-single"])
        meld, counters = self.bidder_points()
        made: bool | None = None
        if self.conceded == "forced":
            changes, kitty = [-1 if seat == bidder else 0 for seat in range(3)], 1
        elif self.conceded == "widow":
            changes, kitty = settlement(bidder, -((-value) // 2) if single else value, False)
        else:
            made = meld + counters >= self.high_bid
            changes, kitty = settlement(bidder, value if made or single else 2 * value, made)
        for seat in range(3):
            self.scores[seat] += changes[seat]
        self.kitty += kitty
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "bidder": bidder,
            "bid": self.high_bid,
            "forced": self.forced,
            "trump": self.trump.value if self.trump else None,
            "conceded": self.conceded,
            "meld": meld if self.conceded is None else None,
            "counters": counters if self.conceded is None else None,
            "trick_counters": self.taken[:] if self.conceded is None else None,
            "buried_counters": counters - self.taken[bidder] if self.conceded is None else None,
            "made": made,
            "chips": value,
            "changes": changes,
            "kitty_change": kitty,
            "scores": self.scores[:],
            "kitty": self.kitty,
        }
        self.last_deal = summary
        self.history.append(summary)
        # The buried cards are shown once, in the deal's report (they counted for the bidder); the
        # views keep no card names of past deals, which would read like cards in a hand now.
        buried = codes(self.buried) if self.conceded is None else []
        events: list[Event] = [{"type": "deal_scored", **summary, "buried": buried}]
        if self.deal_no >= self.deals_in_session():
            return events + self.finish(self.session_end())
        self.dealer = (self.dealer + 1) % 3
        more = self.deal_cards() if self.deal_again() else []
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events + more

    def session_end(self) -> Outcome:
        best = max(self.scores)
        tops = [seat for seat in range(3) if self.scores[seat] == best]
        return self.win(tops, f"most chips after {self.deal_no} deal(s)")

    # ----- explanations ---------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: Action) -> str:
        kind = action.kind
        if kind is Kind.DECLARE_OUT:
            return "There is no declaring out in three-hand auction pinochle."
        if seat != self.turn:
            return f"It is not your turn: waiting for seat {self.turn + 1}."
        phase = self.phase
        if phase is _BIDDING:
            if kind is Kind.BID and action.amount is not None:
                floor = self.high_bid + BID_STEP if self.high_bid else MIN_BID
                if action.amount < floor:
                    return f"Your bid must be at least {floor}."
                if action.amount > MAX_BID:
                    return f"Bids go up to {MAX_BID}."
                return f"Bids go up in steps of {BID_STEP}."
            if kind is Kind.CONCEDE:
                return "Only the bidder may concede, after the auction."
            return "Bidding is under way: bid or pass."
        if phase is _FORCED:
            return (
                f"Everyone passed: play the forced bid ('bid {FORCED_BID}') or concede (1 chip to the kitty)."
            )
        if phase is _NAMING_TRUMP:
            return "Name trump (e.g. 'trump H') or concede."
        if phase is _BURYING:
            if kind is Kind.BURY and action.cards:
                card = action.cards[0]
                if card not in self.hands[seat]:
                    return f"You do not hold {card.pretty}."
                return f"{card.pretty} is part of your meld: bury cards not used in the meld."
            return (
                f"Bury {WIDOW - len(self.buried)} more card(s) not used in your meld ('bury 9C'), or concede."
            )
        if kind is Kind.CONCEDE:
            late = "It is too late to concede: the first card has been led."
            return late if seat == self.bidder else "Only the bidder may concede."
        if kind is not Kind.PLAY:
            return "The cards are being played: play a card."
        return self.explain_play(seat, action.cards[0], self.hands[seat])

    # ----- views ----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        out = self.base_view()
        out.update(self.trick_view())
        out.update(
            {
                "deals": self.deals_in_session(),
                "bids": [{"seat": seat, "amount": amount} for seat, amount in self.bids],
                "high_bid": self.high_bid or None,
                "bidder": self.bidder if self.phase is not _BIDDING else None,
                "forced": self.forced,
                "widow": codes(self.widow) if self.widow_shown else None,
                "widow_size": WIDOW,
                "meld": meld_json(self.bidder, self.meld) if self.meld and self.bidder is not None else None,
                "buried_count": len(self.buried),
                "kitty": self.kitty,
                "chip_table": list(CHIP_TABLES[self.options["chips"]]),
                "hand_sizes": [len(hand) for hand in self.hands],
            }
        )
        return out

    def private_view(self, seat: int) -> dict[str, Any]:
        return {
            "hand": codes(self.hands[seat]),
            "buried": codes(self.buried) if seat == self.bidder else [],
        }
