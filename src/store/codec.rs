//! How the domain's values are written to and read from SQLite: one `Type`, `Encode` and
//! `Decode` for each, and nowhere else.
//!
//! - Discord's ids ([`MemberId`], [`GuildId`], [`ChannelId`]) are `u64`, stored as SQLite's
//!   `i64` bit for bit (ids above `i64::MAX` read back negative in SQL, and unchanged here).
//! - Row ids ([`GameId`], [`ChallengeId`]) are the `i64` they are.
//! - Stored states and reasons, colours and board sizes are the text the columns have always
//!   held (`'active'`, `'all_captured'`, `'black'`, `'8x8'`); [`TimeControl`] is its seconds,
//!   and the AI's [`Level`] its number. A [`Position`] is its setup text; games keep theirs as
//!   written in their rows (see `rows::GameRow`), and read it with the rest of the game.
//!
//! A value that does not read back (a state no version wrote, a size that is not supported) is
//! a decode error: the query fails with it, as with any column of the wrong type.

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::sqlite::{Sqlite, SqliteArgumentsBuffer, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Type};

use crate::domain::{
    ChallengeId, ChallengeState, ChannelId, EndReason, GameId, GameState, GuildId, MemberId,
    TimeControl,
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
        impl Type<Sqlite> for $t {
            fn type_info() -> SqliteTypeInfo {
                <i64 as Type<Sqlite>>::type_info()
            }

            fn compatible(ty: &SqliteTypeInfo) -> bool {
                <i64 as Type<Sqlite>>::compatible(ty)
            }
        }

        impl Encode<'_, Sqlite> for $t {
            fn encode_by_ref(
                &self,
                buf: &mut SqliteArgumentsBuffer,
            ) -> Result<IsNull, BoxDynError> {
                let into: fn(&$t) -> i64 = $into;
                <i64 as Encode<Sqlite>>::encode(into(self), buf)
            }
        }

        impl<'r> Decode<'r, Sqlite> for $t {
            fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
                let from: fn(i64) -> Result<$t, BoxDynError> = $from;
                from(<i64 as Decode<Sqlite>>::decode(value)?)
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
integer!(GameId, |id| id.get(), |n| Ok(GameId::new(n)));
integer!(ChallengeId, |id| id.get(), |n| Ok(ChallengeId::new(n)));
integer!(TimeControl, |t| t.seconds(), |n| {
    TimeControl::from_seconds(n)
        .ok_or_else(|| format!("time limit {n} is not a time control").into())
});
integer!(Level, |l| i64::from(l.number()), |n| {
    u8::try_from(n)
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("AI level {n} is not a level").into())
});

/// Stored as text: `Type` of `str`, written as `text(self)` and read back by `parse(text)`.
macro_rules! text {
    ($t:ty, $what:literal, $text:expr, $parse:expr) => {
        impl Type<Sqlite> for $t {
            fn type_info() -> SqliteTypeInfo {
                <str as Type<Sqlite>>::type_info()
            }

            fn compatible(ty: &SqliteTypeInfo) -> bool {
                <str as Type<Sqlite>>::compatible(ty)
            }
        }

        impl Encode<'_, Sqlite> for $t {
            fn encode_by_ref(
                &self,
                buf: &mut SqliteArgumentsBuffer,
            ) -> Result<IsNull, BoxDynError> {
                let text: fn(&$t) -> String = $text;
                <String as Encode<Sqlite>>::encode(text(self), buf)
            }
        }

        impl<'r> Decode<'r, Sqlite> for $t {
            fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
                let parse: fn(&str) -> Option<$t> = $parse;
                let text = <&str as Decode<Sqlite>>::decode(value)?;
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
text_enum!(ChallengeState, "a challenge state");
text_enum!(EndReason, "a reason for a game to end");
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
