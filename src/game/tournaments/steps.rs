//! What a tournament does by itself: its start (seeding, the first round), each game's end
//! counted and the next Swiss round paired in the same transaction, forfeits, the end with the
//! final standings, and the sweep that starts tournaments at their time and repairs a step a
//! crash left owed.
//!
//! Every step runs inside a write transaction that first takes the tournament's row
//! ([`crate::store::WriteTx::lock_tournament`]), so two games ending at once step it one after
//! the other; and moves the tournament's round on only from the round it read, so no round is
//! paired twice.

use crate::pairing::{self as pairing, SwissState};
use crate::rules::{ByColor, Color, Position};
use crate::store::{GameEnding, GameRow, NewGame, TournamentRead, WriteTx};

use super::super::vacation::turn_deadline;
use super::super::{
    Announcement, EndReason, Error, Failure, MemberId, Place, Result, RoundNumber, Timestamp,
    TournamentError, TournamentFormat, TournamentId, TournamentRefusal, TournamentState,
    Tournaments,
};
use super::read::{count, pairing_byes, pairing_entrant, pairing_games, refused};

/// Tournaments open or running at once in a server.
pub const TOURNAMENTS_PER_SERVER: u32 = 3;

impl Tournaments {
    /// Starts the tournament of `read` (locked in `tx`, open, with 3 entrants or more): seeds
    /// the entrants by rating on its board (the unrated after, in their order of entry), fixes a
    /// Swiss's rounds, and makes round 1.
    pub(super) async fn begin_play(
        &self,
        tx: &mut WriteTx,
        read: &TournamentRead,
        now: Timestamp,
    ) -> Result<(), TournamentError> {
        let t = &read.tournament;
        let mut seeded = Vec::with_capacity(read.entrants.len());
        for (entry, e) in read.entrants.iter().enumerate() {
            let rating = self
                .store
                .rating(t.guild_id, e.member_id, t.size)
                .await?
                .map(|r| r.value.rating);
            seeded.push((rating, entry, e.member_id));
        }
        // Best rating first; the unrated after the rated, in their order of entry.
        seeded.sort_by(|a, b| {
            b.0.is_some()
                .cmp(&a.0.is_some())
                .then(b.0.unwrap_or(0.0).total_cmp(&a.0.unwrap_or(0.0)))
                .then(a.1.cmp(&b.1))
        });
        let order: Vec<MemberId> = seeded.iter().map(|s| s.2).collect();
        tx.seed_entrants(t.id, &order).await?;
        let rounds = match t.format {
            TournamentFormat::Swiss => Some(
                t.rounds
                    .map_or_else(|| pairing::default_rounds(order.len()), count),
            ),
            TournamentFormat::RoundRobin => None,
        };
        if !tx
            .step_tournament(
                t.id,
                RoundNumber::NONE,
                RoundNumber::FIRST,
                TournamentState::Running,
                rounds,
                now,
            )
            .await?
        {
            return Err(refused(TournamentRefusal::Changed));
        }
        let entrants: Vec<pairing::Entrant> = order.iter().map(|&m| pairing_entrant(m)).collect();
        let (pairings, bye) = match t.format {
            TournamentFormat::RoundRobin => (pairing::round_robin(&entrants), None),
            TournamentFormat::Swiss => {
                let state = SwissState::new(entrants).map_err(pairing_fault)?;
                let round = pairing::swiss_round(&state).map_err(pairing_fault)?;
                (round.pairings, round.bye)
            }
        };
        Ok(self
            .make_round(tx, read, RoundNumber::FIRST, &pairings, bye, now)
            .await?)
    }

