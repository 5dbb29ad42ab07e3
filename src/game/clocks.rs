//! The clock sweep: expires challenges, ends games on time and sends the one reminder per
//! deadline.

use crate::store::GameRow;

use super::rows::position_of;

use super::error::MovedOn;
use super::{
    Announcement, EndReason, Error, Place, Play, Result, Teams, Timestamp, TournamentState,
    Tournaments, BOTH_SIDES_MOVED,
};

impl Play {
    /// One pass of the clock at `now`: expires challenges, ends games whose side to move ran out
    /// of time (a loss, rated; an abort if a side has not moved yet), and takes the reminders due.
    /// Each of these is queued as an [`Announcement`] in the same transaction as the change
    /// itself (a reminder with the turn's direct message, for a member who asked for them).
    /// Returns how many changes it announced. A game that cannot be ended is logged with its id
    /// and left for the next pass; the others go on.
    ///
    /// # Errors
    ///
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database
    /// fails. A game that cannot be ended is logged and left for the next pass, not an error.
    pub async fn sweep(&self, now: Timestamp) -> Result<usize> {
        let mut tx = self.store.begin().await?;
        let expired = tx.expire_challenges(now, self.servers).await?;
        let reminders = tx
            .take_due_reminders(now, self.limits.reminder_fraction, self.servers)
            .await?;
        for c in &expired {
            let place = Place {
                guild: c.guild_id,
                channel: c.channel_id,
            };
            let a = Announcement::ChallengeExpired { challenge: c.id };
            tx.insert_outbox(&a.row(place, now)?).await?;
        }
        for r in &reminders {
            let place = Place {
                guild: r.guild_id,
                channel: r.channel_id,
            };
            let a = Announcement::Reminder {
                game: r.id,
                member: r.to_move,
                deadline: r.deadline,
            };
            tx.insert_outbox(&a.row(place, now)?).await?;
            if tx.notifies_dm(r.to_move).await? {
                let dm = Announcement::YourTurn {
                    game: r.id,
                    member: r.to_move,
                    ply: r.ply,
                    reminder: true,
                };
                tx.insert_outbox(&dm.row(place, now)?).await?;
            }
        }
        tx.commit().await?;
        let mut announced = expired.len() + reminders.len();
        announced += Tournaments::of(&self.core).sweep_tournaments(now).await?;
        // Each time-out is written on its own, checked against the ply it was read at: a move
        // that comes in first wins, and the game is left alone.
        // A vote game's deadline closes its channel's window.
        let teams = Teams::of(&self.core);
        announced += teams.close_windows(now).await?.len();
        for row in self.store.overdue_games(now, self.servers).await? {
            match self.time_out(&row, now).await {
                Ok(true) => announced += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(game = %row.id, error = ?e, "could not end an overdue game")
                }
            }
        }
        announced += teams.credit_ended(now).await?;
        Ok(announced)
    }

    /// Ends the overdue game of `row` at the ply it was read at: lost by the side to move, or
    /// aborted before both sides have moved. `false` when a move got there first.
    async fn time_out(&self, row: &GameRow, now: Timestamp) -> Result<bool> {
        let position = position_of(row)?;
        // A game of a running tournament is lost on time whenever its clock runs out: it has a
        // result. Once the tournament is cancelled, its games are ordinary games.
        let in_play = match row.tournament_id {
            Some(id) => self.store.tournament_state(id).await? == Some(TournamentState::Running),
            None => false,
        };
        let (winner, reason) = if row.ply < BOTH_SIDES_MOVED && !in_play {
            (None, EndReason::Aborted)
        } else {
            (Some(position.turn().opposite()), EndReason::Timeout)
        };
        let announce = Some(Announcement::TimedOut { game: row.id });
        match self
            .end(row, Some(row.ply), None, winner, reason, now, announce)
            .await
        {
            Ok(_) => Ok(true),
            Err(Error::Refused(MovedOn)) => Ok(false),
            Err(Error::Failed(f)) => Err(f),
        }
    }
}
