-- Version 5 for PostgreSQL: loose ends are tidied after a restart (as SQLite's 0005).
ALTER TABLE games ADD COLUMN announced_at DOUBLE PRECISION;
UPDATE games SET announced_at = COALESCE(finished_at, updated_at) WHERE status IN ('ended', 'abandoned');
CREATE INDEX games_unannounced ON games (id) WHERE announced_at IS NULL AND status IN ('ended', 'abandoned');
ALTER TABLE games ADD COLUMN ping_message_id BIGINT;
ALTER TABLE leagues ADD COLUMN standings_posted_at DOUBLE PRECISION;
UPDATE leagues SET standings_posted_at = ended_at WHERE ended_at IS NOT NULL;
