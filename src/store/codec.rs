//! How the domain's values are written to and read from the database (SQLite or PostgreSQL,
//! through sqlx's `Any` driver): one `Type`, `Encode` and `Decode` for each, and nowhere else.
//!
//! - Discord's ids ([`MemberId`], [`GuildId`], [`ChannelId`], [`MessageId`]) are `u64`, stored as a 64-bit
//!   signed integer bit for bit (ids above `i64::MAX` read back negative in SQL, and unchanged here).
//! - Row ids ([`GameId`], [`ChallengeId`]) are the `i64` they are.
//! - Stored states and reasons, colours and board sizes are the text the columns have always
//!   held (`'active'`, `'all_captured'`, `'black'`, `'8x8'`), and a board style its name
//!   (`'emoji'`, `'image'`); [`TimeControl`] is its seconds, and the AI's [`Level`] its number.
//!   A [`Position`] is its setup text; games keep theirs as written in their rows (see
//!   `rows::GameRow`), and read it with the rest of the game.
//! - A [`Timestamp`] is its unix seconds, as every column of moments holds them but the outbox's
//!   times to post, in unix milliseconds: [`Millis`] writes and reads those. A span added to or
//!   taken from a column of moments is its whole seconds: [`Seconds`] writes it. Nowhere else
//!   does a moment or a span become a number.
//!
//! - A yes/no column is an integer, 0 or 1, in both databases: [`Flag`] writes it so, and reads
//!   back either that or a boolean (what an expression gives in PostgreSQL).
//!
//! A value that does not read back (a state no version wrote, a size that is not supported) is
//! a decode error: the query fails with it, as with any column of the wrong type.

use std::time::Duration;

use sqlx::any::{Any, AnyTypeInfo, AnyValueRef};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::Database;

type AnyArgumentBuffer = <Any as Database>::ArgumentBuffer;
use sqlx::{Decode, Encode, Type};

use crate::domain::{
    BoardStyle, ChallengeId, ChannelId, EndReason, GameId, GameState, GuildId, MemberId, MessageId,
    OutboxId, PuzzleId, RoundNumber, TimeControl, Timestamp, TournamentFormat, TournamentId,
    TournamentState,
};
use crate::engine::Level;
use crate::rules::{BoardSize, Color, Position};

/// A Discord id as stored: the same 64 bits, read as signed.
const fn to_db(id: u64) -> i64 {
    id as i64
}

/// A stored Discord id back: the same 64 bits, read as unsigned.
const fn from_db(id: i64) -> u64 {
    id as u64
}

/// Stored as an integer: `Type` of `i64`, written through `into` and read back through `from`.
macro_rules! integer {
    ($t:ty, $into:expr, $from:expr) => {
        impl Type<Any> for $t {
            fn type_info() -> AnyTypeInfo {
                <i64 as Type<Any>>::type_info()
            }

            fn compatible(ty: &AnyTypeInfo) -> bool {
                <i64 as Type<Any>>::compatible(ty)
            }
        }

        impl Encode<'_, Any> for $t {
            fn encode_by_ref(&self, buf: &mut AnyArgumentBuffer) -> Result<IsNull, BoxDynError> {
                let into: fn(&$t) -> i64 = $into;
                <i64 as Encode<Any>>::encode(into(self), buf)
            }
        }

        impl<'r> Decode<'r, Any> for $t {
            fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
                let from: fn(i64) -> Result<$t, BoxDynError> = $from;
                from(<i64 as Decode<Any>>::decode(value)?)
            }
        }
    };
}

integer!(MemberId, |id| to_db(id.get()), |n| Ok(MemberId::new(
    from_db(n)
)));
integer!(GuildId, |id| to_db(id.get()), |n| Ok(GuildId::new(
    from_db(n)
)));
integer!(ChannelId, |id| to_db(id.get()), |n| Ok(ChannelId::new(
    from_db(n)
)));
integer!(MessageId, |id| to_db(id.get()), |n| Ok(MessageId::new(
    from_db(n)
)));
integer!(GameId, |id| id.get(), |n| Ok(GameId::new(n)));
integer!(RoundNumber, |r| i64::from(r.get()), |n| u32::try_from(n)
    .map(RoundNumber::new)
    .map_err(|_| format!("round {n} is not a round").into()));
