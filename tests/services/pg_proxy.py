"""A TCP proxy between the store and a real PostgreSQL server, for fault tests.

It forwards bytes both ways on 127.0.0.1 and, on command, does what a network or a server does
to a connection: ``cut()`` drops every open connection at once (a server restart, a network
break in the middle of a transaction), ``refuse()`` / ``accept()`` turn new connections away (a
server down or restarting), and ``lose_next_commit_reply()`` lets the next COMMIT of a write group
reach the server and then drops the connection before its answer comes back (the commit happened;
the client cannot know). Runs on the test's event loop; the store's threads connect through it.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class PostgresProxy:
    """``await PostgresProxy.start(url)``; ``proxy.url`` is ``url`` through the proxy."""

    def __init__(self, target_host: str, target_port: int, url: str) -> None:
        self.target_host, self.target_port, self.target_url = target_host, target_port, url
        self.server: asyncio.Server | None = None
        self.port = 0
        self.refusing = False
        self.commits_to_lose = 0
        self.lost_commit_replies = 0
        self.cuts = 0
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    async def start(cls, url: str) -> PostgresProxy:
        parts = urlsplit(url)
        proxy = cls(parts.hostname or "127.0.0.1", parts.port or 5432, url)
        proxy.server = await asyncio.start_server(proxy._accept, "127.0.0.1", 0)
        proxy.port = proxy.server.sockets[0].getsockname()[1]
        return proxy

    @property
    def url(self) -> str:
        parts = urlsplit(self.target_url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit((parts.scheme, f"{user}127.0.0.1:{self.port}", parts.path, parts.query, ""))

    def refuse(self) -> None:
        """Turn new connections away (they are closed at once)."""
        self.refusing = True

    def accept(self) -> None:
        self.refusing = False

    def cut(self) -> None:
        """Drop every open connection, both ways, now."""
        self.cuts += 1
        for client, server in list(self._links):
            client.transport.abort()
            server.transport.abort()
        self._links.clear()

    def lose_next_commit_reply(self) -> None:
        """The next COMMIT of a write group reaches the server; its answer never comes back."""
        self.commits_to_lose += 1

    async def stop(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            client_writer.transport.abort()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            client_writer.transport.abort()
            return
        link = (client_writer, server_writer)
        self._links.add(link)
        state = {"writing": False, "cut_reply": False}
        upstream = asyncio.create_task(self._pipe_up(client_reader, server_writer, link, state))
        downstream = asyncio.create_task(self._pipe_down(server_reader, client_writer, link, state))
        for task in (upstream, downstream):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe_up(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        link: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        state: dict[str, bool],
    ) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                # A write group writes its commit key just before COMMIT (bot/store/postgresql.py).
                if b"store_commits" in data:
                    state["writing"] = True
                if state["writing"] and b"COMMIT" in data and self.commits_to_lose:
                    self.commits_to_lose -= 1
                    state["cut_reply"] = True
                writer.write(data)
                await writer.drain()
                if b"COMMIT" in data:
                    state["writing"] = False
        self._close(link)

    async def _pipe_down(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        link: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        state: dict[str, bool],
    ) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                if state["cut_reply"]:
                    self.lost_commit_replies += 1
                    self._close(link, abort=True)  # the server committed; the answer is lost
                    return
                writer.write(data)
                await writer.drain()
        self._close(link)

    def _close(self, link: tuple[asyncio.StreamWriter, asyncio.StreamWriter], *, abort: bool = False) -> None:
        self._links.discard(link)
        for end in link:
            if abort:
                end.transport.abort()
            else:
                with contextlib.suppress(OSError, RuntimeError):
                    end.close()
