-- Version 4 for PostgreSQL: each player's own choices (as SQLite's 0004).
CREATE TABLE player_prefs (
    user_id     BIGINT PRIMARY KEY,
    card_style  TEXT    NOT NULL DEFAULT 'pictures' CHECK (card_style IN ('pictures', 'text')),
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    updated_at  DOUBLE PRECISION NOT NULL
);
