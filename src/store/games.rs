//! Games: reads (from the cache of active games where it can), starts, endings and reminders.

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::any::AnyRow;
use sqlx::AnyPool;
use sqlx::{FromRow, Row};

use crate::domain::{EndReason, GameId, GameState, GuildId, MemberId, Timestamp};
use crate::rules::{BoardSize, ByColor, Color, Move, Position};

use super::codec::Flag;
use super::statements::{built_statement, statement};
use super::writer::{Conn, Watched};
use super::{
    conflict_or, insert_outbox, refused_by_trigger, Backend, GameRow, NewGame, NewOutbox,
    RatingChangeRow, ReminderRow, Result, Servers, Shared, Sql, Store, StoreError, WriteTx,
};

/// The game of `row`, or `None` (logged) when one of its values does not read back.
fn readable_game(row: &AnyRow) -> Option<GameRow> {
    match GameRow::from_row(row) {
        Ok(game) => Some(game),
        Err(e) => {
            let id = row.try_get::<i64, _>("id").ok();
            tracing::error!(game = ?id, error = %e, "a stored game does not read back; left out");
            None
        }
    }
}

/// How a game ends, for [`Store::end_game`].
#[derive(Clone, Debug)]
pub struct GameEnding {
    pub game: GameId,
    /// The ply the game must still be at; `None`: any, as long as it is active.
    pub ply: Option<u32>,
    /// The move that ended the game and the position after it.
    pub last_move: Option<(Move, Position)>,
    pub now: Timestamp,
    /// The winner; `None` aborts the game.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// The ratings to write, for a rated result.
    pub rated: Option<RatedEnding>,
    /// The announcements of the ending, queued with it.
    pub announce: Vec<NewOutbox>,
}

/// The ratings a rated result writes.
#[derive(Clone, Debug)]
pub struct RatedEnding {
    /// Each player's count of rated games on the board as read (`None`: not rated yet). The
    /// ratings are written only if both still hold.
    pub games: ByColor<Option<i64>>,
    /// Before (as of the end) and after; the players' new ratings are the `after` values.
    pub change: RatingChangeRow,
}

/// What [`Store::end_game`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Done,
    /// The game was no longer active, or no longer at the ply asked for: nothing written.
    GameMovedOn,
    /// A player's rating changed since it was read: nothing written.
    RatingsMovedOn,
}

/// Serves a batch of game reads by id (SQLite: its list is read with `json_each`).
pub(super) async fn games_by_id(
    pool: Watched<AnyPool>,
    ids: Vec<GameId>,
) -> Vec<Shared<Option<GameRow>>> {
    let list =
        serde_json::Value::from(ids.iter().map(|id| id.get()).collect::<Vec<_>>()).to_string();
    let rows = sqlx::query(statement!(
        Sqlite,
        game_select!("WHERE g.id IN (SELECT value FROM json_each($1))")
    ))
    .bind(list)
    .fetch_all(&pool)
    .await;
    match rows {
        Ok(rows) => {
            // Each row reads back on its own: a game with a value that does not read back fails
            // its own read, not those of the other games in the batch.
            let by_id: HashMap<GameId, Shared<GameRow>> = rows
                .iter()
                .filter_map(|row| {
                    let id = row.try_get::<GameId, _>("id").ok()?;
                    Some((id, GameRow::from_row(row).map_err(Arc::new)))
                })
                .collect();
            ids.iter()
                .map(|id| by_id.get(id).cloned().transpose())
                .collect()
        }
        Err(e) => {
            let e = Arc::new(e);
            ids.iter().map(|_| Err(Arc::clone(&e))).collect()
        }
    }
}

impl Store {
    /// A game, from the cache of active games when it is there (see `cache`).
    pub async fn game(&self, id: GameId) -> Result<Option<GameRow>> {
        let generation = match self.cache.get(id) {
            Ok(row) => return Ok(Some(row)),
            Err(generation) => generation,
        };
        let row = match &self.backend {
            Backend::Sqlite { games, .. } => match games.call(id).await {
                Some(answer) => answer.map_err(StoreError::Batch)?,
                None => return Err(StoreError::Sqlx(sqlx::Error::PoolClosed)),
            },
            Backend::Postgres => {
                sqlx::query_as(statement!(game_select!("WHERE g.id = $1")))
                    .bind(id)
                    .fetch_optional(&self.read)
                    .await?
            }
        };
        if let Some(row) = &row {
            self.cache.fill(generation, row);
        }
        Ok(row)
    }

