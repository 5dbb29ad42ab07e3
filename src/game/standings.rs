//! What members look up: their games, a game's history, rating cards and leaderboards.

use crate::rules::{self, BoardSize, Color, Move, Position};
use crate::store::RatingRow;

use super::{
    corrupt, ratings, AccessError, AccessRefusal, Game, GameId, GuildId, History, Leaderboard,
    Member, MemberId, MessageId, Name, Place, RatingCard, RatingValue, Ratings, RecentResult,
    Result, Standing, Standings, Timestamp, RATING_CARDS,
};

/// A stored rating as it stands at `now`: its deviation grown back over the weeks since its last
/// rated game.
/// A game in a member's own list: with its board's message, when one is recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub game: Game,
    pub message: Option<MessageId>,
}

pub(super) fn rating_now(r: &RatingRow, now: Timestamp) -> RatingValue {
    ratings::decayed(r.value, now - r.last_active)
}

impl Standings {
    /// Active games of a member: in one server, or everywhere when `guild` is `None`.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn games_of(&self, member: MemberId, guild: Option<GuildId>) -> Result<Vec<Game>> {
        let rows = self.store.active_games(member, guild, None).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.game_from_row(row).await?);
        }
        Ok(out)
    }

    /// `member`'s games in progress in every server and direct message, for their own list: those
    /// where it is their turn first, then the others, each part soonest deadline first; each with
    /// its board's message, when one is recorded.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](super::Failure::Internal) when the database fails.
    pub async fn own_games(&self, member: MemberId) -> Result<Vec<Listed>> {
        let mut games = self.games_of(member, None).await?;
        games.sort_by_key(|g| (g.to_move().id != member, g.status.deadline()));
        let messages: std::collections::HashMap<_, _> = self
            .store
            .active_game_messages(member)
            .await?
            .into_iter()
            .collect();
        Ok(games
            .into_iter()
            .map(|game| Listed {
                message: messages.get(&game.id).copied(),
                game,
            })
            .collect())
    }

    /// The move list of a game, asked for from `at`: as [`Core::find_game`](crate::game::Core::find_game), a game from
    /// elsewhere is refused as if it did not exist.
    ///
    /// # Errors
    ///
    /// [`AccessRefusal::NoSuchGame`](crate::game::AccessRefusal::NoSuchGame) for a game not seen from `at`; [`Failure::Internal`](crate::game::Failure::Internal) when the
    /// database fails.
    pub async fn history(&self, at: Place, id: GameId) -> Result<History, AccessError> {
        let game = self.game(id).await?;
        if !at.sees(game.place) {
            return Err(AccessRefusal::NoSuchGame(id).into());
        }
        let moves = self
            .store
            .moves(id)
            .await?
            .into_iter()
            .map(|m| m.notation)
            .collect();
        Ok(History { game, moves })
    }

    /// Whether `member` is known in `guild`: they have challenged or been challenged there,
    /// played, entered a tournament or tried a puzzle.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn is_member(&self, guild: GuildId, member: MemberId) -> Result<bool> {
        Ok(self.store.member_name(guild, member).await?.is_some())
    }

    /// A member's rating cards in a server: on `size` when given, else on the sizes they have a
    /// rating on (the [`RATING_CARDS`] most played, the others named), or on the default size
    /// when they have none.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn ratings(
        &self,
        guild: GuildId,
        member: &Member,
        size: Option<BoardSize>,
    ) -> Result<Ratings> {
        let mut sizes = match size {
            Some(size) => vec![size],
            None => self.store.rated_sizes(guild, member.id).await?,
        };
        if sizes.is_empty() {
            sizes.push(BoardSize::DEFAULT);
        }
        let more = sizes.split_off(sizes.len().min(RATING_CARDS));
        let mut cards = Vec::with_capacity(sizes.len());
        for size in sizes {
            cards.push(self.rating(guild, member, size).await?);
        }
        Ok(Ratings { cards, more })
    }

    /// A member's rating card on one board of a server.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn rating(
        &self,
        guild: GuildId,
        member: &Member,
        size: BoardSize,
    ) -> Result<RatingCard> {
        let now = self.now();
        let row = self.store.rating(guild, member.id, size).await?;
        let (value, games, wins, losses) = match row {
            Some(r) => (rating_now(&r, now), r.games, r.wins, r.losses),
            None => (RatingValue::START, 0, 0, 0),
        };
        let mut recent = Vec::new();
        for r in self.store.recent_results(guild, member.id, size, 5).await? {
            let my_color = r
                .players
                .find(|&id| id == member.id)
                .unwrap_or(Color::White);
            let opponent_id = r.players[my_color.opposite()];
            recent.push(RecentResult {
                game: r.id,
                opponent: Member::new(opponent_id, self.name_of(guild, opponent_id).await?),
                won: r.winner == my_color,
                reason: r.end_reason,
                change: r.change,
            });
        }
        let name = self
            .store
            .member_name(guild, member.id)
            .await?
            .map_or_else(|| member.name.clone(), Name::from);
        Ok(RatingCard {
            member: Member::new(member.id, name),
            size,
            value,
            games,
            wins,
            losses,
            recent,
        })
    }

    /// One page (one-based) of a server's leaderboard on a board size. Established ratings come
    /// first, ranked by rating; provisional ones (deviation above 110, after inactivity decay)
    /// follow them, by rating and without a rank: a new server's first rated players are on it,
    /// and a rank is only earned with an established rating.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn leaderboard(
        &self,
        guild: GuildId,
        size: BoardSize,
        page: usize,
    ) -> Result<Leaderboard> {
        let now = self.now();
        let mut all: Vec<_> = self
            .store
            .board_ratings(guild, size)
            .await?
            .into_iter()
            .map(|(row, name)| {
                let value = rating_now(&row, now);
                (row, name, value)
            })
            .collect();
        all.sort_by(|a, b| {
            a.2.is_provisional()
                .cmp(&b.2.is_provisional())
                .then(b.2.rating.total_cmp(&a.2.rating))
                .then(a.0.member_id.cmp(&b.0.member_id))
        });
        let per = self.limits.page_size.max(1);
        let pages = all.len().div_ceil(per).max(1);
        let page = page.clamp(1, pages);
        let standings = all
            .into_iter()
            .enumerate()
            .skip((page - 1) * per)
            .take(per)
            .map(|(i, (row, name, value))| Standing {
                // Established ratings sort first, so their place in the list is their rank.
                rank: (!value.is_provisional()).then_some(i + 1),
                member: Member::new(row.member_id, name),
                value,
                games: row.games,
                wins: row.wins,
                losses: row.losses,
            })
            .collect();
        Ok(Leaderboard {
            size,
            page,
            pages,
            standings,
        })
    }
}

impl History {
    /// The game's start position and its moves as played from it, read back from their
    /// notation, for what shows the game move by move (a replay).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when a stored move cannot be played, which only a damaged
    /// database causes.
    pub fn start_and_moves(&self) -> Result<(Position, Vec<Move>)> {
        let (_, moves) = rules::replay(self.game.size, self.moves.iter().map(String::as_str))
            .map_err(|(i, e)| corrupt(format!("game {} move {}: {e}", self.game.id, i + 1)))?;
        Ok((Position::new(self.game.size), moves))
    }
}
