"""The persistent components: their custom-id templates are a promise to every message already
posted, so they are pinned here byte for byte, and each extension registers its own items."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.discord_ui import TABLE_ITEMS, ActButton, ActSelect, LobbyButton, SeatButton
from bot.discord_ui.bidding import OtherBidButton
from bot.discord_ui.confirm import AskButton, ConfirmButton
from bot.discord_ui.history import HistoryButton, HistoryReplaySelect, ReplayButton, ReplayDealSelect
from bot.discord_ui.lobby import InviteButton, SeatSelect, SwapButton
from bot.discord_ui.rules import RulesButton
from cogs.admin import ResetButton
from cogs.leaderboard import BoardButton
from tests.discord_ui.helpers import close_bot_state

# Never edit these strings: a changed template leaves the buttons on old messages dead.
TEMPLATES = {
    LobbyButton: r"tn:lobby:(?P<tid>\d+):(?P<op>[a-z-]+)",
    SeatButton: r"tn:(?P<op>hand|back):(?P<tid>\d+)",
    ActButton: r"tn:act:(?P<tid>\d+):(?P<ver>\d+):(?P<action>[a-z0-9 -]+)",
    ActSelect: r"tn:sel:(?P<tid>\d+):(?P<ver>\d+)(?::(?P<group>[a-z]+))?",
    BoardButton: (
        r"tn:lb:(?P<family>[a-z-]*):(?P<league>\d+):(?P<order>[a-z]+):(?P<page>-?\d+):(?P<label>[A-Za-z]+)"
    ),
    ResetButton: r"tn:lbreset:(?P<family>[a-z-]*):(?P<user>\d+)",
    OtherBidButton: r"tn:bidamt:(?P<tid>\d+):(?P<ver>\d+)",
    AskButton: r"tn:ask:(?P<tid>\d+):(?P<ver>\d+):(?P<action>[a-z-]+)",
    ConfirmButton: r"tn:confirm:(?P<tid>\d+):(?P<ver>\d+):(?P<op>[a-z-]+)",
    RulesButton: r"tn:rules:(?P<variant>[a-z0-9-]+):(?P<page>\d+):(?P<label>[a-z]+)",
    HistoryButton: r"tn:hist:(?P<user>\d{1,20}):(?P<page>-?\d{1,6}):(?P<label>[A-Za-z]+)",
    HistoryReplaySelect: r"tn:hist:replay",
    ReplayButton: r"tn:rp:(?P<gid>\d{1,19}):(?P<deal>\d{1,6}):(?P<page>\d{1,4}):(?P<op>prev|next)",
    ReplayDealSelect: r"tn:rpdeal:(?P<gid>\d{1,19})",
    SeatSelect: r"tn:seat:(?P<tid>\d+)",
    InviteButton: r"tn:invite:(?P<tid>\d+):(?P<user>\d+)",
    SwapButton: r"tn:swap:(?P<tid>\d+):(?P<a>\d+):(?P<auser>\d+):(?P<b>\d+):(?P<buser>\d+)",
}


def template_of(item: type[discord.ui.DynamicItem[Any]]) -> str:
    pattern: re.Pattern[str] = item.__discord_ui_compiled_template__
    return pattern.pattern


@pytest.mark.parametrize("item", list(TEMPLATES), ids=lambda item: item.__name__)
def test_every_custom_id_template_is_unchanged(item: type[discord.ui.DynamicItem[Any]]) -> None:
    assert template_of(item) == TEMPLATES[item]


def test_the_table_items_are_the_four_table_components() -> None:
    assert set(TABLE_ITEMS) == {LobbyButton, SeatButton, ActButton, ActSelect}


# What each component writes into its custom id (the other half of the promise).
MADE = [
    (LobbyButton(7, "join"), "tn:lobby:7:join"),
    (LobbyButton(7, "add-basic"), "tn:lobby:7:add-basic"),
    (SeatButton(7, "hand"), "tn:hand:7"),
    (SeatButton(7, "back"), "tn:back:7"),
    (ActButton(7, 12, "play 10H"), "tn:act:7:12:play 10h"),
    (ActButton(7, 12, "bid 3"), "tn:act:7:12:bid 3"),
    (ActSelect(7, 12, ["bid 2", "bid 3"], group="bid"), "tn:sel:7:12:bid"),
    (ActSelect(7, 12), "tn:sel:7:12"),
    (BoardButton("pitch", None, "rating", 1, "Next"), "tn:lb:pitch:0:rating:1:Next"),
    (BoardButton(None, 4, "wins", -1, "Previous"), "tn:lb::4:wins:-1:Previous"),
    (ResetButton("double-deck", 99), "tn:lbreset:double-deck:99"),
    (ResetButton(None, 99), "tn:lbreset::99"),
    (OtherBidButton(7, 12), "tn:bidamt:7:12"),
    (AskButton(7, 12, "declare-out"), "tn:ask:7:12:declare-out"),
    (ConfirmButton(7, 12, "concede"), "tn:confirm:7:12:concede"),
    (ConfirmButton(7, 0, "cancel"), "tn:confirm:7:0:cancel"),
    (RulesButton("double-deck-npa", 2, "next"), "tn:rules:double-deck-npa:2:next"),
    (HistoryButton(2**63, -1, "Previous"), f"tn:hist:{2**63}:-1:Previous"),
    (HistoryReplaySelect([(5, "pitch", 0.0)]), "tn:hist:replay"),
    (ReplayButton(2**63 - 1, 99999, 20, "next"), f"tn:rp:{2**63 - 1}:99999:20:next"),
    (ReplayDealSelect(2**63 - 1), f"tn:rpdeal:{2**63 - 1}"),
    (SeatSelect(7), "tn:seat:7"),
    (InviteButton(2**63 - 1, 2**64 - 1), f"tn:invite:{2**63 - 1}:{2**64 - 1}"),
    (SwapButton(2**63 - 1, 7, 2**64 - 1, 6, 2**64 - 1), f"tn:swap:{2**63 - 1}:7:{2**64 - 1}:6:{2**64 - 1}"),
]


@pytest.mark.parametrize(("item", "custom_id"), MADE, ids=[cid for _, cid in MADE])
def test_components_write_the_custom_ids_their_templates_read(
    item: discord.ui.DynamicItem[Any], custom_id: str
) -> None:
    assert item.custom_id == custom_id
    assert item.template.fullmatch(custom_id)


async def test_each_extension_registers_its_own_persistent_items(simcord_env: Any) -> None:
    env = simcord_env
    try:
        # Extensions are imported afresh when loaded, so compare the registered templates.
        registered = {pattern.pattern for pattern in env.bot._connection._view_store._dynamic_items}
        assert registered == set(TEMPLATES.values())
    finally:
        await close_bot_state(env)
