//! The daily puzzle: one a day (UTC) for each server, the same for all its members, chosen from
//! the [`PUZZLE_SIZE`] pool by the server and the day (puzzles that were the server's daily
//! before are left out while others remain). A member plays it as any puzzle, with
//! [`Puzzles::puzzle_move`](crate::game::Puzzles::puzzle_move); nobody is shown its answer before they have tried it.
//!
//! The server's public post of the day shows how many members solved it: its message is stored
//! ([`Puzzles::set_daily_post`](crate::game::Puzzles::set_daily_post)), and every count that changes ([`DailyPuzzle::count`],
//! [`PuzzleResult::daily`]) carries it, for the front end to edit the post.

use crate::rules::{Color, Move, Position};

use super::{
    count, judge, own_moves, plies_of, refused, solution_of, view_of, PuzzleResult, PuzzleState,
    PuzzleStep, PuzzleView, PUZZLE_SIZE,
};
use crate::game::{
    ChannelId, GuildId, Member, MessageId, Place, PuzzleError, PuzzleId, PuzzleRefusal, Puzzles,
    RatingValue, Result,
};
use crate::store::ProgressRow;

/// How many members solved a server's daily puzzle, and tried it, with its public post.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailyCount {
    pub guild: GuildId,
    pub day: time::Date,
    pub solved: u32,
    pub tried: u32,
    /// The channel and message of the day's public post, once posted.
    pub post: Option<(ChannelId, MessageId)>,
}

/// A member's side of the daily puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum DailyYours {
    /// They are solving it (given now, or shown again).
    Playing(PuzzleView),
    /// They are solving another puzzle, shown again: the daily one waits until it is done.
    Busy(PuzzleView),
    /// They tried it: whether they solved it, and its winning line from the start.
    Tried {
        solved: bool,
        line: Vec<Move>,
        end: Position,
    },
}

/// A server's puzzle of the day.
#[derive(Clone, Debug, PartialEq)]
pub struct DailyPuzzle {
    pub count: DailyCount,
    pub id: PuzzleId,
    /// The puzzle's position, the attacker to move: what the public post shows.
    pub start: Position,
    pub attacker: Color,
    pub moves_to_win: u32,
    pub rating: RatingValue,
    pub yours: DailyYours,
}

/// The Julian day number a day is stored as.
fn day_number(date: time::Date) -> i64 {
    i64::from(date.to_julian_day())
}

/// The day of a stored day number.
pub(super) fn date_of(day: i64) -> Option<time::Date> {
    time::Date::from_julian_day(i32::try_from(day).ok()?).ok()
}

