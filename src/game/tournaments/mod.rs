//! Tournaments in a server: created by a member who manages it, entered with a click, started by
//! their organizer (or at the time set), played as ordinary games in the tournament's channel,
//! and ranked as [`crate::pairing`] says.
//!
//! This file has what members ask for (create, join, leave, start, withdraw, cancel, the
//! standings and a round's games); `steps` what happens by itself: the games of a round made,
//! the next Swiss round paired in the transaction that records the last result of the one
//! before, the end, and the sweep's repair of a step a crash left owed; `types` the values the
//! operations take and give; `read` a tournament as the store reads it turned into those values
//! and into what [`crate::pairing`] pairs.

mod read;
mod starts_in;
mod steps;
mod types;

use std::time::Duration;

use crate::store::{NewTournament, TournamentRead, TournamentRow, WriteTx};

use super::rows::game_of;
use super::{
    Game, GameState, GuildId, Member, MessageId, Place, Result, RoundNumber, TournamentError,
    TournamentFormat, TournamentId, TournamentRefusal, TournamentState, Tournaments,
};

use read::{count, refused, table_of, tournament_of};
pub use starts_in::parse_starts_in;
pub use steps::TOURNAMENTS_PER_SERVER;
pub use types::{
    RoundGames, Table, TableLine, Tournament, TournamentEntrant, TournamentRef, TournamentRequest,
};

/// The longest name a tournament may have, in characters.
pub const NAME_LENGTH: usize = 60;

/// The most rounds a Swiss may be given.
pub const MAX_ROUNDS: u32 = 20;

/// The longest a tournament may wait for its start.
pub const MAX_STARTS_IN: Duration = Duration::from_secs(30 * 86_400);

