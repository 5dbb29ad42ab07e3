-- Games against the AI at the level that meets their member: see the SQLite migration of the
-- same name.
ALTER TABLE games ADD COLUMN ai_auto BIGINT NOT NULL DEFAULT 0 CHECK (ai_auto IN (0, 1));
