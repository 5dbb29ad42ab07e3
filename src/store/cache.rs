//! Active games as this process last read or wrote them, so a move costs one statement (the
//! write) instead of two.
//!
//! The cache is a hint, never the truth: every move is written with the ply it was validated
//! against, and the database refuses it if the game moved on. A refused move drops the game from
//! the cache. Writes of this process keep it current: a grouped move updates its entry in place,
//! and a committed transaction that touched games drops them. A read that raced a write may not
//! fill the cache: fills carry the generation they started in, and any drop moves it on.
//!
//! A database is served by one bot process; a change made by another process is seen at the
//! next read of that game after its next refused move.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

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

#[derive(Debug, Default)]
struct Inner {
    generation: u64,
    rows: HashMap<GameId, GameRow>,
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
        let inner = self.lock();
        inner.rows.get(&id).cloned().ok_or(inner.generation)
    }

    /// Keeps a row read in `generation`, if it is an active game, nothing was dropped since,
    /// and no fresher copy got there first.
    pub fn fill(&self, generation: u64, row: &GameRow) {
        let mut inner = self.lock();
        if row.state == GameState::Active && inner.generation == generation {
            inner.rows.entry(row.id).or_insert_with(|| row.clone());
        }
    }

    /// A move was written: the entry follows if it held the ply the move was validated against;
    /// otherwise a read racing this write might fill it with the old row, so none may.
    pub fn moved(&self, m: &MoveWrite) {
        let mut inner = self.lock();
        match inner.rows.get_mut(&m.game) {
            Some(row) if row.ply == m.ply => {
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
