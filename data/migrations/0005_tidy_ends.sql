-- Version 5: loose ends are tidied after a restart.
-- When a finished (ended or abandoned) game's last line and final table message were shown;
-- NULL: not yet, so start-up shows them. Games that finished before this version count as shown.
ALTER TABLE games ADD COLUMN announced_at REAL;
UPDATE games SET announced_at = COALESCE(finished_at, updated_at) WHERE status IN ('ended', 'abandoned');
CREATE INDEX games_unannounced ON games (id) WHERE announced_at IS NULL AND status IN ('ended', 'abandoned');
-- The table's live "your turn" ping: deleted when the next one is posted or the game ends, also
-- across restarts.
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
-- When a finished league's standings reached its channel; NULL: not yet, so they are posted at
-- the next start (or minute). Leagues that ended before this version count as posted.
ALTER TABLE leagues ADD COLUMN standings_posted_at REAL;
UPDATE leagues SET standings_posted_at = ended_at WHERE ended_at IS NOT NULL;
