//! Playing a game: moves, endings (with their ratings), resignations, aborts and move suggestions.

use crate::rules::{ByColor, Color, Move, MoveText, Position};
use crate::store::{
    Ended, GameEnding, GameRow, MoveWrite, NewOutbox, RatedEnding, RatingChangeRow, RatingRow,
};

use super::ai::AiSlot;
use super::error::MovedOn;
use super::rows::{game_of, position_of, row_place, told_in};
use super::standings::rating_now;
use super::vacation::turn_deadline;
use super::{
    ratings, AccessError, AccessRefusal, Action, Announcement, Core, EndReason, Error, Game,
    GameId, GameRef, GameState, GameStatus, InternalError, Member, MemberId, Place, Play,
    PlayError, PlayRefusal, Played, PuzzleStep, Puzzles, RatingChange, RatingValue, Result, Teams,
    Timestamp, TournamentState, Tournaments, Voted, BOTH_SIDES_MOVED,
};

/// A move's squares run together for prefix matching: `D4xE5` and `d4-e5` both give `d4e5`.
/// Columns stop at `j`, so an `x` after a row number can only be a capture sign.
fn squares_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    let mut after_digit = false;
    for c in text.chars().filter(char::is_ascii_alphanumeric) {
        let c = c.to_ascii_lowercase();
        if !(c == 'x' && after_digit) {
            key.push(c);
        }
        after_digit = c.is_ascii_digit();
    }
    key
}

/// Where a move went: into a game, with the AI's place in its queue when it has a reply to make
/// (pass it to [`Play::ai_reply_with`]), or into the member's puzzle.
#[derive(Debug)]
pub enum Moved {
    Game(Played, Option<AiSlot>),
    Puzzle(PuzzleStep),
    /// A vote in the vote game of the channel, from a member who plays no game there.
    Vote(Box<Voted>),
}

/// How many times an ending is written again after a rating it read changed before the write
/// (another game of the same player ended at the same moment).
const ENDING_ATTEMPTS: usize = 8;

/// The ratings a result writes, from both players' stored ratings (`None`: not rated yet), and
/// the change to report.
fn rated_ending(
    row: &GameRow,
    stored: ByColor<Option<RatingRow>>,
    winner: Color,
    now: Timestamp,
) -> (RatedEnding, RatingChange) {
    let before = stored.as_ref().map(|r| {
        r.as_ref()
            .map_or(RatingValue::START, |r| rating_now(r, now))
    });
    let change = RatingChange {
        before,
        after: ratings::rate(before, winner),
    };
    let rated = RatedEnding {
        games: stored.map(|r| r.map(|r| r.games)),
        change: RatingChangeRow {
            game_id: row.id,
            change,
            created_at: now,
        },
    };
    (rated, change)
}

impl Play {
    /// Plays `text` (any accepted notation) for `who`, sent from `at`, in the game they mean.
    ///
    /// The move is checked against the position read before the write; the write applies only if
    /// the game is still at that ply, inside one transaction. Of two moves racing for one ply,
    /// exactly one applies; the other gets [`PlayRefusal::PositionChanged`](crate::game::PlayRefusal::PositionChanged).
    ///
    /// Against the AI, a move it must answer is only written if the AI can take the reply: else
    /// [`QueueRefusal::Full`](crate::game::QueueRefusal::Full) or [`QueueRefusal::AiBusyForYou`](crate::game::QueueRefusal::AiBusyForYou), and nothing changes.
    ///
    /// # Errors
    ///
    /// As [`Play::play_with_slot`].
    pub async fn play(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
        text: &str,
    ) -> Result<Played, PlayError> {
        Ok(self.play_with_slot(who, at, which, text).await?.0)
    }

