-- Version 8: leagues scheduled ahead, announced in a chosen channel when they start and end.
-- A guild may now hold several leagues that have not ended (the running one and scheduled ones);
-- Leagues.start keeps them from overlapping in time, inside its write transaction.
DROP INDEX leagues_running;
CREATE INDEX leagues_open ON leagues (guild_id, started_at) WHERE ended_at IS NULL;
-- When the league's start was announced in its channel; NULL: not yet, so the league clock posts
-- it (also after a restart). Leagues of earlier versions count as announced.
ALTER TABLE leagues ADD COLUMN start_announced_at REAL;
UPDATE leagues SET start_announced_at = started_at;
-- Each guild's timezone for the times people type ('Europe/Berlin', 'UTC+2'); none: UTC.
CREATE TABLE guild_timezones (
    guild_id   INTEGER PRIMARY KEY,
    timezone   TEXT NOT NULL,
    updated_at REAL NOT NULL
);
