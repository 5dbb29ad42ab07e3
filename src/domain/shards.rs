//! Which of Discord's gateway shards a process runs, and which shard serves a server.

use std::fmt;

use super::GuildId;

/// Which of Discord's gateway shards a process runs: `first..=last` of `count`. Discord sends
/// each server's events on one shard ([`Shards::of`]); direct messages (server 0) come on
/// shard 0, as does the console's local server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shards {
    pub count: u32,
    pub first: u32,
    pub last: u32,
}

/// A `SHARDS` value that is not a range within `SHARD_COUNT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a range of shards of {count}: write one as 2, or a range as 0-3, each below {count}")]
pub struct ShardsError {
    pub given: String,
    pub count: u32,
}

impl Shards {
    /// Every shard of `count`.
    pub const fn all(count: u32) -> Shards {
        Shards {
            count,
            first: 0,
            last: count.saturating_sub(1),
        }
    }

    /// `text` (`2`, or a range `0-3`) as shards of `count`.
    ///
    /// ```
    /// use breakthrough_bot::domain::Shards;
    /// assert_eq!(Shards::parse("0-1", 4), Ok(Shards { count: 4, first: 0, last: 1 }));
    /// assert_eq!(Shards::parse("3", 4), Ok(Shards { count: 4, first: 3, last: 3 }));
    /// assert!(Shards::parse("3-4", 4).is_err());
    /// assert!(Shards::parse("2-1", 4).is_err());
    /// ```
    pub fn parse(text: &str, count: u32) -> Result<Shards, ShardsError> {
        let refuse = || ShardsError {
            given: text.to_string(),
            count,
        };
        let (first, last) = match text.trim().split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (text.trim(), text.trim()),
        };
        let first: u32 = first.parse().map_err(|_| refuse())?;
        let last: u32 = last.parse().map_err(|_| refuse())?;
        if first > last || last >= count {
            return Err(refuse());
        }
        Ok(Shards { count, first, last })
    }

    /// How many bits Discord shifts a server id right by before taking it modulo the shard
    /// count (the bits below its creation time). The store's queries work out shards with it.
    pub const ID_SHIFT: u32 = 22;

    /// The shard of server `guild`, by Discord's formula: its id shifted right by
    /// [`Shards::ID_SHIFT`] bits, modulo `count`.
    pub const fn of(guild: GuildId, count: u32) -> u32 {
        if count == 0 {
            return 0;
        }
        ((guild.get() >> Shards::ID_SHIFT) % count as u64) as u32
    }

    /// Whether server `guild`'s events come on one of these shards.
    pub const fn serve(self, guild: GuildId) -> bool {
        let shard = Shards::of(guild, self.count);
        self.first <= shard && shard <= self.last
    }

    /// Every shard of its count.
    pub const fn is_all(self) -> bool {
        self.first == 0 && self.last + 1 >= self.count
    }
}

impl fmt::Display for Shards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{} of {}", self.first, self.count)
        } else {
            write!(f, "{}-{} of {}", self.first, self.last, self.count)
        }
    }
}