    /// Plays `text` as `who`'s move in the game `which` means from `at`; or, when no game was
    /// named and none of theirs there waits for their move (none in progress, their games
    /// elsewhere, or not their turn), in the puzzle they are solving, if they are solving one.
    /// Says which it did.
    ///
    /// # Errors
    ///
    /// As [`Play::play_with_slot`] for a move in a game; as [`Puzzles::puzzle_move`] for one in
    /// a puzzle.
    pub async fn move_or_puzzle(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
        text: &str,
    ) -> Result<Moved, PlayError> {
        let puzzles = Puzzles::of(&self.core);
        match self.play_with_slot(who, at, which, text).await {
            Ok((played, slot)) => Ok(Moved::Game(played, slot)),
            // No game of theirs here: a vote, where the channel plays a vote game.
            Err(Error::Refused(PlayRefusal::Access(_)))
                if matches!(which, GameRef::Only)
                    && self.store.team_game_in(at.channel).await?.is_some() =>
            {
                let voted = Teams::of(&self.core).vote(who, at, None, text).await?;
                Ok(Moved::Vote(Box::new(voted)))
            }
            Err(e)
                if matches!(which, GameRef::Only)
                    && puzzles.move_goes_to_puzzle(who.id, &e).await? =>
            {
                Ok(Moved::Puzzle(puzzles.puzzle_move(who, text).await?))
            }
            Err(e) => Err(e),
        }
    }

    /// [`Play::play`], keeping the AI's place in the queue for its reply, when it has one to
    /// make: pass it to [`Play::ai_reply_with`].
    ///
    /// # Errors
    ///
    /// A refusal that says why, with nothing written: the game not found (as [`Core::find_game`]),
    /// [`AccessRefusal::PlayedElsewhere`](crate::game::AccessRefusal::PlayedElsewhere), [`AccessRefusal::NotAPlayer`](crate::game::AccessRefusal::NotAPlayer), [`PlayRefusal::NotYourTurn`](crate::game::PlayRefusal::NotYourTurn),
    /// [`PlayRefusal::GameOver`](crate::game::PlayRefusal::GameOver), [`PlayRefusal::OutOfTime`](crate::game::PlayRefusal::OutOfTime), [`PlayRefusal::Move`](crate::game::PlayRefusal::Move) for a move the rules
    /// refuse, [`PlayRefusal::PositionChanged`](crate::game::PlayRefusal::PositionChanged) when another move got there first,
    /// [`QueueRefusal::AiBusyForYou`](crate::game::QueueRefusal::AiBusyForYou) or [`QueueRefusal::Full`](crate::game::QueueRefusal::Full) when the AI could not answer;
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database
    /// fails.
    pub async fn play_with_slot(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
        text: &str,
    ) -> Result<(Played, Option<AiSlot>), PlayError> {
        let syntax: MoveText = text.parse().map_err(crate::rules::MoveError::Parse)?;
        let row = self
            .game_row_to_act(who.id, at, which, Action::Move)
            .await?;
        self.play_row(who, row, syntax).await
    }

