-- Version 8: duplicate events. Every table of an event plays the event's variant, options and seed
-- (so the same deals in the same seats) and stops after its deals; tables are ranked by comparing
-- each deal's score between them (bot.duplicate).
CREATE TABLE duplicate_events (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,    -- where it was started: its ranking is posted there
    organizer_id       INTEGER NOT NULL,
    variant            TEXT    NOT NULL,
    players            INTEGER NOT NULL,
    options            TEXT    NOT NULL,    -- JSON object: every option resolved, the same at each table
    seed               INTEGER NOT NULL,
    deals              INTEGER NOT NULL,
    created_at         REAL    NOT NULL,
    ended_at           REAL,                -- NULL while tables may still join and play
    ranking_posted_at  REAL                 -- NULL: the final ranking has not reached the channel yet
);
CREATE INDEX duplicate_events_open ON duplicate_events (guild_id) WHERE ended_at IS NULL;
CREATE TABLE duplicate_tables (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    event_id INTEGER NOT NULL REFERENCES duplicate_events (id),
    number   INTEGER NOT NULL,               -- table 1, 2, … of the event
    UNIQUE (event_id, number)
);
