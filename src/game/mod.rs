//! The life of a game, from challenge to rated result, shared by every front end.
//!
//! Talks to [`crate::store`]. Every operation returns a domain value or its service's [`Error`]:
//! a refusal of that service's own ([`ChallengeRefusal`], [`PlayRefusal`], [`StandingsRefusal`],
//! [`SettingsRefusal`], [`TournamentRefusal`], [`PuzzleRefusal`], and [`AccessRefusal`] for
//! "which game" alone), or a [`Failure`] on our side; an operation that cannot refuse gives a
//! bare [`Failure`]. What a member is told of either is in [`crate::text`], so the service holds
//! no words. It knows of no
//! terminal; of Discord it knows only what a front end hands it as plain values (ids, and in
//! `threads` why a thread could not open, as a [`ThreadRefusal`]). Time comes from a [`Clock`],
//! so tests control it.
//!
//! What a change tells anyone beyond the reply to the command that made it (a turn by direct
//! message, a time-out, a reminder, an expiry, a vacation, the AI's move after a restart) is an
//! [`Announcement`] queued in the store's outbox in the same transaction as the change. Who hears
//! it is decided here; every front end reads the one outbox and only renders and posts.
//!
//! Front ends reach the operations through [`Services`], one field per concern, each a handle
//! on the one shared [`Core`] (store, clock, limits, the AI's queue) defined here:
//! [`Challenges`] (`challenges`, `rematch`, and games against the AI begun in `ai`), [`Play`]
//! (`play`, the AI's turns in `ai`, `clocks` (the sweep), `vacation`), [`Standings`]
//! (`standings`: history, ratings, leaderboards; `analysis`: the engine's look back at a game, in
//! the AI's queue), [`Tournaments`] (`tournaments`: round robins and Swiss events), [`Puzzles`]
//! (`puzzles`: positions the engine proved, solved by members, and the daily puzzle),
//! [`Settings`] (`settings`: how members and servers want games shown; `languages`: each
//! channel's, for posts that answer no command), [`Threads`] (`threads`: games in threads of
//! their own), [`Teams`] (`teams`: vote games, a channel voting on its moves) and [`Outbox`]
//! (`announce`: the announcements and who hears each; `outbox`: which are due, and what became of
//! each). The core's
//! helpers are in `access` (which game a command means, and whether its member may act on it
//! from where they are) and `rows` (store rows read into the values above); `services` builds
//! the set. Beside them: `error` (each service's refusals, and the failures), `policy` (what a challenge means: against the
//! AI at once, rated or not), `ratings` (Glicko-2), `types` (the values the services hand out),
//! and `manual_clock` (a clock the tests move by hand).

#![warn(clippy::missing_errors_doc)]

mod access;
mod ai;
pub mod analysis;
mod announce;
mod challenges;
mod clocks;
mod error;
mod languages;
#[cfg(feature = "test-support")]
mod manual_clock;
mod outbox;
mod play;
mod policy;
mod puzzles;
pub mod ratings;
mod rematch;
mod rows;
mod services;
mod settings;
mod standings;
mod tally;
mod teams;
mod threads;
mod tournaments;
mod types;
mod vacation;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::store::{Servers, Store};

pub use ai::AiSlot;
#[cfg(feature = "test-support")]
pub use analysis::{GameAnalysis, QueuedAnalysis};
pub use announce::{Announced, Announcement, Owed};
pub use error::{
    AccessError, AccessRefusal, ChallengeError, ChallengeRefusal, Error, Failure, InternalError,
    PlayError, PlayRefusal, PuzzleError, PuzzleRefusal, QueueRefusal, SettingsError,
    SettingsRefusal, StandingsError, StandingsRefusal, TeamRefusal, TournamentError,
    TournamentRefusal,
};
#[cfg(feature = "test-support")]
pub use manual_clock::ManualClock;
pub use play::Moved;
pub use policy::{ChallengeAsk, Decision, Opponent};
pub use puzzles::{
    DailyCount, DailyPuzzle, DailyYours, PuzzleCard, PuzzleResult, PuzzleState, PuzzleStep,
    PuzzleView,
};
// Used inside `game` alone so far; open to the tests.
#[cfg(feature = "test-support")]
pub use announce::Gone;
// Used inside `game` alone so far; open to the tests.
#[cfg(feature = "test-support")]
pub use puzzles::{
    pool::{Pool, PoolError, PoolLineError, PoolPuzzle},
    PuzzleRatingChange, PUZZLE_SIZE,
};
pub use rematch::Rematch;
pub use services::{
    Challenges, Outbox, Play, Puzzles, Services, Settings, Standings, Teams, Threads, Tournaments,
};
pub use settings::{
    BoardStyle, MemberSettings, MemberSettingsChange, ServerSettings, ServerSettingsChange,
};
pub use standings::Listed;
pub use teams::{Against, Credit, TeamRequest, Voted};
pub use threads::{ThreadRefusal, ThreadTrouble};
pub use tournaments::{
    parse_starts_in, RoundGames, Table, Tournament, TournamentRef, TournamentRequest, MAX_ROUNDS,
    MAX_STARTS_IN, NAME_LENGTH,
};
// Used inside `game` alone so far; open to the tests.
#[cfg(feature = "test-support")]
pub use tournaments::{TableLine, TournamentEntrant, TOURNAMENTS_PER_SERVER};
pub use types::*;
#[cfg(feature = "test-support")]
pub use vacation::VacationChange;

