-- A game played where the bot can only answer its players' commands and taps (a member's own
-- install of the bot, in a group DM or a server that has not added it): 1. Nothing is posted in
-- its channel; what would be goes to its player by direct message.
ALTER TABLE games ADD COLUMN answers_only INTEGER NOT NULL DEFAULT 0 CHECK (answers_only IN (0, 1));
