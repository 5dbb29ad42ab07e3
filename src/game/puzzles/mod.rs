//! Puzzles: positions the engine proved won by force, which members solve against the bot.
//!
//! A member asks for a puzzle ([`Puzzles::puzzle`]) and answers with moves
//! ([`Puzzles::puzzle_move`]). A move is right when the prover shows the defender lost within the
//! plies the puzzle has left (on the first move, only the puzzle's one winning move is right);
//! the bot then plays the defender's most stubborn reply. A move that wins the game solves the
//! puzzle; a wrong one fails it, and the winning line is shown. A member's first attempt at a
//! puzzle moves their puzzle rating and the puzzle's (Glicko-2, member against puzzle, apart from
//! game ratings); a repeat moves neither, nor the streak of puzzles solved in a row.
//!
//! Beside this file: `pool` (the shipped pools, their format and their loading at start-up),
//! `judge` (the prover's word on a move), and `daily` (one puzzle a day for a whole server).

mod daily;
mod judge;
pub mod pool;

use crate::rules::{BoardSize, Color, Move, Position};
use crate::store::{NewAttempt, ProgressRow, PuzzlePlayerRow, PuzzleRow, WriteTx};

use super::error::{corrupt, engine};
use super::ratings;
use super::{
    AccessRefusal, Error, Member, MemberId, Place, PlayError, PlayRefusal, PuzzleError, PuzzleId,
    PuzzleRefusal, Puzzles, RatingValue, Result,
};

pub use daily::{DailyCount, DailyPuzzle, DailyYours};

/// The board of the puzzles given when a member names none, and of the daily puzzle.
pub const PUZZLE_SIZE: BoardSize = BoardSize::DEFAULT;

fn refused(why: PuzzleRefusal) -> PuzzleError {
    Error::Refused(why)
}

/// A puzzle as a member sees it while solving it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleView {
    pub id: PuzzleId,
    /// The position as it stands, the attacker to move.
    pub position: Position,
    /// The bot's last reply, once it made one.
    pub last: Option<Move>,
    /// The side the member plays, to move and win.
    pub attacker: Color,
    /// The attacker's own moves left to win, the winning one included.
    pub moves_left: u32,
    /// The puzzle's rating.
    pub rating: RatingValue,
    /// Shown again: the member was solving it already (the puzzle they asked for not given).
    pub resumed: bool,
    /// The day, when it is the server's daily puzzle.
    pub daily: Option<time::Date>,
}

/// A member's puzzle rating, as `/rating` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleCard {
    pub member: Member,
    pub rating: RatingValue,
    pub solved: u32,
    pub failed: u32,
    pub streak: u32,
    pub best_streak: u32,
}

/// A rating before and after a finished attempt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRatingChange {
    pub before: RatingValue,
    pub after: RatingValue,
}

/// What a finished attempt did.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResult {
    /// The member's rating; `None` when they had attempted this puzzle before, which moves no
    /// rating.
    pub rating: Option<PuzzleRatingChange>,
    /// The streak of puzzles solved in a row, and the best one.
    pub streak: u32,
    pub best_streak: u32,
    /// The daily puzzle's count, after this attempt, when it was one.
    pub daily: Option<DailyCount>,
}

/// Where a puzzle stands after a move.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleState {
    /// Right, and the bot replied: this many moves of the member's left to win.
    GoOn { moves_left: u32 },
    /// The move won the game.
    Solved(PuzzleResult),
    /// Wrong: the winning line from the position the member moved in (`from`), the stored first
    /// move or the prover's, with the stubborn replies, to the end.
    Failed {
        result: PuzzleResult,
        from: Position,
        line: Vec<Move>,
    },
}

/// What a member's puzzle move did, for the front end to show.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleStep {
    pub id: PuzzleId,
    pub attacker: Color,
    /// The member's move.
    pub played: Move,
    /// The bot's reply, when the puzzle goes on.
    pub reply: Option<Move>,
    /// The board to show: after the reply, after the winning move, or, failed, at the end of the
    /// winning line.
    pub position: Position,
    pub state: PuzzleState,
}

/// The member's moves left to win with `plies` of the puzzle left.
fn own_moves(plies: u32) -> u32 {
    plies.div_ceil(2)
}