    /// Makes round `round` of the tournament of `read`: its games, its bye, and the news (the
    /// round's games for the channel, and to each player who asked for direct messages, theirs).
    async fn make_round(
        &self,
        tx: &mut WriteTx,
        read: &TournamentRead,
        round: RoundNumber,
        pairings: &[pairing::Pairing],
        bye: Option<pairing::Entrant>,
        now: Timestamp,
    ) -> Result<()> {
        let t = &read.tournament;
        let place = Place {
            guild: t.guild_id,
            channel: t.channel_id,
        };
        let member = |e: pairing::Entrant| MemberId::new(e.0);
        let threads = self.store.server_settings(t.guild_id).await?.threads;
        let mut players = Vec::new();
        for p in pairings {
            let (black, white) = (member(p.black), member(p.white));
            let black_back = tx.away_until(black).await?;
            let game = tx
                .insert_game(&NewGame {
                    guild_id: t.guild_id,
                    channel_id: t.channel_id,
                    players: ByColor::new(black, white),
                    size: t.size,
                    time_limit: t.time_limit,
                    rated: t.rated,
                    position: Position::new(t.size),
                    deadline: turn_deadline(now, t.time_limit, black_back),
                    created_at: now,
                    ai_level: None,
                    ai_auto: false,
                    answers_only: false,
                })
                .await?;
            tx.tag_tournament_game(game, t.id, round).await?;
            // A server whose games get threads: each game's board, and a thread on it.
            if threads {
                let board = Announcement::Board { game, ply: 0 };
                tx.insert_outbox(&board.row(place, now)?).await?;
                let thread = Announcement::OpenThread { game };
                tx.insert_outbox(&thread.row(place, now)?).await?;
            }
            players.extend([black, white]);
        }
        if let Some(bye) = bye {
            tx.insert_bye(t.id, round, member(bye)).await?;
        }
        let news = Announcement::TournamentRound {
            tournament: t.id,
            round,
        };
        tx.insert_outbox(&news.row(place, now)?).await?;
        players.sort();
        players.dedup();
        for player in players {
            if tx.notifies_dm(player).await? {
                let told = Announcement::TournamentGames {
                    tournament: t.id,
                    round,
                    member: player,
                };
                tx.insert_outbox(&told.row(place, now)?).await?;
            }
        }
        Ok(())
    }

    /// Takes the tournament's next step, if it owes one, inside `tx`: when no game of it is in
    /// progress, a Swiss with rounds to go pairs the next one; otherwise the tournament is
    /// finished, and its final standings announced. Nothing (false) when it is not running or a
    /// game is still being played: then only the count of its games in play is read, not the
    /// whole tournament.
    pub(in crate::game) async fn step(
        &self,
        tx: &mut WriteTx,
        id: TournamentId,
        now: Timestamp,
    ) -> Result<bool> {
        if !tx.hold_tournament(id).await? || tx.tournament_in_play(id).await? {
            return Ok(false);
        }
        let Some(read) = tx.lock_tournament(id).await? else {
            return Ok(false);
        };
        let t = &read.tournament;
        if t.state != TournamentState::Running {
            return Ok(false);
        }
        let round = t.round;
        let place = Place {
            guild: t.guild_id,
            channel: t.channel_id,
        };
        if t.format == TournamentFormat::Swiss && round.get() < t.rounds.map_or(0, count) {
            let mut state =
                SwissState::new(read.entrants.iter().map(|e| pairing_entrant(e.member_id)))
                    .map_err(pairing_fault)?;
            for e in read.entrants.iter().filter(|e| e.withdrawn_at.is_some()) {
                state
                    .withdraw(pairing_entrant(e.member_id))
                    .map_err(pairing_fault)?;
            }
            for g in pairing_games(&read) {
                state.record(g).map_err(pairing_fault)?;
            }
            for b in pairing_byes(&read) {
                state.record_bye(b).map_err(pairing_fault)?;
            }
            match pairing::swiss_round(&state) {
                Ok(next) => {
                    let number = round.next();
                    if !tx
                        .step_tournament(t.id, round, number, TournamentState::Running, None, now)
                        .await?
                    {
                        return Ok(false);
                    }
                    self.make_round(tx, &read, number, &next.pairings, next.bye, now)
                        .await?;
                    return Ok(true);
                }
                // Fewer than two players left in it: it ends here.
                Err(pairing::PairingError::TooFewPlayers(_)) => {}
                Err(e) => return Err(pairing_fault(e)),
            }
        }
        let finished = tx
            .step_tournament(t.id, t.round, t.round, TournamentState::Finished, None, now)
            .await?;
        if finished {
            let news = Announcement::TournamentEnded { tournament: t.id };
            tx.insert_outbox(&news.row(place, now)?).await?;
        }
        Ok(finished)
    }