impl Tournaments {
    /// Creates a tournament in `request.place`, open for entries, organized by its creator.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal) with why: in a direct message, without Manage Server, the
    /// server's limit of [`TOURNAMENTS_PER_SERVER`], a name, player cap, rounds or start out of
    /// bounds; [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn create_tournament(
        &self,
        request: TournamentRequest,
    ) -> Result<Tournament, TournamentError> {
        let now = self.now();
        let place = request.place;
        if place.is_direct() {
            return Err(refused(TournamentRefusal::InDirect));
        }
        if !request.manages_server {
            return Err(refused(TournamentRefusal::NeedsManageServer));
        }
        let name = request
            .name
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if name.is_empty() || name.chars().count() > NAME_LENGTH {
            return Err(refused(TournamentRefusal::Name));
        }
        let cap = request.format.max_players();
        let max_players = request.max_players.unwrap_or(cap);
        if !(3..=cap).contains(&max_players) {
            return Err(refused(TournamentRefusal::Players {
                format: request.format,
                max: cap,
            }));
        }
        match (request.format, request.rounds) {
            (TournamentFormat::RoundRobin, Some(_)) => {
                return Err(refused(TournamentRefusal::RoundsOnlySwiss))
            }
            (_, Some(r)) if !(1..=MAX_ROUNDS).contains(&r) => {
                return Err(refused(TournamentRefusal::Rounds))
            }
            _ => {}
        }
        if request.starts_in.is_some_and(|d| d > MAX_STARTS_IN) {
            return Err(refused(TournamentRefusal::StartsIn));
        }
        let mut tx = self.store.begin().await?;
        let live = tx.count_live_tournaments(place.guild).await?;
        if live >= i64::from(TOURNAMENTS_PER_SERVER) {
            return Err(refused(TournamentRefusal::Limit(
                TOURNAMENTS_PER_SERVER as usize,
            )));
        }
        let organizer = &request.organizer;
        tx.upsert_member(place.guild, organizer.id, organizer.name.as_str(), now)
            .await?;
        let id = tx
            .insert_tournament(&NewTournament {
                guild_id: place.guild,
                channel_id: place.channel,
                name,
                format: request.format,
                organizer_id: organizer.id,
                size: request.size,
                time_limit: request.time,
                rated: request.rated,
                rounds: request.rounds,
                max_players,
                starts_at: request.starts_in.map(|d| now + d),
                created_at: now,
            })
            .await?;
        tx.commit().await?;
        self.tournament(id).await
    }

    /// Tournament `id` as it stands.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal::NotFound`]; [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn tournament(&self, id: TournamentId) -> Result<Tournament, TournamentError> {
        Ok(tournament_of(&self.read_tournament(id).await?))
    }

    async fn read_tournament(&self, id: TournamentId) -> Result<TournamentRead, TournamentError> {
        self.store
            .tournament(id)
            .await?
            .ok_or(refused(TournamentRefusal::NotFound(id)))
    }

    /// The tournament a command from `at` means: by number (in the same server), or the only
    /// one open or running there.
    async fn tournament_meant(
        &self,
        at: Place,
        which: TournamentRef,
    ) -> Result<TournamentRead, TournamentError> {
        if at.is_direct() {
            return Err(refused(TournamentRefusal::InDirect));
        }
        let id = match which {
            TournamentRef::Id(id) => id,
            TournamentRef::Only => {
                let live = self.store.live_tournaments(at.guild).await?;
                match live.as_slice() {
                    [] => return Err(refused(TournamentRefusal::NoneHere)),
                    [one] => one.id,
                    several => {
                        return Err(refused(TournamentRefusal::Which(
                            several.iter().map(|t| (t.id, t.name.clone())).collect(),
                        )))
                    }
                }
            }
        };
        let read = self.read_tournament(id).await?;
        if read.tournament.guild_id != at.guild {
            return Err(refused(TournamentRefusal::NotFound(id)));
        }
        Ok(read)
    }

    /// The tournament a command from `at` means, taken in a new write transaction and read
    /// whole there. With `organizer`, the member asking, and whether they may manage the server:
    /// only its organizer or such a member may go on.
    async fn lock_meant(
        &self,
        at: Place,
        which: TournamentRef,
        organizer: Option<(&Member, bool)>,
    ) -> Result<(WriteTx, TournamentRead), TournamentError> {
        let meant = self.tournament_meant(at, which).await?.tournament;
        if let Some((who, manages_server)) = organizer {
            if meant.organizer_id != who.id && !manages_server {
                return Err(refused(TournamentRefusal::NotOrganizer));
            }
        }
        let id = meant.id;
        let mut tx = self.store.begin().await?;
        let read = tx
            .lock_tournament(id)
            .await?
            .ok_or(refused(TournamentRefusal::NotFound(id)))?;
        Ok((tx, read))
    }

    /// The tournaments of a server a member may mean, for autocomplete: the open and running
    /// ones first, then the latest others, as (number, name).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn tournaments_in(&self, guild: GuildId) -> Result<Vec<(TournamentId, String)>> {
        let mut rows: Vec<TournamentRow> = self.store.latest_tournaments(guild).await?;
        rows.sort_by_key(|t| (!t.state.is_live(), std::cmp::Reverse(t.id)));
        Ok(rows.into_iter().map(|t| (t.id, t.name)).collect())
    }

    /// Records the message that shows a tournament's sign-up, to keep up to date.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn tournament_posted(&self, id: TournamentId, message: MessageId) -> Result<()> {
        Ok(self.store.set_tournament_message(id, message).await?)
    }

    /// Enters `who` in the tournament they mean, before its start.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, already started or over, full, already in;
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn join_tournament(
        &self,
        who: &Member,
        at: Place,
        which: TournamentRef,
    ) -> Result<Tournament, TournamentError> {
        let now = self.now();
        let (mut tx, read) = self.lock_meant(at, which, None).await?;
        let id = read.tournament.id;
        not_started(&read)?;
        if read.entrants.iter().any(|e| e.member_id == who.id) {
            return Err(refused(TournamentRefusal::AlreadyIn));
        }
        let max = count(read.tournament.max_players);
        if read.entrants.len() >= max as usize {
            return Err(refused(TournamentRefusal::Full(max)));
        }
        tx.upsert_member(at.guild, who.id, who.name.as_str(), now)
            .await?;
        tx.add_entrant(id, who.id, now).await?;
        tx.commit().await?;
        self.tournament(id).await
    }

    /// Takes `who` off the entrants of the tournament they mean, before its start.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, already started (withdraw instead) or over, not
    /// in; [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn leave_tournament(
        &self,
        who: &Member,
        at: Place,
        which: TournamentRef,
    ) -> Result<Tournament, TournamentError> {
        let (mut tx, read) = self.lock_meant(at, which, None).await?;
        let id = read.tournament.id;
        not_started(&read)?;
        if !tx.remove_entrant(id, who.id).await? {
            return Err(refused(TournamentRefusal::NotIn));
        }
        tx.commit().await?;
        self.tournament(id).await
    }

    /// Starts the tournament `who` means now: its organizer, or a member who may manage the
    /// server. The first round's games (a round robin's all) are made and announced.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, not theirs to start, started or over, fewer than 3
    /// entrants; [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn start_tournament(
        &self,
        who: &Member,
        manages_server: bool,
        at: Place,
        which: TournamentRef,
    ) -> Result<RoundGames, TournamentError> {
        let now = self.now();
        let (mut tx, read) = self
            .lock_meant(at, which, Some((who, manages_server)))
            .await?;
        let id = read.tournament.id;
        not_started(&read)?;
        if read.entrants.len() < 3 {
            return Err(refused(TournamentRefusal::TooFew(read.entrants.len())));
        }
        self.begin_play(&mut tx, &read, now).await?;
        tx.commit().await?;
        self.round_games(id, RoundNumber::FIRST).await
    }

    /// The standings of the tournament a command from `at` means.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found; [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn tournament_standings(
        &self,
        at: Place,
        which: TournamentRef,
    ) -> Result<Table, TournamentError> {
        Ok(table_of(&self.tournament_meant(at, which).await?))
    }

    /// The games of `round` (by default the one being played, or the last) of the tournament a
    /// command from `at` means.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, not started, no such round;
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn tournament_pairings(
        &self,
        at: Place,
        which: TournamentRef,
        round: Option<RoundNumber>,
    ) -> Result<RoundGames, TournamentError> {
        let read = self.tournament_meant(at, which).await?;
        let current = read.tournament.round;
        if current == RoundNumber::NONE {
            return Err(refused(TournamentRefusal::NotStarted));
        }
        let round = round.unwrap_or(current);
        if round == RoundNumber::NONE || round > current {
            return Err(refused(TournamentRefusal::NoSuchRound(round)));
        }
        round_of(read, round)
    }

    /// The games of round `round` of tournament `id`.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found; [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn round_games(
        &self,
        id: TournamentId,
        round: RoundNumber,
    ) -> Result<RoundGames, TournamentError> {
        round_of(self.read_tournament(id).await?, round)
    }

    /// The standings of tournament `id`.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found; [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn table(&self, id: TournamentId) -> Result<Table, TournamentError> {
        Ok(table_of(&self.read_tournament(id).await?))
    }

    /// Withdraws `who` from the running tournament they mean: their games in progress are lost
    /// (unrated), those played stand, and a Swiss pairs them no more. Returns the games lost.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, not started (leave instead) or over, not in,
    /// withdrawn already; [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn withdraw(
        &self,
        who: &Member,
        at: Place,
        which: TournamentRef,
    ) -> Result<(Tournament, Vec<Game>), TournamentError> {
        let now = self.now();
        let (mut tx, read) = self.lock_meant(at, which, None).await?;
        let id = read.tournament.id;
        match read.tournament.state {
            TournamentState::Open => return Err(refused(TournamentRefusal::NotStarted)),
            TournamentState::Finished | TournamentState::Cancelled => {
                return Err(refused(TournamentRefusal::Over))
            }
            TournamentState::Running => {}
        }
        match read.entrants.iter().find(|e| e.member_id == who.id) {
            None => return Err(refused(TournamentRefusal::NotIn)),
            Some(e) if e.withdrawn_at.is_some() => {
                return Err(refused(TournamentRefusal::AlreadyWithdrawn))
            }
            Some(_) => {}
        }
        tx.withdraw_entrant(id, who.id, now).await?;
        let mut lost = Vec::new();
        for row in read.games.iter().filter(|g| g.state == GameState::Active) {
            let Some(color) = row.players.find(|p| p.id == who.id) else {
                continue;
            };
            if !self.forfeit(&mut tx, row, color, now).await? {
                return Err(refused(TournamentRefusal::Changed));
            }
            lost.push(row.id);
        }
        self.step(&mut tx, id, now).await?;
        tx.commit().await?;
        let mut games = Vec::with_capacity(lost.len());
        for game in lost {
            games.push(self.game_known(game).await?);
        }
        Ok((self.tournament(id).await?, games))
    }

    /// Cancels the tournament `who` means: its organizer, or a member who may manage the
    /// server. Its games in progress go on as ordinary games.
    ///
    /// # Errors
    ///
    /// [`TournamentRefusal`](crate::game::TournamentRefusal): not found, not theirs to cancel, over;
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull), [`Failure::Internal`](crate::game::Failure::Internal).
    pub async fn cancel_tournament(
        &self,
        who: &Member,
        manages_server: bool,
        at: Place,
        which: TournamentRef,
    ) -> Result<Tournament, TournamentError> {
        let now = self.now();
        let (mut tx, read) = self
            .lock_meant(at, which, Some((who, manages_server)))
            .await?;
        let id = read.tournament.id;
        if !read.tournament.state.is_live() {
            return Err(refused(TournamentRefusal::Over));
        }
        let round = read.tournament.round;
        tx.step_tournament(id, round, round, TournamentState::Cancelled, None, now)
            .await?;
        tx.commit().await?;
        self.tournament(id).await
    }
}

/// Refuses a change of entrants once the tournament has started or ended.
fn not_started(read: &TournamentRead) -> Result<(), TournamentError> {
    match read.tournament.state {
        TournamentState::Open => Ok(()),
        TournamentState::Running => Err(refused(TournamentRefusal::AlreadyStarted)),
        TournamentState::Finished | TournamentState::Cancelled => {
            Err(refused(TournamentRefusal::Over))
        }
    }
}

/// The games of `round` in a stored read, with its bye.
fn round_of(read: TournamentRead, round: RoundNumber) -> Result<RoundGames, TournamentError> {
    let tournament = tournament_of(&read);
    let bye = read
        .byes
        .iter()
        .find(|b| b.round == round)
        .and_then(|b| {
            tournament
                .entrants
                .iter()
                .find(|e| e.member.id == b.member_id)
        })
        .map(|e| e.member.clone());
    let games = read
        .games
        .into_iter()
        .filter(|g| g.tournament_round == Some(round))
        .map(|g| game_of(g, None))
        .collect::<Result<Vec<Game>>>()?;
    Ok(RoundGames {
        tournament,
        round,
        games,
        bye,
    })
}
