//! Store rows composed into the service's values: a game from its row and its rating change.
//! Each column arrives as its type (see `store::codec`); what is left here is what no single
//! column says, such as which side the AI plays.

use crate::rules::{BoardSize, Color, Move, MoveText, Position};
use crate::store::GameRow;

use super::{
    corrupt, Action, AiPlayer, ChannelId, Game, GameError, GameId, GameRef, GameState, GameStatus,
    Games, GuildId, Member, MemberId, Name, Place, RatingChange, Result,
};

/// Where the game of `row` is played.
pub(super) fn row_place(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

fn is_player(row: &GameRow, who: MemberId) -> bool {
    row.players.find(|p| p.id == who).is_some()
}

/// The stored position of a game.
pub(super) fn position_of(row: &GameRow) -> Result<Position> {
    row.position
        .parse()
        .map_err(|e| corrupt(format!("game {} position: {e}", row.id)))
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

/// A game from its row (with the position the row holds, or the one after a move just written),
/// and its rating change if it has one.
pub(super) fn game_of(row: GameRow, change: Option<RatingChange>) -> Result<Game> {
    let id = row.id;
    let status = match (row.state, row.winner, row.end_reason) {
        (GameState::Active, None, None) => GameStatus::Active {
            deadline: row.deadline,
        },
        (GameState::Finished, Some(winner), Some(reason)) => GameStatus::Finished {
            winner,
            reason,
            rating_change: change,
        },
        (GameState::Aborted, None, Some(reason)) => GameStatus::Aborted { reason },
        (state, winner, reason) => {
            return Err(corrupt(format!(
                "game {id}: {} with winner {winner:?} and reason {reason:?}",
                state.as_str()
            )))
        }
    };
    let ai = match row.ai_level {
        None => None,
        Some(level) => {
            let color = match (row.players.black.is_bot, row.players.white.is_bot) {
                (true, false) => Color::Black,
                (false, true) => Color::White,
                _ => return Err(corrupt(format!("game {id}: which side is the AI"))),
            };
            Some(AiPlayer { color, level })
        }
    };
    let last_move = match &row.last_move {
        Some(text) => Some(
            last_move_of(row.size, text)
                .ok_or_else(|| corrupt(format!("game {id} last move {text}")))?,
        ),
        None => None,
    };
    let position = position_of(&row)?;
    let away_until = row.players.as_ref().map(|p| p.away_until);
    Ok(Game {
        id,
        place: row_place(&row),
        players: row.players.map(|p| Member::new(p.id, p.name)),
        size: row.size,
        time: row.time_limit,
        rated: row.rated,
        status,
        position,
        ply: row.ply,
        last_move,
        ai,
        away_until,
    })
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
    pub(super) async fn game_row(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
    ) -> Result<GameRow> {
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
                            let other = if r.players.black.id == who {
                                &r.players.white.name
                            } else {
                                &r.players.black.name
                            };
                            list.push((r.id, Name::from(other.clone())));
                        }
                        Err(GameError::AmbiguousGame(list))
                    }
                }
            }
        }
    }

    /// The game a command from `who`, sent from `at`, means, if it may act on it there: a game is
    /// played in its own channel (a game against the AI in a direct message, in that message).
    /// With no game in progress in `at`, the refusal names the channels of this server where
    /// `who` has some; from a direct message, it names none.
    pub(super) async fn game_row_to_act(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
        action: Action,
    ) -> Result<GameRow> {
        let row = match self.game_row(who, at, which).await {
            Err(GameError::NoActiveGame) if !at.is_direct() => {
                return Err(self.games_elsewhere(who, at).await?)
            }
            found => found?,
        };
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

    /// Why `who` has no game to act on in `at`: [`GameError::GamesElsewhere`] with the other
    /// channels of `at`'s server where they have games in progress, or
    /// [`GameError::NoActiveGame`] when there are none.
    async fn games_elsewhere(&self, who: MemberId, at: Place) -> Result<GameError> {
        let rows = self.store.active_games(who, Some(at.guild), None).await?;
        let mut channels: Vec<ChannelId> = rows.iter().map(|row| row.channel_id).collect();
        channels.sort();
        channels.dedup();
        Ok(if rows.is_empty() {
            GameError::NoActiveGame
        } else {
            GameError::GamesElsewhere {
                count: rows.len(),
                channels,
            }
        })
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
    pub async fn find_game(&self, who: MemberId, at: Place, which: GameRef) -> Result<Game> {
        let row = self.game_row(who, at, which).await?;
        if !at.sees(row_place(&row)) {
            return Err(GameError::NoSuchGame(row.id));
        }
        self.game_from_row(row).await
    }

    pub(super) async fn game_from_row(&self, row: GameRow) -> Result<Game> {
        let change = if row.rated && row.state == GameState::Finished {
            self.store.rating_change(row.id).await?.map(|c| c.change)
        } else {
            None
        };
        game_of(row, change)
    }

    /// A member's name as last seen in `guild`.
    pub(super) async fn name_of(&self, guild: GuildId, id: MemberId) -> Result<Name> {
        let name = self.store.member_name(guild, id).await?;
        Ok(Name::from(name.unwrap_or_else(|| format!("member {id}"))))
    }
}
