//! Games against the AI: starting one, and its replies, each search holding a slot of a bounded
//! queue.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::engine::{self, Level};
use crate::rules::{ByColor, Color, Position};
use crate::store::NewGame;

use super::challenges::Whose;
use super::error::engine;
use super::policy::color_or_drawn;
use super::vacation::turn_deadline;
use super::{
    AccessRefusal, AiLevel, AiRequest, Announcement, ChallengeError, ChallengeRefusal, Challenges,
    Core, Error, Game, GameId, MemberId, Play, PlayError, PlayRefusal, Played, QueueRefusal, Reach,
    Result,
};

/// A place in the AI's queue, held for one member's game from before the move the AI must
/// answer is written until its reply is: a move is never taken that the AI cannot answer. Given
/// back when dropped, whatever happened; a game whose reply was lost waits for
/// [`Play::ai_games_to_move`].
#[derive(Debug)]
pub struct AiSlot {
    game: GameId,
    member: MemberId,
    work: Work,
    members: Arc<Mutex<HashMap<MemberId, (GameId, Work)>>>,
    _place: tokio::sync::OwnedSemaphorePermit,
}

/// What a place in the AI's queue is for: a reply in a game against the AI, or the analysis of
/// a game (see `analysis`). A member has one of either at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Work {
    Reply,
    Analysis,
}

/// Who shows the AI's move: the front end that asked for it, in its answer, or the outbox, for a
/// reply no one waits on, in a post of its own or in the announcement given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Told {
    ByCaller,
    ByOutbox,
    In(Announcement),
}

impl AiSlot {
    /// The game whose reply this place is for.
    pub fn game(&self) -> GameId {
        self.game
    }
}

impl Drop for AiSlot {
    fn drop(&mut self) {
        metrics::gauge!(crate::telemetry::AI_QUEUE).decrement(1);
        let mut members = self.members.lock().unwrap_or_else(PoisonError::into_inner);
        if members.get(&self.member) == Some(&(self.game, self.work)) {
            members.remove(&self.member);
        }
    }
}

