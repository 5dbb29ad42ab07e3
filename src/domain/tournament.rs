//! A tournament's stored values: its format and its state. What a tournament is on paper (who
//! plays whom, the table) is [`crate::pairing`]'s business.

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentFormat {
    /// Every pair of entrants plays once, all games at once.
    RoundRobin,
    /// Rounds, each paired from the results so far.
    Swiss,
}

impl TournamentFormat {
    pub const ALL: [TournamentFormat; 2] = [TournamentFormat::RoundRobin, TournamentFormat::Swiss];

    /// `round_robin` or `swiss`, as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentFormat::RoundRobin => "round_robin",
            TournamentFormat::Swiss => "swiss",
        }
    }

    /// `round-robin` or `swiss`: what a member types.
    pub const fn option(self) -> &'static str {
        match self {
            TournamentFormat::RoundRobin => "round-robin",
            TournamentFormat::Swiss => "swiss",
        }
    }

    /// The format a member typed (`round-robin`, `round_robin`, `rr`, `swiss`; any case).
    pub fn from_option(text: &str) -> Option<TournamentFormat> {
        match text.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "round-robin" | "roundrobin" | "rr" => Some(TournamentFormat::RoundRobin),
            "swiss" => Some(TournamentFormat::Swiss),
            _ => None,
        }
    }

    /// The most entrants it takes.
    pub const fn max_players(self) -> u32 {
        match self {
            TournamentFormat::RoundRobin => 32,
            TournamentFormat::Swiss => 128,
        }
    }
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentState {
    /// Taking entrants.
    Open,
    /// Started: its games are being played.
    Running,
    /// Every game played; the table is final.
    Finished,
    /// Ended by its organizer (or for want of entrants); its games in progress go on as ordinary
    /// games.
    Cancelled,
}

impl TournamentState {
    pub const ALL: [TournamentState; 4] = [
        TournamentState::Open,
        TournamentState::Running,
        TournamentState::Finished,
        TournamentState::Cancelled,
    ];

    /// As stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentState::Open => "open",
            TournamentState::Running => "running",
            TournamentState::Finished => "finished",
            TournamentState::Cancelled => "cancelled",
        }
    }

    /// Open or running: counted against a server's limit, and what a command means by default.
    pub const fn is_live(self) -> bool {
        matches!(self, TournamentState::Open | TournamentState::Running)
    }
}

/// A round of a tournament, counted from 1; round 0 is before the first. One type wherever a
/// round is kept, shown or asked for (a round robin has a single round).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct RoundNumber(u32);

impl RoundNumber {
    /// Before the first round.
    pub const NONE: RoundNumber = RoundNumber(0);
    pub const FIRST: RoundNumber = RoundNumber(1);

    pub const fn new(n: u32) -> RoundNumber {
        RoundNumber(n)
    }

    pub const fn get(self) -> u32 {
        self.0
    }

    /// The round after this one.
    #[must_use]
    pub const fn next(self) -> RoundNumber {
        RoundNumber(self.0.saturating_add(1))
    }
}

impl std::fmt::Display for RoundNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
