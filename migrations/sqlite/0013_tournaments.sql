-- Tournaments: round robins and Swiss events in a server's channel.
--
-- tournaments          one row a tournament. `round` is the round being played (0 before the
--                      start; a round robin plays all its games in round 1); a Swiss pairs its
--                      next round by moving `round` on from the number it read, so a round is
--                      paired once whoever tries. `rounds`: a Swiss's number of rounds (asked
--                      for, or fixed at the start); NULL for a round robin. `message_id`: the
--                      sign-up message, whose entrants and buttons are kept up to date.
-- tournament_entrants  who entered, in the order they did (`seed` is their place in the
--                      seeding, given at the start from their ratings); `withdrawn_at` once they
--                      left a running tournament.
-- tournament_byes      the entrant who sat out each round of a Swiss with an odd number of
--                      players (worth a point).
-- games.tournament_id, games.tournament_round
--                      a tournament's games, with their round.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    organizer_id INTEGER NOT NULL REFERENCES members (id),
    size         TEXT    NOT NULL,
    time_limit   INTEGER NOT NULL CHECK (time_limit > 0),
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rounds       INTEGER CHECK (rounds IS NULL OR rounds >= 1),
    max_players  INTEGER NOT NULL CHECK (max_players >= 3),
    starts_at    INTEGER,
    state        TEXT    NOT NULL DEFAULT 'open'
                 CHECK (state IN ('open', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    message_id   INTEGER,
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    ended_at     INTEGER
);
CREATE INDEX tournaments_live ON tournaments (guild_id) WHERE state IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    member_id     INTEGER NOT NULL REFERENCES members (id),
    seed          INTEGER NOT NULL,
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER,
    PRIMARY KEY (tournament_id, member_id)
) WITHOUT ROWID;

CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    member_id     INTEGER NOT NULL REFERENCES members (id),
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;

ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
CREATE INDEX games_of_tournaments ON games (tournament_id, tournament_round)
    WHERE tournament_id IS NOT NULL;
