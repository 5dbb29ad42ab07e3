-- Games a channel plays together (vote games). The channel is one side of an ordinary game row:
-- its player is a member row whose id is the channel's (Discord's ids never collide), and its
-- time per move (`games.time_limit`) is its turn's window: the deadline is when the window closes.
-- The side's move is then the one its members voted for most.
CREATE TABLE teams (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    color      TEXT    NOT NULL CHECK (color IN ('black', 'white')),
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    -- The member who started the game.
    started_by INTEGER NOT NULL,
    -- The ply whose window closed with no vote and was extended once; a second empty window at
    -- that ply loses the game.
    extended_ply INTEGER,
    -- Whether the game's end has been told with its voters' credits.
    credited   INTEGER NOT NULL DEFAULT 0 CHECK (credited IN (0, 1)),
    PRIMARY KEY (game_id, color)
);

CREATE INDEX teams_channel ON teams (channel_id);

-- One vote per member per ply of a vote game, changed until the window closes: `voted_at` (unix
-- milliseconds) is when it was last cast, which breaks ties (the move that reached its count
-- first).
CREATE TABLE votes (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    notation  TEXT    NOT NULL,
    voted_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, member_id)
);
