//! The game service's domain types: members, places, time controls, challenges, games.

use std::fmt;
use std::str::FromStr;

use crate::engine::Level;
use crate::rules::{BoardSize, Color, Move, Position};

pub type GameId = i64;
pub type ChallengeId = i64;

/// A member of a server (or the bot itself), by Discord id, with a display name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub id: u64,
    pub name: String,
}

impl Member {
    pub fn new(id: u64, name: impl Into<String>) -> Member {
        Member {
            id,
            name: name.into(),
        }
    }
}

/// Where something happens: a server (guild) and a channel in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub guild: u64,
    pub channel: u64,
}

impl Place {
    /// Whether this is a direct message (server 0) rather than a server's channel.
    pub const fn is_direct(self) -> bool {
        self.guild == 0
    }

    /// Whether what happens at `other` may be shown here: anything in the same server, and in a
    /// direct message only what happens in that same conversation.
    pub fn sees(self, other: Place) -> bool {
        if other.is_direct() {
            self == other
        } else {
            self.guild == other.guild
        }
    }
}

/// What a member tries to do to a game, for a refusal that says where to do it instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Move,
    Resign,
    Abort,
}

impl Action {
    /// `make your move there`, `resign there`, `abort it there`.
    pub const fn there(self) -> &'static str {
        match self {
            Action::Move => "make your move there",
            Action::Resign => "resign there",
            Action::Abort => "abort it there",
        }
    }
}

/// Time per move (correspondence play): the side to move loses when it runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    TenMinutes,
    OneHour,
    #[default]
    OneDay,
    ThreeDays,
    SevenDays,
}

impl TimeControl {
    pub const ALL: [TimeControl; 5] = [
        TimeControl::TenMinutes,
        TimeControl::OneHour,
        TimeControl::OneDay,
        TimeControl::ThreeDays,
        TimeControl::SevenDays,
    ];

    pub const fn seconds(self) -> i64 {
        match self {
            TimeControl::TenMinutes => 600,
            TimeControl::OneHour => 3_600,
            TimeControl::OneDay => 86_400,
            TimeControl::ThreeDays => 3 * 86_400,
            TimeControl::SevenDays => 7 * 86_400,
        }
    }

    /// The short form used in commands: `10m`, `1h`, `1d`, `3d`, `7d`.
    pub const fn code(self) -> &'static str {
        match self {
            TimeControl::TenMinutes => "10m",
            TimeControl::OneHour => "1h",
            TimeControl::OneDay => "1d",
            TimeControl::ThreeDays => "3d",
            TimeControl::SevenDays => "7d",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            TimeControl::TenMinutes => "10 minutes per move",
            TimeControl::OneHour => "1 hour per move",
            TimeControl::OneDay => "1 day per move",
            TimeControl::ThreeDays => "3 days per move",
            TimeControl::SevenDays => "7 days per move",
        }
    }

    pub fn from_seconds(seconds: i64) -> Option<TimeControl> {
        TimeControl::ALL
            .into_iter()
            .find(|t| t.seconds() == seconds)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A time control that is not one of the choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a time control: choose 10m, 1h, 1d, 3d or 7d")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase().replace(' ', "");
        let found = match t.as_str() {
            "10m" | "10min" | "10minutes" => TimeControl::TenMinutes,
            "1h" | "1hour" | "60m" => TimeControl::OneHour,
            "1d" | "1day" | "24h" => TimeControl::OneDay,
            "3d" | "3days" => TimeControl::ThreeDays,
            "7d" | "7days" | "1w" | "1week" => TimeControl::SevenDays,
            _ => return Err(TimeControlError(crate::rules::shorten(s))),
        };
        Ok(found)
    }
}

/// A game against the built-in AI, as a member asks for it with `/challenge` and the bot as
/// opponent. It starts at once, and is never rated.
#[derive(Clone, Debug)]
pub struct AiRequest {
    pub place: Place,
    pub challenger: Member,
    /// The AI as a member: on Discord the bot's own user, in the console `@bot`.
    pub ai: Member,
    pub level: Level,
    pub size: BoardSize,
    /// The challenger's side; `None` draws it.
    pub color: Option<Color>,
    pub time: TimeControl,
}

/// The AI's side and strength in a game against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiPlayer {
    pub color: Color,
    pub level: Level,
}

