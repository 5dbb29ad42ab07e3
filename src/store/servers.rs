//! The servers a process looks after: the filter of sweeps, the AI's turn and the outbox.

use crate::domain::{GuildId, Shards};

/// The servers whose games and challenges a sweep, the AI's turn, or the outbox looks at: all,
/// one (the console's), all but one (the bot leaves the console's alone), and within those the
/// servers of some gateway shards (a process that runs only those).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Servers {
    pub(super) only: Option<GuildId>,
    pub(super) left_out: Option<GuildId>,
    pub(super) shards: Option<Shards>,
}

impl Servers {
    /// Every server.
    pub const ALL: Servers = Servers {
        only: None,
        left_out: None,
        shards: None,
    };

    /// One server only.
    pub const fn one(guild: GuildId) -> Servers {
        Servers {
            only: Some(guild),
            ..Servers::ALL
        }
    }

    /// Every server but one.
    pub const fn all_but(guild: GuildId) -> Servers {
        Servers {
            left_out: Some(guild),
            ..Servers::ALL
        }
    }

    /// These servers, of `shards` only (every shard: no limit).
    pub const fn on_shards(self, shards: Shards) -> Servers {
        Servers {
            shards: if shards.is_all() { None } else { Some(shards) },
            ..self
        }
    }

    /// The name under which the process looking after these servers records that it is alive.
    pub(super) fn key(self) -> String {
        let mut key = match (self.only, self.left_out) {
            (Some(g), _) => format!("only:{g}"),
            (None, Some(g)) => format!("all-but:{g}"),
            (None, None) => "all".to_string(),
        };
        if let Some(s) = self.shards {
            key.push_str(&format!(":shards:{}-{}/{}", s.first, s.last, s.count));
        }
        key
    }
}
