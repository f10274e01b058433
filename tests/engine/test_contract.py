"""The typed engine contract matches what the engine hands out: every event of the golden
playthroughs conforms to its ``TypedDict`` (``bot.engine.events``), every event type is met, every
phase is a ``Phase``, and the views of seeded games conform to ``bot.engine.views``."""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from bot.engine import events as ev
from bot.engine import views as vw
from bot.engine.events import EVENT_TYPES, EventType, Phase
from tests.engine.playthroughs import HERE, Playthrough, play, playthroughs


def mismatches(value: Any, tp: Any, path: str = "") -> list[str]:
    """Where ``value`` (parsed JSON or a view) does not conform to the type ``tp`` (empty: it does)."""
    if tp is Any:
        return []
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a {tp.__name__}"]
        hints = get_type_hints(tp)
        keys = set(value)
        out = [f"{path}.{key}: missing" for key in tp.__required_keys__ - keys]
        out += [f"{path}.{key}: not a key of {tp.__name__}" for key in keys - set(hints)]
        for key in keys & set(hints):
            out += mismatches(value[key], hints[key], f"{path}.{key}")
        return out
    origin = get_origin(tp)
    if origin is typing.NotRequired:
        return mismatches(value, get_args(tp)[0], path)
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{path}: {value!r} is not one of {get_args(tp)}"]
    if origin in (types.UnionType, typing.Union):
        tried = [mismatches(value, arg, path) for arg in get_args(tp)]
        return [] if any(not found for found in tried) else min(tried, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        (item,) = get_args(tp)
        return [found for i, x in enumerate(value) for found in mismatches(x, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict"]
        key_tp, value_tp = get_args(tp)
        return [
            found
            for k, x in value.items()
            for found in (*mismatches(k, key_tp, path), *mismatches(x, value_tp, f"{path}[{k!r}]"))
        ]
    if tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if tp is int and isinstance(value, bool):
        return [f"{path}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, tp) else [f"{path}: {value!r} is not a {tp.__name__}"]


def golden_events() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for spec in playthroughs():
        for line in (HERE / spec.file).read_text(encoding="utf-8").splitlines():
            parts = line.split(" | ")
            if len(parts) == 5 and parts[0].isdigit():
                out += [(spec.file, event) for event in json.loads(parts[3])]
    return out


EVENTS = golden_events()


def test_every_golden_event_conforms_to_exactly_one_typed_dict_of_its_type() -> None:
    for file, event in EVENTS:
        kinds = EVENT_TYPES[EventType(event["type"])]
        fits = [kind.__name__ for kind in kinds if not mismatches(event, kind)]
        assert len(fits) == 1, (file, event, {kind.__name__: mismatches(event, kind) for kind in kinds})


def test_every_event_type_is_met_in_the_playthroughs_and_typed() -> None:
    assert {EventType(event["type"]) for _, event in EVENTS} == set(EventType)
    assert set(EVENT_TYPES) == set(EventType)
    typed = {kind for kinds in EVENT_TYPES.values() for kind in kinds}
    assert typed == set(get_args(ev.AnyEvent))
    for kind_type, kinds in EVENT_TYPES.items():
        for kind in kinds:
            assert get_type_hints(kind)["type"] == Literal[kind_type.value], kind


def test_event_types_and_phases_are_their_text() -> None:
    assert json.dumps([Phase.PLAY, EventType.GAME_OVER]) == '["play", "game_over"]'
    assert {"bidding": 1}[Phase.BIDDING] == 1 and hash(EventType.PLAY) == hash("play")
    assert str(Phase.OVER) == "over" and f"{EventType.TRICK}" == "trick"


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