    /// The game `id`, if it is `who`'s turn in it: for the menus of its legal moves, opened from
    /// any of its boards (its channel's, or the turn's direct message).
    ///
    /// # Errors
    ///
    /// [`AccessRefusal::NoSuchGame`], [`AccessRefusal::NotAPlayer`], [`PlayRefusal::GameOver`],
    /// [`PlayRefusal::NotYourTurn`], [`PlayRefusal::OutOfTime`]; [`Failure`](super::Failure)
    /// when the database fails.
    pub async fn movable(&self, who: MemberId, id: GameId) -> Result<Game, PlayError> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(AccessRefusal::NoSuchGame(id))?;
        self.mover(&row, who, self.now())?;
        Ok(self.game_from_row(row).await?)
    }

    /// Plays `text` as `who`'s move in game `id`, chosen from a menu of the position at `ply`
    /// (see [`Play::movable`]), from any of the game's boards: played and announced as a typed
    /// move is.
    ///
    /// # Errors
    ///
    /// [`PlayRefusal::PositionChanged`] when the game is no longer at `ply` (a second tap, or a
    /// menu left open while the game went on); otherwise as [`Play::movable`] and
    /// [`Play::play_with_slot`]. Nothing is written for any of them.
    pub async fn play_chosen(
        &self,
        who: &Member,
        id: GameId,
        ply: u32,
        text: &str,
    ) -> Result<(Played, Option<AiSlot>), PlayError> {
        let syntax: MoveText = text.parse().map_err(crate::rules::MoveError::Parse)?;
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(AccessRefusal::NoSuchGame(id))?;
        if row.ply != ply {
            return Err(PlayRefusal::PositionChanged.into());
        }
        self.play_row(who, row, syntax).await
    }

    /// `who`'s side in the game of `row` and its position, if they are to move there at `now`.
    fn mover(
        &self,
        row: &GameRow,
        who: MemberId,
        now: Timestamp,
    ) -> Result<(Color, Position), PlayError> {
        let color = self.check_player(row, who)?;
        let position = position_of(row)?;
        if position.turn() != color {
            let other = &row.players[color.opposite()].name;
            return Err(PlayRefusal::NotYourTurn(other.clone().into()).into());
        }
        if now >= row.deadline {
            return Err(PlayRefusal::OutOfTime.into());
        }
        Ok((color, position))
    }

    /// Plays `syntax` as `who`'s move in the game of `row`, read for it.
    async fn play_row(
        &self,
        who: &Member,
        row: GameRow,
        syntax: MoveText,
    ) -> Result<(Played, Option<AiSlot>), PlayError> {
        let now = self.now();
        let id = row.id;
        let (color, position) = self.mover(&row, who.id, now)?;
        let mv = syntax
            .resolve(&position)
            .map_err(crate::rules::MoveError::from)?;
        // A member on vacation who moves is back.
        let back = row.players[color].away_until;
        if back.is_some_and(|b| b > now) {
            match self.vacation(who, 0).await {
                // Ended meanwhile, by another command of theirs: back all the same.
                Ok(_) | Err(Error::Refused(PlayRefusal::NotOnVacation)) => {}
                Err(e) => return Err(e),
            }
        }
        let game_goes_on = position.play(mv).is_ok_and(|next| next.outcome().is_none());
        let slot = match row.ai_level {
            Some(_) if game_goes_on => Some(self.ai_slot(who.id, id)?),
            _ => None,
        };
        Ok((self.apply(row, &position, mv, now, None).await?, slot))
    }

    /// Writes `mv`, checked legal in `position` (the position of `row`), if the game is still at
    /// the ply of `row`; otherwise [`PlayRefusal::PositionChanged`](crate::game::PlayRefusal::PositionChanged). The move that ends the game
    /// writes the result (and the ratings, if rated) in the same transaction, as does `announce`
    /// its announcement.
    pub(super) async fn apply(
        &self,
        row: GameRow,
        position: &Position,
        mv: Move,
        now: Timestamp,
        announce: Option<Announcement>,
    ) -> Result<Played, PlayError> {
        let id = row.id;
        let by = if row.players[position.turn()].is_bot {
            "ai"
        } else {
            "member"
        };
        let next = position.play(mv).map_err(crate::rules::MoveError::from)?;
        let next_back = row.players[next.turn()].away_until;
        let deadline = turn_deadline(now, row.time_limit, next_back);

        let write = MoveWrite {
            game: id,
            ply: row.ply,
            mv,
            position: next,
            deadline,
            now,
        };
        let mut notified = None;
        let status = match next.outcome() {
            // Most moves: one statement, grouped with the moves of other games.
            None => {
                let mut queued = Vec::new();
                if let Some(a) = &announce {
                    for place in told_in(&row) {
                        queued.push(a.row(place, now)?);
                    }
                }
                // The next mover asked to be told their turn by direct message.
                let next_mover = &row.players[next.turn()];
                if next_mover.notify_dm {
                    let member = next_mover.id;
                    notified = Some(member);
                    let told = Announcement::YourTurn {
                        game: id,
                        member,
                        ply: row.ply + 1,
                        reminder: false,
                    };
                    queued.push(told.row(row_place(&row), now)?);
                }
                let applied = if queued.is_empty() {
                    self.store.apply_move(write).await?
                } else {
                    self.store.apply_move_announced(write, &queued).await?
                };
                if !applied {
                    return Err(PlayRefusal::PositionChanged.into());
                }
                GameStatus::Active { deadline }
            }
            // The last move, the result and the ratings: one statement of their own.
            Some(outcome) => {
                let reason = EndReason::from(outcome.reason);
                let last = (mv, next);
                let rating_change = self
                    .end(
                        &row,
                        Some(row.ply),
                        Some(last),
                        Some(outcome.winner),
                        reason,
                        now,
                        announce,
                    )
                    .await?;
                GameStatus::Finished {
                    winner: outcome.winner,
                    reason,
                    rating_change,
                }
            }
        };

        metrics::counter!(crate::telemetry::MOVES, "by" => by).increment(1);
        let mut game = game_of(row, None)?;
        game.position = next;
        game.ply += 1;
        game.last_move = Some(mv);
        game.status = status;
        Ok(Played { mv, game, notified })
    }

    /// Ends the game of `row`, still at `ply` if given (else at any ply, while active): with
    /// `last`, the move that ended it and the position after it, if there is one; won by
    /// `winner`, or aborted if `None`. A rated result writes both ratings in the same statement
    /// and returns the change, and `announce` is queued with it; a game ending before both sides
    /// have moved is not rated. [`PlayRefusal::PositionChanged`](crate::game::PlayRefusal::PositionChanged) when the game moved on meanwhile.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn end(
        &self,
        row: &GameRow,
        ply: Option<u32>,
        last: Option<(Move, Position)>,
        winner: Option<Color>,
        reason: EndReason,
        now: Timestamp,
        announce: Option<Announcement>,
    ) -> Result<Option<RatingChange>, Error<MovedOn>> {
        // A game that ends before both sides have moved is unrated, whoever wins it.
        let plies = row.ply + u32::from(last.is_some());
        let rated_result = row.rated && plies >= BOTH_SIDES_MOVED;
        let mut announce = match announce {
            Some(a) => told_in(row)
                .into_iter()
                .map(|place| a.row(place, now))
                .collect::<Result<_>>()?,
            None => Vec::new(),
        };
        // A game in a thread of its own tells its result in the channel it started in too.
        announce.extend(self.ending_news(row, now)?);
        // Ratings are read before the write and checked by it; another game of one of the
        // players ending in between sends the ending round again with fresh ratings.
        for _ in 0..ENDING_ATTEMPTS {
            let (rated, change) = match winner {
                Some(w) if rated_result => {
                    let ids = row.players.as_ref().map(|p| p.id);
                    let stored = self.store.rating_pair(row.guild_id, row.size, ids).await?;
                    let (rated, change) = rated_ending(row, stored, w, now);
                    (Some(rated), Some(change))
                }
                _ => (None, None),
            };
            let ending = GameEnding {
                game: row.id,
                ply,
                last_move: last,
                now,
                winner,
                reason,
                rated,
                announce: announce.clone(),
            };
            let ended = match row.tournament_id {
                // With the tournament's step that may follow it, in one transaction.
                Some(tournament) => {
                    Tournaments::of(&self.core)
                        .end_in_tournament(tournament, &ending)
                        .await?
                }
                None => self.store.end_game(&ending).await?,
            };
            match ended {
                Ended::Done => return Ok(change),
                Ended::GameMovedOn => return Err(MovedOn.into()),
                Ended::RatingsMovedOn => continue,
            }
        }
        Err(InternalError::Contention("ratings kept changing while a game ended").into())
    }
}