    /// Active games of a member, in a server when `guild` is given, in a channel when `channel`
    /// is given. Oldest first.
    pub async fn active_games(
        &self,
        member: MemberId,
        guild: Option<GuildId>,
        channel: Option<crate::domain::ChannelId>,
    ) -> Result<Vec<GameRow>> {
        Ok(sqlx::query_as(statement!(game_select!(
            "WHERE g.state = 'active' AND (g.black_id = $1 OR g.white_id = $1)
                   AND (CAST($2 AS BIGINT) IS NULL OR g.guild_id = $2)
                   AND (CAST($3 AS BIGINT) IS NULL OR g.channel_id = $3)
                 ORDER BY g.id"
        )))
        .bind(member)
        .bind(guild)
        .bind(channel)
        .fetch_all(&self.read)
        .await?)
    }

    /// The game of `member` in `channel` that ended last, if any.
    pub async fn last_ended_game(
        &self,
        member: MemberId,
        channel: crate::domain::ChannelId,
    ) -> Result<Option<GameId>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT id FROM games
             WHERE state <> 'active' AND (black_id = $1 OR white_id = $1) AND channel_id = $2
             ORDER BY finished_at DESC, id DESC LIMIT 1"
        ))
        .bind(member)
        .bind(channel)
        .fetch_optional(&self.read)
        .await?)
    }

    /// Active games against the AI where the AI is to move and has been since `turn_began_by`
    /// or earlier (its turn began when its deadline was set: `deadline - time_limit`), in
    /// `servers`. Oldest first. Black moves at even plies, White at odd ones.
    pub async fn ai_games_to_move(
        &self,
        turn_began_by: Timestamp,
        servers: Servers,
    ) -> Result<Vec<GameId>> {
        let (sql, args) = ai_to_move_sql(turn_began_by, servers).build()?;
        Ok(sqlx::query_scalar_with(sql, args)
            .fetch_all(&self.read)
            .await?)
    }

    /// How many games in `servers` are in progress.
    pub async fn games_in_progress(&self, servers: Servers) -> Result<i64> {
        let (sql, args) = games_in_progress_sql(servers).build()?;
        Ok(sqlx::query_scalar_with(sql, args)
            .fetch_one(&self.read)
            .await?)
    }

    /// Active games in `servers` whose side to move has run out of time. A game whose row does
    /// not read back (a value no version of the bot wrote) is logged and left out, so that one
    /// broken row cannot stop the clocks of every other game.
    pub async fn overdue_games(&self, now: Timestamp, servers: Servers) -> Result<Vec<GameRow>> {
        self.overdue(now, servers, false).await
    }

    /// Vote games in `servers` whose window closed at `now`, as [`Store::overdue_games`].
    pub async fn closed_windows(&self, now: Timestamp, servers: Servers) -> Result<Vec<GameRow>> {
        self.overdue(now, servers, true).await
    }

    async fn overdue(&self, now: Timestamp, servers: Servers, teams: bool) -> Result<Vec<GameRow>> {
        let (sql, args) = overdue_sql(now, servers, teams).build()?;
        let rows = sqlx::query_with(sql, args).fetch_all(&self.read).await?;
        Ok(rows.iter().filter_map(readable_game).collect())
    }

    /// Ends a game in one statement (the `game_endings` trigger): the move that ended it if there
    /// is one, the result, and for a rated result both ratings and their before/after. Nothing
    /// is written when the game or a rating is no longer as the caller read it; the answer says
    /// which. With an announcement, the statement and the announcement's outbox row are one
    /// write transaction.
    pub async fn end_game(&self, e: &GameEnding) -> Result<Ended> {
        let q = ending_query(e);
        let done = async {
            match e.announce.as_slice() {
                [] => {
                    let mut held = self.write.lock().await?;
                    match q.execute(held.conn()).await {
                        Ok(_) => Ok(Ended::Done),
                        Err(err) if refused_by_trigger(&err) => why_refused(held.conn(), e).await,
                        Err(err) => Err(conflict_or(err)),
                    }
                }
                // With its announcement: both or neither. A refused ending rolls the transaction
                // back when `tx` is dropped.
                rows => {
                    let mut tx = self.write.begin().await?;
                    match q.execute(tx.conn()).await {
                        Ok(_) => {
                            for row in rows {
                                insert_outbox(tx.conn(), row).await?;
                            }
                            tx.commit().await?;
                            self.bell.ring();
                            Ok(Ended::Done)
                        }
                        // PostgreSQL reads nothing more in a transaction a statement failed in:
                        // it is rolled back first.
                        Err(err) if refused_by_trigger(&err) => {
                            drop(tx);
                            why_refused(self.write.lock().await?.conn(), e).await
                        }
                        Err(err) => Err(conflict_or(err)),
                    }
                }
            }
        }
        .await;
        // Whatever happened, the cached row is no longer to be trusted.
        self.cache.forget(e.game);
        done
    }
}

