-- Games in threads: see the SQLite migration of the same name.
ALTER TABLE games ADD COLUMN parent_channel_id BIGINT;
CREATE INDEX games_in_threads ON games (channel_id) WHERE parent_channel_id IS NOT NULL;

CREATE TABLE thread_troubles (
    guild_id   BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    code       BIGINT NOT NULL,
    at         BIGINT NOT NULL
);