    /// Ends the tournament game of `row` inside `tx` as lost by `color`'s player, who withdrew:
    /// unrated. False when the game was no longer as read.
    pub(super) async fn forfeit(
        &self,
        tx: &mut WriteTx,
        row: &GameRow,
        color: Color,
        now: Timestamp,
    ) -> Result<bool> {
        let ending = GameEnding {
            game: row.id,
            ply: None,
            last_move: None,
            now,
            winner: Some(color.opposite()),
            reason: EndReason::Resignation,
            rated: None,
            announce: Vec::new(),
        };
        if !tx.end_game(&ending).await? {
            return Ok(false);
        }
        for a in self.ending_news(row, now)? {
            tx.insert_outbox(&a).await?;
        }
        Ok(true)
    }

    /// Writes the ending of a tournament game, and the tournament's step that may follow it (the
    /// next round, or the end), in one transaction.
    pub(in crate::game) async fn end_in_tournament(
        &self,
        id: TournamentId,
        ending: &GameEnding,
    ) -> Result<crate::store::Ended> {
        let mut tx = self.store.begin().await?;
        // The tournament first: two of its games ending at once step it one after the other.
        tx.hold_tournament(id).await?;
        if !tx.end_game(ending).await? {
            drop(tx);
            return Ok(self.store.why_ending_refused(ending).await?);
        }
        for a in &ending.announce {
            tx.insert_outbox(a).await?;
        }
        self.step(&mut tx, id, ending.now).await?;
        tx.commit().await?;
        Ok(crate::store::Ended::Done)
    }

    /// The sweep's part: starts the tournaments whose start time has come (or cancels them,
    /// with fewer than 3 entrants), and takes any step a running one owes (a crash between a
    /// result and its step, on a database that could not write both at once). Returns how many
    /// tournaments moved.
    pub(in crate::game) async fn sweep_tournaments(&self, now: Timestamp) -> Result<usize> {
        let mut moved = 0;
        for id in self.store.tournaments_to_step(now, self.servers).await? {
            match self.step_owed(id, now).await {
                Ok(true) => moved += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(tournament = %id, error = ?e, "could not step a tournament")
                }
            }
        }
        Ok(moved)
    }

    async fn step_owed(&self, id: TournamentId, now: Timestamp) -> Result<bool> {
        let mut tx = self.store.begin().await?;
        let Some(read) = tx.lock_tournament(id).await? else {
            return Ok(false);
        };
        let t = &read.tournament;
        match t.state {
            TournamentState::Open if t.starts_at.is_some_and(|at| at <= now) => {
                if read.entrants.len() >= 3 {
                    match self.begin_play(&mut tx, &read, now).await {
                        Ok(()) => {}
                        // Begun meanwhile by another process.
                        Err(Error::Refused(_)) => return Ok(false),
                        Err(Error::Failed(f)) => return Err(f),
                    }
                } else {
                    tx.step_tournament(
                        t.id,
                        RoundNumber::NONE,
                        RoundNumber::NONE,
                        TournamentState::Cancelled,
                        None,
                        now,
                    )
                    .await?;
                    let place = Place {
                        guild: t.guild_id,
                        channel: t.channel_id,
                    };
                    let news = Announcement::TournamentCancelled { tournament: t.id };
                    tx.insert_outbox(&news.row(place, now)?).await?;
                }
            }
            TournamentState::Running => {
                if !self.step(&mut tx, id, now).await? {
                    return Ok(false);
                }
            }
            _ => return Ok(false),
        }
        tx.commit().await?;
        Ok(true)
    }
}

/// The pairing module refused what the database holds: the stored tournament is inconsistent.
fn pairing_fault(e: pairing::PairingError) -> Failure {
    super::super::error::corrupt(format!("tournament pairing: {e}"))
}
