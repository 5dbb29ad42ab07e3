-- Games played where the bot can only answer: see the SQLite migration of the same name.
ALTER TABLE games ADD COLUMN answers_only BIGINT NOT NULL DEFAULT 0 CHECK (answers_only IN (0, 1));
