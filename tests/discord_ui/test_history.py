"""``/history``, ``/replay`` and the charts of ``/stats`` and the leaderboards, through simcord.

Games are played by computer players through the engine and stored action by action, as the
table manager stores them, so a replay is rebuilt from exactly what the bot keeps.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import render
from bot.ai import decide, make_player
from bot.app import TrickNightBot
from bot.discord_ui import limits
from bot.engine import Game, new_game
from bot.store import SeatResult, Store
from tests.discord_ui.helpers import buttons, close_bot_state, server_admin


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[dict[str, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    other = env.create_guild("Other Club")
    world = {
        "env": env,
        "guild": guild,
        "other": other,
        "channel": guild.create_text_channel("games"),
        "other_channel": other.create_text_channel("games"),
        "people": [guild.add_member(env.create_user(f"p{i}")) for i in range(4)],
    }
    try:
        yield world
    finally:
        await close_bot_state(env)


async def stored_game(
    store: Store, guild_id: int, people: list[Any], variant: str, seed: int, *, actions: int | None = None
) -> tuple[int, Game, list[dict[str, Any]]]:
    """A game played by computers for ``people``'s seats and stored action by action; finished
    (with its result) unless stopped after ``actions``. Also returns each deal as it was played:
    hands when dealt and the tricks' (seat, card) plays."""
    game = new_game(variant, seed=seed)
    seats = [{"kind": "human", "user_id": p.id, "name": p.name} for p in people[: game.players]]
    game_id = await store.games.create(
        guild_id=guild_id, channel_id=1, host_id=people[0].id, variant=variant, family=type(game).family,
        options=dict(game.options), seed=seed, players=game.players, seats=seats, status="playing",
    )  # fmt: skip
    bots = [make_player(type(game).family, "basic", seed + s) for s in range(game.players)]
    deals: list[dict[str, Any]] = []

    def deal_started() -> None:
        hands = [game.private_view(s)["hand"] for s in range(game.players)]
        deals.append({"number": game.public_view()["deal"], "hands": hands, "tricks": [], "plays": []})

    deal_started()
    while not game.is_over and (actions is None or len(game.log) < actions):
        seat = game.to_act[0]
        number = game.public_view()["deal"]
        action = decide(bots[seat], game, seat)
        await store.games.append_action(game_id, len(game.log), seat, str(action))
        for event in game.apply(seat, action):
            if event["type"] == "play":
                deals[-1]["plays"].append((event["seat"], event["card"]))
            elif event["type"] == "trick":
                deals[-1]["tricks"].append(deals[-1]["plays"])
                deals[-1]["plays"] = []
        if not game.is_over and game.public_view()["deal"] != number:
            deal_started()
    if game.outcome is not None:
        scores = game.outcome.scores
        results = [
            SeatResult(seat, seats[seat]["user_id"], game.side_of[seat], scores[game.side_of[seat]],
                       1 if seat in game.outcome.winners else 2)
            for seat in range(game.players)
        ]  # fmt: skip
        await store.results.finish(
            game_id, guild_id=guild_id, family=type(game).family, results=results, rated=True
        )
    return game_id, game, deals


def every_custom_id(message: Any) -> list[str]:
    out = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        out.extend(c["custom_id"] for c in children if "custom_id" in c)
    return out


def page_text(message: Any) -> str:
    return "\n".join(str(embed.to_dict()) for embed in message.embeds) + (message.content or "")


def attachment(message: Any, filename: str) -> Any:
    found = [a for a in message.attachments if a.filename == filename]
    assert len(found) == 1, [a.filename for a in message.attachments]
    return found[0]


def hand_line(name: str, hand: list[str]) -> str:
    return f"**{name}**: {render.pretty_cards(hand)}"


