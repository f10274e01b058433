"""Refusals become a sentence for the person, whether raised by a command or reaching the tree."""

from __future__ import annotations

import inspect
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.config import Settings
from bot.discord_ui import REFUSALS, answer_command_error, answers_refusals
from bot.engine import EngineError, IllegalAction
from bot.errors import Refusal
from bot.store import StoreUnavailable
from bot.tables import Seat, Table, TableError


class FakeResponse:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, **kwargs: Any) -> None:
        self.sent.append((text, kwargs))


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, text: str, **kwargs: Any) -> None:
        self.sent.append((text, kwargs))


class FakeTables:
    def __init__(self, table: Table | None) -> None:
        self.table = table

    def table_here(self, channel_id: int | None, *, guild_id: int | None) -> Table | None:
        return self.table if (channel_id, guild_id) == (5, 1) else None


class FakeInteraction:
    """Just what the reply helpers touch: the client's services, the response and the followup."""

    def __init__(self, table: Table | None = None) -> None:
        self.client = SimpleNamespace(tables=FakeTables(table), store=None)
        self.guild_id, self.channel_id = 1, 5
        self.response = FakeResponse()
        self.followup = FakeFollowup()

    def answers(self) -> list[tuple[str, dict[str, Any]]]:
        return self.response.sent + self.followup.sent


def two_seat_table() -> Table:
    seats: list[Seat | None] = [Seat("human", "Ann", 1), Seat("human", "Bob", 2)]
    return Table(3, 1, 5, 1, "pitch", {}, 2, seats)


class Cog:
    @answers_refusals
    async def command(
        self, interaction: Any, players: int | None = None, *, fail: Exception | None = None
    ) -> None:
        if fail is not None:
            raise fail
        await interaction.response.send_message(f"done {players}")


def test_refusals_are_the_bots_own_the_engines_and_a_busy_store() -> None:
    assert (Refusal, EngineError, StoreUnavailable) == REFUSALS
    assert issubclass(TableError, Refusal)
    assert issubclass(IllegalAction, EngineError)


async def test_a_busy_store_is_told_as_try_again_without_the_files_name() -> None:
    interaction = FakeInteraction()
    await Cog().command(interaction, 2, fail=StoreUnavailable("the database /srv/tn.db is locked", "locked"))
    [(text, kwargs)] = interaction.answers()
    assert "busy" in text and "Try again" in text and "nothing was changed" in text
    assert "/srv" not in text and kwargs == {"ephemeral": True}


@pytest.mark.parametrize(
    "error", [Refusal("Not now."), TableError("Not now."), IllegalAction("Not now.")], ids=type
)
async def test_a_refused_command_answers_with_the_sentence_only_to_the_person(error: Exception) -> None:
    interaction = FakeInteraction()
    await Cog().command(interaction, 2, fail=error)
    assert interaction.answers() == [("Not now.", {"ephemeral": True})]


async def test_a_refusal_names_the_players_of_this_channels_table() -> None:
    interaction = FakeInteraction(two_seat_table())
    await Cog().command(interaction, fail=TableError("It is seat 2's turn, not seat 1's."))
    assert interaction.answers() == [("It is Bob's turn, not Ann's.", {"ephemeral": True})]


async def test_an_accepted_command_runs_and_anything_unexpected_reaches_the_tree() -> None:
    interaction = FakeInteraction()
    await Cog().command(interaction, 4)
    assert interaction.answers() == [("done 4", {})]
    with pytest.raises(KeyError):
        await Cog().command(FakeInteraction(), fail=KeyError("bug"))


def test_the_decorated_command_keeps_its_resolved_signature_for_discord() -> None:
    parameters = inspect.signature(Cog.command).parameters
    assert list(parameters) == ["self", "interaction", "players", "fail"]
    assert parameters["players"].annotation == int | None  # resolved, not the string "int | None"


def invoke_error(original: Exception) -> app_commands.CommandInvokeError:
    return app_commands.CommandInvokeError(SimpleNamespace(name="table"), original)


@pytest.mark.parametrize(
    ("error", "answer"),
    [
        (invoke_error(Refusal("You need the Manage Server permission for that.")),
         "You need the Manage Server permission for that."),
        (invoke_error(IllegalAction("Bidding is under way.")), "Bidding is under way."),
        (app_commands.NoPrivateMessage(), "Tables live in server channels: use this command in a server."),
        (app_commands.MissingPermissions(["manage_guild"]),
         "You need the Manage Server permission for that."),
    ],
    ids=["refusal", "engine", "no-dm", "permissions"],
)  # fmt: skip
async def test_the_tree_answers_refusals_and_missing_rights(
    error: app_commands.AppCommandError, answer: str
) -> None:
    interaction = FakeInteraction()
    await answer_command_error(interaction, error)
    assert interaction.answers() == [(answer, {"ephemeral": True})]


async def test_the_tree_logs_and_answers_anything_else(caplog: pytest.LogCaptureFixture) -> None:
    interaction = FakeInteraction()
    interaction.response.sent.append(("deferred", {}))  # already answered: the reply is a followup
    with caplog.at_level(logging.ERROR):
        await answer_command_error(interaction, invoke_error(RuntimeError("bug")))
    assert interaction.followup.sent == [
        ("Something went wrong on our side; nothing was changed.", {"ephemeral": True})
    ]
    assert any(r.getMessage() == "command failed" for r in caplog.records)
    caplog.clear()  # the error log is this test's expectation, not a failure of the layer


def test_the_bot_registers_the_tree_error_handler(tmp_path: Any) -> None:
    from bot.app import TrickNightBot

    settings = Settings(token=None, database=tmp_path / "x.db", computer_delay=0.0, shard_count=1)
    assert TrickNightBot(settings).tree.on_error is answer_command_error