/// The `game_endings` statement that writes `e`.
fn ending_query(e: &GameEnding) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
    let r = e.rated.as_ref();
    let mut q = sqlx::query(
        statement!("INSERT INTO game_endings VALUES
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"),
    )
    .bind(e.game)
    .bind(e.ply.map(i64::from))
    .bind(e.last_move.map(|(_, position)| position))
    .bind(e.last_move.map(|(mv, _)| mv.to_string()))
    .bind(e.now)
    .bind(e.winner)
    .bind(e.reason)
    .bind(Flag(r.is_some()));
    for color in Color::ALL {
        q = q.bind(r.and_then(|r| r.games[color]));
    }
    // An unrated ending binds zeros, which the trigger does not read, rather than NULLs:
    // sqlx's `Any` driver sends a NULL `f64` to PostgreSQL typed as `real`, and the cached
    // statement would then refuse the next rated ending's `double precision` values.
    let change = r.map(|r| r.change.change);
    let values = [change.map(|c| c.before), change.map(|c| c.after)]
        .into_iter()
        .flat_map(|side| Color::ALL.map(|color| side.map(|s| s[color])));
    for t in values {
        q = q
            .bind(t.map_or(0.0, |t| t.rating))
            .bind(t.map_or(0.0, |t| t.deviation))
            .bind(t.map_or(0.0, |t| t.volatility));
    }
    q
}

/// Which of the `game_endings` checks refused `e`: read again on the writing connection, still
/// held, so no write of this process came in between. The game's check is the first: if the game
/// is no longer active, or no longer at the ply asked for, it moved on; otherwise a rating did.
/// (A write of another process in between can only move the game on, never back: the answer
/// is still true when it is given.)
async fn why_refused(conn: &mut Conn, e: &GameEnding) -> Result<Ended> {
    let now: Option<(GameState, i64)> =
        sqlx::query_as(statement!("SELECT state, ply FROM games WHERE id = $1"))
            .bind(e.game)
            .fetch_optional(conn)
            .await?;
    Ok(match now {
        Some((GameState::Active, ply)) if e.ply.is_none_or(|p| i64::from(p) == ply) => {
            Ended::RatingsMovedOn
        }
        _ => Ended::GameMovedOn,
    })
}

impl Store {
    /// Why the ending `e` was refused inside a transaction ([`WriteTx::end_game`] said false),
    /// once that transaction is dropped.
    pub async fn why_ending_refused(&self, e: &GameEnding) -> Result<Ended> {
        let why = why_refused(self.write.lock().await?.conn(), e).await;
        self.cache.forget(e.game);
        why
    }
}

impl WriteTx {
    /// [`Store::end_game`] inside this transaction, for an ending that writes more with it (a
    /// tournament's next round). False when the game or a rating is no longer as read: the
    /// transaction is then spoiled (PostgreSQL reads nothing more in it), to be dropped before
    /// [`Store::why_ending_refused`] says which.
    pub async fn end_game(&mut self, e: &GameEnding) -> Result<bool> {
        self.touched.game(e.game);
        match ending_query(e).execute(self.tx.conn()).await {
            Ok(_) => Ok(true),
            Err(err) if refused_by_trigger(&err) => Ok(false),
            Err(err) => Err(conflict_or(err)),
        }
    }

