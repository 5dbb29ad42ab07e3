//! Moves, each checked against the game's ply, written in groups: the moves that queued up while
//! the statements in flight ran go in the next one, so under load many moves share a round trip
//! and a commit, and with no load a move goes straight through.
//!
//! - SQLite has one writer: one statement at a time, all or none; if a game of the group moved
//!   on, the trigger refuses the statement and the group's moves go one by one to find which (the
//!   statements are what its one writer spends its time on).
//! - PostgreSQL has many: up to [`POSTGRES_GROUPS_IN_FLIGHT`] groups are written at once, each on
//!   a connection it borrows from the writers' set, beside the other writes. The next group goes
//!   as soon as any group in flight is answered, so a statement PostgreSQL is slow with holds up
//!   only its own moves.
//!   A group is one `UPDATE … WHERE ply = $n` over its rows, its own transaction; each row is
//!   checked on its own under the game row's lock, and the statement returns the games it moved,
//!   so a stale move is turned away alone, in the same round trip. A move's commit (a flush of
//!   the WAL) is what PostgreSQL spends most on; a group shares one. Two groups in flight hold
//!   the same game only when two moves for it came within a statement of each other (a member's
//!   double click, two clients): the later group waits for the earlier's row lock, and its ply
//!   check then turns that move away.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

use sqlx::any::{Any, AnyArguments};
use sqlx::error::BoxDynError;
use sqlx::Arguments;

use crate::domain::{GameId, Timestamp};
use crate::rules::{Move, Position};

use super::statements::{built_statement, statement};
use super::writer::{Conn, Writer};
use super::{
    insert_outbox, refused_by_trigger, GameCache, MoveRow, NewOutbox, Result, Shared, Store,
    StoreError, BATCH,
};

/// How many groups of moves a PostgreSQL process writes at once. Fewer make larger groups (fewer
/// commits), more let more groups run side by side; measured with `bench` (see the README).
pub const POSTGRES_GROUPS_IN_FLIGHT: usize = 2;

/// How often a PostgreSQL group that deadlocked with another writer of the database (say, a
/// vacation moving several of a member's deadlines) is tried again. A deadlock aborts the
/// statement whole, so nothing of it was written.
const DEADLOCK_TRIES: usize = 3;

/// Which database a group of moves is written to.
#[derive(Clone, Copy, Debug)]
pub(super) enum Dialect {
    Sqlite,
    Postgres,
}

/// A move to record.
#[derive(Clone, Debug)]
pub struct MoveWrite {
    pub game: GameId,
    /// The ply the move was validated against (0 = Black's first move).
    pub ply: u32,
    /// The move, stored in canonical notation.
    pub mv: Move,
    /// The position after the move.
    pub position: Position,
    /// When the side to move next runs out of time.
    pub deadline: Timestamp,
    pub now: Timestamp,
}

