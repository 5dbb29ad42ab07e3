//! `/analyze`: the engine's look back at a game, run in the AI's queue under its limits (its
//! words are in [`crate::text`]).
//!
//! A game between members can be analysed once it is over (the engine must not help a player
//! during play); a game against the AI at any time. Each position is judged on the blocking
//! thread pool, one at a time, each holding one of the AI's thinkers only while it is judged, so
//! replies the AI owes other members take their turn between two positions.

use crate::engine::analysis::{self, Analysis, Judged};
use crate::rules::{replay, Position};

use super::ai::Work;
use super::error::{corrupt, engine};
use super::{
    AccessRefusal, AiSlot, Game, GameId, MemberId, Place, Result, Standings, StandingsError,
    StandingsRefusal,
};

/// A game cleared for analysis, with the place in the AI's queue it holds until it is analysed
/// (or dropped).
#[derive(Debug)]
pub struct QueuedAnalysis {
    game: Game,
    moves: Vec<crate::rules::Move>,
    _slot: AiSlot,
}

impl QueuedAnalysis {
    /// The game to be analysed.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

/// A game and the engine's look back at it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub game: Game,
    pub analysis: Analysis,
}

impl Standings {
    /// Clears game `id` for analysis by `who`, asked from `at`, and takes `who`'s place in the
    /// AI's queue for it, without waiting. Nothing is written.
    ///
    /// # Errors
    ///
    /// [`AccessRefusal::NoSuchGame`](crate::game::AccessRefusal::NoSuchGame) for a game that does not exist or is not seen from `at` (as
    /// [`Standings::history`]); [`StandingsRefusal::AnalysisInProgress`](crate::game::StandingsRefusal::AnalysisInProgress) for a game between members still
    /// being played; [`QueueRefusal::AiBusyForYou`](crate::game::QueueRefusal::AiBusyForYou) or [`QueueRefusal::AnalysisBusyForYou`](crate::game::QueueRefusal::AnalysisBusyForYou) while the
    /// member's AI reply or analysis is on its way, [`QueueRefusal::Full`](crate::game::QueueRefusal::Full) when the queue is
    /// full; [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn queue_analysis(
        &self,
        who: MemberId,
        at: Place,
        id: GameId,
    ) -> Result<QueuedAnalysis, StandingsError> {
        let game = self.game(id).await?;
        if !at.sees(game.place) {
            return Err(AccessRefusal::NoSuchGame(id).into());
        }
        if game.is_active() && game.ai.is_none() {
            return Err(StandingsRefusal::AnalysisInProgress(id).into());
        }
        let notation: Vec<String> = self
            .store
            .moves(id)
            .await?
            .into_iter()
            .map(|m| m.notation)
            .collect();
        let (_, moves) = replay(game.size, notation.iter().map(String::as_str))
            .map_err(|(i, e)| corrupt(format!("game {id} move {}: {e}", i + 1)))?;
        let slot = self.ai_slot_for(who, id, Work::Analysis)?;
        Ok(QueuedAnalysis {
            game,
            moves,
            _slot: slot,
        })
    }

    /// Analyses a queued game: every position judged by the engine, one after the other on the
    /// blocking thread pool. Gives the place in the AI's queue back when done.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the engine's thread fails.
    pub async fn analyze_queued(&self, queued: QueuedAnalysis) -> Result<GameAnalysis> {
        let start = Position::new(queued.game.size);
        let positions = analysis::positions(&start, &queued.moves)
            .map_err(|(i, e)| corrupt(format!("game {} move {}: {e}", queued.game.id, i + 1)))?;
        let mut judged: Vec<Judged> = Vec::with_capacity(positions.len());
        for &position in &positions {
            let permit = self
                .thinkers
                .clone()
                .acquire_owned()
                .await
                .map_err(|e| engine(e.to_string()))?;
            let one = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                analysis::judge(&position)
            })
            .await
            .map_err(|e| engine(e.to_string()))?;
            judged.push(one);
        }
        let analysis = Analysis::from_judged(&positions, &judged, &queued.moves);
        Ok(GameAnalysis {
            game: queued.game,
            analysis,
        })
    }

    /// [`Standings::queue_analysis`], then [`Standings::analyze_queued`].
    ///
    /// # Errors
    ///
    /// As those two.
    pub async fn analyze(
        &self,
        who: MemberId,
        at: Place,
        id: GameId,
    ) -> Result<GameAnalysis, StandingsError> {
        let queued = self.queue_analysis(who, at, id).await?;
        Ok(self.analyze_queued(queued).await?)
    }
}
