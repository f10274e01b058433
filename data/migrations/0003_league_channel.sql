-- Version 3: remember where a league was started, so the standings of a league that ends at its
-- planned time can be posted there.
ALTER TABLE leagues ADD COLUMN channel_id INTEGER;
