-- The finished games whose rematch has been offered: a challenge to the other player, or against
-- the AI a new game. Written in the same transaction as that challenge or game, so a rematch
-- button pressed twice, or by both players at once, offers one rematch.
CREATE TABLE rematches (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    offered_at INTEGER NOT NULL
) WITHOUT ROWID;
