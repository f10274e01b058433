"""``bot.engine.views``: the public, private and seat views of seeded games (the golden
playthroughs' short games, after every action) conform to their family's ``TypedDict``s, and every
phase in them is a ``Phase`` member."""

from __future__ import annotations

import pytest

from bot.engine import views as vw
from bot.engine.events import Phase
from tests.engine.contract import mismatches
from tests.engine.playthroughs import Playthrough, play, playthroughs

VIEW_TYPES: dict[str, tuple[type, type, type]] = {
    "pitch": (vw.PitchView, vw.PitchPrivate, vw.PitchSeatView),
    "pinochle-2": (vw.TwoHandView, vw.TwoHandPrivate, vw.TwoHandSeatView),
    "pinochle-3": (vw.ThreeHandView, vw.ThreeHandPrivate, vw.ThreeHandSeatView),
    "pinochle-4": (vw.PartnershipView, vw.PartnershipPrivate, vw.PartnershipSeatView),
    "double-deck": (vw.DoubleDeckView, vw.DoubleDeckPrivate, vw.DoubleDeckSeatView),
}


def view_types(variant: str) -> tuple[type, type, type]:
    for prefix in ("pinochle-2", "pinochle-3", "double-deck", "pitch"):
        if variant.startswith(prefix):
            return VIEW_TYPES[prefix]
    return VIEW_TYPES["pinochle-4"]


SHORT = [spec for spec in playthroughs() if ".game." not in spec.file]


@pytest.mark.parametrize("spec", SHORT, ids=[spec.file for spec in SHORT])
def test_views_conform_and_every_phase_is_a_phase(spec: Playthrough) -> None:
    public_tp, private_tp, seat_tp = view_types(spec.variant)
    for game, _seat, _action, _legal, _events in play(spec):
        public = game.public_view()
        assert not mismatches(public, public_tp), mismatches(public, public_tp)
        assert Phase(public["phase"]) is public["phase"]  # a member, not a bare string
        for seat in range(game.players):
            private = game.private_view(seat)
            assert not mismatches(private, private_tp), mismatches(private, private_tp)
            view = game.view(seat)
            assert not mismatches(view, seat_tp), mismatches(view, seat_tp)
