//! A tournament as the store reads it, turned into what members are shown ([`Tournament`],
//! [`Table`]) and into what [`crate::pairing`] pairs and ranks.

use crate::pairing::{self as pairing, Entrant as PairingEntrant};
use crate::store::TournamentRead;

use super::super::TournamentRefusal;
use super::super::{
    EndReason, Error, GameState, Member, MemberId, Place, RoundNumber, TournamentError,
    TournamentFormat,
};
use super::{Table, TableLine, Tournament, TournamentEntrant};

pub(super) fn refused(why: TournamentRefusal) -> TournamentError {
    Error::Refused(why)
}

pub(super) fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

/// The tournament of a stored read.
pub(super) fn tournament_of(read: &TournamentRead) -> Tournament {
    let t = &read.tournament;
    Tournament {
        id: t.id,
        place: Place {
            guild: t.guild_id,
            channel: t.channel_id,
        },
        name: t.name.clone(),
        format: t.format,
        organizer: t.organizer_id,
        size: t.size,
        time: t.time_limit,
        rated: t.rated,
        rounds: t.rounds.map(count),
        max_players: count(t.max_players),
        starts_at: t.starts_at,
        state: t.state,
        round: t.round,
        message: t.message_id,
        entrants: read
            .entrants
            .iter()
            .map(|e| TournamentEntrant {
                member: Member::new(e.member_id, e.name.as_str()),
                withdrawn: e.withdrawn_at.is_some(),
            })
            .collect(),
    }
}

/// A member as the pairing module knows them.
pub(super) fn pairing_entrant(member: MemberId) -> PairingEntrant {
    PairingEntrant(member.get())
}

/// The games of a stored read that ended with a winner, as the pairing module counts them.
pub(super) fn pairing_games(read: &TournamentRead) -> Vec<pairing::PlayedGame> {
    read.games
        .iter()
        .filter_map(|g| {
            let winner = g.winner.filter(|_| g.state == GameState::Finished)?;
            Some(pairing::PlayedGame {
                round: g.tournament_round.map_or(0, RoundNumber::get),
                white: pairing_entrant(g.players.white.id),
                black: pairing_entrant(g.players.black.id),
                winner,
                on_time: g.end_reason == Some(EndReason::Timeout),
            })
        })
        .collect()
}

pub(super) fn pairing_byes(read: &TournamentRead) -> Vec<pairing::Bye> {
    read.byes
        .iter()
        .map(|b| pairing::Bye {
            round: b.round.get(),
            entrant: pairing_entrant(b.member_id),
        })
        .collect()
}

pub(super) fn pairing_format(format: TournamentFormat) -> pairing::Format {
    match format {
        TournamentFormat::RoundRobin => pairing::Format::RoundRobin,
        TournamentFormat::Swiss => pairing::Format::Swiss,
    }
}

/// The table of a stored read.
pub(super) fn table_of(read: &TournamentRead) -> Table {
    let tournament = tournament_of(read);
    let entrants: Vec<PairingEntrant> = read
        .entrants
        .iter()
        .map(|e| pairing_entrant(e.member_id))
        .collect();
    let mut lines: Vec<TableLine> = pairing::standings(
        pairing_format(tournament.format),
        &entrants,
        &pairing_games(read),
        &pairing_byes(read),
    )
    .into_iter()
    .filter_map(|s| {
        let entrant = tournament
            .entrants
            .iter()
            .find(|e| pairing_entrant(e.member.id) == s.entrant)?;
        Some(TableLine {
            rank: s.rank,
            member: entrant.member.clone(),
            points: s.points,
            played: s.played,
            left: s.left,
            tie_breaks: s.tie_breaks,
            withdrawn: entrant.withdrawn,
        })
    })
    .collect();
    // A round robin's games left: those still in progress (a withdrawal forfeits the rest, and
    // before the start nothing is paired).
    if tournament.format == TournamentFormat::RoundRobin {
        for line in &mut lines {
            let left = read
                .games
                .iter()
                .filter(|g| g.state == GameState::Active)
                .filter(|g| {
                    g.players.black.id == line.member.id || g.players.white.id == line.member.id
                })
                .count();
            line.left = Some(u32::try_from(left).unwrap_or(0));
        }
    }
    Table { tournament, lines }
}
