"""Partnership pinochle (§6), partnership auction pinochle (§7) and the 6- and 8-player games with
96 cards (§8, either rules). Spec: ``docs/rules/pinochle.md``."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bot.engine.actions import (
    DECLARE_OUT,
    PASS,
    Action,
    Kind,
    bid_action,
    card_action,
    card_actions,
    trump_action,
)
from bot.engine.cards import Card, Rank, Suit
from bot.engine.errors import BadOption
from bot.engine.events import Event, MeldJSON, Phase
from bot.engine.game import Outcome, register
from bot.engine.meld import FOUR_HAND, NINETY_SIX, MeldResult, count_meld, meld_total
from bot.engine.options import OptionSpec
from bot.engine.pinochle.common import (
    COUNT_OPTION,
    LAST_TRICK,
    MATCH_OPTION,
    SORT_KEY,
    PinochleGame,
    codes,
    counted_counters,
    meld_json,
)
from bot.engine.pinochle.worlds import PartnershipPlan, redeal_partnership
from bot.engine.prose import rules_prose

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_BIDDING, _EXCHANGE, _PASSING, _NAMING_TRUMP, _PLAYING = (
    Phase.BIDDING,
    Phase.EXCHANGE,
    Phase.PASS,
    Phase.TRUMP,
    Phase.PLAY,
)


PASS_OPTION = OptionSpec(
    "pass",
    0,
    "Cards the bidder's partner passes to the bidder, who passes as many back (auction rules)",
    (0, 4),
)
RULES_OPTION = OptionSpec(
    "rules",
    "partnership",
    "partnership: turned trump, dix exchange, declaring out; auction: bidding from 100, no turned card",
    ("partnership", "auction"),
)


class PartnershipBase(PinochleGame):
    """Sides of partners; everyone melds before play; trick play with the strict follow rules."""

    meld_table = FOUR_HAND
    min_bid: ClassVar[int] = 100
    max_bid: ClassVar[int] = 1000
    bid_step: ClassVar[int] = 10

    def is_auction(self) -> bool:
        return bool(self.options.get("rules") == "auction")

    def check_options(self) -> None:
        if self.options.get("pass") and not self.is_auction():
            raise BadOption("option pass=4 needs a bidder: use it with the auction rules (rules=auction)")

    def declaring_out_allowed(self) -> bool:
        return not self.is_auction()

    # ----- the deal -------------------------------------------------------------------------
    def deal_cards(self) -> list[Event]:
        self.deal_no += 1
        deck = self.new_deck()
        players = self.players
        size = len(deck) // players
        hands: list[list[Card]] = [[] for _ in range(players)]
        for k in range(players):
            seat = (self.dealer + 1 + k) % players
            hand = deck[k * size : (k + 1) * size]
            hands[seat] = hand
        self.hands = hands
        self.trump = None
        self.turned: Card | None = None
        self.exchanges: list[tuple[int, Card]] = []
        self.dix_credit = [0] * players
        self.melds: list[MeldResult] | None = None
        self.meld_hands: list[tuple[Card, ...]] = []
        self.seat_meld = [0] * players
        self.side_meld = [0] * len(self.sides)
        self.bids: list[tuple[int, int | None]] = []
        self.passed = [False] * players
        self.high_bid = 0
        self.bidder: int | None = None
        self.conceded = False
        self.pass_from = -1
        self.pass_to = -1
        self.giving: list[Card] = []
        self.gave: list[list[Card]] = [[] for _ in range(players)]
        self.received: list[list[Card]] = [[] for _ in range(players)]
        self.reset_trick_state((self.dealer + 1) % players)
        self.acting = ()
        if self.is_auction():
            for hand in hands:
                hand.sort(key=SORT_KEY.__getitem__)
            self.phase = _BIDDING
            self.set_turn((self.dealer + 1) % players)
            return []
        turned = hands[self.dealer].pop()
        for hand in hands:
            hand.sort(key=SORT_KEY.__getitem__)
        self.turned = turned
        self.trump = turned.suit
        self.dix = Card(turned.suit, Rank.NINE)
        self.phase = _EXCHANGE
        self.exchange_offset = 0
        return self.exchange_from(1)

    # ----- the dix exchange (§6) -------------------------------------------------------------
    def exchange_from(self, offset: int) -> list[Event]:
        """Offer the exchange to the next seat (dealer's left first) holding a dix, or meld."""
        if self.turned is not self.dix:
            dix = self.dix
            for k in range(offset, self.players):
                seat = (self.dealer + k) % self.players
                if dix in self.hands[seat]:
                    self.exchange_offset = k
                    self.set_turn(seat)
                    return []
        return self.end_exchange()

    def end_exchange(self) -> list[Event]:
        assert self.turned is not None
        hand = self.hands[self.dealer]
        hand.append(self.turned)
        hand.sort(key=SORT_KEY.__getitem__)
        return self.show_melds()

    # ----- bidding (§7) ---------------------------------------------------------------------
    def bid_floor(self) -> int:
        return self.high_bid + self.bid_step if self.high_bid else self.min_bid

    def take_bid(self, seat: int, action: Action) -> list[Event]:
        events = self.record_bid(seat, action.amount)
        live = [s for s in range(self.players) if not self.passed[s]]
        if len(live) == 1 and self.bidder == live[0]:
            self.phase = _NAMING_TRUMP
            self.set_turn(live[0])
            events.append({"type": "bidder", "seat": live[0], "bid": self.high_bid})
            return events
        nxt = seat
        for _ in range(self.players):
            nxt = (nxt + 1) % self.players
            if not self.passed[nxt]:
                break
        self.set_turn(nxt)
        return events

    def name_trump(self, seat: int, suit: Suit) -> list[Event]:
        self.trump = suit
        self.dix = Card(suit, Rank.NINE)
        events: list[Event] = [{"type": "trump", "seat": seat, "suit": suit.value}]
        if self.options.get("pass"):
            self.phase = _PASSING
            self.pass_from, self.pass_to = self.partner(seat), seat
            self.giving = []
            self.set_turn(self.pass_from)
            events.append(
                {"type": "pass_cards", "from": self.pass_from, "to": seat, "count": self.pass_count()}
            )
            return events
        events.extend(self.show_melds())
        return events

    def pass_count(self) -> int:
        return int(self.options.get("pass", 0))

    def give(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        self.giving.append(card)
        events: list[Event] = []
        if len(self.giving) < self.pass_count():
            return events
        to = self.pass_to
        self.gave[seat] = self.giving[:]
        self.received[to] = self.giving[:]
        self.hands[to].extend(self.giving)
        self.hands[to].sort(key=SORT_KEY.__getitem__)
        events.append({"type": "passed", "from": seat, "to": to, "count": len(self.giving)})
        self.giving = []
        if to == self.bidder:
            self.pass_from, self.pass_to = to, seat
            self.set_turn(to)
            return events
        self.pass_from = self.pass_to = -1
        events.extend(self.show_melds())
        return events

    # ----- meld and play --------------------------------------------------------------------
    def show_melds(self) -> list[Event]:
        """Every seat shows its meld (an exchanged dix already scored for its exchanger)."""
        trump = self.trump
        assert trump is not None
        table = self.meld_table
        shown: list[tuple[Card, ...]] = []
        seat_meld = self.seat_meld
        for seat, hand in enumerate(self.hands):
            if seat == self.dealer and self.exchanges:
                hand = hand[:]
                for _ in self.exchanges:
                    hand.remove(self.dix)
            shown.append(tuple(hand))
            seat_meld[seat] = meld_total(hand, trump, table) + 10 * self.dix_credit[seat]
        self.meld_hands = shown
        self.melds = None
        side_meld = [0] * len(self.sides)
        side_of = self.side_of
        for seat, points in enumerate(seat_meld):
            side_meld[side_of[seat]] += points
        self.side_meld = side_meld
        self.phase = _PLAYING
        self.start_strict_play()
        leader = (self.dealer + 1) % self.players
        self.leader = leader
        self.set_turn(leader)
        return [{"type": "melds", "seat_meld": seat_meld[:], "side_meld": side_meld[:]}]

    def meld_results(self) -> list[MeldResult] | None:
        """Each seat's meld in detail (worked out when first shown, from the hands as melded)."""
        if not self.meld_hands:
            return None
        if self.melds is None:
            assert self.trump is not None
            self.melds = [count_meld(hand, self.trump, self.meld_table) for hand in self.meld_hands]
        return self.melds

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is _PLAYING:
            out = self.strict_play_actions(seat) if seat == self.turn else []
            if self.can_declare:
                out.append(DECLARE_OUT)
            return out
        if seat != self.turn:
            return []
        if phase is _EXCHANGE:
            return [card_action(Kind.EXCHANGE, self.dix), PASS]
        if phase is _BIDDING:
            bids = [bid_action(n) for n in range(self.bid_floor(), self.max_bid + 1, self.bid_step)]
            return bids if self.dealer_stuck(seat) else [PASS, *bids]
        if phase is _NAMING_TRUMP:
            return [trump_action(suit) for suit in Suit]
        if phase is _PASSING:
            return card_actions(Kind.GIVE, self.hands[seat])
        return []

    def world_rebuilt(self) -> tuple[str, ...]:
        # ``redeal_partnership`` indexes the hands by suit anew in the play.
        return ("log", "by_suit") if self.phase is _PLAYING else ("log",)

    def rollout_extra(self) -> tuple[Action, ...] | None:
        return (DECLARE_OUT,) if self.can_declare else ()

    def _perform(self, seat: int, action: Action) -> list[Event]:
        if self.phase is _BIDDING:  # the commonest action after a card: a bid or a pass
            return self.take_bid(seat, action)
        kind = action.kind
        if action is DECLARE_OUT:
            return self.declare_out(seat)
        if kind is Kind.EXCHANGE:
            assert self.turned is not None
            hand = self.hands[seat]
            hand.remove(self.dix)
            hand.append(self.turned)
            hand.sort(key=SORT_KEY.__getitem__)
            received = self.turned
            self.turned = self.dix
            self.exchanges.append((seat, received))
            self.dix_credit[seat] += 1
            events: list[Event] = [
                {"type": "exchange", "seat": seat, "gave": self.dix.code, "took": received.code}
            ]
            return events + self.end_exchange()
        if kind is Kind.PASS and self.phase is _EXCHANGE:
            events = [{"type": "exchange_pass", "seat": seat}]
            return events + self.exchange_from(self.exchange_offset + 1)
        if kind is Kind.TRUMP:
            assert action.suit is not None
            return self.name_trump(seat, action.suit)
        if kind is Kind.GIVE:
            return self.give(seat, action.cards[0])
        raise AssertionError(f"unexpected action {action}")

    def after_trick(self, winner: int, value: int) -> list[Event]:
        if self.hands[winner]:
            return []
        side = self.side_of[winner]
        self.taken[side] += LAST_TRICK
        self.last_trick_side = side
        return self.score_deal()

    # ----- scoring --------------------------------------------------------------------------
    def side_deal_total(self, side: int) -> int:
        meld = self.side_meld[side] if self.tricks_won[side] else 0
        return meld + self.counted(self.taken[side])

    def declared_total(self, side: int) -> int:
        return self.scores[side] + self.side_deal_total(side)

    def score_deal(self) -> list[Event]:
        # ``side_deal_total`` of each side, its parts kept for the summary (search ends a deal in
        # every rollout).
        count = self.count_mode
        counted = [counted_counters(points, count) for points in self.taken]
        meld_counted = [meld if won else 0 for meld, won in zip(self.side_meld, self.tricks_won, strict=True)]
        totals = [meld + more for meld, more in zip(meld_counted, counted, strict=True)]
        changes = totals[:]
        made: bool | None = None
        bidding = self.side_of[self.bidder] if self.bidder is not None else None
        if bidding is not None:
            made = totals[bidding] >= self.high_bid
            if not made:
                changes[bidding] = -self.high_bid
        scores = self.scores
        for side, change in enumerate(changes):
            scores[side] += change
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump.value if self.trump else None,
            "bidder": self.bidder,
            "bid": self.high_bid or None,
            "made": made,
            "meld": self.side_meld[:],
            "meld_counted": meld_counted,
            "counters": self.taken[:],
            "counted": counted,
            "tricks_won": self.tricks_won[:],
            "last_trick": self.last_trick_side,
            "changes": changes,
            "scores": self.scores[:],
        }
        self.last_deal = summary
        self.history.append(summary)
        outcome = self.auction_end(bidding) if self.is_auction() else self.check_target()
        if self.rolling_out and outcome is not None:
            return self.finish(outcome)  # no events: nothing reads a rollout's
        events: list[Event] = [{"type": "deal_scored", **summary}]
        if outcome is not None:
            return events + self.finish(outcome)
        self.dealer = (self.dealer + 1) % self.players
        more = self.deal_cards() if self.deal_again() else []
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events + more

    def auction_end(self, bidding: int | None) -> Outcome | None:
        """The bidding side is counted first, then the others clockwise: the first at 1000 wins."""
        if self.target is None:
            return self.check_target()
        assert bidding is not None and self.bidder is not None
        order = [bidding]
        for k in range(1, self.players):
            side = self.side_of[(self.bidder + k) % self.players]
            if side not in order:
                order.append(side)
        for side in order:
            if self.scores[side] >= self.target:
                why = "the bidding side, counted first," if side == bidding else ""
                name = f"{self.side_name(side)}{' (' + why.strip(',') + ')' if why else ''}"
                return self.win([side], f"{name} reached {self.target}")
        return None

    # ----- search ---------------------------------------------------------------------------
    def plan_sampling(self, seat: int) -> PartnershipPlan:
        return PartnershipPlan(self, seat)

    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        redeal_partnership(self, seat, rng)

    # ----- explanations ---------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: Action) -> str:
        kind = action.kind
        if kind is Kind.DECLARE_OUT:
            if self.is_auction():
                return "There is no declaring out in auction pinochle: the bidding side is counted first."
            if self.target is None:
                return "There is no declaring out in a single-deal game."
            return "You may declare out only while the cards are being played."
        if seat != self.turn or not self.acting:
            waiting = ", ".join(f"seat {s + 1}" for s in self.acting) or "nobody"
            return f"It is not your turn: waiting for {waiting}."
        phase = self.phase
        if phase is _EXCHANGE:
            return f"You may exchange your dix ({self.dix.pretty}) for the turned card, or pass."
        if phase is _BIDDING:
            if kind is Kind.PASS:
                return f"Everyone else passed: the dealer is stuck and must bid at least {self.min_bid}."
            if kind is Kind.BID and action.amount is not None:
                floor = self.bid_floor()
                if action.amount < floor:
                    return f"Your bid must be at least {floor}."
                if action.amount > self.max_bid:
                    return f"Bids go up to {self.max_bid}."
                return f"Bids go up in steps of {self.bid_step} (e.g. {floor}, {floor + self.bid_step})."
            return "Bidding is under way: bid or pass."
        if phase is _NAMING_TRUMP:
            return "You won the bid: name trump (e.g. 'trump H')."
        if phase is _PASSING:
            if kind is Kind.GIVE and action.cards and action.cards[0] not in self.hands[seat]:
                return f"You do not hold {action.cards[0].pretty}."
            return f"Pass cards one at a time: 'give <card>' ({self.pass_count() - len(self.giving)} to go)."
        if kind is not Kind.PLAY:
            return "The cards are being played: play a card."
        return self.explain_play(seat, action.cards[0], self.hands[seat])

    # ----- views ----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        results = self.meld_results()
        out = self.base_view()
        out.update(self.trick_view())
        out.update(
            {
                "rules": "auction" if self.is_auction() else "partnership",
                "turned": self.turned.code if self.turned is not None else None,
                "exchanges": [{"seat": seat, "took": card.code} for seat, card in self.exchanges],
                "bids": [{"seat": seat, "amount": amount} for seat, amount in self.bids],
                "high_bid": self.high_bid or None,
                "bidder": self.bidder,
                "melds": (
                    [
                        meld_json(seat, result, [self.exchanged_dix_json()] * self.dix_credit[seat])
                        for seat, result in enumerate(results)
                    ]
                    if results is not None
                    else None
                ),
                "side_meld": self.side_meld[:] if results is not None else None,
                "passing": (
                    {
                        "from": self.pass_from,
                        "to": self.pass_to,
                        "count": self.pass_count(),
                        "chosen": len(self.giving),
                    }
                    if self.phase is _PASSING
                    else None
                ),
                "hand_sizes": [len(hand) for hand in self.hands],
            }
        )
        return out

    def exchanged_dix_json(self) -> MeldJSON:
        suit = self.dix.suit.value
        return {
            "name": "dix (exchanged)",
            "kind": "dix",
            "class": "A",
            "suit": suit,
            "cards": [self.dix.code],
            "points": 10,
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        return {
            "hand": codes(self.hands[seat]),
            "giving": codes(self.giving) if seat == self.pass_from and self.phase is _PASSING else [],
            "gave": codes(self.gave[seat]),
            "received": codes(self.received[seat]),
        }


@register
class Partnership(PartnershipBase):
    name = "pinochle-4"
    title = "Partnership Pinochle"
    player_counts = (4,)
    default_players = 4
    option_specs = (MATCH_OPTION, COUNT_OPTION)
    rules_text = rules_prose("pinochle-4")

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))


@register
class PartnershipAuction(PartnershipBase):
    name = "pinochle-4-auction"
    title = "Partnership Auction Pinochle"
    player_counts = (4,)
    default_players = 4
    option_specs = (MATCH_OPTION, COUNT_OPTION, PASS_OPTION)
    rules_text = rules_prose("pinochle-4-auction")

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    def is_auction(self) -> bool:
        return True


class NinetySix(PartnershipBase):
    meld_table = NINETY_SIX
    copies = 4
    max_bid = 2000
    option_specs = (RULES_OPTION, MATCH_OPTION, COUNT_OPTION, PASS_OPTION)


@register
class SixHand(NinetySix):
    name = "pinochle-6"
    title = "Six-Hand Pinochle (96 cards)"
    player_counts = (6,)
    default_players = 6
    rules_text = rules_prose("pinochle-6")

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2, 4), (1, 3, 5))


@register
class EightHand(NinetySix):
    name = "pinochle-8"
    title = "Eight-Hand Pinochle (96 cards)"
    player_counts = (8,)
    default_players = 8
    rules_text = rules_prose("pinochle-8")

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 4), (1, 5), (2, 6), (3, 7))
