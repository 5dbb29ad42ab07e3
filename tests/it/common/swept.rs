//! One pass of the clock, and what it announced, read back from the outbox the way a front end
//! reads it (and taken out of it, as a front end does once it has posted).

use breakthrough_bot::game::{
    Announced, Challenge, Error, Failure, Game, GameStatus, Services, Timestamp,
};

/// What a pass of the clock announced.
#[derive(Debug, Default)]
pub struct Swept {
    pub expired: Vec<Challenge>,
    /// Games lost on time by the side to move.
    pub timed_out: Vec<Game>,
    /// Games aborted because time ran out before both sides had moved.
    pub aborted: Vec<Game>,
    /// Games whose side to move was reminded.
    pub reminders: Vec<Game>,
    /// Turn notifications by direct message (reminders among them).
    pub turn_dms: usize,
}

impl Swept {
    pub fn is_empty(&self) -> bool {
        self.expired.is_empty()
            && self.timed_out.is_empty()
            && self.aborted.is_empty()
            && self.reminders.is_empty()
            && self.turn_dms == 0
    }
}

/// Sweeps `games` at `now`, then reads every announcement its servers have in the outbox.
pub async fn swept(games: &Services, now: Timestamp) -> Result<Swept, Failure> {
    let queued = games.play.sweep(now).await?;
    let mut swept = Swept::default();
    let mut announced = 0;
    for owed in games
        .outbox
        .due_announcements(Timestamp::MAX, 10_000)
        .await?
    {
        games.outbox.announced(owed.id).await?;
        let Ok(a) = &owed.announcement else { continue };
        let said = games.outbox.announcement(a).await.map_err(|e| match e {
            Error::Failed(f) => f,
            Error::Refused(gone) => panic!("an announcement about something gone: {gone:?}"),
        })?;
        match said {
            Some(Announced::ChallengeExpired(c)) => swept.expired.push(c),
            Some(Announced::TimedOut(g)) if matches!(g.status, GameStatus::Aborted { .. }) => {
                swept.aborted.push(g)
            }
            Some(Announced::TimedOut(g)) => swept.timed_out.push(g),
            Some(Announced::Reminder { game, .. }) => swept.reminders.push(game),
            Some(Announced::YourTurn { .. }) => {
                swept.turn_dms += 1;
                continue;
            }
            _ => continue,
        }
        announced += 1;
    }
    assert_eq!(announced, queued, "the sweep's count is what it queued");
    Ok(swept)
}
