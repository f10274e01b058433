-- Version 9: whether /hint may be used at a table (its host can turn hints off). Tables stored
-- before this version keep the default: hints on (league games refuse hints whatever this says).
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1));