    pub async fn count_active_games(&mut self, member: MemberId) -> Result<i64> {
        Ok(sqlx::query_scalar(
            statement!("SELECT count(*) FROM games WHERE state = 'active' AND (black_id = $1 OR white_id = $1)"),
        )
        .bind(member)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Games against the AI in progress for a member.
    pub async fn count_active_ai_games(&mut self, member: MemberId) -> Result<i64> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT count(*) FROM games WHERE state = 'active' AND ai_level IS NOT NULL
               AND (black_id = $1 OR white_id = $1)"
        ))
        .bind(member)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Rated games between two members in a server created after `since`.
    pub async fn count_rated_games_between(
        &mut self,
        guild: GuildId,
        a: MemberId,
        b: MemberId,
        since: Timestamp,
    ) -> Result<i64> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT count(*) FROM games WHERE guild_id = $1 AND rated = 1 AND created_at > $4
               AND ((black_id = $2 AND white_id = $3) OR (black_id = $3 AND white_id = $2))"
        ))
        .bind(guild)
        .bind(a)
        .bind(b)
        .bind(since)
        .fetch_one(self.tx.conn())
        .await?)
    }

    pub async fn insert_game(&mut self, g: &NewGame) -> Result<GameId> {
        Ok(sqlx::query_scalar(statement!(
            "INSERT INTO games (guild_id, channel_id, black_id, white_id, size, time_limit, rated,
                 position, deadline, created_at, ai_level, ai_auto, answers_only)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id"
        ))
        .bind(g.guild_id)
        .bind(g.channel_id)
        .bind(g.players.black)
        .bind(g.players.white)
        .bind(g.size)
        .bind(g.time_limit)
        .bind(Flag(g.rated))
        .bind(g.position)
        .bind(g.deadline)
        .bind(g.created_at)
        .bind(g.ai_level)
        .bind(Flag(g.ai_auto))
        .bind(Flag(g.answers_only))
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Whether `member` won each of their finished games against the AI on `size` whose level
    /// was chosen for them (`level:auto`), oldest first: what their auto level is read from.
    pub async fn auto_results(&mut self, member: MemberId, size: BoardSize) -> Result<Vec<bool>> {
        let rows: Vec<(Color, MemberId)> = sqlx::query_as(statement!(
            "SELECT winner, black_id FROM games
             WHERE ai_auto = 1 AND winner IS NOT NULL AND size = $2
               AND (black_id = $1 OR white_id = $1)
             ORDER BY finished_at, id"
        ))
        .bind(member)
        .bind(size)
        .fetch_all(self.tx.conn())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(winner, black)| (winner == Color::Black) == (black == member))
            .collect())
    }

    /// Marks the reminder as sent for every active game within `fraction` of its time limit of
    /// the deadline (and not yet reminded), in `servers`, and returns those games. The AI is
    /// never reminded: a game where it is to move is left as it is. Black moves at even plies.
    pub async fn take_due_reminders(
        &mut self,
        now: Timestamp,
        fraction: f64,
        servers: Servers,
    ) -> Result<Vec<ReminderRow>> {
        let (sql, args) = reminders_sql(now, fraction, servers).build()?;
        let rows: Vec<ReminderRow> = sqlx::query_as_with(sql, args)
            .fetch_all(self.tx.conn())
            .await?;
        for r in &rows {
            self.touched.game(r.id);
        }
        Ok(rows)
    }
}

fn ai_to_move_sql(turn_began_by: Timestamp, servers: Servers) -> Sql {
    Sql::new(
        "SELECT g.id FROM games g
         JOIN members b ON b.id = g.black_id JOIN members w ON w.id = g.white_id
         WHERE g.state = 'active' AND g.ai_level IS NOT NULL
           AND ((g.ply % 2 = 0 AND b.is_bot = 1) OR (g.ply % 2 = 1 AND w.is_bot = 1))
           AND g.deadline - g.time_limit <= $1 AND ",
    )
    .arg(turn_began_by)
    .servers("g.guild_id", servers)
    .push(" ORDER BY g.id")
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        ai_to_move_sql(Timestamp::from_unix_seconds(0), servers)
    })
});

