-- Version 3 for PostgreSQL: where a league was started (as SQLite's 0003).
ALTER TABLE leagues ADD COLUMN channel_id BIGINT;
