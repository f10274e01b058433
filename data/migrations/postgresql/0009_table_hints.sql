-- Version 9 for PostgreSQL: whether /hint may be used at a table (as SQLite's 0009).
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1));