integer!(ChallengeId, |id| id.get(), |n| Ok(ChallengeId::new(n)));
integer!(TournamentId, |id| id.get(), |n| Ok(TournamentId::new(n)));
integer!(PuzzleId, |id| id.get(), |n| Ok(PuzzleId::new(n)));
integer!(OutboxId, |id| id.get(), |n| Ok(OutboxId::new(n)));
integer!(TimeControl, |t| seconds(t.duration()), |n| {
    u64::try_from(n)
        .ok()
        .and_then(|s| TimeControl::from_duration(Duration::from_secs(s)))
        .ok_or_else(|| format!("time limit {n} is not a time control").into())
});
integer!(Level, |l| i64::from(l.number()), |n| {
    u8::try_from(n)
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("AI level {n} is not a level").into())
});
integer!(Timestamp, |t| t.unix_seconds(), |n| Ok(
    Timestamp::from_unix_seconds(n)
));
integer!(Millis, |t| t.0.unix_millis(), |n| Ok(Millis(
    Timestamp::from_unix_millis(n)
)));
integer!(Seconds, |d| seconds(d.0), |n| Ok(Seconds(
    Duration::from_secs(u64::try_from(n).unwrap_or(0))
)));

/// A span's whole seconds, as far as an `i64` reaches.
fn seconds(d: Duration) -> i64 {
    i64::try_from(d.as_secs()).unwrap_or(i64::MAX)
}

/// A moment stored as unix milliseconds (the outbox's times to post), where [`Timestamp`] itself
/// is stored as unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Millis(pub Timestamp);

impl From<Millis> for Timestamp {
    fn from(t: Millis) -> Timestamp {
        t.0
    }
}

/// A span stored as its whole seconds: what a statement adds to or takes from a column of
/// moments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seconds(pub Duration);

/// Stored as text: `Type` of `str`, written as `text(self)` and read back by `parse(text)`.
macro_rules! text {
    ($t:ty, $what:literal, $text:expr, $parse:expr) => {
        impl Type<Any> for $t {
            fn type_info() -> AnyTypeInfo {
                <str as Type<Any>>::type_info()
            }

            fn compatible(ty: &AnyTypeInfo) -> bool {
                <str as Type<Any>>::compatible(ty)
            }
        }

        impl Encode<'_, Any> for $t {
            fn encode_by_ref(&self, buf: &mut AnyArgumentBuffer) -> Result<IsNull, BoxDynError> {
                let text: fn(&$t) -> String = $text;
                <String as Encode<Any>>::encode(text(self), buf)
            }
        }

        impl<'r> Decode<'r, Any> for $t {
            fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
                let parse: fn(&str) -> Option<$t> = $parse;
                let text = <&str as Decode<Any>>::decode(value)?;
                parse(text).ok_or_else(|| format!("`{text}` is not {}", $what).into())
            }
        }
    };
}

/// A text enum: each value is written as `as_str`, and only those texts read back.
macro_rules! text_enum {
    ($t:ident, $what:literal) => {
        text!($t, $what, |v| v.as_str().to_string(), |s| {
            $t::ALL.into_iter().find(|v| v.as_str() == s)
        });
    };
}

text_enum!(GameState, "a game state");
text_enum!(EndReason, "a reason for a game to end");
text_enum!(BoardStyle, "a board style");
text_enum!(TournamentFormat, "a tournament format");
text_enum!(TournamentState, "a tournament state");
text!(Color, "a side", |c| c.name().to_string(), |s| {
    [Color::Black, Color::White]
        .into_iter()
        .find(|c| c.name() == s)
});
text!(BoardSize, "a board size", BoardSize::to_string, |s| s
    .parse()
    .ok());
text!(Position, "a position", Position::to_string, |s| s
    .parse()
    .ok());

/// A yes/no value as stored: the integer 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0
    }
}

impl Type<Any> for Flag {
    fn type_info() -> AnyTypeInfo {
        <i64 as Type<Any>>::type_info()
    }

    fn compatible(ty: &AnyTypeInfo) -> bool {
        <i64 as Type<Any>>::compatible(ty) || <bool as Type<Any>>::compatible(ty)
    }
}

impl Encode<'_, Any> for Flag {
    fn encode_by_ref(&self, buf: &mut AnyArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <i64 as Encode<Any>>::encode(i64::from(self.0), buf)
    }
}

impl<'r> Decode<'r, Any> for Flag {
    fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
        match <i64 as Decode<Any>>::decode(value.clone()) {
            Ok(n) => Ok(Flag(n != 0)),
            Err(_) => <bool as Decode<Any>>::decode(value).map(Flag),
        }
    }
}
