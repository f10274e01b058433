"""Pitch: auction pitch for 2-7 players (with setback, smudge and dealer-steal options) and
partnership pitch (Brian Gordon's rules). Spec: ``shared/rules/pitch.md``."""

from __future__ import annotations

import random
from abc import abstractmethod
from typing import Any, ClassVar

from bot.engine.actions import PASS, Action, Kind, bid, play
from bot.engine.cards import Card, Rank, Suit, make_deck
from bot.engine.events import Event, Phase
from bot.engine.game import Game, Outcome, register
from bot.engine.options import OptionSpec
from bot.engine.prose import rules_prose
from bot.engine.tricks import has_suit, sort_hand, trick_winner

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_BIDDING, _PLAYING, _OVER = Phase.BIDDING, Phase.PLAY, Phase.OVER


STRENGTH: dict[Rank, int] = {rank: rank.index for rank in Rank}  # A high ... 2 low
GAME_VALUE: dict[Rank, int] = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}
AWARD_ORDER = ("high", "low", "jack", "game")
HAND_SIZE = 6

OLD_HIGH_LOW = OptionSpec(
    "old-high-low", False, "High and Low go to the player dealt them, not the one who takes them"
)


def game_points(cards: list[Card]) -> int:
    """Value of captured cards for the Game point: A 4, K 3, Q 2, J 1, 10 = 10."""
    return sum(GAME_VALUE.get(card.rank, 0) for card in cards)


