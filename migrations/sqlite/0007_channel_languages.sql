-- The language of the bot's public messages in each channel, as the last command or button there
-- showed it: a server's channel speaks the server's language, a direct message its member's. The
-- posts that answer no command (the clock's news, reminders, an AI move a restart left waiting)
-- are written in it, after a restart too. `lang` is a catalogue's code (`en`, `es`).
CREATE TABLE channel_languages (
    channel_id INTEGER PRIMARY KEY,
    lang       TEXT    NOT NULL
) WITHOUT ROWID;
