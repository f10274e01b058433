"""Partnership pitch by Brian Gordon's rules (spec: ``docs/rules/pitch.md``), with a safety valve
so that a game between weak sides ends."""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.game import Outcome, register
from bot.engine.options import OptionSpec
from bot.engine.pitch.base import DEAL_LIMIT, FLOOR, HAND_SIZE, OLD_HIGH_LOW, Award, PitchBase
from bot.engine.prose import rules_prose

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
        FLOOR,
        DEAL_LIMIT,
    )
    quiet_options: ClassVar[dict[str, Any]] = {FLOOR.name: FLOOR.default, DEAL_LIMIT.name: DEAL_LIMIT.default}
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
        awards: list[Award],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        return self.bid_out(pitching, made)
