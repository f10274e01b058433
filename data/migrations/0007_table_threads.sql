-- Version 7: tables in threads.
-- Where /table new opens a table: 'public' (a public thread of its own), 'private' (a private
-- thread its players are added to) or 'off' (the channel itself, one table per channel).
ALTER TABLE guilds ADD COLUMN table_threads TEXT NOT NULL DEFAULT 'public'
    CHECK (table_threads IN ('public', 'private', 'off'));