impl Core {
    /// The announcements every ending of the game of `row` queues: the result in the channel it
    /// started in, for a game in a thread of its own.
    pub(in crate::game) fn ending_news(
        &self,
        row: &GameRow,
        now: Timestamp,
    ) -> Result<Vec<NewOutbox>> {
        let mut news = Vec::new();
        if let Some(parent) = row.parent_channel_id {
            let told = Announcement::ThreadEnded { game: row.id };
            news.push(told.row(
                Place {
                    guild: row.guild_id,
                    channel: parent,
                },
                now,
            )?);
        }
        Ok(news)
    }
}

impl Play {
    /// The game `who` means, if they may resign it now: before asking them to confirm.
    ///
    /// # Errors
    ///
    /// As [`Play::resign`], without resigning.
    pub async fn resignable(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
    ) -> Result<Game, PlayError> {
        let row = self.game_row_to_act(who, at, which, Action::Resign).await?;
        self.check_player(&row, who)?;
        Ok(self.game_from_row(row).await?)
    }

    /// Resigns the game for `who`: the opponent wins.
    ///
    /// # Errors
    ///
    /// The game not found (as [`Core::find_game`]), [`AccessRefusal::PlayedElsewhere`](crate::game::AccessRefusal::PlayedElsewhere),
    /// [`AccessRefusal::NotAPlayer`](crate::game::AccessRefusal::NotAPlayer), [`PlayRefusal::GameOver`](crate::game::PlayRefusal::GameOver); [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk
    /// is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn resign(&self, who: &Member, at: Place, which: GameRef) -> Result<Game, PlayError> {
        let row = self
            .game_row_to_act(who.id, at, which, Action::Resign)
            .await?;
        let color = self.check_player(&row, who.id)?;
        let now = self.now();
        match self
            .end(
                &row,
                None,
                None,
                Some(color.opposite()),
                EndReason::Resignation,
                now,
                None,
            )
            .await
        {
            Ok(_) => {}
            Err(Error::Refused(MovedOn)) => return Err(PlayRefusal::GameOver(row.id).into()),
            Err(Error::Failed(f)) => return Err(f.into()),
        }
        Ok(self.game_known(row.id).await?)
    }

    /// Ends a game without a result, allowed only before both sides have moved.
    ///
    /// # Errors
    ///
    /// As [`Play::resign`], and [`PlayRefusal::AbortTooLate`](crate::game::PlayRefusal::AbortTooLate) once both sides have moved.
    pub async fn abort(&self, who: &Member, at: Place, which: GameRef) -> Result<Game, PlayError> {
        let row = self
            .game_row_to_act(who.id, at, which, Action::Abort)
            .await?;
        self.check_player(&row, who.id)?;
        if let Some(id) = row.tournament_id {
            // Once the tournament is cancelled, its games are ordinary games.
            if self.store.tournament_state(id).await? == Some(TournamentState::Running) {
                return Err(PlayRefusal::NoAbortInTournament.into());
            }
        }
        if row.ply >= BOTH_SIDES_MOVED {
            return Err(PlayRefusal::AbortTooLate.into());
        }
        let now = self.now();
        self.end(
            &row,
            Some(row.ply),
            None,
            None,
            EndReason::Aborted,
            now,
            None,
        )
        .await?;
        Ok(self.game_known(row.id).await?)
    }

    fn check_player(&self, row: &GameRow, who: MemberId) -> Result<Color, PlayError> {
        if row.state != GameState::Active {
            return Err(PlayRefusal::GameOver(row.id).into());
        }
        Ok(row
            .players
            .find(|p| p.id == who)
            .ok_or(AccessRefusal::NotAPlayer(row.id))?)
    }

    /// Legal moves for `who` in the game they mean, in canonical notation, for autocomplete:
    /// those starting with `prefix` (case and separators ignored), at most `limit`. None for a
    /// game played elsewhere than `at`, where the move would be refused.
    ///
    /// # Errors
    ///
    /// The game not found (as [`Core::find_game`]); [`Failure::Internal`](crate::game::Failure::Internal) when the database
    /// fails. A game played elsewhere, over, or not at the member's turn gives no suggestions
    /// rather than an error.
    pub async fn move_suggestions(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<String>, AccessError> {
        let row = self.game_row(who, at, which).await?;
        if row_place(&row) != at {
            return Ok(Vec::new());
        }
        let game = self.game_from_row(row).await?;
        if !game.is_active() || game.color_of(who) != Some(game.position.turn()) {
            return Ok(Vec::new());
        }
        let wanted = squares_key(prefix);
        Ok(game
            .position
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .filter(|m| squares_key(m).starts_with(&wanted))
            .take(limit)
            .collect())
    }
}
