-- Version 10: claims on the jobs that must run once even where several processes could run them
-- (a league's final standings, a scheduled league's start, a duplicate event's ranking): whoever
-- claims a job first does it; a claim lapses at ``until`` (its holder stopped before finishing),
-- after which the job can be claimed again. Done jobs' claims are deleted.
CREATE TABLE job_claims (
    job    TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  REAL NOT NULL
);
