"""Test only: a bot run as its own process talks to the loopback fake of Discord.

Python imports ``sitecustomize`` from ``sys.path`` at start-up, so a process started with this
folder on ``PYTHONPATH`` and ``TRICKNIGHT_TEST_DISCORD=http://127.0.0.1:PORT`` sends discord.py's
REST calls and gateway connection to ``tests/discord_ui/fake_discord.py`` served at that address
(what ``FakeDiscord.start`` does inside one process). Nothing of the bot itself is changed, so the
same works for an installed ``tricknight``.
"""

import os

_URL = os.environ.get("TRICKNIGHT_TEST_DISCORD", "").rstrip("/")
if _URL:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{_URL}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + _URL.removeprefix("http") + "/")
