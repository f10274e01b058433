-- Trick Night schema version 1: settings, games and their action logs, results, ratings.
-- Applied by bot/store.py inside one transaction together with PRAGMA user_version = 1. Every
-- migration file runs that way, so files must not contain BEGIN/COMMIT (nor PRAGMA foreign_keys,
-- which has no effect inside a transaction). Never edit a released migration: add the next file.
-- Times are Unix seconds (REAL), which Discord can render directly as <t:...> timestamps.

-- Marks the file as ours: a database with tables but without this row is someone else's.
CREATE TABLE tricknight_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO tricknight_meta (key, value) VALUES ('application', 'tricknight');

CREATE TABLE guilds (
    guild_id               INTEGER PRIMARY KEY,
    turn_timeout_seconds   INTEGER NOT NULL DEFAULT 300,
    computer_delay_seconds REAL    NOT NULL DEFAULT 1.0,
    rate_computer_games    INTEGER NOT NULL DEFAULT 0,
    updated_at             REAL    NOT NULL
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    family      TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',   -- JSON object of house rules
    seed        INTEGER NOT NULL,
    players     INTEGER NOT NULL,
    seats       TEXT    NOT NULL DEFAULT '[]',   -- JSON list of seat dicts
    message_id  INTEGER,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'playing', 'ended', 'abandoned')),
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    finished_at REAL
);
-- Start-up resume and "is there a table in this channel" only ever look at unfinished games.
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_channel_unfinished ON games (channel_id) WHERE status IN ('lobby', 'playing');

-- The event log: one row per accepted action, replayed from the seed on restart.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

-- One row per seat of a finished game. guild_id/family/variant/finished_at are copied from the
-- game so that leaderboards and /stats read one table through one index, without joins.
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,                        -- NULL for a computer seat
    side        INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    guild_id    INTEGER NOT NULL,
    family      TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- /stats: a player's games in a guild in finishing order; the trailing columns make it covering.
-- Its guild_id prefix also serves the per-guild export and reset.
CREATE INDEX results_player ON results (guild_id, user_id, finished_at, game_id, place, score, variant, family);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    family   TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,                  -- mu - 3 sigma, what the leaderboard sorts by
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, family, user_id)
) WITHOUT ROWID;
-- Leaderboards across every family of a guild group by user; covering, so they never touch the table.
CREATE INDEX ratings_guild_user ON ratings (guild_id, user_id, family, ordinal, games, wins);

-- The rating each game left a player with (and the one it found), for /stats trends.
CREATE TABLE rating_history (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    family         TEXT    NOT NULL,
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL,
    ordinal_before REAL    NOT NULL,
    ordinal        REAL    NOT NULL,
    rated          INTEGER NOT NULL,
    finished_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_player ON rating_history (guild_id, user_id, family, finished_at, game_id);
