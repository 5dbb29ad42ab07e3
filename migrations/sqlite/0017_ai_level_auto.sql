-- A game against the AI at the level that meets its member (`level:auto`): 1 when the level was
-- chosen that way, 0 when the member named it. A member's auto level on a board size is read from
-- the results of their auto games on it, so it is never written twice.
ALTER TABLE games ADD COLUMN ai_auto INTEGER NOT NULL DEFAULT 0 CHECK (ai_auto IN (0, 1));