class PitchBase(Game):
    """What auction pitch and partnership pitch share: dealing, bidding shape, play and awards."""

    family: ClassVar[str] = "pitch"
    min_bid: ClassVar[int]
    max_bid: ClassVar[int]

    # ----- setup --------------------------------------------------------------------------
    def pack(self) -> list[Card]:
        return make_deck(tuple(Rank))

    def start(self) -> None:
        self.scores = [0] * len(self.sides)
        self.deal_no = 0
        if self.first_dealer is None:
            self.first_draw = self.draw_for_dealer()
            self.dealer = self.first_draw[-1]["winner"]
        else:  # a chosen position: no draw
            self.first_draw = []
            self.dealer = self.first_dealer
        self.last_deal: dict[str, Any] | None = None
        self.deal_cards()

    def draw_for_dealer(self) -> list[dict[str, Any]]:
        """Everyone draws a card; the highest deals (tied high cards draw again)."""
        rng = random.Random(f"{self.name}/{self.seed}/first-dealer")
        deck = make_deck(tuple(Rank))
        rng.shuffle(deck)
        rounds: list[dict[str, Any]] = []
        drawing = list(range(self.players))
        while True:
            draws = {seat: deck.pop() for seat in drawing}
            top = max(STRENGTH[card.rank] for card in draws.values())
            best = [seat for seat, card in draws.items() if STRENGTH[card.rank] == top]
            rounds.append(
                {
                    "draws": {str(seat): card.code for seat, card in draws.items()},
                    "winner": best[0] if len(best) == 1 else None,
                }
            )
            if len(best) == 1:
                return rounds
            drawing = best

    def deal_cards(self) -> None:
        """Shuffle and deal 3 cards at a time, twice, starting left of the dealer."""
        self.deal_no += 1
        deck = self.stacked_pack(self.deal_no)
        if deck is None:
            deck = self.pack()
            self.deal_rng(self.deal_no).shuffle(deck)
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        for _ in range(2):
            for seat in order:
                self.hands[seat].extend(deck.pop() for _ in range(3))
        self.hands = [sort_hand(hand, STRENGTH) for hand in self.hands]
        self.dealt: list[list[Card]] = [hand[:] for hand in self.hands]
        self.phase = _BIDDING
        self.turn = order[0]
        self.bids: list[tuple[int, int | None]] = []
        self.high_bid = 0
        self.pitcher: int | None = None
        self.trump: Suit | None = None
        self.leader = -1
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: tuple[list[tuple[int, Card]], int] | None = None
        self.tricks: list[tuple[list[tuple[int, Card]], int]] = []
        self.taken: list[list[Card]] = [[] for _ in self.sides]
        self.tricks_won = [0] * len(self.sides)

    # ----- queries ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.outcome is not None else (self.turn,)

    def bid_floor(self, seat: int) -> int:
        """The lowest bid ``seat`` may make now."""
        if self.high_bid == 0:
            return self.min_bid
        if seat == self.dealer and self.dealer_may_steal():
            return self.high_bid
        return self.high_bid + 1

    def dealer_may_steal(self) -> bool:
        return True

    def bid_names(self) -> dict[str, str]:
        """Bids that have a name of their own (shown instead of the number)."""
        return {}

    def dealer_must_bid(self) -> bool:
        return False

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        if self.phase is _BIDDING:
            actions = [bid(n) for n in range(self.bid_floor(seat), self.max_bid + 1)]
            if not (seat == self.dealer and self.high_bid == 0 and self.dealer_must_bid()):
                actions.insert(0, PASS)
            return actions
        return [play(card) for card in self.playable(seat)]

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play to the current trick (the follow rules of §4)."""
        hand = self.hands[seat]
        if not self.trick:
            return list(dict.fromkeys(hand))
        led = self.trick[0][1].suit
        trump = self.trump
        if led is trump:
            trumps = [card for card in hand if card.suit is trump]
            return trumps or hand[:]
        if has_suit(hand, led):
            return [card for card in hand if card.suit is led or card.suit is trump]
        return hand[:]

    def explain_illegal(self, seat: int, action: Action) -> str:
        if seat != self.turn:
            return f"It is not your turn: waiting for seat {self.turn + 1}."
        if self.phase is _BIDDING:
            if action.kind is Kind.PLAY:
                return "Bidding is under way: bid or pass before any card is played."
            if action.kind is Kind.PASS:
                return "The dealer must bid when everyone else has passed."
            if action.kind is Kind.BID and action.amount is not None:
                floor = self.bid_floor(seat)
                if action.amount > self.max_bid or action.amount < self.min_bid:
                    return f"Bids go from {self.min_bid} to {self.max_bid}."
                if action.amount < floor:
                    extra = " (only the dealer may equal it)" if self.dealer_may_steal() else ""
                    return f"Your bid must be higher than {self.high_bid}{extra}."
            return f"You can bid ({self.bid_floor(seat)}-{self.max_bid}) or pass now."
        if action.kind is not Kind.PLAY:
            return "The cards are being played: play a card."
        card = action.card
        if card not in self.hands[seat]:
            return f"You do not hold {card.pretty}."
        led = self.trick[0][1].suit
        if led is self.trump:
            return f"Trump was led: you must play trump (you hold a {led.label[:-1].lower()})."
        return (
            f"You must follow suit or trump: you hold a {led.label[:-1].lower()}"
            f" and may not play a third suit."
        )

    # ----- actions --------------------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[Event]:
        return self.take_bid(seat, action)  # the only action besides playing a card

    def take_bid(self, seat: int, action: Action) -> list[Event]:
        amount = action.amount if action.kind is Kind.BID else None
        self.bids.append((seat, amount))
        events: list[Event] = [{"type": "bid", "seat": seat, "amount": amount}]
        if amount is not None:
            self.high_bid = amount
            self.pitcher = seat
        if seat != self.dealer:
            self.turn = (seat + 1) % self.players
            return events
        if self.pitcher is None:
            events.append({"type": "redeal", "dealer": self.dealer, "reason": "everyone passed"})
            self.deal_cards()
            return events
        self.phase = _PLAYING
        self.turn = self.leader = self.pitcher
        events.append({"type": "pitcher", "seat": self.pitcher, "bid": self.high_bid})
        return events

    def play_card(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        events: list[Event] = []
        if self.trump is None:
            self.trump = card.suit
            events.append({"type": "trump", "suit": card.suit.value})
        self.trick.append((seat, card))
        events.append({"type": "play", "seat": seat, "card": card.code})
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            return events
        plays = self.trick
        winner = plays[trick_winner(plays, self.trump, STRENGTH)][0]
        side = self.side_of[winner]
        self.taken[side].extend(card for _, card in plays)
        self.tricks_won[side] += 1
        self.last_trick = (plays, winner)
        self.tricks.append((plays, winner))
        self.trick = []
        self.turn = self.leader = winner
        events.append({"type": "trick", "winner": winner, "cards": [c.code for _, c in plays]})
        if not self.hands[winner]:
            events.extend(self.score_deal())
        return events

    # ----- scoring ---------------------------------------------------------------------------
    def awards(self) -> list[tuple[str, int, Card | None]]:
        """The points of the finished deal in the order High, Low, Jack, Game: (name, side, card)."""
        trump = self.trump
        assert trump is not None
        dealt_to = {card: seat for seat, hand in enumerate(self.dealt) for card in hand}
        taken_by = {card: side for side, cards in enumerate(self.taken) for card in cards}
        trumps = [card for card in dealt_to if card.suit is trump]
        high = max(trumps, key=lambda card: STRENGTH[card.rank])
        low = min(trumps, key=lambda card: STRENGTH[card.rank])
        out: list[tuple[str, int, Card | None]] = []
        for name, card in (("high", high), ("low", low)):
            if self.options.get("old-high-low"):
                out.append((name, self.side_of[dealt_to[card]], card))
            else:
                out.append((name, taken_by[card], card))
        jack = Card(trump, Rank.JACK)
        if jack in dealt_to:
            out.append(("jack", taken_by[jack], jack))
        values = [game_points(cards) for cards in self.taken]
        best = max(values)
        if values.count(best) == 1:
            out.append(("game", values.index(best), None))
        return out

    def score_deal(self) -> list[Event]:
        awards = self.awards()
        points = [0] * len(self.sides)
        for _, side, _ in awards:
            points[side] += 1
        assert self.pitcher is not None
        pitching = self.side_of[self.pitcher]
        before = self.scores[:]
        changes, made, wins_now = self.deal_changes(points, pitching, before)
        for side, change in enumerate(changes):
            self.scores[side] += change
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "pitcher": self.pitcher,
            "bid": self.high_bid,
            "trump": self.trump.value if self.trump else None,
            "awards": [
                {"point": name, "side": side, "card": card.code if card else None}
                for name, side, card in awards
            ],
            "game_values": [game_points(cards) for cards in self.taken],
            "points": points,
            "made": made,
            "changes": changes,
            "scores": self.scores[:],
        }
        events: list[Event] = [{"type": "deal_scored", **summary}]
        # The view keeps the summary without card names: the next deal is dealt at once, and a
        # public line naming last deal's cards would read like a card now in someone's hand.
        self.last_deal = {
            **summary,
            "awards": [{"point": name, "side": side} for name, side, _ in awards],
        }
        if wins_now:
            outcome: Outcome | None = self.win(pitching, f"{self.side_name(pitching)} made a smudge")
        else:
            outcome = self.check_end(awards, pitching, made, before)
        if outcome is not None:
            self.outcome = outcome
            self.phase = _OVER
            events.append({"type": "game_over", **outcome.to_json()})
            return events
        self.dealer = (self.dealer + 1) % self.players
        self.deal_cards()
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events

    @abstractmethod
    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        """Score changes per side, whether the bid was made, and whether that wins at once."""

    @abstractmethod
    def check_end(
        self,
        awards: list[tuple[str, int, Card | None]],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        """After a deal: the outcome if the game is over (None: deal on)."""

    def win(self, side: int, reason: str) -> Outcome:
        return Outcome((side,), self.sides[side], tuple(self.scores), reason)

    # ----- views ----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        def plays(trick: list[tuple[int, Card]]) -> list[dict[str, Any]]:
            return [{"seat": seat, "card": card.code} for seat, card in trick]

        return {
            **self.header_view(),
            "phase": self.phase,
            "deal": self.deal_no,
            "dealer": self.dealer,
            # Who drew high for the first deal; not the drawn cards, which went back in the pack
            # and would read like cards held in a hand.
            "first_dealer_draws": len(self.first_draw),
            "to_act": list(self.to_act),
            "bids": [{"seat": seat, "amount": amount} for seat, amount in self.bids],
            "high_bid": self.high_bid or None,
            "bid_names": self.bid_names(),
            "pitcher": self.pitcher,
            "trump": self.trump.value if self.trump else None,
            "leader": self.leader if self.phase is _PLAYING else None,
            "trick": plays(self.trick),
            "last_trick": (
                {"plays": plays(self.last_trick[0]), "winner": self.last_trick[1]}
                if self.last_trick
                else None
            ),
            "tricks": [{"plays": plays(t), "winner": w} for t, w in self.tricks],
            "hand_sizes": [len(hand) for hand in self.hands],
            "tricks_won": self.tricks_won[:],
            "scores": self.scores[:],
            "target": self.options["target"],
            "last_deal": self.last_deal,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        return {"hand": [card.code for card in self.hands[seat]]}


@register
class AuctionPitch(PitchBase):
    """Auction pitch (setback), 2-7 players each for themselves."""

    name = "pitch"
    title = "Auction Pitch"
    player_counts = (2, 3, 4, 5, 6, 7)
    default_players = 4
    min_bid = 1
    max_bid = 4
    option_specs = (
        OptionSpec("target", 11, "Points needed to win", (7, 9, 11, 21)),
        OLD_HIGH_LOW,
        OptionSpec("dealer-steal", False, "The dealer alone may equal the highest bid"),
        OptionSpec("smudge", False, "A made bid of 4 wins the game at once (unless below zero)"),
    )
    rules_text = rules_prose("pitch")

    def dealer_may_steal(self) -> bool:
        return bool(self.options["dealer-steal"])

    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        changes = points[:]
        made = points[pitching] >= self.high_bid
        if not made:
            changes[pitching] = -self.high_bid
        smudged = made and self.options["smudge"] and self.high_bid == 4 and before[pitching] >= 0
        return changes, made, smudged

    def check_end(
        self,
        awards: list[tuple[str, int, Card | None]],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        target = self.options["target"]
        reached = [side for side, score in enumerate(self.scores) if score >= target]
        if not reached:
            return None
        if len(reached) == 1:
            return self.win(reached[0], f"{self.side_name(reached[0])} reached {target}")
        if pitching in reached:
            return self.win(pitching, f"the pitcher, {self.side_name(pitching)}, reached {target}")
        running = before[:]
        for name, side, _ in awards:
            if side in reached:
                running[side] += 1
                if running[side] >= target:
                    return self.win(side, f"{self.side_name(side)} reached {target} first ({name})")
        raise AssertionError("a side reached the target without a point that took it there")


SMUDGE = 5


@register
class PartnershipPitch(PitchBase):
    """Partnership pitch by Brian Gordon's rules: four players, partners opposite, game 21."""

    name = "pitch-partnership"
    title = "Partnership Pitch"
    player_counts = (4,)
    default_players = 4
    min_bid = 2
    max_bid = SMUDGE
    option_specs = (
        OptionSpec(
            "target", 21, "Points needed to win (the pitching side must make its bid)", (7, 9, 11, 21)
        ),
        OLD_HIGH_LOW,
    )
    rules_text = rules_prose("pitch-partnership")

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    def bid_names(self) -> dict[str, str]:
        return {str(SMUDGE): "smudge"}

    def dealer_must_bid(self) -> bool:
        return True

    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        changes = points[:]
        if self.high_bid == SMUDGE:
            made = points[pitching] == 4 and self.tricks_won[pitching] == HAND_SIZE
            changes[pitching] = SMUDGE if made else -SMUDGE
        else:
            made = points[pitching] >= self.high_bid
            if not made:
                changes[pitching] = -self.high_bid
        return changes, made, False

    def check_end(
        self,
        awards: list[tuple[str, int, Card | None]],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        target = self.options["target"]
        if made and self.scores[pitching] >= target:
            return self.win(pitching, f"{self.side_name(pitching)} made the bid and reached {target}")
        return None
