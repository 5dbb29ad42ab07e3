-- Games in threads. A game that started in a server's channel may move into a public thread of
-- its own, opened on the message that showed its board: `channel_id` is then the thread, and
-- `parent_channel_id` the channel it started in (where its result is told when it ends). A game
-- whose thread is deleted moves back to the channel.
ALTER TABLE games ADD COLUMN parent_channel_id INTEGER;
CREATE INDEX games_in_threads ON games (channel_id) WHERE parent_channel_id IS NOT NULL;

-- Why the latest game of a server that has threads turned on could not get one, until a game
-- does: Discord's error code (50013 missing permissions, 160006 too many active threads, ...),
-- in which channel, and when (unix seconds). Shown to the server's admins in its settings.
CREATE TABLE thread_troubles (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    code       INTEGER NOT NULL,
    at         INTEGER NOT NULL
) WITHOUT ROWID;