/// The index among `len` puzzles that is `guild`'s on `day` (FNV-1a of both numbers).
fn pick(guild: GuildId, day: i64, len: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in guild
        .get()
        .to_le_bytes()
        .into_iter()
        .chain(day.to_le_bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    usize::try_from(h % u64::try_from(len.max(1)).unwrap_or(1)).unwrap_or(0)
}

impl Puzzles {
    /// Today's date, UTC.
    fn today(&self) -> time::Date {
        time::UtcDateTime::from_unix_timestamp(self.now().unix_seconds())
            .map_or(time::Date::MIN, |t| t.date())
    }

    /// The daily puzzle of `at`'s server, for `who`: given to them to solve if they have not
    /// tried it (and are solving no other), shown again if they are solving it, and with their
    /// result and its winning line if they tried it.
    ///
    /// # Errors
    ///
    /// [`PuzzleRefusal::DailyInDirect`] in a direct message; [`PuzzleRefusal::NoPuzzles`] when
    /// there are no puzzles of [`PUZZLE_SIZE`]; [`Failure::StorageFull`](crate::game::Failure::StorageFull),
    /// [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn puzzle_daily(&self, who: &Member, at: Place) -> Result<DailyPuzzle, PuzzleError> {
        if at.is_direct() {
            return Err(refused(PuzzleRefusal::DailyInDirect));
        }
        let date = self.today();
        let day = day_number(date);
        let daily = match self.store.daily_puzzle(at.guild, day).await? {
            Some(daily) => daily,
            None => {
                let candidates = self.store.daily_candidates(at.guild, PUZZLE_SIZE).await?;
                let Some(chosen) = candidates.get(pick(at.guild, day, candidates.len())) else {
                    return Err(refused(PuzzleRefusal::NoPuzzles {
                        size: PUZZLE_SIZE,
                        sizes: Vec::new(),
                    }));
                };
                let mut tx = self.store.begin().await?;
                tx.choose_daily(at.guild, day, *chosen).await?;
                tx.commit().await?;
                // Another request may have chosen first: the stored one is the day's.
                self.store
                    .daily_puzzle(at.guild, day)
                    .await?
                    .ok_or_else(|| super::corrupt("a daily puzzle chosen is not stored"))?
            }
        };
        let row = self.puzzle_row(daily.puzzle_id).await?;
        let progress = self.store.puzzle_progress(who.id).await?;
        let yours = match progress {
            Some(p) if p.puzzle_id == row.id => DailyYours::Playing(view_of(&row, &p, true)?),
            Some(p) => {
                let other = self.puzzle_row(p.puzzle_id).await?;
                DailyYours::Busy(view_of(&other, &p, true)?)
            }
            None => match self.store.last_attempt(who.id, row.id).await? {
                Some(attempt) => {
                    let (start, plies, first) = (row.setup, plies_of(&row)?, solution_of(&row)?);
                    let (line, end) = self
                        .think(move || judge::solution(&start, plies, Some(first)))
                        .await?;
                    DailyYours::Tried {
                        solved: attempt.solved,
                        line,
                        end,
                    }
                }
                None => DailyYours::Playing(self.start(who, at, &row, Some(day)).await?),
            },
        };
        Ok(DailyPuzzle {
            count: self.count_daily(at.guild, day, date).await?,
            id: row.id,
            start: row.setup,
            attacker: row.setup.turn(),
            moves_to_win: own_moves(plies_of(&row)?),
            rating: row.value,
            yours,
        })
    }

    /// How many members solved `guild`'s daily puzzle of `date` and tried it, with its post.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn daily_count(&self, guild: GuildId, date: time::Date) -> Result<DailyCount> {
        self.count_daily(guild, day_number(date), date).await
    }

    async fn count_daily(&self, guild: GuildId, day: i64, date: time::Date) -> Result<DailyCount> {
        let (solved, tried) = self.store.daily_counts(guild, day).await?;
        let post = self
            .store
            .daily_puzzle(guild, day)
            .await?
            .and_then(|d| Some((d.channel_id?, d.message_id?)));
        Ok(DailyCount {
            guild,
            day: date,
            solved: count(solved),
            tried: count(tried),
            post,
        })
    }

    /// Records the public post of `guild`'s daily puzzle of `date`: `message` in `channel`.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn set_daily_post(
        &self,
        guild: GuildId,
        date: time::Date,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<()> {
        Ok(self
            .store
            .set_daily_post(guild, day_number(date), channel, message)
            .await?)
    }

    /// `step`, with the daily puzzle's count when it finished one.
    pub(super) async fn with_daily_count(
        &self,
        mut step: PuzzleStep,
        progress: &ProgressRow,
    ) -> Result<PuzzleStep> {
        let Some(day) = progress.day else {
            return Ok(step);
        };
        let Some(date) = date_of(day) else {
            return Ok(step);
        };
        let counted = self.count_daily(progress.guild_id, day, date).await?;
        if let PuzzleState::Solved(PuzzleResult { daily, .. })
        | PuzzleState::Failed {
            result: PuzzleResult { daily, .. },
            ..
        } = &mut step.state
        {
            *daily = Some(counted);
        }
        Ok(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip_and_the_pick_is_stable() {
        let date = time::Date::from_calendar_date(2026, time::Month::November, 25).unwrap();
        assert_eq!(date_of(day_number(date)), Some(date));
        let guild = GuildId::new(42);
        assert_eq!(pick(guild, 10, 7), pick(guild, 10, 7));
        assert!(pick(guild, 10, 7) < 7);
        assert_eq!(pick(guild, 10, 0), 0);
    }
}
