-- Ending a game in one statement. A row inserted into `game_endings` is not stored: the trigger
-- below checks that the game (and, for a rated result, both ratings) are still as the caller
-- read them, then ends the game, with the move that ended it if there is one, and for a rated
-- result writes both players' new ratings and the before/after record. A failed check aborts
-- the statement with one of two messages (`game moved on`, `ratings moved on`) and nothing is
-- written; the caller re-reads and decides.
--
-- A game's result with its ratings used to be a transaction of six statements. On a single
-- writing connection every other write waits for it, so under load the ends of games held up
-- everyone's moves; as one statement it costs the writer what an ordinary move does.
--
-- game_id      the game
-- ply          the ply the game must still be at; NULL: any ply, as long as it is active
-- position     the position after the last move, and last_move its notation; both NULL when the
--              game ends without a move (resignation, time-out, abort)
-- now          when it ended (unix seconds)
-- winner       'black' or 'white'; NULL ends the game as aborted, unrated
-- end_reason   as in `games`
-- rated        1 to write ratings (then winner is set), 0 not to
-- black_games, white_games
--              each player's count of rated games on this board as the caller read it (NULL: not
--              rated yet): the ratings are only written if both still hold
-- black_before_*, white_before_*, black_after_*, white_after_*
--              rating, deviation and volatility before (as of `now`) and after the game
CREATE VIEW game_endings (
    game_id, ply, position, last_move, now, winner, end_reason, rated, black_games, white_games,
    black_before_rating, black_before_deviation, black_before_volatility,
    white_before_rating, white_before_deviation, white_before_volatility,
    black_after_rating, black_after_deviation, black_after_volatility,
    white_after_rating, white_after_deviation, white_after_volatility
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
   WHERE 0;

CREATE TRIGGER game_endings_write INSTEAD OF INSERT ON game_endings
BEGIN
    SELECT RAISE(ABORT, 'game moved on')
    WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND state = 'active'
                        AND (NEW.ply IS NULL OR ply = NEW.ply));

    SELECT RAISE(ABORT, 'ratings moved on')
    FROM games g
    WHERE NEW.rated AND g.id = NEW.game_id
      AND ((SELECT games FROM ratings
            WHERE guild_id = g.guild_id AND member_id = g.black_id AND size = g.size)
               IS NOT NEW.black_games
        OR (SELECT games FROM ratings
            WHERE guild_id = g.guild_id AND member_id = g.white_id AND size = g.size)
               IS NOT NEW.white_games);

    -- With a move, the ply moves on and `games_record_move` stores the move.
    UPDATE games SET
        ply = ply + (NEW.last_move IS NOT NULL),
        position = coalesce(NEW.position, position),
        last_move = coalesce(NEW.last_move, last_move),
        last_move_at = iif(NEW.last_move IS NULL, last_move_at, NEW.now),
        state = iif(NEW.winner IS NULL, 'aborted', 'finished'),
        winner = NEW.winner,
        end_reason = NEW.end_reason,
        finished_at = NEW.now
    WHERE id = NEW.game_id;

    INSERT INTO ratings (guild_id, member_id, size, rating, deviation, volatility, games, wins,
                         losses, last_active)
    SELECT guild_id, black_id, size,
           NEW.black_after_rating, NEW.black_after_deviation, NEW.black_after_volatility,
           1, NEW.winner = 'black', NEW.winner = 'white', NEW.now
    FROM games WHERE NEW.rated AND id = NEW.game_id
    UNION ALL
    SELECT guild_id, white_id, size,
           NEW.white_after_rating, NEW.white_after_deviation, NEW.white_after_volatility,
           1, NEW.winner = 'white', NEW.winner = 'black', NEW.now
    FROM games WHERE NEW.rated AND id = NEW.game_id
    ON CONFLICT (guild_id, member_id, size) DO UPDATE SET
        rating = excluded.rating, deviation = excluded.deviation,
        volatility = excluded.volatility, games = games + 1, wins = wins + excluded.wins,
        losses = losses + excluded.losses, last_active = excluded.last_active;

    INSERT INTO rating_changes (game_id,
        black_rating, black_deviation, black_volatility,
        white_rating, white_deviation, white_volatility,
        black_rating_after, black_deviation_after, black_volatility_after,
        white_rating_after, white_deviation_after, white_volatility_after, created_at)
    SELECT NEW.game_id,
        NEW.black_before_rating, NEW.black_before_deviation, NEW.black_before_volatility,
        NEW.white_before_rating, NEW.white_before_deviation, NEW.white_before_volatility,
        NEW.black_after_rating, NEW.black_after_deviation, NEW.black_after_volatility,
        NEW.white_after_rating, NEW.white_after_deviation, NEW.white_after_volatility, NEW.now
    WHERE NEW.rated;
END;
