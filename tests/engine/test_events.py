"""``bot.engine.events``: every event of the golden playthroughs conforms to exactly one
``TypedDict`` of its type, every ``EventType`` is met and typed, and phases and event types are
their text."""

from __future__ import annotations

import json
from typing import Any, Literal, get_args, get_type_hints

from bot.engine import events as ev
from bot.engine.events import EVENT_TYPES, EventType, Phase
from tests.engine.contract import mismatches
from tests.engine.playthroughs import HERE, playthroughs


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
