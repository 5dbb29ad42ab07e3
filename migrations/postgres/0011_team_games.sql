-- Games a channel plays together (vote games): see the SQLite migration of the same name.
CREATE TABLE teams (
    game_id      BIGINT NOT NULL REFERENCES games (id),
    color        TEXT   NOT NULL CHECK (color IN ('black', 'white')),
    guild_id     BIGINT NOT NULL,
    channel_id   BIGINT NOT NULL,
    started_by   BIGINT NOT NULL,
    extended_ply BIGINT,
    credited     BIGINT NOT NULL DEFAULT 0 CHECK (credited IN (0, 1)),
    PRIMARY KEY (game_id, color)
);

CREATE INDEX teams_channel ON teams (channel_id);

CREATE TABLE votes (
    game_id   BIGINT NOT NULL REFERENCES games (id),
    ply       BIGINT NOT NULL,
    member_id BIGINT NOT NULL,
    notation  TEXT   NOT NULL,
    voted_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply, member_id)
);
