-- Members' vacations: while one lasts, the clocks of its member's games wait for them. Started
-- with the deadlines of the games where the member is to move moved on by its length; a turn
-- that reaches the member meanwhile gets its full time from the vacation's end. Ended early
-- (by the member, or by their playing a move), `ends_at` becomes that moment and those deadlines
-- come back by the time not taken. The rows also count the days taken in the last year.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id  INTEGER NOT NULL REFERENCES members (id),
    started_at INTEGER NOT NULL,
    ends_at    INTEGER NOT NULL,
    CHECK (ends_at >= started_at)
);

CREATE INDEX vacations_member ON vacations (member_id, ends_at);
