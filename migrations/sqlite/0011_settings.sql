-- How the bot shows games to a member and to a server.
--
-- member_settings.board  how the boards only this member sees are shown (private boards, direct
--                        messages): 'emoji', the grid readable everywhere, or 'image', a picture
ALTER TABLE member_settings
    ADD COLUMN board TEXT NOT NULL DEFAULT 'emoji' CHECK (board IN ('emoji', 'image'));

-- Each server's choices, for what its channels see; a server without a row has the defaults.
--
-- board    how public posts show a board: 'emoji' or 'image'
-- threads  each game started in a channel gets a public thread of its own (1) or not (0)
CREATE TABLE server_settings (
    guild_id INTEGER PRIMARY KEY,
    board    TEXT    NOT NULL DEFAULT 'emoji' CHECK (board IN ('emoji', 'image')),
    threads  INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1))
) WITHOUT ROWID;
