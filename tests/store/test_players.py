"""Players' own choices: defaults, changes, refusals, and what survives a reopen."""

from __future__ import annotations

import pytest

from bot.store import PlayerPrefs, Store, StoreRefusal
from tests.store.helpers import sql


async def test_player_prefs_default_change_and_survive_a_reopen(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        assert await store.players.prefs(7) == PlayerPrefs(7, "pictures", False)
        assert (await store.players.prefs(7)).pictures
        changed = await store.players.update(7, card_style="text")
        assert changed == PlayerPrefs(7, "text", False) and not changed.pictures
        assert await store.players.update(7, four_colour=True) == PlayerPrefs(7, "text", True)
        with pytest.raises(StoreRefusal, match="pictures or text"):
            await store.players.update(7, card_style="emoji")
        assert await store.players.prefs(7) == PlayerPrefs(7, "text", True)
        assert await store.players.prefs(8) == PlayerPrefs(8)  # others keep the defaults
    assert sql(path, "SELECT user_id, card_style, four_colour FROM player_prefs") == [(7, "text", 1)]
    async with await Store.open(path) as store:
        assert await store.players.prefs(7) == PlayerPrefs(7, "text", True)
