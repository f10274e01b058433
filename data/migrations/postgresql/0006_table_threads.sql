-- Version 6 for PostgreSQL: tables in threads (as SQLite's 0006).
ALTER TABLE guilds ADD COLUMN table_threads TEXT NOT NULL DEFAULT 'public'
    CHECK (table_threads IN ('public', 'private', 'off'));
