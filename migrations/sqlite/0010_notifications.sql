-- Each member's own settings, the same in every server.
--
-- notify_dm   a direct message each time it becomes their turn, and with each reminder
-- dm_lang     the language of those messages: the member's Discord language at their last
--             /notify (a catalogue's code, `en`, `es`)
-- dm_refused  Discord refused such a message (the member does not take direct messages): the
--             setting turned itself off, and the member is still to be told so
CREATE TABLE member_settings (
    member_id  INTEGER PRIMARY KEY REFERENCES members (id),
    notify_dm  INTEGER NOT NULL DEFAULT 0 CHECK (notify_dm IN (0, 1)),
    dm_lang    TEXT,
    dm_refused INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1))
) WITHOUT ROWID;

-- The latest message known to show each game's board, for a link to it from a direct message.
CREATE TABLE game_messages (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    message_id INTEGER NOT NULL
) WITHOUT ROWID;
