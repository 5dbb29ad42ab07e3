-- Announcements that wait for a board's message: see the SQLite migration of the same name.
ALTER TABLE outbox ADD COLUMN board_game BIGINT;
CREATE INDEX outbox_board_game ON outbox (board_game) WHERE board_game IS NOT NULL;
