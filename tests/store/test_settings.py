"""Guild settings: defaults, updates, checks, and what survives a reopen. (Whether house rules suit a
variant is the table manager's check: tests/test_tables.py.)"""

from __future__ import annotations

import pytest

from bot.store import Store, StoreError, StoreRefusal


async def test_settings_defaults_updates_and_validation(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path, default_computer_delay=1.0) as store:
        settings = await store.settings.get(9)
        assert (settings.turn_timeout_seconds, settings.computer_delay_seconds) == (300, 1.0)
        assert settings.rate_computer_games is False and settings.default_options == {}
        assert settings.table_threads == "public"  # each table in a public thread of its own
        assert settings.language == ""  # the server's preferred locale
        updated = await store.settings.update(
            9,
            turn_timeout_seconds=0,
            computer_delay_seconds=2,
            rate_computer_games=True,
            default_options={"pitch": {"smudge": True, "target": 21}},
            table_threads="private",
            language="ja",
        )
        assert updated.default_options == {"pitch": {"smudge": True, "target": 21}}
        assert updated.computer_delay_seconds == 2.0 and isinstance(updated.computer_delay_seconds, float)
        await store.settings.update(9, computer_delay_seconds=0.25)
        assert (await store.settings.get(8)).turn_timeout_seconds == 300  # other guilds unaffected
        refused = [
            {"turn_timeout_seconds": -1},
            {"turn_timeout_seconds": "300"},
            {"turn_timeout_seconds": True},
            {"turn_timeout_seconds": 10**9},
            {"computer_delay_seconds": float("nan")},
            {"computer_delay_seconds": -0.5},
            {"rate_computer_games": "yes"},
            {"default_options": ["pitch"]},
            {"default_options": {1: {}}},
            {"default_options": {"pitch": ["target", 21]}},
            {"table_threads": "forum"},
            {"table_threads": None},
            {"language": "de"},
            {"language": "JA"},
            {"language": None},
        ]
        for change in refused:
            with pytest.raises(StoreRefusal):
                await store.settings.update(9, **change)
        with pytest.raises(StoreError, match="no guild setting 'colour'"):
            await store.settings.update(9, colour="blue")
        with pytest.raises(StoreError, match="cannot be saved"):
            await store.settings.update(9, default_options={"pitch": {"target": object()}})
    async with await Store.open(path) as store:
        settings = await store.settings.get(9)
        assert settings.to_json() == {
            "guild_id": 9,
            "turn_timeout_seconds": 0,
            "computer_delay_seconds": 0.25,
            "rate_computer_games": True,
            "default_options": {"pitch": {"smudge": True, "target": 21}},
            "table_threads": "private",
            "language": "ja",
        }


async def test_a_guild_without_settings_gets_the_configured_computer_delay(tmp_path):
    async with await Store.open(tmp_path / "t.db", default_computer_delay=0.0) as store:
        assert (await store.settings.get(1)).computer_delay_seconds == 0.0
        changed = await store.settings.update(1, turn_timeout_seconds=60)
        assert (changed.turn_timeout_seconds, changed.computer_delay_seconds) == (60, 0.0)


async def test_the_thread_setting_of_a_guild_that_changed_other_settings_stays_public(tmp_path):
    async with await Store.open(tmp_path / "t.db") as store:
        await store.settings.update(3, turn_timeout_seconds=60)
    async with await Store.open(tmp_path / "t.db") as store:
        assert (await store.settings.get(3)).table_threads == "public"
        assert (await store.settings.update(3, table_threads="off")).table_threads == "off"
