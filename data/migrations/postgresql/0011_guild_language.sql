-- Version 11 for PostgreSQL: the language of a server's public messages (as SQLite's 0011).
ALTER TABLE guilds ADD COLUMN language TEXT NOT NULL DEFAULT '';
