//! Active games as this process last read or wrote them, so a move costs one statement (the
//! write) instead of two.
//!
//! The cache is a hint, never the truth: every move is written with the ply it was validated
//! against, and the database refuses it if the game moved on. A refused move drops the game from
//! the cache. Writes of this process keep it current: a grouped move updates its entry in place,
//! and a committed transaction that touched games drops them. A read that raced a write may not
//! fill the cache: fills carry the generation they started in, and any drop moves it on.
//!
//! Several processes may share a database (one per gateway shard). Each writes only the games of
//! its own servers, but a game's row also shows its players' own settings (a vacation, turn
//! notifications, a name), which a member may change through another process. So an entry is
//! read again once it is [`MAX_AGE`] old: a change made elsewhere shows within that, and a move
//! reads its game at most once per [`MAX_AGE`] (members' moves are minutes apart; only a
//! benchmark's are closer).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::domain::{GameId, GameState};

use super::{GameRow, MoveWrite};

/// Which games a transaction changed.
#[derive(Debug, Default)]
pub(crate) enum Touched {
    #[default]
    Nothing,
    Games(Vec<GameId>),
    /// Something every game row may show (a member's name).
    All,
}

impl Touched {
    pub fn game(&mut self, id: GameId) {
        match self {
            Touched::Nothing => *self = Touched::Games(vec![id]),
            Touched::Games(ids) => ids.push(id),
            Touched::All => {}
        }
    }

    pub fn all(&mut self) {
        *self = Touched::All;
    }
}

/// How long a row read from the database is trusted.
pub const MAX_AGE: Duration = Duration::from_secs(2);

#[derive(Debug, Default)]
struct Inner {
    generation: u64,
    /// Each row with when it was read from the database (moves written here since do not make
    /// it younger: they change only the game's own columns).
    rows: HashMap<GameId, (GameRow, Instant)>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct GameCache(Arc<Mutex<Inner>>);

impl GameCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The map is left consistent at every step; a panic elsewhere cannot corrupt it.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The cached row, or the generation a read started now must carry to fill the cache.
    pub fn get(&self, id: GameId) -> Result<GameRow, u64> {
        let mut inner = self.lock();
        match inner.rows.get(&id) {
            Some((row, read)) if read.elapsed() < MAX_AGE => Ok(row.clone()),
            Some(_) => {
                inner.rows.remove(&id);
                Err(inner.generation)
            }
            None => Err(inner.generation),
        }
    }

    /// Keeps a row read in `generation`, if it is an active game, nothing was dropped since,
    /// and no fresher copy got there first.
    pub fn fill(&self, generation: u64, row: &GameRow) {
        let mut inner = self.lock();
        if row.state == GameState::Active && inner.generation == generation {
            inner
                .rows
                .entry(row.id)
                .or_insert_with(|| (row.clone(), Instant::now()));
        }
    }

    /// A move was written: the entry follows if it held the ply the move was validated against;
    /// otherwise a read racing this write might fill it with the old row, so none may.
    pub fn moved(&self, m: &MoveWrite) {
        let mut inner = self.lock();
        match inner.rows.get_mut(&m.game) {
            Some((row, _)) if row.ply == m.ply => {
                row.ply += 1;
                row.position = m.position.to_string();
                row.last_move = Some(m.mv.to_string());
                row.deadline = m.deadline;
                row.reminded = false;
            }
            _ => {
                inner.rows.remove(&m.game);
                inner.generation += 1;
            }
        }
    }

    /// Forgets what a transaction (or a refused move) may have made stale.
    pub fn drop_touched(&self, touched: &Touched) {
        let mut inner = self.lock();
        match touched {
            Touched::Nothing => return,
            Touched::Games(ids) => {
                for id in ids {
                    inner.rows.remove(id);
                }
            }
            Touched::All => inner.rows.clear(),
        }
        inner.generation += 1;
    }

    pub fn forget(&self, id: GameId) {
        self.drop_touched(&Touched::Games(vec![id]));
    }
}
