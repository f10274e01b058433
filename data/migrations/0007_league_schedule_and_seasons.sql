-- Version 7: leagues scheduled ahead, announced in a chosen channel when they start and end; seasons.
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

-- Seasons: ratings that start from zero at each season's start, kept beside the all-time ones
-- (which, like every result, stay). One current season per guild at most.
CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    started_at REAL    NOT NULL,
    ended_at   REAL                             -- NULL: the guild's current season
);
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_guild ON seasons (guild_id, started_at);
-- A player's rating, games and wins in one family within one season (like ratings, per season).
CREATE TABLE season_ratings (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    guild_id  INTEGER NOT NULL,
    family    TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    ordinal   REAL    NOT NULL,
    games     INTEGER NOT NULL DEFAULT 0,
    wins      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, family, user_id)
);
CREATE INDEX season_ratings_player ON season_ratings (season_id, user_id, family);
