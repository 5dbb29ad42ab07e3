-- Puzzles: positions the engine proved won by force, solved by members against the bot.
--
-- puzzles          one row a puzzle of the shipped pools, keyed by its position (`setup`, as
--                  `rules::Setup` writes it, the attacker to move). `solution` is the one winning
--                  first move, `plies` the proven distance of the win. The puzzle has a Glicko-2
--                  rating of its own, moved by every member's first attempt at it, and counts of
--                  those attempts and solves.
-- puzzle_pools     the pool of each board size as last loaded (a digest of its file), so that
--                  a start-up with the same pools reads one row a size and writes nothing.
-- puzzle_players   a member's puzzle rating (Glicko-2, apart from their game ratings), their
--                  solved and failed counts and their streak of puzzles solved in a row (and
--                  the best one).
-- puzzle_progress  the puzzle a member is solving: the moves played so far (the member's and
--                  the bot's replies, in the game's notation, separated by spaces), how many,
--                  the server it was given in, and the day when it is that server's daily
--                  puzzle. A move is written by moving `played` on from the number it read, so
--                  two moves at once apply once.
-- puzzle_attempts  every attempt finished, solved or not; `rated` when it moved the ratings
--                  (a member's first attempt at a puzzle), `day` when it was a daily puzzle.
-- puzzle_dailies   the daily puzzle of each server and day (days are counted as Julian day
--                  numbers, UTC), and the public post that shows it, once posted.
CREATE TABLE puzzles (
    id         INTEGER PRIMARY KEY,
    size       TEXT    NOT NULL,
    setup      TEXT    NOT NULL UNIQUE,
    solution   TEXT    NOT NULL,
    plies      INTEGER NOT NULL CHECK (plies >= 1 AND plies % 2 = 1),
    rating     REAL    NOT NULL DEFAULT 1500,
    deviation  REAL    NOT NULL DEFAULT 350 CHECK (deviation > 0),
    volatility REAL    NOT NULL DEFAULT 0.06 CHECK (volatility > 0),
    attempts   INTEGER NOT NULL DEFAULT 0,
    solves     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_by_rating ON puzzles (size, rating);

CREATE TABLE puzzle_pools (
    size   TEXT NOT NULL PRIMARY KEY,
    digest TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE puzzle_players (
    member_id   INTEGER PRIMARY KEY REFERENCES members (id),
    rating      REAL    NOT NULL DEFAULT 1500,
    deviation   REAL    NOT NULL DEFAULT 350 CHECK (deviation > 0),
    volatility  REAL    NOT NULL DEFAULT 0.06 CHECK (volatility > 0),
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE puzzle_progress (
    member_id  INTEGER PRIMARY KEY REFERENCES members (id),
    puzzle_id  INTEGER NOT NULL REFERENCES puzzles (id),
    moves      TEXT    NOT NULL DEFAULT '',
    played     INTEGER NOT NULL DEFAULT 0 CHECK (played >= 0),
    guild_id   INTEGER NOT NULL,
    day        INTEGER,
    started_at INTEGER NOT NULL
);

CREATE TABLE puzzle_attempts (
    id        INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    guild_id  INTEGER NOT NULL,
    day       INTEGER,
    solved    INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rated     INTEGER NOT NULL CHECK (rated IN (0, 1)),
    at        INTEGER NOT NULL
);
CREATE INDEX puzzle_attempts_of_members ON puzzle_attempts (member_id, puzzle_id);
CREATE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, day) WHERE day IS NOT NULL;

CREATE TABLE puzzle_dailies (
    guild_id   INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    puzzle_id  INTEGER NOT NULL REFERENCES puzzles (id),
    channel_id INTEGER,
    message_id INTEGER,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;
