-- Version 4: each player's own choices, kept across servers: whether their hand panel shows the
-- cards as a picture or as text, and whether pictures use four suit colours.
CREATE TABLE player_prefs (
    user_id INTEGER PRIMARY KEY,
    card_style TEXT NOT NULL DEFAULT 'pictures' CHECK (card_style IN ('pictures', 'text')),
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    updated_at REAL NOT NULL
);