/// What a member asks for with `/challenge`.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    pub place: Place,
    pub challenger: Member,
    /// `None` for an open challenge anyone in the channel may take.
    pub opponent: Option<Member>,
    pub size: BoardSize,
    /// The challenger's side; `None` draws it at acceptance.
    pub color: Option<Color>,
    pub time: TimeControl,
    pub rated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeState {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeState {
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeState::Pending => "pending",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Cancelled => "cancelled",
            ChallengeState::Expired => "expired",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<ChallengeState> {
        [
            ChallengeState::Pending,
            ChallengeState::Accepted,
            ChallengeState::Declined,
            ChallengeState::Cancelled,
            ChallengeState::Expired,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
    }
}

/// A challenge as the front ends show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub place: Place,
    pub challenger: Member,
    pub opponent: Option<Member>,
    pub size: BoardSize,
    pub color: Option<Color>,
    pub time: TimeControl,
    pub rated: bool,
    /// Asked rated, but the pair has had its rated games for the day (this many, the limit in
    /// force): played casual.
    pub casual_by_limit: Option<i64>,
    pub state: ChallengeState,
    pub expires_at: i64,
    pub game: Option<GameId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameState {
    Active,
    Finished,
    Aborted,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Breakthrough,
    AllCaptured,
    NoMoves,
    Resignation,
    Timeout,
    Aborted,
}

impl EndReason {
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Breakthrough => "breakthrough",
            EndReason::AllCaptured => "all_captured",
            EndReason::NoMoves => "no_moves",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::Aborted => "aborted",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<EndReason> {
        [
            EndReason::Breakthrough,
            EndReason::AllCaptured,
            EndReason::NoMoves,
            EndReason::Resignation,
            EndReason::Timeout,
            EndReason::Aborted,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }

    /// How the game ended, said to the players: "a piece reached the far row".
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Breakthrough => "a piece reached the far row",
            EndReason::AllCaptured => "every opposing piece was captured",
            EndReason::NoMoves => "the other side had no legal move",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "time ran out",
            EndReason::Aborted => "aborted",
        }
    }
}

impl From<crate::rules::WinReason> for EndReason {
    fn from(r: crate::rules::WinReason) -> Self {
        match r {
            crate::rules::WinReason::Breakthrough => EndReason::Breakthrough,
            crate::rules::WinReason::AllCaptured => EndReason::AllCaptured,
            crate::rules::WinReason::NoMoves => EndReason::NoMoves,
        }
    }
}

/// A rating at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingValue {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// Deviation above which a rating is provisional: shown with `?`, left off the leaderboard.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl RatingValue {
    pub const START: RatingValue = RatingValue {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

impl fmt::Display for RatingValue {
    /// `1532`, or `1500?` while provisional.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.0}", self.rating)?;
        if self.is_provisional() {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// Both players' ratings before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub black_before: RatingValue,
    pub black_after: RatingValue,
    pub white_before: RatingValue,
    pub white_after: RatingValue,
}

impl RatingChange {
    pub fn before(&self, color: Color) -> RatingValue {
        match color {
            Color::Black => self.black_before,
            Color::White => self.white_before,
        }
    }

    pub fn after(&self, color: Color) -> RatingValue {
        match color {
            Color::Black => self.black_after,
            Color::White => self.white_after,
        }
    }
}

/// Plies after which both sides have moved. A game that ends sooner (an abort, a time-out, a
/// resignation at the first move) changes no rating; until then it may be aborted.
pub const BOTH_SIDES_MOVED: u32 = 2;

/// A game as the front ends show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub id: GameId,
    pub place: Place,
    pub black: Member,
    pub white: Member,
    pub size: BoardSize,
    pub time: TimeControl,
    pub rated: bool,
    pub state: GameState,
    pub position: Position,
    /// Plies played so far.
    pub ply: u32,
    pub last_move: Option<Move>,
    /// When the side to move runs out of time (unix seconds); meaningful while active.
    pub deadline: i64,
    /// The winner (none for an abort) and why, once the game is over.
    pub result: Option<(Option<Color>, EndReason)>,
    pub rating_change: Option<RatingChange>,
    /// The AI's side and level in a game against it; `None` between members.
    pub ai: Option<AiPlayer>,
}

impl Game {
    pub fn player(&self, color: Color) -> &Member {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The side `member` plays, if they play in this game.
    pub fn color_of(&self, member: u64) -> Option<Color> {
        if self.black.id == member {
            Some(Color::Black)
        } else if self.white.id == member {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Who is to move (meaningful while active).
    pub fn to_move(&self) -> &Member {
        self.player(self.position.turn())
    }

    /// The move number shown to players: Black's and White's moves share a number.
    pub fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }

    pub fn is_active(&self) -> bool {
        self.state == GameState::Active
    }

    /// Whether the game is over and ended before both sides had moved: unrated, whatever was
    /// agreed.
    pub fn ended_early(&self) -> bool {
        !self.is_active() && self.ply < BOTH_SIDES_MOVED
    }

    /// Whether the game is active, against the AI, and the AI is to move.
    pub fn ai_to_move(&self) -> bool {
        self.is_active() && self.ai.is_some_and(|ai| ai.color == self.position.turn())
    }
}

/// A move that was played, and the game after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub mv: Move,
    pub game: Game,
}

/// A member's standing on one board of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingCard {
    pub member: Member,
    pub size: BoardSize,
    pub value: RatingValue,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub recent: Vec<RecentResult>,
}

/// One of a member's recent rated results.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentResult {
    pub game: GameId,
    pub opponent: Member,
    pub won: bool,
    pub reason: EndReason,
    pub change: f64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub rank: usize,
    pub member: Member,
    pub value: RatingValue,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
}

/// One page of a server's leaderboard on one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    pub size: BoardSize,
    /// One-based page number, and how many there are (at least 1).
    pub page: usize,
    pub pages: usize,
    pub standings: Vec<Standing>,
    /// Players left out because their rating is still provisional.
    pub provisional: usize,
}

/// A game's move list, as shown by `/history`.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub game: Game,
    /// Canonical notation, by ply.
    pub moves: Vec<String>,
}

/// What one pass of the clock found and did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepReport {
    pub expired: Vec<Challenge>,
    /// Games lost on time by the side to move.
    pub timed_out: Vec<Game>,
    /// Games aborted because time ran out before both sides had moved.
    pub aborted: Vec<Game>,
    /// Games whose side to move has little time left: remind them, once.
    pub reminders: Vec<Game>,
}

impl SweepReport {
    pub fn is_empty(&self) -> bool {
        self.expired.is_empty()
            && self.timed_out.is_empty()
            && self.aborted.is_empty()
            && self.reminders.is_empty()
    }
}
