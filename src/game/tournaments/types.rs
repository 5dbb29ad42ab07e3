//! What the tournament operations take and give: a creation request, which tournament a member
//! means, why one is refused, and a tournament, its table and a round's games as read.

use std::time::Duration;

use crate::pairing::TieBreak;
use crate::rules::BoardSize;

use super::super::{
    Game, Member, MemberId, MessageId, Place, RoundNumber, TimeControl, Timestamp,
    TournamentFormat, TournamentId, TournamentState,
};

/// A tournament to create.
#[derive(Clone, Debug)]
pub struct TournamentRequest {
    pub place: Place,
    pub organizer: Member,
    /// Whether the organizer may manage the server (Discord's Manage Server): only such a member
    /// may create a tournament.
    pub manages_server: bool,
    pub name: String,
    pub format: TournamentFormat,
    pub size: BoardSize,
    pub time: TimeControl,
    pub rated: bool,
    /// Swiss only: the number of rounds; by default ⌈log2 n⌉ + 1, fixed at the start.
    pub rounds: Option<u32>,
    /// At most the format's own cap (32 for a round robin, 128 for a Swiss), which is the default.
    pub max_players: Option<u32>,
    /// When it starts by itself; by default, when its organizer starts it.
    pub starts_in: Option<Duration>,
}

/// Which tournament a command means: one by number, or the only one open or running in the
/// server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentRef {
    Id(TournamentId),
    Only,
}

/// An entrant with their name in the server, and whether they withdrew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentEntrant {
    pub member: Member,
    pub withdrawn: bool,
}

/// A tournament as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub id: TournamentId,
    pub place: Place,
    pub name: String,
    pub format: TournamentFormat,
    pub organizer: MemberId,
    pub size: BoardSize,
    pub time: TimeControl,
    pub rated: bool,
    /// A Swiss's rounds: as asked before the start (`None`: the default), fixed at the start.
    pub rounds: Option<u32>,
    pub max_players: u32,
    /// When it starts by itself, if it does.
    pub starts_at: Option<Timestamp>,
    pub state: TournamentState,
    /// The round being played: 0 before the start; a round robin plays all its games in round 1.
    pub round: RoundNumber,
    /// The sign-up message, once posted.
    pub message: Option<MessageId>,
    /// In their seeding order from the start, in their order of entry before.
    pub entrants: Vec<TournamentEntrant>,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLine {
    pub rank: u32,
    pub member: Member,
    pub points: u32,
    pub played: u32,
    /// Games still to finish in a round robin; `None` in a Swiss.
    pub left: Option<u32>,
    pub tie_breaks: Vec<TieBreak>,
    pub withdrawn: bool,
}

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub tournament: Tournament,
    pub lines: Vec<TableLine>,
}

impl Table {
    /// The winner, once the tournament is finished.
    pub fn winner(&self) -> Option<&Member> {
        (self.tournament.state == TournamentState::Finished)
            .then(|| self.lines.first().map(|l| &l.member))
            .flatten()
    }
}

/// The games of one round, with who sat it out.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundGames {
    pub tournament: Tournament,
    pub round: RoundNumber,
    pub games: Vec<Game>,
    pub bye: Option<Member>,
}

impl RoundGames {
    /// The games of `member` in this round.
    pub fn games_of(&self, member: MemberId) -> impl Iterator<Item = &Game> {
        self.games
            .iter()
            .filter(move |g| g.color_of(member).is_some())
    }
}