async def test_history_lists_a_finished_game_with_partners_and_result(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    game_id, game, _ = await stored_game(env.bot.store, guild.id, people, "pitch-partnership", seed=5)
    r = await people[1].slash(club["channel"], "history")
    assert r.ephemeral
    text = r.response.embeds[0].description
    assert f"**Game {game_id}** · Partnership Pitch" in text
    assert f"with <@{people[3].id}>" in text and f"against <@{people[0].id}> & <@{people[2].id}>" in text
    won = 1 in [seat for seat in game.outcome.winners if seat == 1]
    assert ("**won**" in text) == won
    assert all(len(cid) <= limits.CUSTOM_ID for cid in every_custom_id(r.response))
    # Someone else's history, shared with the channel.
    r = await people[2].slash(club["channel"], "history", user=people[0].user, share=True)
    assert not r.ephemeral and f"**Game {game_id}**" in r.response.embeds[0].description
    # Another server does not see this server's games.
    outsider = club["other"].add_member(env.create_user("outsider"))
    r = await outsider.slash(club["other_channel"], "history", user=people[0].user)
    assert "No finished games here yet." in r.response.embeds[0].description


async def test_history_pages_and_its_menu_opens_a_replay(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    ids = [(await stored_game(env.bot.store, guild.id, people, "pitch", seed=s))[0] for s in range(7)]
    r = await people[0].slash(club["channel"], "history")
    first = r.response.embeds[0].description
    assert f"**Game {ids[-1]}**" in first and f"**Game {ids[0]}**" not in first
    assert "Page 1 of 2" in r.response.embeds[0].footer.text
    r = await people[0].click(r.response, label="Next")
    assert f"**Game {ids[0]}**" in r.response.embeds[0].description
    r = await people[0].select(r.response, [str(ids[0])], custom_id="tn:hist:replay")
    assert r.ephemeral and f"Replay — game {ids[0]}, Auction Pitch" in page_text(r.response)


async def test_replay_steps_through_each_trick_in_order_and_back(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    game_id, _, deals = await stored_game(env.bot.store, guild.id, people, "pitch", seed=8)
    names = [p.name for p in people]
    r = await people[2].slash(club["channel"], "replay", game=game_id)
    assert r.ephemeral
    message = r.response
    text = page_text(message)
    assert "The hands as they were dealt" in text and "Deal 1" in text
    for seat, hand in enumerate(deals[0]["hands"]):
        assert hand_line(names[seat], hand) in text
    assert not message.attachments  # the hands page is text only
    pages = [message]
    for deal_index, deal in enumerate(deals[:2]):
        for number, plays in enumerate(deal["tricks"], start=1):
            r = await people[2].click(message, label="Next ▶")
            message = r.response
            text = page_text(message)
            said = ", ".join(
                f"{names[s]} {'led ' if n == 0 else ''}{render.pretty(c)}" for n, (s, c) in enumerate(plays)
            )
            assert f"Trick {number} of {len(deal['tricks'])}**: {said}." in text, text
            picture = attachment(message, "trick.png")
            assert picture.description.startswith(
                f"Deal {deal['number']}, trick {number}: {names[plays[0][0]]} led"
            )
            pages.append(message)
        assert "Result" in page_text(message)  # the deal's score on its last page
        if deal_index == 0:
            r = await people[2].click(message, label="Next ▶")
            message = r.response
            assert "The hands as they were dealt" in page_text(message) and "Deal 2" in page_text(message)
            pages.append(message)
    # And back again, page by page.
    for expected in reversed(pages[:-1]):
        r = await people[2].click(message, label="◀ Previous")
        message = r.response
        assert message.embeds[0].description == expected.embeds[0].description
    assert next(b for b in buttons(message) if b["label"] == "◀ Previous").get("disabled")
    # The deal menu jumps to a deal's hands.
    r = await people[2].select(message, [str(deals[2]["number"])], custom_id=f"tn:rpdeal:{game_id}")
    assert "Deal 3" in page_text(r.response) and hand_line(names[0], deals[2]["hands"][0]) in page_text(
        r.response
    )
    assert all(len(cid) <= limits.CUSTOM_ID for cid in every_custom_id(r.response))


async def test_a_game_in_play_replays_only_its_finished_deals(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    names = [p.name for p in people]
    # Still in its first deal: nothing is over, so nothing is shown.
    early, _, _ = await stored_game(env.bot.store, guild.id, people, "pitch", seed=3, actions=10)
    r = await people[0].slash(club["channel"], "replay", game=early)
    assert r.ephemeral and "has no finished deal yet" in r.response.content
    # Deal 1 is over, deal 2 is being played: deal 1 only, never a hand of deal 2.
    game_id, game, deals = await stored_game(env.bot.store, guild.id, people, "pitch", seed=3, actions=40)
    assert game.public_view()["deal"] == 2 and len(deals) == 2
    live = [hand_line(names[s], hand) for s, hand in enumerate(deals[1]["hands"])]
    live_now = [render.pretty_cards(game.private_view(s)["hand"]) for s in range(game.players)]
    r = await people[0].slash(club["channel"], "replay", game=game_id)
    message = r.response
    seen = [page_text(message)]
    while True:
        nxt = next(b for b in buttons(message) if b["label"] == "Next ▶")
        if nxt.get("disabled"):
            break
        message = (await people[0].click(message, label="Next ▶")).response
        seen.append(page_text(message))
    assert len(seen) == 1 + len(deals[0]["tricks"])
    assert all("still being played" in text for text in seen)
    for text in seen:
        assert "Deal 2" not in text
        assert not any(line in text for line in live)
        assert not any(hand in text for hand in live_now)
    for picture in message.attachments:
        assert not any(hand in picture.description for hand in live_now)


async def test_replay_refuses_other_servers_games_and_unknown_numbers(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    game_id, _, _ = await stored_game(env.bot.store, guild.id, people, "pitch", seed=1)
    outsider = club["other"].add_member(env.create_user("outsider"))
    r = await outsider.slash(club["other_channel"], "replay", game=game_id)
    assert r.ephemeral and f"There is no game {game_id} in this server" in r.response.content
    for number in (999_999, -4):
        r = await people[0].slash(club["channel"], "replay", game=number)
        assert r.ephemeral and "game" in r.response.content.lower() and not r.response.embeds


async def test_a_long_deal_replays_inside_discords_limits(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    game_id, _, deals = await stored_game(env.bot.store, guild.id, people, "double-deck", seed=2)
    r = await people[0].slash(club["channel"], "replay", game=game_id, share=True)
    assert not r.ephemeral
    message = r.response
    for _ in range(len(deals[0]["tricks"]) + 1):
        embed = message.embeds[0]
        assert not limits.problems(embed=embed)
        assert all(len(cid) <= limits.CUSTOM_ID for cid in every_custom_id(message))
        message = (await people[1].click(message, label="Next ▶")).response
    assert "Deal 2" in page_text(message)


async def test_stats_carries_a_rating_chart_with_alt_text_and_can_be_shared(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    for seed in range(3):
        await stored_game(env.bot.store, guild.id, people, "pitch", seed=seed)
    r = await people[0].slash(club["channel"], "stats")
    assert r.ephemeral
    chart = attachment(r.response, "chart.png")
    assert chart.description.startswith("Rating — p0, 3 games (")
    assert "Ratings" in page_text(r.response)  # the text stays beside the picture
    r = await people[0].slash(club["channel"], "stats", user=people[1].user, share=True)
    assert not r.ephemeral
    assert attachment(r.response, "chart.png").description.startswith("Rating — ")
    # Someone without a game here gets no chart, and no error.
    newcomer = guild.add_member(env.create_user("newcomer"))
    r = await newcomer.slash(club["channel"], "stats")
    assert not r.response.attachments and "0 games played" in page_text(r.response)


async def test_unrated_games_chart_games_and_wins_over_time(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    store = env.bot.store
    for seed in range(2):
        game_id = await store.games.create(
            guild_id=guild.id, channel_id=1, host_id=people[0].id, variant="pitch", family="pitch",
            options={}, seed=seed, players=2,
            seats=[{"kind": "human", "user_id": people[0].id, "name": "a"}, None],
        )  # fmt: skip
        await store.results.finish(game_id, guild_id=guild.id, family="pitch", rated=False, results=[
            SeatResult(0, people[0].id, 0, 11, 1), SeatResult(1, None, 1, 3, 2),
        ])  # fmt: skip
    r = await people[0].slash(club["channel"], "stats")
    description = attachment(r.response, "chart.png").description
    assert description.startswith("Games and wins — p0, 2 games")
    assert "games from 1 to 2" in description and "wins from 1 to 2" in description


async def test_leaderboard_and_league_standings_come_with_a_card(club: dict[str, Any]) -> None:
    env, guild, people = club["env"], club["guild"], club["people"]
    admin = server_admin(env, guild)
    await admin.slash(club["channel"], "admin league-start", name="Friday")
    await stored_game(env.bot.store, guild.id, people, "pitch", seed=4)
    r = await people[0].slash(club["channel"], "leaderboard show")
    card = attachment(r.response, "standings.png")
    assert card.description.startswith("Leaderboard — All games: 1. p")  # names, not mentions
    assert "<@" in r.response.embeds[0].description  # the text alternative stays
    r = await people[0].slash(club["channel"], "league status")
    assert attachment(r.response, "standings.png").description.startswith("Friday — standings: 1. ")
    assert "standings" in r.response.content
    r = await admin.slash(club["channel"], "admin league-end")
    assert attachment(r.response, "standings.png").description.startswith("Friday — standings: 1. ")


async def test_replay_buttons_keep_working_after_a_restart(simcord_env: Any, settings: Any) -> None:
    env = simcord_env
    guild = env.create_guild("Club")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(env.create_user(f"p{i}")) for i in range(4)]
    game_id, _, deals = await stored_game(env.bot.store, guild.id, people, "pitch", seed=6)
    shared = await people[0].slash(channel, "replay", game=game_id, share=True)
    history = await people[0].slash(channel, "history", share=True)
    await env.bot.tables.shutdown()
    await env.bot.store.close()
    await env.restart_bot(TrickNightBot(settings, min_edit_interval=0.0))
    try:
        r = await people[1].click(shared.response, label="Next ▶")
        leader = people[deals[0]["tricks"][0][0][0]].name
        assert f"Trick 1 of {len(deals[0]['tricks'])}**: {leader} led" in page_text(r.response)
        r = await people[1].select(history.response, [str(game_id)], custom_id="tn:hist:replay")
        assert r.ephemeral and f"Replay — game {game_id}" in page_text(r.response)
    finally:
        await close_bot_state(env)
