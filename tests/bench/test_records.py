"""The reference records kept in ``bench/records``: each is a whole ``--record`` of the match its
name gives, so ``bench/duel.py --compare`` can read it against a new run of the same deals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench import duel

RECORDS = duel.ROOT / "bench" / "records"
NAME = re.compile(r"(?P<variant>[a-z0-9-]+)\.seed(?P<seed>\d+)\.jsonl")


def records() -> list[Path]:
    return sorted(RECORDS.glob("*.jsonl"))


def test_there_are_records_and_each_is_named_by_its_match() -> None:
    assert records()
    for path in records():
        assert NAME.fullmatch(path.name), f"{path.name}: expected VARIANT.seedS.jsonl"


@pytest.mark.parametrize("path", records(), ids=lambda path: path.name)
def test_a_record_holds_every_pair_from_0_played_in_every_seating(path: Path) -> None:
    found = NAME.fullmatch(path.name)
    assert found is not None
    pairs = duel.read_record(path)
    assert sorted(pairs) == list(range(len(pairs)))
    match = duel.Match(found["variant"], "hard", "basic")
    seatings = ["".join(roles) for roles in duel.match_seatings(match)]
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            assert [play["roles"] for play in entry["plays"]] == seatings
            assert entry["share"] in (0.0, 0.5, 1.0)
