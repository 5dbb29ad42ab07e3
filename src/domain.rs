//! The values the store keeps and the game service hands around: identifiers, the stored states
//! of challenges and games, why a game ended, time controls, ratings and settings. Pure: how each is
//! written to and read from the database is `store::codec`'s business.
//!
//! Discord's ids (snowflakes) are `u64`; the database's integers are `i64`. [`MemberId`],
//! [`GuildId`] and [`ChannelId`] hold the snowflake; the store keeps it bit for bit. [`GameId`]
//! and [`ChallengeId`] are the database's own row ids.
//!
//! A moment is a [`Timestamp`], a span of time a [`Duration`]: never a bare number, so seconds
//! and milliseconds cannot be mixed up.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::rules::{ByColor, WinReason};

mod settings;
mod shards;
mod tournament;
pub use settings::{
    BoardStyle, MemberSettings, MemberSettingsChange, ServerSettings, ServerSettingsChange,
};
pub use shards::{Shards, ShardsError};
pub use tournament::{RoundNumber, TournamentFormat, TournamentState};

/// A Discord snowflake (member, server or channel), as a type of its own.
macro_rules! snowflake {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
        #[derive(Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(u64);

        impl $name {
            pub const fn new(id: u64) -> $name {
                $name(id)
            }

            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl From<u64> for $name {
            fn from(id: u64) -> $name {
                $name(id)
            }
        }

        impl fmt::Display for $name {
            /// The bare number.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

/// A row id of the database, as a type of its own.
macro_rules! row_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        #[derive(Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            pub const fn new(id: i64) -> $name {
                $name(id)
            }

            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl From<i64> for $name {
            fn from(id: i64) -> $name {
                $name(id)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;

            /// The bare number, as [`fmt::Display`] writes it.
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                s.parse().map($name)
            }
        }

        impl fmt::Display for $name {
            /// The bare number: `#12` is written `#{id}`.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

snowflake!(
    /// A member (or the bot itself), by Discord user id.
    MemberId
);
snowflake!(
    /// A server (guild), by Discord id; [`GuildId::DIRECT`] stands for direct messages.
    GuildId
);
snowflake!(
    /// A channel, by Discord id (a direct message is a channel too).
    ChannelId
);
snowflake!(
    /// A message, by Discord id: the post that shows a game's board.
    MessageId
);
row_id!(
    /// A game, by its row id.
    GameId
);
row_id!(
    /// A challenge, by its row id.
    ChallengeId
);
row_id!(
    /// A tournament, by its row id.
    TournamentId
);
row_id!(
    /// A puzzle, by its row id.
    PuzzleId
);
row_id!(
    /// An announcement waiting in the outbox, by its row id.
    OutboxId
);

impl GuildId {
    /// Direct messages, which are in no server: server 0.
    pub const DIRECT: GuildId = GuildId(0);
}

/// A moment in time, to the millisecond, the same for everyone whatever their time zone (unix
/// time). A span between two is a [`Duration`]; the arithmetic saturates rather than overflows.
/// Integers come in and go out only by the named doors: unix seconds, as the game keeps its
/// times, and unix milliseconds, as the outbox keeps its own.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Timestamp {
    unix_ms: i64,
}

impl Timestamp {
    /// 1970-01-01 00:00 UTC, whence unix time counts.
    pub const UNIX_EPOCH: Timestamp = Timestamp { unix_ms: 0 };

    /// The latest moment there is; nothing is ever due after it.
    pub const MAX: Timestamp = Timestamp { unix_ms: i64::MAX };

    /// The moment `seconds` after 1970-01-01 00:00 UTC.
    pub const fn from_unix_seconds(seconds: i64) -> Timestamp {
        Timestamp {
            unix_ms: seconds.saturating_mul(1000),
        }
    }

    /// The moment `millis` milliseconds after 1970-01-01 00:00 UTC.
    pub const fn from_unix_millis(millis: i64) -> Timestamp {
        Timestamp { unix_ms: millis }
    }

    /// Whole seconds since 1970-01-01 00:00 UTC, rounded down.
    pub const fn unix_seconds(self) -> i64 {
        self.unix_ms.div_euclid(1000)
    }

    /// Milliseconds since 1970-01-01 00:00 UTC.
    pub const fn unix_millis(self) -> i64 {
        self.unix_ms
    }
}

impl From<SystemTime> for Timestamp {
    /// The moment a system time stands for (one before 1970 counts from before it).
    fn from(t: SystemTime) -> Timestamp {
        match t.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(after) => Timestamp::UNIX_EPOCH + after,
            Err(before) => Timestamp::UNIX_EPOCH - before.duration(),
        }
    }
}

/// A span in whole milliseconds, as far as an `i64` reaches.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Add<Duration> for Timestamp {
    type Output = Timestamp;

    fn add(self, d: Duration) -> Timestamp {
        Timestamp {
            unix_ms: self.unix_ms.saturating_add(millis(d)),
        }
    }
}

impl Sub<Duration> for Timestamp {
    type Output = Timestamp;

    fn sub(self, d: Duration) -> Timestamp {
        Timestamp {
            unix_ms: self.unix_ms.saturating_sub(millis(d)),
        }
    }
}

impl Sub for Timestamp {
    type Output = Duration;

    /// The time from `earlier` to `self`: zero when `earlier` is in fact later (no time is left
    /// until a moment gone by).
    fn sub(self, earlier: Timestamp) -> Duration {
        let ms = self.unix_ms.saturating_sub(earlier.unix_ms);
        Duration::from_millis(u64::try_from(ms).unwrap_or(0))
    }
}

