"""Whole pinochle games through the Discord layer: two-hand (one person, one computer) and
four-hand partnership (two people, two computers), every human decision made by clicking the
ephemeral controls, with the transcript audit after every step."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

from bot.engine import Card
from tests.discord_ui.helpers import (
    answer_content,
    message_by_id,
    table_of,
    without_past_deal_cards,
)


# ----- the audit -----------------------------------------------------------------------------------
def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except Exception:
        return None


def hidden_cards(bot: Any, channel_id: int) -> set[Card]:
    """Cards in a hand or the stock that no public view field shows (meld shown or laid on the
    table, the turned card, the widow and the trick are public by the rules)."""
    table = bot.tables.table_in(channel_id)
    if table is None or table.game is None:
        return set()
    game = table.game
    secret = {card for hand in game.hands for card in hand}
    secret |= set(getattr(game, "stock", None) or [])
    public = {card for text in _strings(game.public_view()) if (card := _card(text)) is not None}
    return secret - public


def public_text(message: Any) -> str:
    parts = [without_past_deal_cards(message.content or "")]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts.extend(f"{f.name} {f.value}" for f in embed.fields)
        parts.append(embed.footer.text or "" if embed.footer else "")
    parts.extend(attachment.description or "" for attachment in message.attachments)  # alt texts
    return "\n".join(parts)


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(word)}(?![0-9A-Za-z])", text) is not None


def audit(env: Any, channel: Any) -> None:
    """No public message shows a card that is hidden in a hand (or the stock) right now."""
    hidden = hidden_cards(env.bot, channel.id)
    for message in channel.history():
        text = public_text(message)
        leaked = {card.code for card in hidden if _mentions(text, card.pretty) or _mentions(text, card.code)}
        assert not leaked, f"public message shows hidden cards {leaked}: {text!r}"


# ----- driving the controls ------------------------------------------------------------------------
def controls(message: Any) -> tuple[list[str], dict[str, list[str]]]:
    """Enabled action buttons (custom ids) and the selects (custom id → option values)."""
    buttons: list[str] = []
    selects: dict[str, list[str]] = {}
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        for child in children:
            cid = child.get("custom_id", "")
            if child.get("type") == 2 and cid.startswith("tn:act:") and not child.get("disabled"):
                buttons.append(cid)
            elif child.get("type") == 3 and cid.startswith("tn:sel:"):
                selects[cid] = [option["value"] for option in child.get("options", [])]
    return buttons, selects


async def decide(person: Any, shown: Any, stats: dict[str, int]) -> Any:
    """One decision through the controls: lay a meld when offered (so melds go public), otherwise
    pass, otherwise the first enabled button, otherwise the first choice of a menu."""
    buttons, selects = controls(shown)
    assert buttons or selects, shown.content
    for cid in buttons:
        if ":meld " in cid:
            stats["meld"] += 1
            return await person.click(shown, custom_id=cid)
    for cid, values in selects.items():
        melds = [v for v in values if v.startswith("meld ")]
        if melds:
            stats["meld"] += 1
            stats["select"] += 1
            return await person.select(shown, [melds[0]], custom_id=cid)
    if stats.get("want_bid"):
        for cid in buttons:
            if ":bid " in cid:
                stats["want_bid"] = 0
                stats["bid"] += 1
                return await person.click(shown, custom_id=cid)
    for cid in buttons:
        if cid.endswith(":pass"):
            return await person.click(shown, custom_id=cid)
    plain = [cid for cid in buttons if not cid.endswith((":declare-out", ":concede", ":throw-in"))]
    if plain:
        return await person.click(shown, custom_id=plain[0])
    cid, values = next(iter(selects.items()))
    stats["select"] += 1
    return await person.select(shown, [values[0]], custom_id=cid)


async def play_out(
    env: Any, channel: Any, people: dict[int, Any], limit: int = 400, *, bid: bool = False
) -> dict[str, int]:
    table = table_of(env.bot, channel.id)
    stats = {"decisions": 0, "meld": 0, "select": 0, "bid": 0, "want_bid": int(bid)}
    while table.status == "playing":
        audit(env, channel)
        assert table.game is not None
        humans = [s for s in table.game.to_act if table.seats[s] and table.seats[s].is_human]
        if not humans:
            await asyncio.sleep(0.01)  # a computer is still thinking
            continue
        person = people[table.seats[humans[0]].user_id]
        shown = await person.click(message_by_id(channel, table.message_id), label="Show my hand")
        assert shown.ephemeral and "Your turn" in shown.response.content, shown.response.content
        clicked = await decide(person, shown.response, stats)
        assert clicked.acknowledged and clicked.response.ephemeral
        assert clicked.response.id == shown.response.id  # the panel is edited, not a new message
        assert answer_content(env, clicked).startswith("You: "), answer_content(env, clicked)
        stats["decisions"] += 1
        assert stats["decisions"] < limit
    audit(env, channel)
    final = [m for m in channel.history() if "Final scores" in (m.content or "")]
    assert len(final) == 1 and "Game over" in final[0].content
    assert any("Deal 1 —" in (m.content or "") for m in channel.history())
    record = await env.bot.store.games.load(table.id)
    assert record.status == "ended"
    assert len(record.actions) == len(table.game.log)
    return stats


async def open_table(
    env: Any,
    channel: Any,
    host: Any,
    game: str,
    joiners: list[Any],
    computers: int,
    options: str = "match=deal",
) -> Any:
    result = await host.slash(channel, "table new", game=game, options=options)
    assert result.acknowledged and not result.ephemeral, result
    lobby = channel.last_message
    for person in joiners:
        r = await person.click(lobby, label="Join")
        assert r.ephemeral
    for _ in range(computers):
        await host.click(lobby, label="Add computer (easy)")
    r = await host.click(lobby, label="Start")
    assert r.ephemeral
    table = table_of(env.bot, channel.id)
    assert table.status == "playing"
    return table


async def test_full_two_hand_game_through_discord(world: Any) -> None:
    env, channel, alice, _ = world
    table = await open_table(env, channel, alice, "pinochle-2", [], 1)
    assert [s.kind for s in table.seats] == ["human", "computer"]
    stats = await play_out(env, channel, {alice.id: alice})
    assert stats["decisions"] >= 12
    assert "Meld" in public_text(message_by_id(channel, table.message_id))
    embed_text = public_text(message_by_id(channel, table.message_id))
    assert "Scores" in embed_text


async def test_full_four_hand_partnership_game_through_discord(world: Any) -> None:
    env, channel, alice, bob = world
    table = await open_table(env, channel, alice, "pinochle-4", [bob], 2)
    assert [s.kind for s in table.seats] == ["human", "human", "computer", "computer"]
    stats = await play_out(env, channel, {alice.id: alice, bob.id: bob})
    assert stats["decisions"] >= 24
    text = "\n".join(public_text(m) for m in channel.history())
    assert "Meld" in text and "Scores:" in text


async def test_three_hand_bid_through_the_buttons_and_play_out(world: Any) -> None:
    env, channel, alice, _ = world
    await open_table(env, channel, alice, "pinochle-3", [], 2, options="deals=1")
    stats = await play_out(env, channel, {alice.id: alice}, bid=True)
    assert stats["bid"] == 1 and stats["want_bid"] == 0
    text = "\n".join(public_text(m) for m in channel.history())
    assert "Kitty" in text


# ----- /meld --------------------------------------------------------------------------------------
async def test_meld_command_is_private_by_default_and_can_be_shared(world: Any) -> None:
    _env, channel, alice, _ = world
    r = await alice.slash(channel, "meld", game="pinochle-4", trump="H", cards="AH 10H KH QH JH QS JD")
    assert r.ephemeral
    text = r.response.content
    assert "Total: 190" in text and "flush" in text.lower() and "pinochle" in text.lower()
    assert "Q♠ J♦" in text
    before = len(list(channel.history()))
    r = await alice.slash(channel, "meld", game="pinochle-4", trump="S", cards="KS QS QS JD JD", share=True)
    assert not r.ephemeral
    assert len(list(channel.history())) == before + 1
    assert "Total: 340" in channel.last_message.content  # royal marriage 40 + double pinochle 300


async def test_meld_command_refuses_bad_cards_clearly(world: Any) -> None:
    _env, channel, alice, _ = world
    r = await alice.slash(channel, "meld", game="pinochle-2", trump="H", cards="AH ZZ")
    assert r.ephemeral and "could not read" in r.response.content and "ZZ" in r.response.content
    r = await alice.slash(channel, "meld", game="pinochle-2", trump="H", cards="7H")
    assert r.ephemeral and "not in the pinochle-2 pack" in r.response.content
    assert list(channel.history()) == []


async def test_declare_out_button_ends_a_two_hand_match(world: Any) -> None:
    env, channel, alice, _ = world
    table = await open_table(env, channel, alice, "pinochle-2", [], 1, options="match=1000")
    shown = await alice.click(message_by_id(channel, table.message_id), label="Show my hand")
    assert "Declare out" in shown.response.content
    asked = await alice.click(shown.response, label="Declare out…")
    assert asked.ephemeral and asked.response.content.startswith("Declare out with ")
    assert "If you are wrong your side loses the game" in asked.response.content
    assert table.status == "playing"  # nothing happens before the answer
    clicked = await alice.click(asked.response, label="Yes, declare out")
    assert answer_content(env, clicked).startswith("You: Declare out")
    assert table.status == "ended"
    await env.bot.publisher.wait_idle()
    final = [m for m in channel.history() if "Final scores" in (m.content or "")]
    assert len(final) == 1 and "declared out" in final[0].content and "loses" in final[0].content
