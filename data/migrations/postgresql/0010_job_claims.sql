-- Version 10 for PostgreSQL: claims on the jobs that must run once (as SQLite's 0010).
CREATE TABLE job_claims (
    job    TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  DOUBLE PRECISION NOT NULL
);
