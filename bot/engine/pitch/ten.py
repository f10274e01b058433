"""Ten-point pitch (``pitch-10``): partnerships of two (4 or 6 players), 54 cards with a High and a
Low Joker, the off-jack, a widow for the pitcher, trump named, everyone discarding to six, and ten
points a deal (the Three of trump worth 3). Spec: ``docs/rules/pitch-10-point.md``."""

from __future__ import annotations

from typing import Any

from bot.engine.actions import TRUMP_OF, Action, Kind, card_action
from bot.engine.cards import Card, Rank, Suit
from bot.engine.events import Event, Phase
from bot.engine.game import Outcome, register
from bot.engine.options import OptionSpec
from bot.engine.pitch.base import DEAL_LIMIT, FLOOR, HAND_SIZE, Award, PitchBase
from bot.engine.pitch.trumps import TrumpRules
from bot.engine.prose import rules_prose

_TRUMP, _DISCARD, _PLAYING = Phase.TRUMP, Phase.DISCARD, Phase.PLAY
KEEP_FROM = 2 * HAND_SIZE
"""A seat holding more cards than this chooses the cards it keeps (else those it discards): the
pitcher's 27 or 14 cards, against the others' 9 or 8 — the fewer clicks either way."""


@register
class TenPointPitch(PitchBase):
    """Ten-point pitch: two or three partnerships of two, widow to the pitcher, ten points a deal."""

    name = "pitch-10"
    title = "Ten-Point Pitch"
    player_counts = (4, 6)
    default_players = 4
    option_specs = (
        OptionSpec("target", 52, "Points needed to win", (52, 31)),
        OptionSpec("three", True, "The 3 of trump is worth 3 (10 points a deal; off: 7)"),
        OptionSpec("moon", True, "The top bid is 'shoot the moon': take every point to win the game"),
        OptionSpec(
            "end", "first", "Who wins at the target: the first side to reach it, or only a pitching "
            "side that made its bid", ("first", "bid-out"),
        ),
        OptionSpec(
            "old-high-low", True, "Low goes to the side of the player who played it (off: who takes it)"
        ),
        OptionSpec("dealer-steal", False, "The dealer alone may equal the highest bid"),
        FLOOR,
        DEAL_LIMIT,
    )  # fmt: skip
    rules_text = rules_prose("pitch-10")
    first_lead_trump = True

    @classmethod
    def trump_rules_for(cls, options: dict[str, Any]) -> TrumpRules:
        return TrumpRules(off_jack=True, jokers=2, joker_low=False)

    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        half = self.players // 2
        return tuple((seat, seat + half) for seat in range(half))

    def start(self) -> None:
        self.points_a_deal = 10 if self.options["three"] else 7
        self.min_bid = 4 if self.options["three"] else 3
        self.max_bid = self.points_a_deal
        super().start()

    def packets(self) -> tuple[int, ...]:
        return (3, 3, 3) if self.players == 4 else (3, 3, 2)

    def deal_cards(self) -> None:
        super().deal_cards()
        self.discards: list[list[Card]] = [[] for _ in range(self.players)]
        self.kept: list[Card] = []
        self.widow_taken = False

    # ----- the auction ----------------------------------------------------------------------
    def dealer_must_bid(self) -> bool:
        return True

    def dealer_may_steal(self) -> bool:
        return bool(self.options["dealer-steal"])

    def bid_names(self) -> dict[str, str]:
        return {str(self.max_bid): "shoot the moon"} if self.options["moon"] else {}

    def moon_bid(self) -> bool:
        return bool(self.options["moon"]) and self.high_bid == self.max_bid

    def auction_over(self) -> list[Event]:
        """The pitcher takes the widow (unseen by the others), then names trump."""
        assert self.pitcher is not None
        widow, self.undealt = self.undealt, []
        self.hands[self.pitcher] = self.sort_cards(self.hands[self.pitcher] + widow)
        self.widow_taken = True
        self.phase = _TRUMP
        self.turn = self.pitcher
        return [{"type": "widow_taken", "seat": self.pitcher, "count": len(widow)}]

    # ----- trump and the discard ------------------------------------------------------------------
    def point_cards(self) -> set[Card]:
        """The cards nobody may discard: jack, off-jack, both jokers (and the Three)."""
        trumps = self.trumps
        assert trumps is not None
        cards = {Card(trumps.suit, Rank.JACK), *trumps.jokers}
        if trumps.off_jack is not None:
            cards.add(trumps.off_jack)
        if self.options["three"]:
            cards.add(Card(trumps.suit, Rank.THREE))
        return cards

    def keeping(self, seat: int) -> bool:
        """Whether ``seat`` chooses the cards it keeps (rather than those it discards)."""
        return len(self.hands[seat]) > KEEP_FROM or bool(self.kept)

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        if self.phase is _TRUMP:
            return [TRUMP_OF[suit] for suit in Suit]
        if self.phase is _DISCARD:
            points = self.point_cards()
            kind = Kind.KEEP if self.keeping(seat) else Kind.DISCARD
            return [
                card_action(kind, card)
                for card in dict.fromkeys(self.hands[seat])
                if card not in points and card not in self.kept
            ]
        return super()._legal_actions(seat)

    def leads(self, hand: list[Card]) -> list[Card]:
        cards = super().leads(hand)
        if not self.tricks and self.trumps is not None:  # the pitch: a trump if the pitcher holds one
            trumps = [card for card in cards if card in self.trumps.power]
            return trumps or cards
        return cards

    def explain_lead(self, seat: int, card: Card) -> str:
        return f"The first lead must be a trump while you hold one, not {card.pretty}."

    def explain_illegal(self, seat: int, action: Action) -> str:
        if seat == self.turn and self.phase is _TRUMP:
            return "You took the widow: name the trump suit (trump S, H, D or C)."
        if seat == self.turn and self.phase is _DISCARD:
            hand = self.hands[seat]
            if action.kind not in (Kind.KEEP, Kind.DISCARD) or not action.cards:
                return self.discard_prompt(seat)
            card = action.card
            if card not in hand:
                return f"You do not hold {card.pretty}."
            if card in self.point_cards():
                return f"{card.pretty} is a point card: point cards are always kept."
            if card in self.kept:
                return f"You already keep {card.pretty}."
            return self.discard_prompt(seat)
        return super().explain_illegal(seat, action)

    def discard_prompt(self, seat: int) -> str:
        if self.keeping(seat):
            left = HAND_SIZE - len(self.kept) - self.points_held(seat)
            return f"Choose the cards you keep (keep AH): {left} more besides your point cards."
        return f"Discard down to six (discard 9C): {len(self.hands[seat]) - HAND_SIZE} more."

    def points_held(self, seat: int) -> int:
        points = self.point_cards()
        return sum(1 for card in self.hands[seat] if card in points)

    def _perform(self, seat: int, action: Action) -> list[Event]:
        if self.phase is _TRUMP:
            assert action.suit is not None
            self.set_trump(action.suit)
            self.phase = _DISCARD
            self.turn = (self.dealer + 1) % self.players
            return [{"type": "trump", "suit": action.suit.value, "seat": seat}]
        if self.phase is _DISCARD:
            return self.discard(seat, action)
        return self.take_bid(seat, action)

    def discard(self, seat: int, action: Action) -> list[Event]:
        hand = self.hands[seat]
        card = action.card
        if action.kind is Kind.KEEP:
            self.kept.append(card)
            events: list[Event] = [{"type": "keep", "seat": seat, "count": len(self.kept)}]
            if len(self.kept) + self.points_held(seat) < HAND_SIZE:
                return events
            keep = set(self.kept) | self.point_cards()
            self.discards[seat] += [c for c in hand if c not in keep]
            self.hands[seat] = [c for c in hand if c in keep]
            self.kept = []
        else:
            hand.remove(card)
            self.discards[seat].append(card)
            events = []
            if len(hand) > HAND_SIZE:
                return [{"type": "discard", "seat": seat, "count": len(self.discards[seat])}]
        events.append({"type": "discard", "seat": seat, "count": len(self.discards[seat])})
        self.turn = (seat + 1) % self.players
        if self.turn == (self.dealer + 1) % self.players:  # everyone holds six: the pitcher leads
            assert self.pitcher is not None
            self.phase = _PLAYING
            self.turn = self.leader = self.pitcher
        return events

    # ----- scoring -----------------------------------------------------------------------------
    def played_by(self) -> dict[Card, int]:
        return {card: seat for plays, _ in self.tricks for seat, card in plays}

    def three_counts(self) -> bool:
        return bool(self.options["three"])

    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        changes = points[:]
        if self.moon_bid():
            made = points[pitching] == self.points_a_deal
            if not made:
                changes[pitching] = -self.high_bid
                return changes, False, False
            if before[pitching] >= 0:  # the moon wins at once; the score shows at least the target
                changes[pitching] = max(before[pitching] + points[pitching], self.options["target"])
                changes[pitching] -= before[pitching]
                return changes, True, True
            changes[pitching] = max(0, before[pitching] + points[pitching]) - before[pitching]
            return changes, True, False
        made = points[pitching] >= self.high_bid
        if not made:
            changes[pitching] = -self.high_bid
        return changes, made, False

    def end_of_deal(
        self,
        awards: list[Award],
        points: list[int],
        pitching: int,
        *,
        made: bool,
        wins_now: bool,
        before: list[int],
    ) -> Outcome | None:
        if wins_now:
            return self.win(pitching, f"{self.side_name(pitching)} shot the moon")
        if self.moon_bid() and not made:
            assert self.pitcher is not None
            # The others, the first clockwise from the pitcher first among equals.
            order = [self.side_of[(self.pitcher + k) % self.players] for k in range(1, self.players)]
            others = list(dict.fromkeys(side for side in order if side != pitching))
            best = max(others, key=lambda side: self.scores[side])  # max keeps the first of equals
            return self.win(best, f"{self.side_name(pitching)} missed the moon")
        return self.check_end(awards, pitching, made, before)

    def check_end(
        self,
        awards: list[Award],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        if self.options["end"] == "bid-out":
            return self.bid_out(pitching, made)
        # Scores can sink for ever under first-to-target too (weak sides, old-high-low): the
        # same safety valve ends such a game.
        return self.first_to_target(awards, pitching, before) or self.safety_valve()

    # ----- views ----------------------------------------------------------------------------
    def more_public(self) -> dict[str, Any]:
        return {"widow_size": len(self.undealt)}

    def private_view(self, seat: int) -> dict[str, Any]:
        view = super().private_view(seat)
        if seat == self.turn and self.phase is _DISCARD and self.keeping(seat):
            view["kept"] = [card.code for card in self.kept]
        if self.discards[seat]:
            view["discarded"] = [card.code for card in self.discards[seat]]
        return view
