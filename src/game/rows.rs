//! Store rows composed into the service's values: a game from its row and its rating change.
//! Each column arrives as its type (see `store::codec`); what is left here is what no single
//! column says, such as which side the AI plays.

use crate::rules::{BoardSize, Color, Move, MoveText, Position};
use crate::store::GameRow;

use super::{
    corrupt, AiPlayer, ChannelId, Core, Game, GameState, GameStatus, GuildId, Member, MemberId,
    Name, Place, RatingChange, Result, TournamentTag,
};

/// Where the game of `row` is played.
pub(super) fn row_place(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

/// Where what a change of the game of `row` announces is told: its channel, and in a vote game
/// between two channels, the other channel too.
pub(super) fn told_in(row: &GameRow) -> Vec<Place> {
    let mut places = vec![row_place(row)];
    for player in [&row.players.black, &row.players.white] {
        let channel = ChannelId::new(player.id.get());
        if player.is_team && channel != row.channel_id {
            places.push(Place {
                guild: row.guild_id,
                channel,
            });
        }
    }
    places
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
            Some(AiPlayer {
                color,
                level,
                auto: row.ai_auto,
            })
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
    let teams = row.players.as_ref().map(|p| p.is_team);
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
        teams,
        thread_of: row.parent_channel_id,
        answers_only: row.answers_only,
        tournament: match (row.tournament_id, row.tournament_round) {
            (Some(id), Some(round)) => Some(TournamentTag {
                id,
                name: row.tournament_name.clone().unwrap_or_default(),
                round,
            }),
            _ => None,
        },
    })
}

impl Core {
    pub(super) async fn game_from_row(&self, row: GameRow) -> Result<Game> {
        let change = if row.rated && row.state == GameState::Finished {
            self.store.rating_change(row.id).await?.map(|c| c.change)
        } else {
            None
        };
        game_of(row, change)
    }

    /// Member `id` with their name as last seen in `guild` (`member 123` if never seen).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn member_in(&self, guild: GuildId, id: MemberId) -> Result<Member> {
        Ok(Member::new(id, self.name_of(guild, id).await?))
    }

    /// A member's name as last seen in `guild`.
    pub(super) async fn name_of(&self, guild: GuildId, id: MemberId) -> Result<Name> {
        let name = self.store.member_name(guild, id).await?;
        Ok(Name::from(name.unwrap_or_else(|| format!("member {id}"))))
    }
}
