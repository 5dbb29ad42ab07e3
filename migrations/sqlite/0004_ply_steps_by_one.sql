-- A game's ply only changes while the game is active, and then either steps by one (a move) or
-- stays as it is while the game ends. Any other write of `ply` is refused, with the message
-- `game moved on`.
--
-- This is the check that keeps two moves for the same ply from both applying. The grouped move
-- statement sets `ply` to the ply each move was validated against plus one; if any of its games
-- moved on meanwhile, the whole statement is refused and the store applies that group's moves
-- one by one, so only the stale move is turned away. Without a stale move, the statement needs
-- to return no rows: one answer per group instead of one per move.
CREATE TRIGGER games_ply_steps_by_one BEFORE UPDATE OF ply ON games
WHEN OLD.state <> 'active'
  OR NOT (NEW.ply = OLD.ply + 1 OR (NEW.ply = OLD.ply AND NEW.state <> 'active'))
BEGIN
    SELECT RAISE(ABORT, 'game moved on');
END;
