-- Version 11: the language of a server's public messages (the table, deal and game summaries,
-- league posts). '' follows the server's preferred locale when the bot speaks it, else English;
-- otherwise a language code the bot speaks.
ALTER TABLE guilds ADD COLUMN language TEXT NOT NULL DEFAULT '';