/// The engine's seed for the AI's move at `ply` of game `id`: the same game and ply always give
/// the same move, so a replay, a test or a second racing reply agrees with the first.
fn ai_seed(id: GameId, ply: u32) -> u64 {
    id.get()
        .cast_unsigned()
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(17)
        ^ u64::from(ply).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

impl Challenges {
    /// Starts a game against the built-in AI at once: no accept step, never rated. Allowed in
    /// direct messages too (`place.guild == 0`). The challenger's game limits apply (all games,
    /// and games against the AI); the AI has none. When the AI has Black it is to move: call
    /// [`Play::ai_reply`] next.
    ///
    /// # Errors
    ///
    /// As [`Challenges::challenge_ai_with_slot`].
    pub async fn challenge_ai(&self, req: AiRequest) -> Result<Game, ChallengeError> {
        Ok(self.challenge_ai_with_slot(req).await?.0)
    }

    /// [`Challenges::challenge_ai`], keeping the AI's place in the queue when it has Black: pass it to
    /// [`Play::ai_reply_with`]. With the queue full, no game is started.
    ///
    /// # Errors
    ///
    /// [`ChallengeRefusal::SelfChallenge`](crate::game::ChallengeRefusal::SelfChallenge) when the AI is the challenger, [`ChallengeRefusal::TooManyGames`](crate::game::ChallengeRefusal::TooManyGames) or
    /// [`ChallengeRefusal::TooManyAiGames`](crate::game::ChallengeRefusal::TooManyAiGames) past a limit, [`QueueRefusal::Full`](crate::game::QueueRefusal::Full) when the AI must move
    /// first and its queue is full; [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full,
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn challenge_ai_with_slot(
        &self,
        req: AiRequest,
    ) -> Result<(Game, Option<AiSlot>), ChallengeError> {
        self.challenge_ai_as(req, None).await
    }

    /// [`Challenges::challenge_ai_with_slot`], as the rematch of game `rematch_of` when given:
    /// recorded in the same write, and refused with [`ChallengeRefusal::RematchTaken`](crate::game::ChallengeRefusal::RematchTaken) when that
    /// rematch was already offered.
    pub(super) async fn challenge_ai_as(
        &self,
        req: AiRequest,
        rematch_of: Option<GameId>,
    ) -> Result<(Game, Option<AiSlot>), ChallengeError> {
        let now = self.now();
        if req.ai.id == req.challenger.id {
            return Err(ChallengeRefusal::SelfChallenge.into());
        }
        let mut tx = self.store.begin().await?;
        self.check_game_limit(&mut tx, &req.challenger, Whose::Callers)
            .await?;
        if tx.count_active_ai_games(req.challenger.id).await? >= self.limits.ai_games {
            return Err(ChallengeRefusal::TooManyAiGames(self.limits.ai_games).into());
        }
        tx.upsert_member(
            req.place.guild,
            req.challenger.id,
            req.challenger.name.as_str(),
            now,
        )
        .await?;
        tx.upsert_bot(req.place.guild, req.ai.id, req.ai.name.as_str(), now)
            .await?;
        if let Some(game) = rematch_of {
            if !tx.claim_rematch(game, now).await? {
                return Err(ChallengeRefusal::RematchTaken(game).into());
            }
        }
        let (level, auto) = match req.level {
            AiLevel::Fixed(level) => (level, false),
            AiLevel::Auto => {
                let results = tx.auto_results(req.challenger.id, req.size).await?;
                (auto_level(&results), true)
            }
        };
        let color = color_or_drawn(req.color);
        let (black, white) = match color {
            Color::Black => (req.challenger.id, req.ai.id),
            Color::White => (req.ai.id, req.challenger.id),
        };
        // Black moves first; on vacation, their clock starts when they are back.
        let black_back = tx.away_until(black).await?;
        let id = tx
            .insert_game(&NewGame {
                guild_id: req.place.guild,
                channel_id: req.place.channel,
                players: ByColor::new(black, white),
                size: req.size,
                time_limit: req.time,
                rated: false,
                position: Position::new(req.size),
                deadline: turn_deadline(now, req.time, black_back),
                created_at: now,
                ai_level: Some(level),
                ai_auto: auto,
                answers_only: req.reach == Reach::AnswersOnly,
            })
            .await?;
        // Where the bot only answers, it opens no thread either.
        if req.reach == Reach::Posts {
            if let Some(thread) = self.thread_for(id, req.place, now).await? {
                tx.insert_outbox(&thread).await?;
            }
        }
        // Before the commit: a game the AI could not open is not started.
        let slot = match color {
            Color::White => Some(self.ai_slot(req.challenger.id, id)?),
            Color::Black => None,
        };
        tx.commit().await?;
        Ok((self.game_known(id).await?, slot))
    }
}

/// The level that meets a member on a board, from their results there in games at it, oldest
/// first (`true`: won): level 2 to start with, one up after two wins in a row, one down after a
/// loss, within 1 to 5.
pub(super) fn auto_level(results: &[bool]) -> Level {
    let (mut level, mut wins) = (2u8, 0u8);
    for &won in results {
        if won {
            wins += 1;
            if wins == 2 {
                level = (level + 1).min(5);
                wins = 0;
            }
        } else {
            level = level.saturating_sub(1).max(1);
            wins = 0;
        }
    }
    Level::new(level).unwrap_or(Level::MIN)
}

impl Core {
    /// A place in the AI's queue to answer `member` in game `game`, taken without waiting:
    /// refused when the member already has a search queued or running, or when the queue is full.
    pub(super) fn ai_slot(&self, member: MemberId, game: GameId) -> Result<AiSlot, QueueRefusal> {
        self.ai_slot_for(member, game, Work::Reply)
    }

    /// [`Core::ai_slot`] for `work`: refused with what the member's place is already held for.
    pub(super) fn ai_slot_for(
        &self,
        member: MemberId,
        game: GameId,
        work: Work,
    ) -> Result<AiSlot, QueueRefusal> {
        let mut members = self
            .ai_members
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(&(busy, held_for)) = members.get(&member) {
            return Err(match held_for {
                Work::Reply => QueueRefusal::AiBusyForYou(busy),
                Work::Analysis => QueueRefusal::AnalysisBusyForYou(busy),
            });
        }
        let place = self
            .ai_queue
            .clone()
            .try_acquire_owned()
            .map_err(|_| QueueRefusal::Full)?;
        members.insert(member, (game, work));
        metrics::gauge!(crate::telemetry::AI_QUEUE).increment(1);
        Ok(AiSlot {
            game,
            member,
            work,
            members: self.ai_members.clone(),
            _place: place,
        })
    }
}

impl Play {
    /// The AI's answer in game `id`, if it is an active game against the AI with the AI to move:
    /// the engine thinks on the blocking thread pool (the same seed for the same game and ply),
    /// and its move is written like a member's, with the ply check. `Ok(None)` when there is
    /// nothing to answer, or when another reply to the same position got there first or is
    /// already on its way: of two replies racing, exactly one applies.
    ///
    /// Takes a place in the AI's queue first, without waiting: [`QueueRefusal::Full`](crate::game::QueueRefusal::Full) or
    /// [`QueueRefusal::AiBusyForYou`](crate::game::QueueRefusal::AiBusyForYou) (the member's search in another game) leave the game waiting,
    /// listed by [`Play::ai_games_to_move`], to be answered again later.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails. The AI's move is never refused: it is legal
    /// by construction.
    pub async fn ai_reply(&self, id: GameId) -> Result<Option<Played>, PlayError> {
        self.ai_move(id, Told::ByCaller).await
    }

    /// [`Play::ai_reply`], with the move's announcement queued in the same write if `told` says
    /// so.
    pub(super) async fn ai_move(
        &self,
        id: GameId,
        told: Told,
    ) -> Result<Option<Played>, PlayError> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(AccessRefusal::NoSuchGame(id))?;
        let game = self.game_from_row(row).await?;
        let Some(ai) = game.ai.filter(|_| game.ai_to_move()) else {
            return Ok(None);
        };
        let member = game.player(ai.color.opposite()).id;
        let slot = match self.ai_slot(member, id) {
            Ok(slot) => slot,
            Err(QueueRefusal::AiBusyForYou(busy)) if busy == id => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        self.answer_with(slot, told).await
    }

    /// The AI's answer in the game of `slot`, taken before the member's move (or the game) was
    /// written: as [`Play::ai_reply`], with the place in the queue already held.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn ai_reply_with(&self, slot: AiSlot) -> Result<Option<Played>, PlayError> {
        self.answer_with(slot, Told::ByCaller).await
    }

    /// The AI's answer with its place in the queue, its announcement queued in the same write if
    /// `told` says so.
    pub(super) async fn answer_with(
        &self,
        slot: AiSlot,
        told: Told,
    ) -> Result<Option<Played>, PlayError> {
        let id = slot.game;
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(AccessRefusal::NoSuchGame(id))?;
        let game = self.game_from_row(row.clone()).await?;
        let Some(ai) = game.ai.filter(|_| game.ai_to_move()) else {
            return Ok(None);
        };
        let position = game.position;
        let seed = ai_seed(id, row.ply);
        let level = ai.level;
        let permit = self
            .thinkers
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| engine(e.to_string()))?;
        let chosen = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let started = std::time::Instant::now();
            let chosen = engine::best_move(&position, level, seed);
            metrics::histogram!(crate::telemetry::AI_THINKING_SECONDS).record(started.elapsed());
            chosen
        })
        .await
        .map_err(|e| engine(e.to_string()))?;
        let mv =
            chosen.ok_or_else(|| engine(format!("no move in game {id} at ply {}", row.ply)))?;
        let announce = match told {
            Told::ByCaller => None,
            Told::ByOutbox => Some(Announcement::AiMoved {
                game: id,
                ply: game.ply + 1,
            }),
            Told::In(a) => Some(a),
        };
        // The AI is not held to its clock: a reply delayed by a restart still counts.
        match self
            .apply(row, &game.position, mv, self.now(), announce)
            .await
        {
            Ok(played) => Ok(Some(played)),
            Err(Error::Refused(PlayRefusal::PositionChanged)) => Ok(None),
            // An illegal move from the engine is its fault, not a member's.
            Err(Error::Refused(PlayRefusal::Move(e))) => {
                Err(engine(format!("illegal move {mv} in game {id}: {e}")).into())
            }
            Err(e) => Err(e),
        }
    }

    /// Games against the AI where the AI is to move and has been for at least `waiting`:
    /// what a restart left unanswered. Front ends answer them with [`Play::ai_reply`].
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn ai_games_to_move(&self, waiting: Duration) -> Result<Vec<GameId>> {
        Ok(self
            .store
            .ai_games_to_move(self.now() - waiting, self.servers)
            .await?)
    }

    /// The AI's answer in game `id`, as [`Play::ai_reply`], with its announcement queued in the
    /// same write: for the replies no member is waiting on (a restart left them).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn ai_reply_announced(&self, id: GameId) -> Result<Option<Played>, PlayError> {
        self.ai_move(id, Told::ByOutbox).await
    }

    /// The AI's answer with its place in the queue, as [`Play::ai_reply_with`], with its
    /// announcement queued in the same write: for a reply the member's command can no longer
    /// show (its response closed while the AI thought).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn ai_reply_with_announced(&self, slot: AiSlot) -> Result<Option<Played>, PlayError> {
        self.answer_with(slot, Told::ByOutbox).await
    }
}

#[cfg(test)]
mod tests {
    use super::auto_level;

    fn level(results: &[bool]) -> u8 {
        auto_level(results).number()
    }

    #[test]
    fn two_wins_in_a_row_go_up_a_loss_goes_down_within_one_to_five() {
        assert_eq!(level(&[]), 2);
        assert_eq!(level(&[true]), 2);
        assert_eq!(level(&[true, true]), 3);
        // A loss between two wins: no pair, and one down.
        assert_eq!(level(&[true, false, true]), 1);
        assert_eq!(level(&[true, true, true, true]), 4);
        assert_eq!(level(&[true; 20]), 5);
        assert_eq!(level(&[false, false, false]), 1);
        assert_eq!(level(&[false, false, true, true]), 2);
        // The pair starts again after each step up.
        assert_eq!(level(&[true, true, true, false]), 2);
    }
}
