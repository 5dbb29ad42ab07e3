//! The services front ends call, one per concern, and [`Services`], the one value that holds
//! them all: built by [`Services::new`], and for Discord and the console alike by
//! [`Services::ready`], which loads the shipped puzzles too.
//!
//! Each service is a handle on the one shared [`Core`] (store, clock, limits, the AI's queue),
//! so cloning a service or the whole set copies a reference, never the state. Within `game`, a
//! service reaches the core's fields and helpers through `Deref`; an operation that needs
//! another concern's operation makes that service's handle from its own core
//! (`Tournaments::of(&self.core)`).

use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

use super::{Clock, Core, GuildId, Limits, Shards, Timestamp};
use crate::store::Store;

macro_rules! service {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            pub(in crate::game) core: Arc<Core>,
        }

        impl $name {
            pub(in crate::game) fn of(core: &Arc<Core>) -> $name {
                $name { core: Arc::clone(core) }
            }
        }

        impl Deref for $name {
            type Target = Core;

            fn deref(&self) -> &Core {
                &self.core
            }
        }
    };
}

service!(
    /// Challenges between members and against the AI, their answers, and rematches.
    Challenges
);
service!(
    /// Moves, resignations and aborts, the AI's turns, the clocks' sweep, and vacations.
    Play
);
service!(
    /// Finished games: history, ratings, leaderboards, and the engine's analysis of a game.
    Standings
);
service!(
    /// Round robins and Swiss events: created, entered, started, paired, and ranked.
    Tournaments
);
service!(
    /// Members' puzzles, their puzzle rating, and each server's daily puzzle.
    Puzzles
);
service!(
    /// How members and servers want games shown, and the language spoken in each channel.
    Settings
);
service!(
    /// Games in threads of their own: which game a thread holds, and why one could not open.
    Threads
);
service!(
    /// Vote games: a channel playing one side, its members voting on each move.
    Teams
);
service!(
    /// What a change tells anyone beyond the reply to its command: the announcements queued with
    /// it, read by a front end, and marked posted or owed.
    Outbox
);

/// Every service, one field each, over one shared core.
#[derive(Clone, Debug)]
pub struct Services {
    pub challenges: Challenges,
    pub play: Play,
    pub standings: Standings,
    pub tournaments: Tournaments,
    pub puzzles: Puzzles,
    pub settings: Settings,
    pub threads: Threads,
    pub teams: Teams,
    pub outbox: Outbox,
}

/// The work waiting in the servers a process looks after ([`Services::load`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    pub games_in_progress: u64,
    /// Announcements waiting to be posted.
    pub outbox_depth: u64,
    /// How long the oldest of them has waited (zero when none waits).
    pub outbox_oldest: Duration,
}

impl Services {
    /// The services over `store`, keeping time by `clock` within `limits`, looking after every
    /// server until told otherwise.
    pub fn new(store: Store, clock: Arc<dyn Clock>, limits: Limits) -> Services {
        Services::over(Core::new(store, clock, limits))
    }

    /// The services as a front end serves them, the one way the Discord bot and the console
    /// build theirs: [`Services::new`], with the shipped puzzles loaded into the database.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when a shipped pool does not read or
    /// the database fails.
    pub async fn ready(
        store: Store,
        clock: Arc<dyn Clock>,
        limits: Limits,
    ) -> super::Result<Services> {
        let services = Services::new(store, clock, limits);
        services.puzzles.load_puzzles().await?;
        Ok(services)
    }

    fn over(core: Core) -> Services {
        let core = Arc::new(core);
        Services {
            challenges: Challenges::of(&core),
            play: Play::of(&core),
            standings: Standings::of(&core),
            tournaments: Tournaments::of(&core),
            puzzles: Puzzles::of(&core),
            settings: Settings::of(&core),
            threads: Threads::of(&core),
            teams: Teams::of(&core),
            outbox: Outbox::of(&core),
        }
    }

    fn core(&self) -> Core {
        Core::clone(&self.play.core)
    }

    /// Keeps the clocks' sweep and the AI's waiting replies to the games and challenges of one
    /// server, for a front end that shares its database with others: the console, run on the
    /// bot's database, must not end, remind or answer games that belong to Discord.
    pub fn only_server(self, guild: GuildId) -> Services {
        Services::over(self.core().only_server(guild))
    }

    /// Keeps the clocks' sweep and the AI's waiting replies away from one server's games and
    /// challenges: the Discord bot leaves the console's [`super::LOCAL_SERVER`] to the console.
    pub fn all_servers_but(self, guild: GuildId) -> Services {
        Services::over(self.core().all_servers_but(guild))
    }

    /// Keeps the clocks' sweep, the AI's waiting replies and the outbox to the servers of
    /// `shards` (within the servers already chosen): a process that runs only those gateway
    /// shards looks after only their games, so no two processes serve the same game.
    pub fn on_shards(self, shards: Shards) -> Services {
        Services::over(self.core().on_shards(shards))
    }

    /// Whether the database answers and would take a write, for a readiness check.
    ///
    /// # Errors
    ///
    /// [`Failure::StorageFull`](super::Failure::StorageFull) while the last write found the disk
    /// full; another [`Failure`](super::Failure) when it does not answer.
    pub async fn database_answers(&self) -> super::Result<()> {
        Ok(self.play.store.ping().await?)
    }

    /// The work waiting in the servers these services look after, for an admin's graphs.
    ///
    /// # Errors
    ///
    /// [`Failure`](super::Failure) when the database does not answer.
    pub async fn load(&self) -> super::Result<Load> {
        let store = &self.play.store;
        let servers = self.play.servers;
        let games_in_progress = store.games_in_progress(servers).await?;
        let (outbox_depth, oldest) = store.outbox_backlog(servers).await?;
        Ok(Load {
            games_in_progress: u64::try_from(games_in_progress).unwrap_or(0),
            outbox_depth: u64::try_from(outbox_depth).unwrap_or(0),
            outbox_oldest: oldest.map_or(Duration::ZERO, |at| self.now() - at),
        })
    }

    /// Now, by the services' clock.
    pub fn now(&self) -> Timestamp {
        self.play.now()
    }
}
