-- Announcements owed to a front end, and when the bot was last seen alive.
--
-- An announcement (a challenge that expired, a game lost or aborted on time, a reminder, a move
-- the AI made for a game a restart left waiting) is written in the same transaction as the change
-- it announces, so a crash can neither lose it nor announce what did not happen. The front end
-- sends the rows, oldest first, and deletes each once it is posted; a post that failed for a
-- while is tried again at `next_attempt_at`.
--
-- announcement     the announcement as JSON (`game::Announcement`), rendered when it is sent
-- attempts         failed posts so far
-- next_attempt_at  when to post it (next), in unix milliseconds: retries wait fractions of a
--                  second, and a rate limit's `retry_after` is one
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    announcement    TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at INTEGER NOT NULL
);

CREATE INDEX outbox_due ON outbox (next_attempt_at, id);

-- When the process looking after a set of servers last swept their clocks (unix seconds). After a
-- longer silence the clocks of those servers move on by the time it was away, so nobody loses
-- on time for a stretch in which they could not move. `scope` names the set (see
-- `store::Servers`).
CREATE TABLE alive (
    scope   TEXT    PRIMARY KEY,
    seen_at INTEGER NOT NULL
) WITHOUT ROWID;
