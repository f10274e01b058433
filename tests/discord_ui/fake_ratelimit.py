"""Discord's rate limits, roughly, for the fake (``FakeDiscord(rate_limits=True)``): per-route
headers as Discord sends them, and 429s (with ``Via``, or discord.py takes them for a ban)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from aiohttp import web

JSON = {"Content-Type": "application/json"}  # discord.py compares content-type *exactly*


class RateLimiter:
    """Discord's limits, roughly: 5 requests per 5 s per route and channel, 50 per second in all
    (interaction callbacks and webhooks are exempt from the global one). Counts the 429s it gives."""

    ROUTE_LIMIT, ROUTE_WINDOW, GLOBAL_LIMIT = 5, 5.0, 50

    def __init__(self) -> None:
        self.windows: dict[str, tuple[float, int]] = {}
        self.global_window = (0.0, 0)
        self.given_429 = 0
        self.given_global_429 = 0

    @staticmethod
    def bucket(method: str, path: str) -> str | None:
        mt = re.fullmatch(r"/channels/(\d+)/messages(/\d+)?", path)
        if mt is None:
            return None
        kind = "post" if mt.group(2) is None else method.lower()
        return f"{kind}:{mt.group(1)}"

    def check(self, method: str, path: str) -> tuple[dict[str, str], web.Response | None]:
        """Headers for the response, and a 429 to send instead if a limit is exceeded."""
        now = time.monotonic()
        if not path.startswith(("/interactions/", "/webhooks/")):
            start, used = self.global_window
            if now - start >= 1.0:
                start, used = now, 0
            if used >= self.GLOBAL_LIMIT:
                self.given_429 += 1
                self.given_global_429 += 1
                body = {"message": "You are being rate limited.", "retry_after": 1.0 - (now - start),
                        "global": True}  # fmt: skip
                return {}, self._too_many(body, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
            self.global_window = (start, used + 1)
        key = self.bucket(method, path)
        if key is None:
            return {}, None
        start, used = self.windows.get(key, (now, 0))
        if now - start >= self.ROUTE_WINDOW:
            start, used = now, 0
        reset_after = self.ROUTE_WINDOW - (now - start)
        headers = {
            "X-RateLimit-Limit": str(self.ROUTE_LIMIT),
            "X-RateLimit-Remaining": str(max(0, self.ROUTE_LIMIT - used - 1)),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Bucket": key.split(":")[0],
        }
        if used >= self.ROUTE_LIMIT:
            self.given_429 += 1
            body = {"message": "You are being rate limited.", "retry_after": reset_after, "global": False}
            return {}, self._too_many(body, {**headers, "X-RateLimit-Remaining": "0"})
        self.windows[key] = (start, used + 1)
        return headers, None

    @staticmethod
    def _too_many(body: dict[str, Any], headers: dict[str, str]) -> web.Response:
        # discord.py treats a 429 without a Via header as a Cloudflare ban.
        return web.Response(status=429, body=json.dumps(body).encode(),
                            headers={**JSON, **headers, "Via": "1.1 google"})  # fmt: skip
