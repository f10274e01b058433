-- Trick Night schema version 2: league nights and per-guild default house rules.

CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    family     TEXT,                            -- NULL: every game family counts
    started_at REAL    NOT NULL,
    ends_at    REAL,                            -- planned end, NULL: until ended by hand
    ended_at   REAL                             -- NULL while the league runs
);
-- At most one running league per guild, enforced by the database itself.
CREATE UNIQUE INDEX leagues_running ON leagues (guild_id) WHERE ended_at IS NULL;
CREATE INDEX leagues_guild ON leagues (guild_id, started_at);

-- A game is credited to the league running when it finishes; the id is copied onto its results.
ALTER TABLE games ADD COLUMN league_id INTEGER REFERENCES leagues (id);
ALTER TABLE results ADD COLUMN league_id INTEGER REFERENCES leagues (id);
-- Standings and league leaderboards; the trailing columns make it covering.
CREATE INDEX results_league ON results (league_id, user_id, place, score, guild_id, family)
    WHERE league_id IS NOT NULL;

-- JSON object: variant name -> {option: value}, the house rules new tables start with.
ALTER TABLE guilds ADD COLUMN default_options TEXT NOT NULL DEFAULT '{}';