use error::corrupt;

/// What an operation that can only fail on our side gives; a service's refusals are in its own
/// [`Error`].
pub type Result<T, E = Failure> = std::result::Result<T, E>;

/// The server of the terminal front end: its one local server. Discord's server ids are
/// snowflakes, far above it, and a direct message is server 0, so no Discord game is ever here.
pub const LOCAL_SERVER: GuildId = GuildId::new(1);

/// Where "now" comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> Timestamp;
}

/// The system clock, to the whole second, as the game keeps its times.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_unix_seconds(Timestamp::from(SystemTime::now()).unix_seconds())
    }
}

/// Limits that keep a server tidy.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pending challenges a member may have out at once.
    pub pending_challenges: i64,
    /// Active games a member may play at once.
    pub active_games: i64,
    /// How long a challenge stays open.
    pub challenge_ttl: Duration,
    /// Rated games a day between the same two members; later ones are casual.
    pub rated_per_pair_per_day: i64,
    /// The reminder goes out when this fraction of the time per move is left.
    pub reminder_fraction: f64,
    /// Players per leaderboard page.
    pub page_size: usize,
    /// Games against the AI a member may have in progress at once (counted in `active_games`
    /// too).
    pub ai_games: i64,
    /// AI searches queued or running at once, all members together; each member has at most one.
    /// The searches run one per core, so this many replies are at most a few rounds away.
    pub ai_queue: usize,
    /// Challenges one member may make to the same other member in an hour, cancelled ones too.
    pub challenges_per_pair_per_hour: i64,
    /// How long after a declined challenge its challenger must wait to challenge that member
    /// again.
    pub decline_pause: Duration,
    /// Days of vacation a member may take in any 365.
    pub vacation_days: i64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pending_challenges: 5,
            active_games: 25,
            challenge_ttl: HOUR,
            rated_per_pair_per_day: 3,
            reminder_fraction: 0.2,
            page_size: 10,
            ai_games: 3,
            ai_queue: 8,
            challenges_per_pair_per_hour: 5,
            decline_pause: HOUR,
            vacation_days: 21,
        }
    }
}

const DAY: Duration = Duration::from_secs(86_400);
const HOUR: Duration = Duration::from_secs(3_600);

/// Which game a command means: one by id, or the caller's only active game in the channel the
/// command comes from.
#[derive(Clone, Copy, Debug)]
pub enum GameRef {
    Id(GameId),
    Only,
}

/// Which challenge an answer means: one by id, from a button clicked in a place (the challenge's
/// own channel, or it is not there), or one found from its challenger.
#[derive(Clone, Copy, Debug)]
pub enum ChallengeRef {
    Id(Place, ChallengeId),
    /// In this place; from this challenger if given, else the only one.
    Find(Place, Option<MemberId>),
}

/// What every service shares: the store, the clock, the limits, the AI's queue, the servers
/// looked after and the channels' languages. Built once, then held by reference by each service
/// of [`Services`].
#[derive(Clone, Debug)]
pub struct Core {
    store: Store,
    clock: Arc<dyn Clock>,
    limits: Limits,
    /// One AI search per core at a time: more would only share the cores (each search then
    /// reaching its time cap before its budget) and hold a table in memory each.
    thinkers: Arc<tokio::sync::Semaphore>,
    /// Places in the AI's queue ([`Limits::ai_queue`]): searches queued or running. Taken without
    /// waiting, so only their holders ever wait for `thinkers`, and that wait is bounded.
    ai_queue: Arc<tokio::sync::Semaphore>,
    /// The member each queued or running search answers, with its game: one per member.
    ai_members: Arc<Mutex<HashMap<MemberId, (GameId, ai::Work)>>>,
    /// The servers whose clocks and AI replies this service looks after.
    servers: Servers,
    /// The language of each channel as this process last recorded it (see `languages`).
    spoken: Arc<Mutex<HashMap<ChannelId, crate::i18n::Lang>>>,
}

impl Core {
    fn new(store: Store, clock: Arc<dyn Clock>, limits: Limits) -> Core {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Core {
            store,
            clock,
            limits,
            thinkers: Arc::new(tokio::sync::Semaphore::new(cores)),
            ai_queue: Arc::new(tokio::sync::Semaphore::new(limits.ai_queue.max(1))),
            ai_members: Arc::default(),
            servers: Servers::ALL,
            spoken: Arc::default(),
        }
    }

    /// See [`Services::only_server`].
    fn only_server(mut self, guild: GuildId) -> Core {
        self.servers = Servers::one(guild);
        self
    }

    /// See [`Services::all_servers_but`].
    fn all_servers_but(mut self, guild: GuildId) -> Core {
        self.servers = Servers::all_but(guild);
        self
    }

    /// See [`Services::on_shards`].
    fn on_shards(mut self, shards: Shards) -> Core {
        self.servers = self.servers.on_shards(shards);
        self
    }

    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }
}