/// Active games in `servers` whose deadline passed at `now`: vote games (whose deadline closes
/// a window) or the others.
fn overdue_sql(now: Timestamp, servers: Servers, teams: bool) -> Sql {
    Sql::new(if teams {
        game_select!(
            "WHERE g.state = 'active' AND g.deadline <= $1
               AND EXISTS (SELECT 1 FROM teams t WHERE t.game_id = g.id) AND "
        )
    } else {
        game_select!(
            "WHERE g.state = 'active' AND g.deadline <= $1
               AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.game_id = g.id) AND "
        )
    })
    .arg(now)
    .servers("g.guild_id", servers)
    .push(" ORDER BY g.deadline, g.id")
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        overdue_sql(Timestamp::from_unix_seconds(0), servers, false)
    })
});

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        overdue_sql(Timestamp::from_unix_seconds(0), servers, true)
    })
});

fn games_in_progress_sql(servers: Servers) -> Sql {
    Sql::new("SELECT count(*) FROM games WHERE state = 'active' AND ").servers("guild_id", servers)
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(games_in_progress_sql)
});

fn reminders_sql(now: Timestamp, fraction: f64, servers: Servers) -> Sql {
    Sql::new(
        "UPDATE games SET reminded = 1
         WHERE state = 'active' AND reminded = 0 AND deadline > $1
           AND deadline - $1 <= time_limit * $2
           AND NOT EXISTS (SELECT 1 FROM members m WHERE m.is_bot = 1
               AND m.id = CASE WHEN games.ply % 2 = 0 THEN games.black_id ELSE games.white_id END)
           AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.game_id = games.id)
           AND ",
    )
    .arg(now)
    .arg(fraction)
    .servers("guild_id", servers)
    .push(
        " RETURNING id, guild_id, channel_id, deadline, ply,
                   CASE WHEN ply % 2 = 0 THEN black_id ELSE white_id END AS to_move",
    )
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        reminders_sql(Timestamp::from_unix_seconds(0), 0.2, servers)
    })
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ChannelId, TimeControl};

    /// Two games in one batch of reads, one of them with a time limit no version wrote: only
    /// that one's read fails.
    #[tokio::test]
    async fn a_game_that_does_not_read_back_fails_only_its_own_read_in_a_batch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("x.db").display());
        let store = Store::open(&url).await.expect("open");
        let (guild, alice, bob) = (GuildId::new(1), MemberId::new(10), MemberId::new(11));
        let mut tx = store.begin().await.expect("begin");
        tx.upsert_member(guild, alice, "alice", Timestamp::UNIX_EPOCH)
            .await
            .expect("alice");
        tx.upsert_member(guild, bob, "bob", Timestamp::UNIX_EPOCH)
            .await
            .expect("bob");
        let game = NewGame {
            guild_id: guild,
            channel_id: ChannelId::new(2),
            players: ByColor::new(alice, bob),
            size: crate::rules::BoardSize::default(),
            time_limit: TimeControl::OneDay,
            rated: false,
            position: Position::default(),
            deadline: Timestamp::from_unix_seconds(86_400),
            created_at: Timestamp::UNIX_EPOCH,
            ai_level: None,
            ai_auto: false,
            answers_only: false,
        };
        let fine = tx.insert_game(&game).await.expect("fine");
        let broken = tx.insert_game(&game).await.expect("broken");
        tx.commit().await.expect("commit");
        // Past the schema's checks, on a connection of its own.
        let pool = sqlx::sqlite::SqlitePool::connect(&url).await.expect("pool");
        let mut raw = pool.acquire().await.expect("connection");
        sqlx::query("PRAGMA ignore_check_constraints = ON")
            .execute(&mut *raw)
            .await
            .expect("pragma");
        sqlx::query("UPDATE games SET time_limit = 1234 WHERE id = $1")
            .bind(broken.get())
            .execute(&mut *raw)
            .await
            .expect("update");
        drop(raw);
        pool.close().await;
        let read = games_by_id(store.read.clone(), vec![fine, broken, GameId::new(99)]).await;
        assert!(matches!(&read[0], Ok(Some(row)) if row.id == fine));
        assert!(read[1].is_err(), "{:?}", read[1]);
        assert!(matches!(read[2], Ok(None)));
    }
}
