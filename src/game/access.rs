//! Lookup and access control: which game a command means (one by id, or the member's only game
//! in progress where they are), and whether they may act on it from there. A game the place may
//! not see is refused as if it did not exist; one played in another channel is refused with a
//! pointer to it.

use crate::store::GameRow;

use super::error::corrupt;
use super::rows::row_place;
use super::{
    AccessError, AccessRefusal, Action, ChannelId, Core, Game, GameId, GameRef, MemberId, Name,
    Place, Result,
};

fn is_player(row: &GameRow, who: MemberId) -> bool {
    row.players.find(|p| p.id == who).is_some()
}

impl Core {
    /// A game by id.
    ///
    /// # Errors
    ///
    /// [`AccessRefusal::NoSuchGame`]; [`Failure::Internal`](super::Failure::Internal) when the database fails.
    pub async fn game(&self, id: GameId) -> Result<Game, AccessError> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(AccessRefusal::NoSuchGame(id))?;
        Ok(self.game_from_row(row).await?)
    }

    /// A game this process has just written or read: one gone is a failure on our side.
    pub(super) async fn game_known(&self, id: GameId) -> Result<Game> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or_else(|| corrupt(format!("game {id} is gone")))?;
        self.game_from_row(row).await
    }

    /// The game a command from `who`, sent from `at`, means. A game by id that `at` may not see
    /// is refused as if it did not exist.
    pub(super) async fn game_row(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
    ) -> Result<GameRow, AccessError> {
        match which {
            GameRef::Id(id) => self
                .store
                .game(id)
                .await?
                .filter(|row| at.sees(row_place(row)) || is_player(row, who))
                .ok_or(AccessRefusal::NoSuchGame(id).into()),
            GameRef::Only => {
                let mut rows = self
                    .store
                    .active_games(who, Some(at.guild), Some(at.channel))
                    .await?;
                match rows.len() {
                    0 => Err(AccessRefusal::NoActiveGame.into()),
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
                        Err(AccessRefusal::AmbiguousGame(list).into())
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
    ) -> Result<GameRow, AccessError> {
        let row = match self.game_row(who, at, which).await {
            Err(AccessError::Refused(AccessRefusal::NoActiveGame)) if !at.is_direct() => {
                return Err(self.games_elsewhere(who, at).await?.into())
            }
            found => found?,
        };
        let place = row_place(&row);
        if place != at {
            return Err(AccessRefusal::PlayedElsewhere {
                game: row.id,
                place,
                action,
            }
            .into());
        }
        Ok(row)
    }

    /// Why `who` has no game to act on in `at`: [`AccessRefusal::GamesElsewhere`] with the other
    /// channels of `at`'s server where they have games in progress, or
    /// [`AccessRefusal::NoActiveGame`] when there are none.
    async fn games_elsewhere(&self, who: MemberId, at: Place) -> Result<AccessRefusal> {
        let rows = self.store.active_games(who, Some(at.guild), None).await?;
        let mut channels: Vec<ChannelId> = rows.iter().map(|row| row.channel_id).collect();
        channels.sort();
        channels.dedup();
        Ok(if rows.is_empty() {
            AccessRefusal::NoActiveGame
        } else {
            AccessRefusal::GamesElsewhere {
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
    /// [`AccessRefusal::NoSuchGame`] for a game of another server (or another direct message),
    /// [`AccessRefusal::NoActiveGame`] or [`AccessRefusal::AmbiguousGame`] when `which` finds none or
    /// several; [`Failure::Internal`](super::Failure::Internal) when the database fails.
    pub async fn find_game(
        &self,
        who: MemberId,
        at: Place,
        which: GameRef,
    ) -> Result<Game, AccessError> {
        let row = self.game_row(who, at, which).await?;
        if !at.sees(row_place(&row)) {
            return Err(AccessRefusal::NoSuchGame(row.id).into());
        }
        Ok(self.game_from_row(row).await?)
    }
}
