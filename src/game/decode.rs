//! Store rows read into the service's values: games, places, positions, rating changes.

use crate::engine::Level;
use crate::rules::{BoardSize, Color, Move, MoveText, Position};
use crate::store::{GameRow, RatingChangeRow};

use super::{
    corrupt, Action, AiPlayer, EndReason, Game, GameError, GameId, GameRef, GameState, Games,
    Member, Place, RatingChange, RatingValue, Result, TimeControl,
};

/// Where the game of `row` is played.
pub(super) fn row_place(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

fn is_player(row: &GameRow, who: u64) -> bool {
    row.black_id == who || row.white_id == who
}

pub(super) fn parse_size(s: &str) -> Result<BoardSize> {
    s.parse().map_err(|_| corrupt(format!("board size {s}")))
}

pub(super) fn parse_time(seconds: i64) -> Result<TimeControl> {
    TimeControl::from_seconds(seconds).ok_or_else(|| corrupt(format!("time limit {seconds}")))
}

fn rating_change_from_row(c: &RatingChangeRow) -> RatingChange {
    let v = |(rating, deviation, volatility): (f64, f64, f64)| RatingValue {
        rating,
        deviation,
        volatility,
    };
    RatingChange {
        black_before: v(c.black_before),
        black_after: v(c.black_after),
        white_before: v(c.white_before),
        white_after: v(c.white_after),
    }
}

fn game_from_parts(row: GameRow, change: Option<RatingChange>) -> Result<Game> {
    let position = position_of(&row)?;
    game_at(row, position, change)
}

/// Where the game of `row` is played.
pub(super) fn place_of(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

/// The stored position of a game.
pub(super) fn position_of(row: &GameRow) -> Result<Position> {
    row.position
        .parse()
        .map_err(|e| corrupt(format!("game {} position: {e}", row.id)))
}

/// A game from its row, with its position already read.
pub(super) fn game_at(
    row: GameRow,
    position: Position,
    change: Option<RatingChange>,
) -> Result<Game> {
    let id = row.id;
    let size = parse_size(&row.size)?;
    let state = match row.state.as_str() {
        "active" => GameState::Active,
        "finished" => GameState::Finished,
        "aborted" => GameState::Aborted,
        other => return Err(corrupt(format!("game {id} state {other}"))),
    };
    let result = match state {
        GameState::Active => None,
        _ => {
            let reason = row
                .end_reason
                .as_deref()
                .and_then(EndReason::parse)
                .ok_or_else(|| corrupt(format!("game {id} end reason")))?;
            let winner = row
                .winner
                .as_deref()
                .map(|w| {
                    w.parse::<Color>()
                        .map_err(|_| corrupt(format!("game {id} winner")))
                })
                .transpose()?;
            Some((winner, reason))
        }
    };
    let ai = match row.ai_level {
        None => None,
        Some(n) => {
            let level = Level::new(n).ok_or_else(|| corrupt(format!("game {id} AI level {n}")))?;
            let color = match (row.black_is_bot, row.white_is_bot) {
                (true, false) => Color::Black,
                (false, true) => Color::White,
                _ => return Err(corrupt(format!("game {id}: which side is the AI"))),
            };
            Some(AiPlayer { color, level })
        }
    };
    let last_move = match &row.last_move {
        Some(text) => Some(
            last_move_of(size, text)
                .ok_or_else(|| corrupt(format!("game {id} last move {text}")))?,
        ),
        None => None,
    };
    Ok(Game {
        id,
        place: Place {
            guild: row.guild_id,
            channel: row.channel_id,
        },
        black: Member::new(row.black_id, row.black_name.clone()),
        white: Member::new(row.white_id, row.white_name.clone()),
        size,
        time: parse_time(row.time_limit)?,
        rated: row.rated,
        state,
        position,
        ply: u32::try_from(row.ply).map_err(|_| corrupt(format!("game {id} ply")))?,
        last_move,
        deadline: row.deadline,
        result,
        rating_change: change,
        ai,
    })
}

/// The stored (canonical) notation of a game's last move, as a move to mark on the board.
fn last_move_of(size: BoardSize, text: &str) -> Option<Move> {
    match text.parse::<MoveText>().ok()? {
        MoveText::Full { from, to, capture } => Some(Move::new(
            from.on(size).ok()?,
            to.on(size).ok()?,
            capture == Some(true),
        )),
        MoveText::Destination(_) => None,
    }
}

impl Games {
    /// A game by id.
    ///
    /// # Errors
    ///
    /// [`GameError::NoSuchGame`]; [`GameError::Internal`] when the database fails.
    pub async fn game(&self, id: GameId) -> Result<Game> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(GameError::NoSuchGame(id))?;
        self.game_from_row(row).await
    }

    /// The game a command from `who`, sent from `at`, means. A game by id that `at` may not see
    /// is refused as if it did not exist.
    pub(super) async fn game_row(&self, who: u64, at: Place, which: GameRef) -> Result<GameRow> {
        match which {
            GameRef::Id(id) => self
                .store
                .game(id)
                .await?
                .filter(|row| at.sees(row_place(row)) || is_player(row, who))
                .ok_or(GameError::NoSuchGame(id)),
            GameRef::Only => {
                let mut rows = self
                    .store
                    .active_games(who, Some(at.guild), Some(at.channel))
                    .await?;
                match rows.len() {
                    0 => Err(GameError::NoActiveGame),
                    1 => Ok(rows.remove(0)),
                    _ => {
                        let mut list = Vec::new();
                        for r in &rows {
                            let other = if r.black_id == who {
                                &r.white_name
                            } else {
                                &r.black_name
                            };
                            list.push(format!("#{} against {other}", r.id));
                        }
                        Err(GameError::AmbiguousGame(list.join(", ")))
                    }
                }
            }
        }
    }

    /// The game a command from `who`, sent from `at`, means, if it may act on it there: a game is
    /// played in its own channel (a game against the AI in a direct message, in that message).
    pub(super) async fn game_row_to_act(
        &self,
        who: u64,
        at: Place,
        which: GameRef,
        action: Action,
    ) -> Result<GameRow> {
        let row = self.game_row(who, at, which).await?;
        let place = row_place(&row);
        if place != at {
            return Err(GameError::PlayedElsewhere {
                game: row.id,
                place,
                action,
            });
        }
        Ok(row)
    }

    /// The game a command from `who`, sent from `at`, means, to look at: any game of the server
    /// `at` is in, or the game of the direct message it is. A game from elsewhere is refused as
    /// if it did not exist, whoever asks.
    ///
    /// # Errors
    ///
    /// [`GameError::NoSuchGame`] for a game of another server (or another direct message),
    /// [`GameError::NoActiveGame`] or [`GameError::AmbiguousGame`] when `which` finds none or
    /// several; [`GameError::Internal`] when the database fails.
    pub async fn find_game(&self, who: u64, at: Place, which: GameRef) -> Result<Game> {
        let row = self.game_row(who, at, which).await?;
        if !at.sees(row_place(&row)) {
            return Err(GameError::NoSuchGame(row.id));
        }
        self.game_from_row(row).await
    }

    pub(super) async fn game_from_row(&self, row: GameRow) -> Result<Game> {
        let change = if row.rated && row.state == "finished" {
            self.store
                .rating_change(row.id)
                .await?
                .map(|c| rating_change_from_row(&c))
        } else {
            None
        };
        game_from_parts(row, change)
    }

    /// A member's name as last seen in `guild`.
    pub(super) async fn name_of(&self, guild: u64, id: u64) -> Result<String> {
        Ok(self
            .store
            .member_name(guild, id)
            .await?
            .unwrap_or_else(|| format!("member {id}")))
    }
}
