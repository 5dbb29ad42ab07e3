-- The whole life of a game: who plays, challenges, games, their moves, ratings and rating changes.
-- Discord ids (u64) are stored as INTEGER (i64) through one conversion in `store`.
-- Times are unix seconds.

-- Everyone the bot has seen: Discord members (and the bot itself, for games against the AI).
-- `name` is the display name last seen, for leaderboards and exports.
CREATE TABLE members (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    is_bot     INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    created_at INTEGER NOT NULL
);

-- A challenge from one member to another (opponent_id set) or to anyone in the channel
-- (opponent_id NULL). `challenger_color` NULL means the colours are drawn at acceptance.
CREATE TABLE challenges (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    challenger_id    INTEGER NOT NULL REFERENCES members (id),
    opponent_id      INTEGER REFERENCES members (id),
    size             TEXT    NOT NULL,
    challenger_color TEXT    CHECK (challenger_color IN ('black', 'white')),
    time_limit       INTEGER NOT NULL CHECK (time_limit > 0),
    rated            INTEGER NOT NULL CHECK (rated IN (0, 1)),
    state            TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL,
    resolved_at      INTEGER,
    game_id          INTEGER REFERENCES games (id),
    CHECK (opponent_id IS NULL OR opponent_id <> challenger_id),
    CHECK ((state = 'accepted') = (game_id IS NOT NULL))
);

-- One pending challenge per pair of members in a server, whoever challenged whom.
CREATE UNIQUE INDEX challenges_one_pending_per_pair
    ON challenges (guild_id, min(challenger_id, opponent_id), max(challenger_id, opponent_id))
    WHERE state = 'pending' AND opponent_id IS NOT NULL;
-- One pending open challenge per member and channel.
CREATE UNIQUE INDEX challenges_one_open_per_channel
    ON challenges (channel_id, challenger_id)
    WHERE state = 'pending' AND opponent_id IS NULL;
CREATE INDEX challenges_pending_expiry ON challenges (expires_at) WHERE state = 'pending';
CREATE INDEX challenges_pending_challenger ON challenges (challenger_id) WHERE state = 'pending';
CREATE INDEX challenges_pending_opponent ON challenges (opponent_id) WHERE state = 'pending';

-- A game. `position` and `ply` cache the result of replaying `moves`, so a move needs no
-- replay; `ply` is also the concurrency check: a move applies only if the game is still at the
-- ply it was validated against. A move is one UPDATE of this row (ply + 1, with `last_move` and
-- `last_move_at`); the trigger below writes the `moves` row in the same statement, so the two
-- can never disagree.
-- `deadline` is when the side to move runs out of time; `reminded` marks the one reminder
-- for the current deadline as sent.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    black_id    INTEGER NOT NULL REFERENCES members (id),
    white_id    INTEGER NOT NULL REFERENCES members (id),
    size        TEXT    NOT NULL,
    time_limit  INTEGER NOT NULL CHECK (time_limit > 0),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    state       TEXT    NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'finished', 'aborted')),
    ply         INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    position    TEXT    NOT NULL,
    last_move   TEXT,
    last_move_at INTEGER,
    deadline    INTEGER NOT NULL,
    reminded    INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    winner      TEXT    CHECK (winner IN ('black', 'white')),
    end_reason  TEXT    CHECK (end_reason IN
                ('breakthrough', 'all_captured', 'no_moves', 'resignation', 'timeout', 'aborted')),
    created_at  INTEGER NOT NULL,
    finished_at INTEGER,
    CHECK (black_id <> white_id),
    CHECK ((state = 'active') = (end_reason IS NULL)),
    CHECK ((state = 'finished') = (winner IS NOT NULL))
);

CREATE INDEX games_active_deadline ON games (deadline) WHERE state = 'active';
CREATE INDEX games_black ON games (black_id, state);
CREATE INDEX games_white ON games (white_id, state);
CREATE INDEX games_pair_created ON games (guild_id, black_id, white_id, created_at);

-- Every move, by ply (0 = Black's first move), in canonical notation.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    notation  TEXT    NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Every step of `ply` by one records the move that made it.
CREATE TRIGGER games_record_move AFTER UPDATE OF ply ON games
WHEN NEW.ply = OLD.ply + 1
BEGIN
    INSERT INTO moves (game_id, ply, notation, played_at)
    VALUES (NEW.id, OLD.ply, NEW.last_move, NEW.last_move_at);
END;

-- Glicko-2 rating of a member in a server on a board size.
-- `last_active` is when the last rated game ended; deviation decays from it.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    member_id   INTEGER NOT NULL REFERENCES members (id),
    size        TEXT    NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL CHECK (deviation > 0),
    volatility  REAL    NOT NULL CHECK (volatility > 0),
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    last_active INTEGER NOT NULL,
    PRIMARY KEY (guild_id, member_id, size)
);

CREATE INDEX ratings_leaderboard ON ratings (guild_id, size, rating DESC);

-- Before and after of both players for each rated result, so a result can be explained and reversed.
CREATE TABLE rating_changes (
    game_id           INTEGER PRIMARY KEY REFERENCES games (id),
    black_rating      REAL NOT NULL,
    black_deviation   REAL NOT NULL,
    black_volatility  REAL NOT NULL,
    white_rating      REAL NOT NULL,
    white_deviation   REAL NOT NULL,
    white_volatility  REAL NOT NULL,
    black_rating_after     REAL NOT NULL,
    black_deviation_after  REAL NOT NULL,
    black_volatility_after REAL NOT NULL,
    white_rating_after     REAL NOT NULL,
    white_deviation_after  REAL NOT NULL,
    white_volatility_after REAL NOT NULL,
    created_at        INTEGER NOT NULL
);