/// The grouped move statement of `dialect` for `rows` moves, `rows` a power of two up to
/// [`BATCH`]: a group is padded with rows that match no game, so that a handful of statements,
/// each prepared once, serve every group size. (Rows bound as values cost SQLite less than the
/// same rows read out of one JSON argument.)
///
/// - SQLite's records them all or none: `ply` is set to the ply each move was validated against
///   plus one, and if any game moved on meanwhile, `games_ply_steps_by_one` (migration 0004)
///   refuses the whole statement.
/// - PostgreSQL's writes each row whose game is still active at its ply, and returns their ids.
///   Under READ COMMITTED an UPDATE that waited for another writer's row checks its conditions
///   again on the row that writer left, so the ply check holds across connections and processes.
fn apply_moves_sql(dialect: Dialect, rows: usize) -> &'static str {
    fn statements(values: impl Fn(usize) -> String, check: &str) -> Vec<String> {
        (0..=BATCH.ilog2())
            .map(|k| {
                let values = values(1 << k);
                format!(
                    "UPDATE games SET ply = v.column2 + 1, position = v.column3,
                         last_move = v.column4, last_move_at = v.column5, deadline = v.column6,
                         reminded = 0
                     FROM (VALUES {values}) AS v
                     WHERE games.id = v.column1{check}"
                )
            })
            .collect()
    }
    static SQLITE: LazyLock<Vec<String>> =
        LazyLock::new(|| statements(|rows| vec!["(?, ?, ?, ?, ?, ?)"; rows].join(", "), ""));
    static POSTGRES: LazyLock<Vec<String>> = LazyLock::new(|| {
        statements(
            |rows| {
                (0..rows)
                    .map(|r| {
                        let n = 6 * r;
                        format!(
                            "(${}::bigint, ${}::bigint, ${}, ${}, ${}::bigint, ${}::bigint)",
                            n + 1,
                            n + 2,
                            n + 3,
                            n + 4,
                            n + 5,
                            n + 6
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            " AND games.ply = v.column2 AND games.state = 'active' RETURNING games.id",
        )
    });
    let by_rows = match dialect {
        Dialect::Sqlite => &SQLITE,
        Dialect::Postgres => &POSTGRES,
    };
    let k = rows.max(1).next_power_of_two().ilog2() as usize;
    by_rows[k.min(by_rows.len() - 1)].as_str()
}

/// Serves a batch of moves. A statement takes at most one move per game (SQLite would apply
/// an arbitrary one of several); further moves for the same game go in the next statement,
/// where the ply check turns them away.
pub(super) async fn apply_moves(
    dialect: Dialect,
    writer: Writer,
    cache: GameCache,
    batch: Vec<MoveWrite>,
) -> Vec<Shared<bool>> {
    let mut held = match writer.lock().await {
        Ok(held) => held,
        Err(e) => {
            let e = Arc::new(e);
            return batch.iter().map(|_| Err(Arc::clone(&e))).collect();
        }
    };
    let mut answers: Vec<Shared<bool>> = vec![Ok(false); batch.len()];
    let mut left: Vec<usize> = (0..batch.len()).collect();
    while !left.is_empty() {
        let mut seen = HashSet::new();
        let (mut now, later): (Vec<usize>, Vec<usize>) =
            left.into_iter().partition(|&i| seen.insert(batch[i].game));
        if let Dialect::Postgres = dialect {
            // Rows locked in the order of their ids, as far as the plan follows the values: two
            // writers that lock several games in the same order cannot deadlock.
            now.sort_by_key(|&i| batch[i].game);
        }
        let group: Vec<&MoveWrite> = now.iter().map(|&i| &batch[i]).collect();
        let applied = match dialect {
            Dialect::Sqlite => apply_group(held.conn(), &group).await,
            Dialect::Postgres => apply_group_returning(held.conn(), &group).await,
        };
        for (k, &i) in now.iter().enumerate() {
            answers[i] = match &applied {
                Ok(applied) => Ok(applied[k]),
                Err(e) => Err(Arc::clone(e)),
            };
            match answers[i] {
                Ok(true) => cache.moved(&batch[i]),
                _ => cache.forget(batch[i].game),
            }
        }
        left = later;
    }
    answers
}

/// Writes a group of moves, one per game, and says which applied (SQLite). The group goes as one
/// statement; only if a game in it moved on does each move go on its own, to find which.
async fn apply_group(conn: &mut Conn, group: &[&MoveWrite]) -> Shared<Vec<bool>> {
    let arguments = moves_arguments(group)?;
    match sqlx::query_with(apply_moves_sql(Dialect::Sqlite, group.len()), arguments)
        .execute(&mut *conn)
        .await
    {
        Ok(done) if done.rows_affected() == group.len() as u64 => Ok(vec![true; group.len()]),
        Err(e) if !refused_by_trigger(&e) => Err(Arc::new(e)),
        short_or_refused => {
            // Refused: nothing was written. Otherwise some game of the group does not exist
            // (the others applied), which no move validated against a stored game can meet.
            let wrote = short_or_refused.is_ok();
            let mut applied = Vec::with_capacity(group.len());
            for &m in group {
                applied.push(if wrote {
                    sqlx::query_scalar::<_, i64>(statement!(
                        "SELECT count(*) FROM games WHERE id = $1"
                    ))
                    .bind(m.game)
                    .fetch_one(&mut *conn)
                    .await
                    .map_err(Arc::new)?
                        == 1
                } else {
                    write_move(conn, m).await.map_err(Arc::new)?
                });
            }
            Ok(applied)
        }
    }
}

/// Writes a group of moves, one per game, and says which applied (PostgreSQL): one statement,
/// which returns the games it moved.
async fn apply_group_returning(conn: &mut Conn, group: &[&MoveWrite]) -> Shared<Vec<bool>> {
    let mut tries = 0;
    let moved: HashSet<GameId> = loop {
        tries += 1;
        let arguments = moves_arguments(group)?;
        match sqlx::query_scalar_with(apply_moves_sql(Dialect::Postgres, group.len()), arguments)
            .fetch_all(&mut *conn)
            .await
        {
            Ok(ids) => break ids.into_iter().collect(),
            Err(e) if deadlocked(&e) && tries < DEADLOCK_TRIES => {
                tracing::info!(error = %e, "a group of moves deadlocked; trying it again");
            }
            Err(e) => return Err(Arc::new(e)),
        }
    };
    Ok(group.iter().map(|m| moved.contains(&m.game)).collect())
}

/// Whether PostgreSQL aborted the statement to break a deadlock with another transaction.
fn deadlocked(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.code().as_deref() == Some("40P01"))
}

/// One move on its own: the game's row, if it is still active at the ply the move was
/// validated against. The `moves` row is written by a trigger of the schema
/// (`games_record_move` on SQLite, `games_record_moves` on PostgreSQL).
const MOVE_SQL: &str = statement!(
    "UPDATE games SET ply = ply + 1, position = $3, last_move = $4,
         last_move_at = $5, deadline = $6, reminded = 0
     WHERE id = $1 AND ply = $2 AND state = 'active'"
);

/// [`MOVE_SQL`] with `m` bound.
fn move_statement(m: &MoveWrite) -> sqlx::query::Query<'static, Any, AnyArguments> {
    sqlx::query(MOVE_SQL)
        .bind(m.game)
        .bind(i64::from(m.ply))
        .bind(m.position)
        .bind(m.mv.to_string())
        .bind(m.now)
        .bind(m.deadline)
}

/// Writes one move on its own; whether it applied (false: the game had moved on).
async fn write_move(conn: &mut Conn, m: &MoveWrite) -> sqlx::Result<bool> {
    match move_statement(m).execute(conn).await {
        Ok(done) => Ok(done.rows_affected() == 1),
        Err(e) if refused_by_trigger(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The arguments of the grouped move statement for `group`, padded as [`apply_moves_sql`] says.
fn moves_arguments(group: &[&MoveWrite]) -> Shared<AnyArguments> {
    let bound = || -> std::result::Result<AnyArguments, BoxDynError> {
        let mut arguments = AnyArguments::default();
        for m in group {
            arguments.add(m.game)?;
            arguments.add(i64::from(m.ply))?;
            arguments.add(m.position)?;
            arguments.add(m.mv.to_string())?;
            arguments.add(m.now)?;
            arguments.add(m.deadline)?;
        }
        for _ in group.len()..group.len().next_power_of_two() {
            arguments.add(None::<i64>)?;
            arguments.add(None::<i64>)?;
            arguments.add(None::<String>)?;
            arguments.add(None::<String>)?;
            arguments.add(None::<i64>)?;
            arguments.add(None::<i64>)?;
        }
        Ok(arguments)
    };
    bound().map_err(|e| Arc::new(sqlx::Error::Encode(e)))
}

impl Store {
    /// Records the move of ply `m.ply` if the game is still active at that ply: the concurrency
    /// check. False (and nothing written) when another move got there first. Moves queued
    /// together are written by one statement, its own transaction (see the module's comment);
    /// the `moves` rows are written by the schema's trigger (see `MOVE_SQL`).
    pub async fn apply_move(&self, m: MoveWrite) -> Result<bool> {
        match self.moves.call(m).await {
            Some(answer) => answer.map_err(StoreError::Batch),
            None => Err(StoreError::Sqlx(sqlx::Error::PoolClosed)),
        }
    }

    pub async fn moves(&self, game: GameId) -> Result<Vec<MoveRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM moves WHERE game_id = $1 ORDER BY ply"
        ))
        .bind(game)
        .fetch_all(&self.read)
        .await?)
    }

    /// Records a move like [`Store::apply_move`], and queues its announcements in the same write
    /// transaction: for the few moves that are announced later (the AI's answers the sweeper
    /// makes, a turn told by direct message), off the grouped path of members' moves. With
    /// nothing to announce it is [`Store::apply_move`].
    pub async fn apply_move_announced(&self, m: MoveWrite, announce: &[NewOutbox]) -> Result<bool> {
        if announce.is_empty() {
            return self.apply_move(m).await;
        }
        let mut tx = self.write.begin().await?;
        let applied = match write_move(tx.conn(), &m).await {
            Ok(applied) => applied,
            Err(e) => {
                self.cache.forget(m.game);
                return Err(e.into());
            }
        };
        let done = if applied {
            let mut queued = Ok(());
            for row in announce {
                queued = insert_outbox(tx.conn(), row).await;
                if queued.is_err() {
                    break;
                }
            }
            match queued {
                Ok(()) => tx.commit().await.map_err(StoreError::from),
                Err(e) => Err(e),
            }
        } else {
            Ok(())
        };
        match done {
            Ok(()) if applied => {
                self.cache.moved(&m);
                self.bell.ring();
            }
            _ => self.cache.forget(m.game),
        }
        done.map(|()| applied)
    }
}

/// The texts of the statement that records a batch of moves, for every batch size it has.
#[cfg(feature = "test-support")]
fn every_batch(dialect: Dialect) -> Vec<String> {
    (0..=BATCH.ilog2())
        .map(|k| apply_moves_sql(dialect, 1 << k).to_string())
        .collect()
}

built_statement!(Sqlite, { every_batch(Dialect::Sqlite) });
built_statement!(Postgres, { every_batch(Dialect::Postgres) });
