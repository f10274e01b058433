"""Auction pitch (setback) for 2-7 players, each for themselves, with its house rules (off-jack,
jokers, smudge, slam, all four points win) and the presets ``pitch-joker`` (Bicycle's Auction
Pitch with Joker) and ``pitch-smudge`` (Bicycle's Pitch (Smudge)). Spec: ``docs/rules/pitch.md``
and ``docs/rules/pitch-*.md``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from bot.engine.actions import TRUMP_OF, Action, Kind
from bot.engine.cards import Card, Suit
from bot.engine.errors import BadOption
from bot.engine.events import Event, Phase
from bot.engine.game import Outcome, register
from bot.engine.options import OptionSpec
from bot.engine.pitch.base import HAND_SIZE, OLD_HIGH_LOW, Award, PitchBase
from bot.engine.pitch.trumps import TrumpRules
from bot.engine.prose import rules_prose

_TRUMP, _PLAYING = Phase.TRUMP, Phase.PLAY
SLAM = 5
ALL_FOUR = frozenset({"high", "low", "jack", "game"})


@register
class AuctionPitch(PitchBase):
    """Auction pitch (setback), 2-7 players each for themselves."""

    name = "pitch"
    title = "Auction Pitch"
    player_counts = (2, 3, 4, 5, 6, 7)
    default_players = 4
    min_bid = 1
    max_bid = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", 11, "Points needed to win", (7, 9, 10, 11, 21)),
        OLD_HIGH_LOW,
        OptionSpec("dealer-steal", False, "The dealer alone may equal the highest bid"),
        OptionSpec("smudge", False, "A made bid of 4 wins the game at once (unless below zero)"),
        OptionSpec("off-jack", False, "The jack of trump's colour is a trump below the jack, and a point"),
        OptionSpec("jokers", 0, "Jokers in the pack, each a trump and a point", (0, 1, 2)),
        OptionSpec(
            "joker-rank", "auto", "One joker: below the 2 (low) or below the jack (mid); auto: low for "
            "one joker, mid for two", ("auto", "low", "mid"),
        ),
        OptionSpec(
            "joker-lead", "spades", "A joker pitched first: spades are trump, the pitcher names trump, "
            "or it may not be led first", ("spades", "name", "forbidden"),
        ),
        OptionSpec("slam", False, "A bid above 4, slam: every trick and all four points, +5 or -5"),
        OptionSpec("all-four-wins", False, "Whoever takes all four points in a deal wins at once"),
    )  # fmt: skip
    quiet_options: ClassVar[dict[str, Any]] = {
        "off-jack": False,
        "jokers": 0,
        "joker-rank": "auto",
        "joker-lead": "spades",
        "slam": False,
        "all-four-wins": False,
    }
    rules_text = rules_prose("pitch")

    @classmethod
    def trump_rules_for(cls, options: dict[str, Any]) -> TrumpRules:
        jokers = int(options.get("jokers", 0))
        rank = options.get("joker-rank", "auto")
        return TrumpRules(bool(options.get("off-jack")), jokers, jokers == 1 and rank in ("auto", "low"))

    def check_options(self) -> None:
        """The refused combinations of ``docs/rules/pitch-variants.md`` §6 (V1-V7)."""
        o = self.options
        jokers, extra = o["jokers"], o["off-jack"] or o["jokers"] > 0
        if jokers == 0 and (o["joker-rank"] != "auto" or o["joker-lead"] != "spades"):
            name = "joker-rank" if o["joker-rank"] != "auto" else "joker-lead"
            raise BadOption(f"option '{name}={o[name]}' needs jokers in the pack: set jokers=1 or jokers=2")
        if jokers == 2 and o["joker-rank"] == "low":
            raise BadOption(
                "option 'joker-rank=low' is for one joker: two jokers rank High then Low between the "
                "jack and the 10 (use joker-rank=auto or mid)"
            )
        if o["smudge"] and o["slam"]:
            raise BadOption(
                "options 'smudge' and 'slam' give 'smudge' two meanings (a bid of 4 that wins; a bid "
                "to take every trick): choose one"
            )
        if o["smudge"] and o["all-four-wins"]:
            raise BadOption(
                "option 'smudge' does nothing with 'all-four-wins': a made bid of 4 already wins the game"
            )
        if o["slam"] and o["all-four-wins"]:
            raise BadOption(
                "options 'slam' and 'all-four-wins' clash: a pitcher with all four points but not every "
                "trick would fail the slam and win the game at once"
            )
        for name in ("smudge", "slam", "all-four-wins"):
            if o[name] and extra:
                raise BadOption(
                    f"option '{name}' is defined for the four-point game only (all four points): "
                    "not with 'off-jack' or 'jokers'"
                )
        if o["slam"] and o["old-high-low"]:
            raise BadOption(
                "options 'slam' and 'old-high-low' clash: Low would go to the player dealt it, so a "
                "pitcher could take every trick and still miss a point"
            )

    def start(self) -> None:
        options = self.options
        if options["slam"]:
            self.max_bid = SLAM
        else:
            self.max_bid = 4 + int(options["off-jack"]) + int(options["jokers"])
        super().start()

    # ----- the auction ----------------------------------------------------------------------
    def dealer_may_steal(self) -> bool:
        return bool(self.options["dealer-steal"])

    def bid_names(self) -> dict[str, str]:
        return {str(SLAM): "slam"} if self.option("slam") else {}

    # ----- the pitch: a joker led first ---------------------------------------------------------
    def leads(self, hand: list[Card]) -> list[Card]:
        cards = super().leads(hand)
        if self.trump is None and self.option("joker-lead") == "forbidden":
            return [card for card in cards if not card.is_joker]
        return cards

    def explain_lead(self, seat: int, card: Card) -> str:
        return f"A joker may not be pitched: lead another card to set trump, not {card.pretty}."

    def pitched(self, card: Card) -> list[Event]:
        if not card.is_joker:
            return super().pitched(card)
        if self.option("joker-lead") == "name":
            self.phase = _TRUMP  # the pitcher names trump before anyone follows
            return []
        self.set_trump(Suit.SPADES)  # Bicycle: "If the joker is pitched, it is a spade."
        return [{"type": "trump", "suit": Suit.SPADES.value}]

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase is _TRUMP:
            return [TRUMP_OF[suit] for suit in Suit] if seat == self.turn else []
        return super()._legal_actions(seat)

    def _perform(self, seat: int, action: Action) -> list[Event]:
        if self.phase is _TRUMP:
            assert action.suit is not None
            self.set_trump(action.suit)
            self.phase = _PLAYING
            events: list[Event] = [{"type": "trump", "suit": action.suit.value, "seat": seat}]
            return events + self.next_player(seat)
        return super()._perform(seat, action)

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.phase is _TRUMP and seat == self.turn and action.kind is not Kind.TRUMP:
            return "You pitched the joker: name the trump suit (trump S, H, D or C)."
        return super().explain_illegal(seat, action)

    # ----- scoring -----------------------------------------------------------------------------
    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        changes = points[:]
        if self.high_bid == SLAM and self.option("slam"):
            made = points[pitching] == 4 and self.tricks_won[pitching] == HAND_SIZE
            changes[pitching] = SLAM if made else -SLAM
            return changes, made, False
        made = points[pitching] >= self.high_bid
        if not made:
            changes[pitching] = -self.high_bid
        smudged = made and self.options["smudge"] and self.high_bid == 4 and before[pitching] >= 0
        return changes, made, smudged

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
        if self.option("all-four-wins"):
            sides = {side for name, side, _ in awards if name in ALL_FOUR}
            if len(sides) == 1 and {name for name, _, _ in awards} >= ALL_FOUR:
                side = sides.pop()
                return self.win(side, f"{self.side_name(side)} took all four points (a smudge)")
        return super().end_of_deal(awards, points, pitching, made=made, wins_now=wins_now, before=before)

    def check_end(
        self,
        awards: list[Award],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        return self.first_to_target(awards, pitching, before)


def _with_defaults(changed: dict[str, Any]) -> tuple[OptionSpec, ...]:
    return tuple(
        replace(spec, default=changed[spec.name]) if spec.name in changed else spec
        for spec in AuctionPitch.option_specs
    )


@register
class JokerPitch(AuctionPitch):
    """Bicycle's Auction Pitch with Joker: one joker, the lowest trump; five points; game 10."""

    name = "pitch-joker"
    title = "Auction Pitch with Joker"
    option_specs = _with_defaults({"jokers": 1, "old-high-low": True, "target": 10})
    rules_text = rules_prose("pitch-joker")


@register
class SmudgePitch(AuctionPitch):
    """Bicycle's Pitch (Smudge): whoever takes all four points in a deal wins; game 7."""

    name = "pitch-smudge"
    title = "Pitch (Smudge)"
    option_specs = _with_defaults({"all-four-wins": True, "target": 7})
    rules_text = rules_prose("pitch-smudge")
