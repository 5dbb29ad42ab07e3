-- An announcement that links to a game's board (a turn told by direct message, a thread to open
-- on the board's message) waits for that message: `board_game` names the game, and recording
-- the message makes the row due at once. `next_attempt_at` is the latest it waits.
ALTER TABLE outbox ADD COLUMN board_game INTEGER;
CREATE INDEX outbox_board_game ON outbox (board_game) WHERE board_game IS NOT NULL;
