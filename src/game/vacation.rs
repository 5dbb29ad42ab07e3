//! Vacations: a member's clocks wait for them for a few days a year.

use std::time::Duration;

use super::{
    Announcement, Game, Member, Play, PlayError, PlayRefusal, Result, TimeControl, Timestamp, DAY,
};

/// What `/vacation` did.
#[derive(Clone, Debug, PartialEq)]
pub struct VacationChange {
    /// When the member is back: the vacation's end, or now for one ended early.
    pub until: Timestamp,
    /// Whether a vacation began (else one ended).
    pub started: bool,
    /// Days of the year's allowance left after this.
    pub days_left: i64,
    /// The member's games in progress, as they stand now: on a vacation begun, each opponent
    /// (but the AI) is told, once.
    pub games: Vec<Game>,
}

impl Play {
    /// Starts a vacation of `days` days for `who` (or with 0 ends theirs, giving back the days
    /// not taken): until it ends, the clocks of their games wait for them, in every server, while
    /// their opponents' clocks run as usual. At most [`Limits::vacation_days`](super::Limits)
    /// days in any 365; a part of a day counts as a day. The member can still move, and moving
    /// ends the vacation. On a vacation begun, each game's opponent (but the AI) is told in the
    /// game's channel, queued in the outbox with the change.
    ///
    /// # Errors
    ///
    /// [`PlayRefusal::VacationDays`](crate::game::PlayRefusal::VacationDays) for a number of days outside the allowance,
    /// [`PlayRefusal::AlreadyOnVacation`](crate::game::PlayRefusal::AlreadyOnVacation), [`PlayRefusal::NotOnVacation`](crate::game::PlayRefusal::NotOnVacation) (for 0);
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn vacation(&self, who: &Member, days: i64) -> Result<VacationChange, PlayError> {
        let now = self.now();
        let allowance = self.limits.vacation_days;
        let taken = self.vacation_days_taken(who, now).await?;
        let mut tx = self.store.begin().await?;
        let away = tx.away_until(who.id).await?.filter(|&t| t > now);
        let started = match (days, away) {
            (0, None) => return Err(PlayRefusal::NotOnVacation.into()),
            (0, Some(until)) => {
                tx.end_vacation(who.id, now, until).await?;
                false
            }
            (_, Some(until)) => return Err(PlayRefusal::AlreadyOnVacation(until).into()),
            (days, None) if days < 0 || days > allowance - taken => {
                return Err(PlayRefusal::VacationDays {
                    asked: days,
                    left: (allowance - taken).max(0),
                }
                .into())
            }
            (days, None) => {
                tx.start_vacation(who.id, now, now + days_long(days))
                    .await?;
                true
            }
        };
        let until = if started { now + days_long(days) } else { now };
        let rows = tx.active_games_of(who.id).await?;
        if started {
            for row in &rows {
                let opponent_is_ai = row.players.find(|p| p.is_bot).is_some();
                if !opponent_is_ai {
                    let told = Announcement::Vacation {
                        game: row.id,
                        member: who.id,
                        until,
                    };
                    tx.insert_outbox(&told.row(super::rows::row_place(row), now)?)
                        .await?;
                }
            }
        }
        tx.commit().await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            games.push(self.game_known(row.id).await?);
        }
        // Days given back: the part of a day begun counts as taken.
        let taken_now = self.vacation_days_taken(who, now).await?;
        Ok(VacationChange {
            until,
            started,
            days_left: (allowance - taken_now).max(0),
            games,
        })
    }

    /// Days of vacation `who` has taken or booked in the 365 days before `now`, each part of a
    /// day counted as a day.
    async fn vacation_days_taken(&self, who: &Member, now: Timestamp) -> Result<i64> {
        let taken = self.store.vacations_since(who.id, now - DAY * 365).await?;
        let days = |(from, to): &(Timestamp, Timestamp)| {
            let days = (*to - *from).as_secs().div_ceil(DAY.as_secs());
            i64::try_from(days).unwrap_or(i64::MAX)
        };
        Ok(taken.iter().map(days).sum())
    }
}

/// `days` days (none for fewer than none).
fn days_long(days: i64) -> Duration {
    Duration::from_secs(
        DAY.as_secs()
            .saturating_mul(u64::try_from(days).unwrap_or(0)),
    )
}

/// The deadline of a turn that begins at `now` for a player back from vacation at `back` (their
/// latest vacation's end, if any): the full time per move, counted from their return when that
/// is still to come.
pub(super) fn turn_deadline(
    now: Timestamp,
    time: TimeControl,
    back: Option<Timestamp>,
) -> Timestamp {
    back.map_or(now, |b| b.max(now)) + time.duration()
}