/// A [`Timestamp`] in JSON as its unix seconds, for serde's `with`: how stored announcements
/// have always written their moments.
pub mod unix_seconds {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Timestamp;

    pub fn serialize<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(t.unix_seconds())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        i64::deserialize(d).map(Timestamp::from_unix_seconds)
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

    /// The time per move.
    pub const fn duration(self) -> Duration {
        Duration::from_secs(match self {
            TimeControl::TenMinutes => 600,
            TimeControl::OneHour => 3_600,
            TimeControl::OneDay => 86_400,
            TimeControl::ThreeDays => 3 * 86_400,
            TimeControl::SevenDays => 7 * 86_400,
        })
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

    /// The time control of `duration` per move, if there is one.
    pub fn from_duration(duration: Duration) -> Option<TimeControl> {
        TimeControl::ALL
            .into_iter()
            .find(|t| t.duration() == duration)
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

/// Where a challenge stands. An accepted one holds the game it started, so that no challenge can
/// be accepted without its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeState {
    Pending,
    Accepted(GameId),
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeState {
    /// `pending`, `accepted`, …, as stored (`text::challenge_state` says it to members).
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeState::Pending => "pending",
            ChallengeState::Accepted(_) => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Cancelled => "cancelled",
            ChallengeState::Expired => "expired",
        }
    }

    /// The game an accepted challenge started.
    pub const fn game(self) -> Option<GameId> {
        match self {
            ChallengeState::Accepted(game) => Some(game),
            _ => None,
        }
    }
}

/// Where a game stands, as stored; the service's [`crate::game::GameStatus`] carries what goes
/// with each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    Active,
    Finished,
    Aborted,
}

impl GameState {
    pub const ALL: [GameState; 3] = [GameState::Active, GameState::Finished, GameState::Aborted];

    /// `active`, `finished` or `aborted`, as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameState::Active => "active",
            GameState::Finished => "finished",
            GameState::Aborted => "aborted",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Breakthrough,
    AllCaptured,
    NoMoves,
    Resignation,
    Timeout,
    Aborted,
}

impl EndReason {
    pub const ALL: [EndReason; 6] = [
        EndReason::Breakthrough,
        EndReason::AllCaptured,
        EndReason::NoMoves,
        EndReason::Resignation,
        EndReason::Timeout,
        EndReason::Aborted,
    ];

    /// `breakthrough`, `all_captured`, …, as stored.
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
}

impl From<WinReason> for EndReason {
    fn from(r: WinReason) -> Self {
        match r {
            WinReason::Breakthrough => EndReason::Breakthrough,
            WinReason::AllCaptured => EndReason::AllCaptured,
            WinReason::NoMoves => EndReason::NoMoves,
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

/// Deviation above which a rating is provisional: shown with `?`, unranked on the leaderboard.
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
    pub before: ByColor<RatingValue>,
    pub after: ByColor<RatingValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_show_and_serialize_as_the_bare_number() {
        let member = MemberId::new(u64::MAX);
        assert_eq!(member.to_string(), u64::MAX.to_string());
        assert_eq!(
            serde_json::to_string(&member).unwrap(),
            u64::MAX.to_string()
        );
        assert_eq!(GameId::new(12).to_string(), "12");
        assert_eq!(
            serde_json::from_str::<GameId>("12").unwrap(),
            GameId::new(12)
        );
        assert_eq!(GuildId::DIRECT.get(), 0);
    }

    #[test]
    fn moments_meet_integers_only_as_seconds_or_milliseconds() {
        let t = Timestamp::from_unix_seconds(1_800_000_000);
        assert_eq!(t.unix_millis(), 1_800_000_000_000);
        assert_eq!(
            Timestamp::from_unix_millis(1_800_000_000_999).unix_seconds(),
            1_800_000_000
        );
        assert_eq!(Timestamp::from_unix_millis(-1).unix_seconds(), -1);
        assert_eq!(
            t + Duration::from_millis(1_500) - t,
            Duration::from_millis(1_500)
        );
        assert_eq!(t - (t + Duration::from_secs(1)), Duration::ZERO);
        assert_eq!(
            t - Duration::from_secs(60),
            Timestamp::from_unix_seconds(1_799_999_940)
        );
        assert_eq!(Timestamp::MAX + Duration::MAX, Timestamp::MAX);
        assert_eq!(Timestamp::from_unix_seconds(i64::MAX), Timestamp::MAX);
        let now = SystemTime::now();
        assert_eq!(
            Timestamp::from(now + Duration::from_secs(2)) - Timestamp::from(now),
            Duration::from_secs(2)
        );
    }

    #[test]
    fn moments_are_their_unix_seconds_in_json() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct At(#[serde(with = "unix_seconds")] Timestamp);
        let t = Timestamp::from_unix_seconds(1_800_000_000);
        assert_eq!(serde_json::to_string(&At(t)).unwrap(), "1800000000");
        assert_eq!(serde_json::from_str::<At>("1800000000").unwrap(), At(t));
    }

    #[test]
    fn time_controls_are_their_durations() {
        for t in TimeControl::ALL {
            assert_eq!(TimeControl::from_duration(t.duration()), Some(t));
        }
        assert_eq!(TimeControl::from_duration(Duration::from_secs(1234)), None);
    }
}
