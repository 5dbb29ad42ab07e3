//! Rematches: a finished game played again, colours swapped.

use super::{
    AccessRefusal, AiLevel, AiRequest, AiSlot, Challenge, ChallengeError, ChallengeRefusal,
    ChallengeRequest, Challenges, Game, GameRef, Member, Place, Reach, Result,
};

/// What a rematch started.
#[derive(Debug)]
pub enum Rematch {
    /// A challenge to the other player, to be answered as any other.
    Challenge(Challenge),
    /// Against the AI, the new game itself; with the AI's place in the queue when it has Black
    /// and opens (pass it to [`Play::ai_reply_with`](crate::game::Play::ai_reply_with)).
    AiGame(Box<Game>, Option<AiSlot>),
}

impl Challenges {
    /// The rematch of a game (by default `who`'s game in `at` that ended last), asked for by
    /// `who`, one of its players, from `at`: the same
    /// board, time per move and rated choice (a game the daily limit made casual is rematched
    /// casual), the colours swapped. Between members it is a
    /// challenge to the other player, under every limit a challenge has; against the AI the new
    /// game starts at once, at the same level. Each game is rematched once: a second press, or
    /// both players pressing at once, is refused.
    ///
    /// # Errors
    ///
    /// [`AccessRefusal::NoSuchGame`](crate::game::AccessRefusal::NoSuchGame) for a game `at` may not see, [`ChallengeRefusal::NothingToRematch`](crate::game::ChallengeRefusal::NothingToRematch)
    /// when `who` has no game over in `at`, [`AccessRefusal::NotAPlayer`](crate::game::AccessRefusal::NotAPlayer),
    /// [`ChallengeRefusal::RematchTooEarly`](crate::game::ChallengeRefusal::RematchTooEarly) while the game is still in progress,
    /// [`ChallengeRefusal::RematchTaken`](crate::game::ChallengeRefusal::RematchTaken) when its rematch was already offered; the refusals of
    /// [`Challenges::challenge`] and [`Challenges::challenge_ai_with_slot`] (each limit says which);
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn rematch(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
    ) -> Result<Rematch, ChallengeError> {
        let id = match which {
            GameRef::Id(id) => id,
            GameRef::Only => self
                .store
                .last_ended_game(who.id, at.channel)
                .await?
                .ok_or(ChallengeRefusal::NothingToRematch)?,
        };
        let old = self.game(id).await?;
        if !at.sees(old.place) {
            return Err(AccessRefusal::NoSuchGame(id).into());
        }
        let side = old.color_of(who.id).ok_or(AccessRefusal::NotAPlayer(id))?;
        if old.is_active() {
            return Err(ChallengeRefusal::RematchTooEarly(id).into());
        }
        let other = old.player(side.opposite()).clone();
        // The colours swapped: who had Black now has White.
        let color = Some(side.opposite());
        if let Some(ai) = old.ai {
            let req = AiRequest {
                place: old.place,
                challenger: who.clone(),
                ai: other,
                level: if ai.auto {
                    AiLevel::Auto
                } else {
                    AiLevel::Fixed(ai.level)
                },
                size: old.size,
                color,
                time: old.time,
                reach: if old.answers_only {
                    Reach::AnswersOnly
                } else {
                    Reach::Posts
                },
            };
            let (game, slot) = self.challenge_ai_as(req, Some(id)).await?;
            return Ok(Rematch::AiGame(Box::new(game), slot));
        }
        let req = ChallengeRequest {
            place: old.place,
            challenger: who.clone(),
            opponent: Some(other),
            size: old.size,
            color,
            time: old.time,
            rated: old.rated,
        };
        Ok(Rematch::Challenge(self.challenge_as(req, Some(id)).await?))
    }
}
