"""Jobs that must run once: ``store.jobs``.

Several processes (or one process and a stale copy of it) may each find the same job due — a
league's final standings to post, a scheduled league's start to announce, a duplicate event's
ranking. Each claims the job before doing it: the first claim wins, the others skip it. A claim
lapses after its ``seconds`` (its holder stopped mid-way), so the job is done later all the same;
``done`` deletes the claim once the job's own record says it is done.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.store.database import Database, Tx


class Jobs:
    """Claims on jobs, by name (e.g. ``"standings:12"``)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, job: str, holder: str, seconds: float = 120.0) -> bool:
        """Whether ``holder`` may do ``job`` now: nobody holds a live claim on it (or ``holder``
        does already). The claim lasts ``seconds``."""
        now = time.time()

        def take(tx: Tx) -> int:
            return tx.change(
                "INSERT INTO job_claims (job, holder, until) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE"
                " SET holder = excluded.holder, until = excluded.until"
                " WHERE job_claims.until < ? OR job_claims.holder = excluded.holder",
                (job, holder, now + seconds, now),
            )

        return await self._db.write(take) == 1

    async def take(
        self, job: str, holder: str, still_due: Callable[[], Awaitable[bool]], seconds: float = 120.0
    ) -> bool:
        """Claim ``job`` and look again whether it is still to do (what was read before the claim
        may be stale: another process may have done it meanwhile). True: do it now, then mark it
        done in its record and call ``done``."""
        if not await self.claim(job, holder, seconds):
            return False
        if await still_due():
            return True
        await self.done(job)
        return False

    async def done(self, job: str) -> None:
        """The job is done (its record says so): its claim goes."""
        await self._db.write(Tx.run, "DELETE FROM job_claims WHERE job = ?", (job,))
