//! Tournaments on paper, pure like the rules: who plays whom, with which colour, and how the table is ranked.
//!
//! Pure and synchronous like [`crate::rules`]: values in, values out, no I/O, no clock, no
//! randomness. The same entrants and games always give the same pairings and the same table.
//!
//! Two formats:
//!
//! - **Round robin** ([`round_robin`]): every pair of entrants plays exactly once, all games at
//!   once. Each player has as many games with White as with Black, or one more of either.
//! - **Swiss** ([`swiss_round`]): rounds, each paired from the results so far. Players meet others
//!   on the same score; nobody meets the same opponent twice while the round can be paired without
//!   a rematch; colours alternate where they can, and nobody gets the same colour three times in a
//!   row unless the only way to avoid it is a rematch. With an odd number of players, the
//!   lowest-ranked player who has not had a bye yet sits the round out and scores 1 point. The
//!   number of rounds is fixed at the start, [`default_rounds`] by default.
//!
//! Scoring ([`standings`]): a win scores 1, a loss 0, a bye 1; Breakthrough has no draws. Ties are
//! broken, in a round robin, by the direct encounter between the tied players, then
//! Sonneborn-Berger, then fewer games lost on time; in a Swiss, by Buchholz cut-1, then
//! Sonneborn-Berger, then the direct encounter. Players equal on everything keep their order of
//! entry (the seeding).
//!
//! One file per concern: `round_robin`, `swiss` (the state and the round), `matching` (the search
//! for a pairing of everyone, used by `swiss`), `standings`.

#![warn(clippy::missing_errors_doc)]

mod matching;
mod round_robin;
mod standings;
mod swiss;

use std::fmt;

use crate::rules::Color;

pub use round_robin::round_robin;
pub use standings::{standings, Format, Standing, TieBreak};
pub use swiss::{swiss_round, SwissState};

/// A player in a tournament, by an id the caller chooses (a member's id, a row's id). Ordered by
/// that id, so that every order this module produces is the same from one run to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entrant(pub u64);

impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Two entrants to play each other, with their colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub white: Entrant,
    pub black: Entrant,
}

impl Pairing {
    /// Whether `entrant` plays in this game.
    pub fn has(&self, entrant: Entrant) -> bool {
        self.white == entrant || self.black == entrant
    }

    /// The colour `entrant` plays with, if they play in this game.
    pub fn color_of(&self, entrant: Entrant) -> Option<Color> {
        if self.white == entrant {
            Some(Color::White)
        } else if self.black == entrant {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A game that has ended: who played which colour, who won, whether the loser lost on time, and
/// the round it belonged to (any number in a round robin, where all games are played at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedGame {
    pub round: u32,
    pub white: Entrant,
    pub black: Entrant,
    pub winner: Color,
    /// The loser ran out of time (a tie-break in a round robin).
    pub on_time: bool,
}

impl PlayedGame {
    /// The entrant who played `color`.
    pub fn player(&self, color: Color) -> Entrant {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub fn winner(&self) -> Entrant {
        self.player(self.winner)
    }

    pub fn loser(&self) -> Entrant {
        self.player(self.winner.opposite())
    }

    /// The colour `entrant` played, if they played in this game.
    pub fn color_of(&self, entrant: Entrant) -> Option<Color> {
        self.pairing().color_of(entrant)
    }

    /// The other player, if `entrant` played in this game.
    pub fn opponent_of(&self, entrant: Entrant) -> Option<Entrant> {
        self.color_of(entrant).map(|c| self.player(c.opposite()))
    }

    pub fn pairing(&self) -> Pairing {
        Pairing {
            white: self.white,
            black: self.black,
        }
    }
}

/// A round sat out by an entrant in a Swiss with an odd number of players, worth 1 point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bye {
    pub round: u32,
    pub entrant: Entrant,
}

/// A Swiss round: its number (from 1), its games, best-placed players first, and who has the
/// bye, if anyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub pairings: Vec<Pairing>,
    pub bye: Option<Entrant>,
}

/// Why a Swiss state cannot be built or a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("entrant {0} is listed twice")]
    DuplicateEntrant(Entrant),
    #[error("entrant {0} is not in the tournament")]
    UnknownEntrant(Entrant),
    #[error("a game needs two different players, not {0} against themselves")]
    SamePlayer(Entrant),
    #[error("a round needs at least two players still in the tournament, and {0} are")]
    TooFewPlayers(usize),
}

/// The default number of Swiss rounds for `entrants` players: ⌈log2 n⌉ + 1, enough for one
/// player to stand alone at the top (1 for fewer than two players).
///
/// ```
/// use breakthrough_bot::pairing::default_rounds;
///
/// assert_eq!(default_rounds(8), 4);
/// assert_eq!(default_rounds(9), 5);
/// assert_eq!(default_rounds(128), 8);
/// ```
pub fn default_rounds(entrants: usize) -> u32 {
    entrants.next_power_of_two().trailing_zeros() + 1
}