fn plies_of(row: &PuzzleRow) -> Result<u32> {
    u32::try_from(row.plies)
        .map_err(|_| corrupt(format!("puzzle {} has {} plies", row.id, row.plies)))
}

/// The puzzle's stored first move, read in its position.
fn solution_of(row: &PuzzleRow) -> Result<Move> {
    row.setup.parse_move(&row.solution).map_err(|e| {
        corrupt(format!(
            "puzzle {}'s solution {}: {e}",
            row.id, row.solution
        ))
    })
}

/// The position of a puzzle in progress, with the bot's last reply.
fn replay(row: &PuzzleRow, moves: &str) -> Result<(Position, Option<Move>)> {
    let mut at = row.setup;
    let mut last = None;
    for text in moves.split_whitespace() {
        let mv = at
            .parse_move(text)
            .map_err(|e| corrupt(format!("puzzle {}'s move {text}: {e}", row.id)))?;
        at = at
            .play(mv)
            .map_err(|e| corrupt(format!("puzzle {}'s move {text}: {e}", row.id)))?;
        last = Some(mv);
    }
    Ok((at, last))
}

/// The view of a puzzle in progress.
fn view_of(row: &PuzzleRow, progress: &ProgressRow, resumed: bool) -> Result<PuzzleView> {
    let (position, last) = replay(row, &progress.moves)?;
    let played = u32::try_from(progress.played).unwrap_or(0);
    Ok(PuzzleView {
        id: row.id,
        position,
        last,
        attacker: row.setup.turn(),
        moves_left: own_moves(plies_of(row)?.saturating_sub(played)),
        rating: row.value,
        resumed,
        daily: progress.day.and_then(daily::date_of),
    })
}

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Puzzles {
    /// Loads the shipped pools into the database: the puzzles not stored yet, by their position.
    /// Reads one row a board size and writes nothing when the pools are as last loaded. Returns
    /// how many puzzles were added.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when a shipped pool does not read or the database fails.
    pub async fn load_puzzles(&self) -> Result<u64> {
        let pools = pool::Pool::shipped()
            .map_err(|(size, e)| corrupt(format!("the shipped {size} puzzles: {e}")))?;
        self.load_pools(&pools).await
    }

    /// Loads `pools` (each with the text it was read from) as [`Puzzles::load_puzzles`] does.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn load_pools(&self, pools: &[(pool::Pool, &str)]) -> Result<u64> {
        let loaded = self.store.puzzle_pools().await?;
        let mut added = 0;
        for (pool, text) in pools {
            let digest = pool::digest(text);
            if loaded
                .iter()
                .any(|(size, d)| *size == pool.size && *d == digest)
            {
                continue;
            }
            let puzzles: Vec<_> = pool
                .puzzles
                .iter()
                .map(|p| crate::store::NewPuzzle {
                    setup: p.setup,
                    solution: p.solution.to_string(),
                    plies: p.plies,
                })
                .collect();
            let mut tx = self.store.begin().await?;
            added += tx.load_puzzle_pool(pool.size, &digest, &puzzles).await?;
            tx.commit().await?;
        }
        if added > 0 {
            tracing::info!(added, "puzzles loaded");
        }
        Ok(added)
    }

    /// Gives `who` a puzzle of `size` (by default [`PUZZLE_SIZE`]) rated near their puzzle
    /// rating: of those they never attempted, the closest; once they attempted all, the one
    /// attempted longest ago. A member solving a puzzle is shown it again instead
    /// ([`PuzzleView::resumed`]).
    ///
    /// # Errors
    ///
    /// [`PuzzleRefusal::NoPuzzles`] for a size without puzzles; [`Failure::StorageFull`](crate::game::Failure::StorageFull),
    /// [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn puzzle(
        &self,
        who: &Member,
        at: Place,
        size: Option<BoardSize>,
    ) -> Result<PuzzleView, PuzzleError> {
        if let Some(view) = self.puzzle_in_progress(who.id).await? {
            return Ok(view);
        }
        let size = size.unwrap_or(PUZZLE_SIZE);
        let rating = self
            .store
            .puzzle_player(who.id)
            .await?
            .map_or(RatingValue::START, |p| p.value);
        let Some(row) = self.store.puzzle_near(who.id, size, rating.rating).await? else {
            let sizes = self.store.puzzle_sizes().await?;
            return Err(refused(PuzzleRefusal::NoPuzzles { size, sizes }));
        };
        self.start(who, at, &row, None).await
    }

    /// Gives `who` puzzle `row` to solve (the daily puzzle of `day`, if given), or shows again the
    /// one they are solving, should another request have given them one meanwhile.
    async fn start(
        &self,
        who: &Member,
        at: Place,
        row: &PuzzleRow,
        day: Option<i64>,
    ) -> Result<PuzzleView, PuzzleError> {
        let now = self.now();
        let mut tx = self.store.begin().await?;
        tx.upsert_member(at.guild, who.id, who.name.as_str(), now)
            .await?;
        let started = tx.start_puzzle(who.id, row.id, at.guild, day, now).await?;
        tx.commit().await?;
        if !started {
            // Another request gave them one meanwhile.
            return self
                .puzzle_in_progress(who.id)
                .await?
                .ok_or(refused(PuzzleRefusal::Changed));
        }
        Ok(PuzzleView {
            id: row.id,
            position: row.setup,
            last: None,
            attacker: row.setup.turn(),
            moves_left: own_moves(plies_of(row)?),
            rating: row.value,
            resumed: false,
            daily: day.and_then(daily::date_of),
        })
    }

    /// The puzzle `who` is solving, shown again.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn puzzle_in_progress(&self, who: MemberId) -> Result<Option<PuzzleView>> {
        let Some(progress) = self.store.puzzle_progress(who).await? else {
            return Ok(None);
        };
        let row = self.puzzle_row(progress.puzzle_id).await?;
        Ok(Some(view_of(&row, &progress, true)?))
    }

    async fn puzzle_row(&self, id: PuzzleId) -> Result<PuzzleRow> {
        self.store
            .puzzle(id)
            .await?
            .ok_or_else(|| corrupt(format!("puzzle {id} is gone")))
    }

    /// Whether a `/move` that `refusal` refused as a game move (no game number given) goes to the
    /// puzzle `who` is solving instead: they have no game here in which it is their turn
    /// ([`AccessRefusal::NoActiveGame`](crate::game::AccessRefusal::NoActiveGame), [`AccessRefusal::GamesElsewhere`](crate::game::AccessRefusal::GamesElsewhere),
    /// [`PlayRefusal::NotYourTurn`](crate::game::PlayRefusal::NotYourTurn)), and a puzzle in progress. The same rule for every front end.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub(in crate::game) async fn move_goes_to_puzzle(
        &self,
        who: MemberId,
        refusal: &PlayError,
    ) -> Result<bool> {
        let no_turn = matches!(
            refusal,
            Error::Refused(
                PlayRefusal::Access(
                    AccessRefusal::NoActiveGame | AccessRefusal::GamesElsewhere { .. }
                ) | PlayRefusal::NotYourTurn(_)
            )
        );
        Ok(no_turn && self.store.puzzle_progress(who).await?.is_some())
    }

    /// Plays `text`, in any notation the game reads, in the puzzle `who` is solving.
    ///
    /// # Errors
    ///
    /// [`PuzzleRefusal::NoPuzzle`] when they are solving none; [`PuzzleRefusal::Move`](crate::game::PuzzleRefusal::Move) for a move
    /// the rules refuse; [`PuzzleRefusal::Changed`] when another move of theirs got there first;
    /// nothing is written for any of them. [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn puzzle_move(&self, who: &Member, text: &str) -> Result<PuzzleStep, PuzzleError> {
        let progress = self
            .store
            .puzzle_progress(who.id)
            .await?
            .ok_or(refused(PuzzleRefusal::NoPuzzle))?;
        let row = self.puzzle_row(progress.puzzle_id).await?;
        let (position, _) = replay(&row, &progress.moves)?;
        let mv = position.parse_move(text)?;
        let played = count(progress.played);
        let remaining = plies_of(&row)?.saturating_sub(played).max(1);
        let first = if played == 0 {
            Some(solution_of(&row)?)
        } else {
            None
        };
        let answer = self
            .think(move || judge::answer(&position, mv, remaining, first))
            .await?;
        let attacker = row.setup.turn();
        let mut tx = self.store.begin().await?;
        let step = match answer {
            judge::Answer::Right { reply, after } => {
                let moves = format!("{} {mv} {reply}", progress.moves);
                let to = progress.played + 2;
                if !tx
                    .advance_puzzle(who.id, row.id, progress.played, moves.trim(), to)
                    .await?
                {
                    return Err(refused(PuzzleRefusal::Changed));
                }
                tx.commit().await?;
                return Ok(PuzzleStep {
                    id: row.id,
                    attacker,
                    played: mv,
                    reply: Some(reply),
                    position: after,
                    state: PuzzleState::GoOn {
                        moves_left: own_moves(remaining.saturating_sub(2)),
                    },
                });
            }
            judge::Answer::Won { after } => {
                let result = self.finish(&mut tx, who.id, &progress, true).await?;
                PuzzleStep {
                    id: row.id,
                    attacker,
                    played: mv,
                    reply: None,
                    position: after,
                    state: PuzzleState::Solved(result),
                }
            }
            judge::Answer::Wrong { line, end } => {
                let result = self.finish(&mut tx, who.id, &progress, false).await?;
                PuzzleStep {
                    id: row.id,
                    attacker,
                    played: mv,
                    reply: None,
                    position: end,
                    state: PuzzleState::Failed {
                        result,
                        from: position,
                        line,
                    },
                }
            }
        };
        tx.commit().await?;
        Ok(self.with_daily_count(step, &progress).await?)
    }

    /// Ends `member`'s puzzle in progress (read as `progress`), `solved` or not: records the
    /// attempt, moves both ratings on a first attempt, and the streak.
    async fn finish(
        &self,
        tx: &mut WriteTx,
        member: MemberId,
        progress: &ProgressRow,
        solved: bool,
    ) -> Result<PuzzleResult, PuzzleError> {
        let now = self.now();
        if !tx
            .finish_puzzle(member, progress.puzzle_id, progress.played)
            .await?
        {
            return Err(refused(PuzzleRefusal::Changed));
        }
        let rated = !tx.attempted_puzzle(member, progress.puzzle_id).await?;
        let mut player = tx.hold_puzzle_player(member).await?;
        let puzzle = tx
            .hold_puzzle(progress.puzzle_id)
            .await?
            .ok_or_else(|| corrupt(format!("puzzle {} is gone", progress.puzzle_id)))?;
        let mut change = None;
        if rated {
            let (mine, its) = ratings::rate_against(player.value, puzzle.value, solved);
            change = Some(PuzzleRatingChange {
                before: player.value,
                after: mine,
            });
            tx.rate_puzzle(puzzle.id, its, solved).await?;
            player = scored(player, mine, solved);
            tx.update_puzzle_player(&player).await?;
        }
        tx.insert_puzzle_attempt(&NewAttempt {
            member_id: member,
            puzzle_id: puzzle.id,
            guild_id: progress.guild_id,
            day: progress.day,
            solved,
            rated,
            at: now,
        })
        .await?;
        Ok(PuzzleResult {
            rating: change,
            streak: count(player.streak),
            best_streak: count(player.best_streak),
            daily: None,
        })
    }

    /// A member's puzzle rating, counts and streaks (a new rating if they never finished one).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn puzzle_rating(&self, who: &Member) -> Result<PuzzleCard> {
        let player = self.store.puzzle_player(who.id).await?;
        Ok(match player {
            Some(p) => PuzzleCard {
                member: who.clone(),
                rating: p.value,
                solved: count(p.solved),
                failed: count(p.failed),
                streak: count(p.streak),
                best_streak: count(p.best_streak),
            },
            None => PuzzleCard {
                member: who.clone(),
                rating: RatingValue::START,
                solved: 0,
                failed: 0,
                streak: 0,
                best_streak: 0,
            },
        })
    }

    /// Runs the prover's work off the async threads, one search per core as the AI's.
    async fn think<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        let permit = self
            .thinkers
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| engine(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| engine(e.to_string()))
    }
}

/// A member's row after a rated attempt: their new rating, the attempt counted, the streak moved.
fn scored(mut p: PuzzlePlayerRow, value: RatingValue, solved: bool) -> PuzzlePlayerRow {
    p.value = value;
    if solved {
        p.solved += 1;
        p.streak += 1;
        p.best_streak = p.best_streak.max(p.streak);
    } else {
        p.failed += 1;
        p.streak = 0;
    }
    p
}
