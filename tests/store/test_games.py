"""Games and their action log: create, update, append_action, load, unfinished, in_channel."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Game, new_game
from bot.store import ActionOutOfOrder, GameNotFound, SeatResult, StoreError
from tests.store.helpers import computer, human, play_game
from tests.store.helpers import new_game as store_game


async def test_game_round_trip_and_replay(store):
    engine = new_game("pitch", players=3, seed=99)
    seats = [human(1, "Ann"), computer("basic"), human(2, "Bo")]
    game_id = await store.games.create(
        guild_id=5,
        channel_id=50,
        host_id=1,
        variant="pitch",
        family=engine.family,
        options=dict(engine.options),
        seed=engine.seed,
        players=3,
        seats=seats,
    )
    await store.games.update(game_id, status="playing", message_id=777)
    rng = random.Random(4)
    for idx in range(12):
        seat = engine.to_act[0]
        action = rng.choice(engine.legal_actions(seat))
        engine.apply(seat, action)
        await store.games.append_action(game_id, idx, seat, str(action))
    record = await store.games.load(game_id)
    assert (record.guild_id, record.channel_id, record.host_id, record.message_id) == (5, 50, 1, 777)
    assert record.status == "playing" and record.seats == seats and record.players == 3
    assert record.is_unfinished
    rebuilt = Game.from_json(record.engine_record())
    assert rebuilt.to_json() == engine.to_json()
    assert rebuilt.public_view() == engine.public_view()
    assert json.loads(json.dumps(record.to_json()))["actions"] == [list(a) for a in record.actions]


async def test_update_fields_and_rules(store):
    game_id = await store_game(store, 1, [human(1), None], status="lobby")
    await store.games.update(game_id, seats=[human(1), human(2)], options={"target": 21}, seed=8, players=2)
    record = await store.games.load(game_id)
    assert record.seats == [human(1), human(2)] and record.options == {"target": 21} and record.seed == 8
    await store.games.update(game_id, message_id=5, host_id=2)  # other fields untouched
    record = await store.games.load(game_id)
    assert (record.options, record.message_id, record.host_id) == ({"target": 21}, 5, 2)
    with pytest.raises(StoreError, match="results.finish"):
        await store.games.update(game_id, status="ended")
    with pytest.raises(StoreError, match="status must be"):
        await store.games.update(game_id, status="paused")
    with pytest.raises(StoreError, match="already has a seat"):
        await store.games.update(game_id, seats=[human(1), human(1)])
    with pytest.raises(GameNotFound):
        await store.games.update(999, status="playing")
    await store.games.update(game_id, status="abandoned")
    with pytest.raises(StoreError, match="abandoned"):
        await store.games.update(game_id, status="playing")


async def test_create_validates(store):
    base = {
        "guild_id": 1,
        "channel_id": 2,
        "host_id": 3,
        "variant": "pitch",
        "family": "pitch",
        "options": {},
        "seed": 1,
        "players": 2,
        "seats": [human(1), computer()],
    }
    with pytest.raises(StoreError, match="human seat without an integer user_id"):
        await store.games.create(**{**base, "seats": [{"kind": "human", "user_id": "1"}]})
    with pytest.raises(StoreError, match="options cannot be saved"):
        await store.games.create(**{**base, "options": {"x": object()}})
    with pytest.raises(StoreError, match="seed"):
        await store.games.create(**{**base, "seed": 2**70})
    with pytest.raises(StoreError, match="lobby or playing"):
        await store.games.create(**{**base, "status": "ended"})


async def test_append_action_refuses_double_and_skipped_writes(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    await store.games.append_action(game_id, 0, 0, "bid 2")
    # The same action again (a retry after a commit whose answer was lost): done, nothing doubled.
    await store.games.append_action(game_id, 0, 0, "bid 2")
    assert (await store.games.load(game_id)).actions == [(0, "bid 2")]
    with pytest.raises(ActionOutOfOrder, match="next is number 1, not 0"):
        await store.games.append_action(game_id, 0, 1, "bid 2")
    with pytest.raises(ActionOutOfOrder, match="next is number 1, not 0"):
        await store.games.append_action(game_id, 0, 0, "bid 3")
    with pytest.raises(ActionOutOfOrder):
        await store.games.append_action(game_id, 2, 1, "pass")
    await store.games.append_action(game_id, 1, 1, "pass")
    assert (await store.games.load(game_id)).actions == [(0, "bid 2"), (1, "pass")]
    with pytest.raises(GameNotFound):
        await store.games.append_action(12345, 0, 0, "pass")
    await store.results.finish(
        game_id,
        guild_id=1,
        family="pitch",
        results=[SeatResult(0, 1, 0, 7, 1), SeatResult(1, 2, 1, 3, 2)],
        rated=True,
    )
    with pytest.raises(StoreError, match="ended"):
        await store.games.append_action(game_id, 2, 0, "play 10H")


async def test_unfinished_and_in_channel(store):
    lobby = await store_game(store, 1, [human(1), None], channel_id=10, status="lobby")
    playing = await store_game(store, 1, [human(2), human(3)], channel_id=11)
    await store.games.append_action(playing, 0, 0, "bid 2")
    abandoned = await store_game(store, 1, [human(4), human(5)], channel_id=12)
    await store.games.update(abandoned, status="abandoned")
    ended = await play_game(store, 1, [6, 7], [1, 2])
    unfinished = await store.games.unfinished()
    assert [g.id for g in unfinished] == [lobby, playing]
    assert unfinished[1].actions == [(0, "bid 2")] and unfinished[0].actions == []
    assert (await store.games.in_channel(10)).id == lobby
    assert await store.games.in_channel(12) is None
    assert await store.games.in_channel(999) is None
    assert (await store.games.load(ended)).status == "ended"
    with pytest.raises(GameNotFound):
        await store.games.load(4242)


async def test_a_tables_hint_switch_is_stored_and_defaults_to_on(store):
    game_id = await store_game(store, 1, [human(1), None], status="lobby")
    assert (await store.games.load(game_id)).hints is True
    await store.games.update(game_id, hints=False)
    assert (await store.games.load(game_id)).hints is False
    await store.games.update(game_id, seats=[human(1), human(2)])  # other changes leave it alone
    assert (await store.games.load(game_id)).hints is False
    with pytest.raises(StoreError, match="hints must be True or False"):
        await store.games.update(game_id, hints=1)  # type: ignore[arg-type]
