-- A member's display name in each server, as last seen there (a nickname is per server), so no
-- list in one server shows the name someone uses in another. Direct messages are server 0, with
-- the member's own display name. `members` keeps who someone is, not what they are called.
CREATE TABLE member_names (
    guild_id  INTEGER NOT NULL,
    member_id INTEGER NOT NULL REFERENCES members (id),
    name      TEXT    NOT NULL,
    PRIMARY KEY (guild_id, member_id)
) WITHOUT ROWID;

-- Until now one name was kept per member: it stands for every server the member played in.
INSERT INTO member_names (guild_id, member_id, name)
SELECT seen.guild_id, seen.member_id, m.name
FROM (
    SELECT guild_id, black_id AS member_id FROM games
    UNION SELECT guild_id, white_id FROM games
    UNION SELECT guild_id, challenger_id FROM challenges
    UNION SELECT guild_id, opponent_id FROM challenges WHERE opponent_id IS NOT NULL
    UNION SELECT guild_id, member_id FROM ratings
) AS seen
JOIN members m ON m.id = seen.member_id;

ALTER TABLE members DROP COLUMN name;
