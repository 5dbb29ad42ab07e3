//! Moves, each checked against the game's ply. On SQLite they are written in batches, one
//! statement per group (one writer: the statements are what it spends its time on); on
//! PostgreSQL each is one `UPDATE … WHERE ply = $n` of its own, several at once, kept apart by
//! the game row's lock.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

use sqlx::any::{Any, AnyArguments};
use sqlx::AnyConnection;

use crate::domain::GameId;
use crate::rules::{Move, Position};

use super::writer::Writer;
use super::{
    insert_outbox, refused_by_trigger, Backend, GameCache, MoveRow, NewOutbox, Result, Shared,
    Store, StoreError, BATCH,
};

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
    pub deadline: i64,
    pub now: i64,
}

/// Records moves of many games at once, all or none: `ply` is set to the ply each move was
/// validated against plus one, and if any game moved on meanwhile, `games_ply_steps_by_one`
/// (migration 0004) refuses the whole statement. The statement for `rows` moves, `rows` a power
/// of two up to [`BATCH`]: a batch is padded with rows that match no game, so that a handful of
/// statements, each prepared once, serve every batch size. (Rows bound as values cost SQLite less
/// than the same rows read out of one JSON argument.)
fn apply_moves_sql(rows: usize) -> &'static str {
    static BY_ROWS: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..=BATCH.ilog2())
            .map(|k| {
                let values = vec!["(?, ?, ?, ?, ?, ?)"; 1 << k].join(", ");
                format!(
                    "UPDATE games SET ply = v.column2 + 1, position = v.column3,
                         last_move = v.column4, last_move_at = v.column5, deadline = v.column6,
                         reminded = 0
                     FROM (VALUES {values}) AS v
                     WHERE games.id = v.column1"
                )
            })
            .collect()
    });
    let k = rows.max(1).next_power_of_two().ilog2() as usize;
    BY_ROWS[k.min(BY_ROWS.len() - 1)].as_str()
}

/// Serves a batch of moves. A statement takes at most one move per game (SQLite would apply
/// an arbitrary one of several); further moves for the same game go in the next statement,
/// where the ply check turns them away.
pub(super) async fn apply_moves(
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
        let (now, later): (Vec<usize>, Vec<usize>) =
            left.into_iter().partition(|&i| seen.insert(batch[i].game));
        let group: Vec<&MoveWrite> = now.iter().map(|&i| &batch[i]).collect();
        let applied = apply_group(held.conn(), &group).await;
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

/// Writes a group of moves, one per game, and says which applied. The group goes as one
/// statement; only if a game in it moved on does each move go on its own, to find which.
async fn apply_group(conn: &mut AnyConnection, group: &[&MoveWrite]) -> Shared<Vec<bool>> {
    match moves_statement(group).execute(&mut *conn).await {
        Ok(done) if done.rows_affected() == group.len() as u64 => Ok(vec![true; group.len()]),
        Err(e) if !refused_by_trigger(&e) => Err(Arc::new(e)),
        short_or_refused => {
            // Refused: nothing was written. Otherwise some game of the group does not exist
            // (the others applied), which no move validated against a stored game can meet.
            let wrote = short_or_refused.is_ok();
            let mut applied = Vec::with_capacity(group.len());
            for &m in group {
                applied.push(if wrote {
                    sqlx::query_scalar::<_, i64>("SELECT count(*) FROM games WHERE id = $1")
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

/// One move on its own: the game's row, if it is still active at the ply the move was
/// validated against. The `moves` row is written by `games_record_move`.
const MOVE_SQL: &str = "UPDATE games SET ply = ply + 1, position = $3, last_move = $4,
         last_move_at = $5, deadline = $6, reminded = 0
     WHERE id = $1 AND ply = $2 AND state = 'active'";

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
async fn write_move(conn: &mut AnyConnection, m: &MoveWrite) -> sqlx::Result<bool> {
    match move_statement(m).execute(conn).await {
        Ok(done) => Ok(done.rows_affected() == 1),
        Err(e) if refused_by_trigger(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The grouped move statement with `group` bound, padded as [`apply_moves_sql`] says.
fn moves_statement(group: &[&MoveWrite]) -> sqlx::query::Query<'static, Any, AnyArguments> {
    let mut q = sqlx::query(apply_moves_sql(group.len()));
    for m in group {
        q = q
            .bind(m.game)
            .bind(i64::from(m.ply))
            .bind(m.position)
            .bind(m.mv.to_string())
            .bind(m.now)
            .bind(m.deadline);
    }
    for _ in group.len()..group.len().next_power_of_two() {
        q = q
            .bind(None::<i64>)
            .bind(None::<i64>)
            .bind(None::<String>)
            .bind(None::<String>)
            .bind(None::<i64>)
            .bind(None::<i64>);
    }
    q
}

impl Store {
    /// Records the move of ply `m.ply` if the game is still active at that ply: the concurrency
    /// check. False (and nothing written) when another move got there first. Moves queued
    /// together are written by one statement, atomic on its own; the `moves` rows are written by
    /// the `games_record_move` trigger.
    pub async fn apply_move(&self, m: MoveWrite) -> Result<bool> {
        match &self.backend {
            Backend::Sqlite { moves, .. } => match moves.call(m).await {
                Some(answer) => answer.map_err(StoreError::Batch),
                None => Err(StoreError::Sqlx(sqlx::Error::PoolClosed)),
            },
            Backend::Postgres => self.apply_move_announced(m, &[]).await,
        }
    }

    pub async fn moves(&self, game: GameId) -> Result<Vec<MoveRow>> {
        Ok(
            sqlx::query_as("SELECT * FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(game)
                .fetch_all(&self.read)
                .await?,
        )
    }

    /// Records a move like [`Store::apply_move`], and queues its announcements in the same write
    /// transaction: for the few moves that are announced later (the AI's answers the sweeper
    /// makes, a turn told by direct message), off SQLite's grouped path of members' moves. With
    /// nothing to announce the move is one statement, its own transaction.
    pub async fn apply_move_announced(&self, m: MoveWrite, announce: &[NewOutbox]) -> Result<bool> {
        if announce.is_empty() {
            let mut held = self.write.lock().await?;
            let applied = write_move(held.conn(), &m).await;
            match applied {
                Ok(true) => self.cache.moved(&m),
                _ => self.cache.forget(m.game),
            }
            return Ok(applied?);
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
            Ok(()) if applied => self.cache.moved(&m),
            _ => self.cache.forget(m.game),
        }
        done.map(|()| applied)
    }
}
