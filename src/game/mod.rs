//! The life of a game, from challenge to rated result, shared by every front end.
//!
//! Talks to [`crate::store`], knows nothing of Discord or terminals. Every operation returns a
//! domain value or a [`GameError`] whose message speaks to the member. Time comes from a [`Clock`],
//! so tests control it.

mod announce;
mod error;
mod policy;
pub mod ratings;
pub mod text;
mod types;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::engine::{self, Level};
use crate::rules::{BoardSize, Color, Move, MoveText, Position};
use crate::store::{
    ChallengeRow, Ended, GameEnding, GameRow, MoveWrite, NewChallenge, NewGame, RatedEnding,
    RatingChangeRow, RatingRow, Servers, Store, StoreError, WriteTx,
};

pub use announce::{Announced, Announcement, Owed};
pub use error::{GameError, InternalError};
pub use policy::{ChallengeAsk, Decision, Opponent};
pub use types::*;

use error::corrupt;

pub type Result<T, E = GameError> = std::result::Result<T, E>;

/// The server of the terminal front end: its one local server. Discord's server ids are
/// snowflakes, far above it, and a direct message is server 0, so no Discord game is ever here.
pub const LOCAL_SERVER: u64 = 1;

/// Where "now" comes from, in unix seconds.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> i64;
}

/// The system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// A clock that moves only when told: for tests, and for the console's `wait`.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(now: i64) -> ManualClock {
        ManualClock(AtomicI64::new(now))
    }

    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }

    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Limits that keep a server tidy.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pending challenges a member may have out at once.
    pub pending_challenges: i64,
    /// Active games a member may play at once.
    pub active_games: i64,
    /// Seconds a challenge stays open.
    pub challenge_ttl: i64,
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
    /// Seconds after a declined challenge before its challenger may challenge that member again.
    pub decline_pause: i64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pending_challenges: 5,
            active_games: 25,
            challenge_ttl: 3_600,
            rated_per_pair_per_day: 3,
            reminder_fraction: 0.2,
            page_size: 10,
            ai_games: 3,
            ai_queue: 8,
            challenges_per_pair_per_hour: 5,
            decline_pause: 3_600,
        }
    }
}

const DAY: i64 = 86_400;
const HOUR: i64 = 3_600;

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
    Find(Place, Option<u64>),
}

/// The game service.
#[derive(Clone, Debug)]
pub struct Games {
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
    ai_members: Arc<Mutex<HashMap<u64, GameId>>>,
    /// The servers whose clocks and AI replies this service looks after.
    servers: Servers,
    /// Whether the sweep queues its announcements in the outbox (see [`Games::with_outbox`]).
    outbox: bool,
}

/// A place in the AI's queue, held for one member's game from before the move the AI must
/// answer is written until its reply is: a move is never taken that the AI cannot answer. Given
/// back when dropped, whatever happened; a game whose reply was lost waits for
/// [`Games::ai_games_to_move`].
#[derive(Debug)]
pub struct AiSlot {
    game: GameId,
    member: u64,
    members: Arc<Mutex<HashMap<u64, GameId>>>,
    _place: tokio::sync::OwnedSemaphorePermit,
}

impl AiSlot {
    /// The game whose reply this place is for.
    pub fn game(&self) -> GameId {
        self.game
    }
}

impl Drop for AiSlot {
    fn drop(&mut self) {
        let mut members = self.members.lock().unwrap_or_else(PoisonError::into_inner);
        if members.get(&self.member) == Some(&self.game) {
            members.remove(&self.member);
        }
    }
}

impl Games {
    pub fn new(store: Store, clock: Arc<dyn Clock>, limits: Limits) -> Games {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Games {
            store,
            clock,
            limits,
            thinkers: Arc::new(tokio::sync::Semaphore::new(cores)),
            ai_queue: Arc::new(tokio::sync::Semaphore::new(limits.ai_queue.max(1))),
            ai_members: Arc::default(),
            servers: Servers::All,
            outbox: false,
        }
    }

    /// Makes [`Games::sweep`] queue what it did as [`Announcement`]s in the outbox, each in the
    /// same transaction as the change it announces, for a front end that posts them later (and
    /// again after a failure or a restart) rather than at once from the sweep's report.
    pub fn with_outbox(mut self) -> Games {
        self.outbox = true;
        self
    }

    /// Keeps [`Games::sweep`] and [`Games::ai_games_to_move`] to the games and challenges of one
    /// server, for a front end that shares its database with others: the console, run on the
    /// bot's database, must not end, remind or answer games that belong to Discord.
    pub fn only_server(mut self, guild: u64) -> Games {
        self.servers = Servers::Only(guild);
        self
    }

    /// Keeps [`Games::sweep`] and [`Games::ai_games_to_move`] away from one server's games and
    /// challenges: the Discord bot leaves the console's [`LOCAL_SERVER`] to the console.
    pub fn all_servers_but(mut self, guild: u64) -> Games {
        self.servers = Servers::AllBut(guild);
        self
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Makes a challenge. Rated games between members are capped per day and pair: past the cap,
    /// the challenge is casual and says so.
    pub async fn challenge(&self, req: ChallengeRequest) -> Result<Challenge> {
        let now = self.now();
        if req.place.guild == 0 {
            return Err(GameError::NotInServer);
        }
        if req
            .opponent
            .as_ref()
            .is_some_and(|o| o.id == req.challenger.id)
        {
            return Err(GameError::SelfChallenge);
        }
        let mut tx = self.store.begin().await?;
        if let Some(o) = &req.opponent {
            if tx.member_is_bot(o.id).await? {
                return Err(GameError::BotOpponent(o.name.clone()));
            }
        }
        if let Some(o) = &req.opponent {
            self.check_pair_challenges(&mut tx, &req.challenger, o, now)
                .await?;
        }
        let pending = tx.count_pending_challenges_by(req.challenger.id).await?;
        if pending >= self.limits.pending_challenges {
            return Err(GameError::TooManyChallenges(pending));
        }
        self.check_game_limit(&mut tx, &req.challenger, true)
            .await?;
        tx.upsert_member(
            req.place.guild,
            req.challenger.id,
            &req.challenger.name,
            false,
            now,
        )
        .await?;
        let mut rated = req.rated;
        let mut casual_by_limit = false;
        if let Some(o) = &req.opponent {
            tx.upsert_member(req.place.guild, o.id, &o.name, false, now)
                .await?;
            if rated
                && self
                    .pair_limit_reached(&mut tx, req.place.guild, req.challenger.id, o.id, now)
                    .await?
            {
                rated = false;
                casual_by_limit = true;
            }
        }
        let new = NewChallenge {
            guild_id: req.place.guild,
            channel_id: req.place.channel,
            challenger_id: req.challenger.id,
            opponent_id: req.opponent.as_ref().map(|o| o.id),
            size: req.size.to_string(),
            challenger_color: req.color.map(|c| c.name().to_string()),
            time_limit: req.time.seconds(),
            rated,
            created_at: now,
            expires_at: now + self.limits.challenge_ttl,
        };
        let id = match tx.insert_challenge(&new).await {
            Ok(id) => id,
            Err(StoreError::Conflict(_)) => {
                return Err(match &req.opponent {
                    Some(o) => GameError::DuplicateChallenge(o.name.clone()),
                    None => GameError::DuplicateOpenChallenge,
                })
            }
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        Ok(Challenge {
            id,
            place: req.place,
            challenger: req.challenger,
            opponent: req.opponent,
            size: req.size,
            color: req.color,
            time: req.time,
            rated,
            casual_by_limit,
            state: ChallengeState::Pending,
            expires_at: new.expires_at,
            game: None,
        })
    }

    /// Starts a game against the built-in AI at once: no accept step, never rated. Allowed in
    /// direct messages too (`place.guild == 0`). The challenger's game limits apply (all games,
    /// and games against the AI); the AI has none. When the AI has Black it is to move: call
    /// [`Games::ai_reply`] next.
    pub async fn challenge_ai(&self, req: AiRequest) -> Result<Game> {
        Ok(self.challenge_ai_with_slot(req).await?.0)
    }

    /// [`Games::challenge_ai`], keeping the AI's place in the queue when it has Black: pass it to
    /// [`Games::ai_reply_with`]. With the queue full, no game is started.
    pub async fn challenge_ai_with_slot(&self, req: AiRequest) -> Result<(Game, Option<AiSlot>)> {
        let now = self.now();
        if req.ai.id == req.challenger.id {
            return Err(GameError::SelfChallenge);
        }
        let mut tx = self.store.begin().await?;
        self.check_game_limit(&mut tx, &req.challenger, true)
            .await?;
        if tx.count_active_ai_games(req.challenger.id).await? >= self.limits.ai_games {
            return Err(GameError::TooManyAiGames(self.limits.ai_games));
        }
        tx.upsert_member(
            req.place.guild,
            req.challenger.id,
            &req.challenger.name,
            false,
            now,
        )
        .await?;
        tx.upsert_member(req.place.guild, req.ai.id, &req.ai.name, true, now)
            .await?;
        let color = req.color.unwrap_or_else(|| {
            if rand::random::<bool>() {
                Color::Black
            } else {
                Color::White
            }
        });
        let (black, white) = match color {
            Color::Black => (req.challenger.id, req.ai.id),
            Color::White => (req.ai.id, req.challenger.id),
        };
        let id = tx
            .insert_game(&NewGame {
                guild_id: req.place.guild,
                channel_id: req.place.channel,
                black_id: black,
                white_id: white,
                size: req.size.to_string(),
                time_limit: req.time.seconds(),
                rated: false,
                position: Position::new(req.size).to_string(),
                deadline: now + req.time.seconds(),
                created_at: now,
                ai_level: Some(req.level.number()),
            })
            .await?;
        // Before the commit: a game the AI could not open is not started.
        let slot = match color {
            Color::White => Some(self.ai_slot(req.challenger.id, id)?),
            Color::Black => None,
        };
        tx.commit().await?;
        Ok((self.game(id).await?, slot))
    }

    /// A place in the AI's queue to answer `member` in game `game`, taken without waiting:
    /// refused when the member already has a search queued or running, or when the queue is full.
    fn ai_slot(&self, member: u64, game: GameId) -> Result<AiSlot> {
        let mut members = self
            .ai_members
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(&busy) = members.get(&member) {
            return Err(GameError::AiBusyForYou(busy));
        }
        let place = self
            .ai_queue
            .clone()
            .try_acquire_owned()
            .map_err(|_| GameError::AiQueueFull)?;
        members.insert(member, game);
        Ok(AiSlot {
            game,
            member,
            members: self.ai_members.clone(),
            _place: place,
        })
    }

    /// The AI's answer in game `id`, if it is an active game against the AI with the AI to move:
    /// the engine thinks on the blocking thread pool (the same seed for the same game and ply),
    /// and its move is written like a member's, with the ply check. `Ok(None)` when there is
    /// nothing to answer, or when another reply to the same position got there first or is
    /// already on its way: of two replies racing, exactly one applies.
    ///
    /// Takes a place in the AI's queue first, without waiting: [`GameError::AiQueueFull`] or
    /// [`GameError::AiBusyForYou`] (the member's search in another game) leave the game waiting,
    /// listed by [`Games::ai_games_to_move`], to be answered again later.
    pub async fn ai_reply(&self, id: GameId) -> Result<Option<Played>> {
        self.ai_move(id, false).await
    }

    /// [`Games::ai_reply`], with the move's announcement queued in the same write if `announce`.
    async fn ai_move(&self, id: GameId, announce: bool) -> Result<Option<Played>> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(GameError::NoSuchGame(id))?;
        let game = self.game_from_row(row).await?;
        let Some(ai) = game.ai.filter(|_| game.ai_to_move()) else {
            return Ok(None);
        };
        let member = game.player(ai.color.opposite()).id;
        let slot = match self.ai_slot(member, id) {
            Ok(slot) => slot,
            Err(GameError::AiBusyForYou(busy)) if busy == id => return Ok(None),
            Err(e) => return Err(e),
        };
        self.answer_with(slot, announce).await
    }

    /// The AI's answer in the game of `slot`, taken before the member's move (or the game) was
    /// written: as [`Games::ai_reply`], with the place in the queue already held.
    pub async fn ai_reply_with(&self, slot: AiSlot) -> Result<Option<Played>> {
        self.answer_with(slot, false).await
    }

    /// The AI's answer with its place in the queue, its announcement queued in the same write if
    /// `announce`.
    async fn answer_with(&self, slot: AiSlot, announce: bool) -> Result<Option<Played>> {
        let id = slot.game;
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(GameError::NoSuchGame(id))?;
        let game = self.game_from_row(row.clone()).await?;
        let Some(ai) = game.ai.filter(|_| game.ai_to_move()) else {
            return Ok(None);
        };
        let position = game.position;
        let seed = ai_seed(id, row.ply);
        let level = ai.level;
        let permit = self
            .thinkers
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| GameError::Internal(InternalError::Engine(e.to_string())))?;
        let chosen = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            engine::best_move(&position, level, seed)
        })
        .await
        .map_err(|e| GameError::Internal(InternalError::Engine(e.to_string())))?;
        let mv = chosen.ok_or_else(|| {
            GameError::Internal(InternalError::Engine(format!(
                "no move in game {id} at ply {}",
                row.ply
            )))
        })?;
        let announce = announce.then(|| Announcement::AiMoved {
            game: id,
            ply: game.ply + 1,
        });
        // The AI is not held to its clock: a reply delayed by a restart still counts.
        match self
            .apply(row, &game.position, mv, self.now(), announce)
            .await
        {
            Ok(played) => Ok(Some(played)),
            Err(GameError::PositionChanged) => Ok(None),
            // An illegal move from the engine is its fault, not a member's.
            Err(GameError::Move(e)) => Err(GameError::Internal(InternalError::Engine(format!(
                "illegal move {mv} in game {id}: {e}"
            )))),
            Err(e) => Err(e),
        }
    }

    /// Games against the AI where the AI is to move and has been for at least `waiting` seconds:
    /// what a restart left unanswered. Front ends answer them with [`Games::ai_reply`].
    pub async fn ai_games_to_move(&self, waiting: i64) -> Result<Vec<GameId>> {
        Ok(self
            .store
            .ai_games_to_move(self.now().saturating_sub(waiting), self.servers)
            .await?)
    }

    async fn check_game_limit(
        &self,
        tx: &mut WriteTx,
        who: &Member,
        is_caller: bool,
    ) -> Result<()> {
        let active = tx.count_active_games(who.id).await?;
        if active >= self.limits.active_games {
            return Err(GameError::TooManyGames {
                who: if is_caller {
                    "you".into()
                } else {
                    who.name.clone()
                },
                self_: is_caller,
                limit: self.limits.active_games,
            });
        }
        Ok(())
    }

    /// A declined challenge means no for a while, and nobody may ping the same member with
    /// challenge after challenge: both counted from the stored challenges.
    async fn check_pair_challenges(
        &self,
        tx: &mut WriteTx,
        from: &Member,
        to: &Member,
        now: i64,
    ) -> Result<()> {
        let found = tx
            .challenges_to(from.id, to.id, now - HOUR, now - self.limits.decline_pause)
            .await?;
        if let Some(at) = found.declined_at {
            return Err(GameError::Declined {
                name: to.name.clone(),
                wait: at + self.limits.decline_pause - now,
            });
        }
        if found.count >= self.limits.challenges_per_pair_per_hour {
            return Err(GameError::TooManyChallengesTo {
                name: to.name.clone(),
                limit: self.limits.challenges_per_pair_per_hour,
                wait: found.oldest.map_or(HOUR, |t| t + HOUR - now),
            });
        }
        Ok(())
    }

    async fn pair_limit_reached(
        &self,
        tx: &mut WriteTx,
        guild: u64,
        a: u64,
        b: u64,
        now: i64,
    ) -> Result<bool> {
        let played = tx.count_rated_games_between(guild, a, b, now - DAY).await?;
        Ok(played >= self.limits.rated_per_pair_per_day)
    }

    /// `id`, if that challenge was made in the channel `at`; anywhere else it is not there.
    async fn challenge_at(&self, at: Place, id: ChallengeId) -> Result<ChallengeId> {
        match self.store.challenge(id).await? {
            Some(row) if row.guild_id == at.guild && row.channel_id == at.channel => Ok(id),
            _ => Err(GameError::NoSuchChallenge(id)),
        }
    }

    /// Finds the pending challenge an answer from `who` means.
    async fn find_challenge(&self, who: u64, which: ChallengeRef) -> Result<ChallengeId> {
        let (place, challenger) = match which {
            ChallengeRef::Id(at, id) => return self.challenge_at(at, id).await,
            ChallengeRef::Find(place, challenger) => (place, challenger),
        };
        let mut found = self
            .store
            .challenges_for(place.guild, place.channel, who)
            .await?;
        if let Some(c) = challenger {
            found.retain(|row| row.challenger_id == c);
        }
        match found.len() {
            0 => Err(GameError::NoChallenge(match challenger {
                Some(c) => format!(
                    "{} has no pending challenge for you here",
                    self.name_of(place.guild, c).await?
                ),
                None => "there is no pending challenge for you here".to_string(),
            })),
            1 => Ok(found[0].id),
            _ => {
                let mut names = Vec::new();
                for row in &found {
                    names.push(self.name_of(row.guild_id, row.challenger_id).await?);
                }
                Err(GameError::AmbiguousChallenge(names.join(", ")))
            }
        }
    }

    /// A member's name as last seen in `guild`.
    async fn name_of(&self, guild: u64, id: u64) -> Result<String> {
        Ok(self
            .store
            .member_name(guild, id)
            .await?
            .unwrap_or_else(|| format!("member {id}")))
    }

    /// Accepts a challenge: the game starts, colours as asked or drawn.
    pub async fn accept(&self, who: &Member, which: ChallengeRef) -> Result<Game> {
        let now = self.now();
        let id = self.find_challenge(who.id, which).await?;
        let mut tx = self.store.begin().await?;
        let row = tx
            .challenge(id)
            .await?
            .ok_or(GameError::NoSuchChallenge(id))?;
        self.check_answerable(&row, who, now).await?;
        if row.opponent_id.is_none() && row.challenger_id == who.id {
            return Err(GameError::SelfChallenge);
        }
        tx.upsert_member(row.guild_id, who.id, &who.name, false, now)
            .await?;
        let challenger = Member::new(
            row.challenger_id,
            self.name_of(row.guild_id, row.challenger_id).await?,
        );
        self.check_game_limit(&mut tx, who, true).await?;
        self.check_game_limit(&mut tx, &challenger, false).await?;
        let mut rated = row.rated;
        if rated
            && self
                .pair_limit_reached(&mut tx, row.guild_id, row.challenger_id, who.id, now)
                .await?
        {
            rated = false;
        }
        let challenger_color = match row.challenger_color.as_deref() {
            Some(c) => c
                .parse::<Color>()
                .map_err(|_| corrupt(format!("challenge {id} colour {c}")))?,
            None => {
                if rand::random::<bool>() {
                    Color::Black
                } else {
                    Color::White
                }
            }
        };
        let (black, white) = match challenger_color {
            Color::Black => (row.challenger_id, who.id),
            Color::White => (who.id, row.challenger_id),
        };
        let size = parse_size(&row.size)?;
        let game_id = tx
            .insert_game(&NewGame {
                guild_id: row.guild_id,
                channel_id: row.channel_id,
                black_id: black,
                white_id: white,
                size: row.size.clone(),
                time_limit: row.time_limit,
                rated,
                position: Position::new(size).to_string(),
                deadline: now + row.time_limit,
                created_at: now,
                ai_level: None,
            })
            .await?;
        if !tx
            .resolve_challenge(id, ChallengeState::Accepted.as_str(), now, Some(game_id))
            .await?
        {
            return Err(GameError::ChallengeClosed(ChallengeState::Accepted));
        }
        tx.commit().await?;
        self.game(game_id).await
    }

    /// Checks that `who` may answer the pending challenge `row` now. One past its expiry is
    /// refused as expired; the sweeper marks and announces it.
    async fn check_answerable(&self, row: &ChallengeRow, who: &Member, now: i64) -> Result<()> {
        let state = ChallengeState::parse(&row.state)
            .ok_or_else(|| corrupt(format!("challenge state {}", row.state)))?;
        if state != ChallengeState::Pending {
            return Err(GameError::ChallengeClosed(state));
        }
        if row.expires_at <= now {
            // Leave it to the sweeper to announce; refuse the answer now.
            return Err(GameError::ChallengeClosed(ChallengeState::Expired));
        }
        if let Some(opponent) = row.opponent_id {
            if opponent != who.id {
                return Err(GameError::NotYourChallenge(
                    self.name_of(row.guild_id, opponent).await?,
                ));
            }
        }
        Ok(())
    }

    /// Declines a challenge aimed at `who`.
    pub async fn decline(&self, who: &Member, which: ChallengeRef) -> Result<Challenge> {
        let now = self.now();
        let id = self.find_challenge(who.id, which).await?;
        let mut tx = self.store.begin().await?;
        let row = tx
            .challenge(id)
            .await?
            .ok_or(GameError::NoSuchChallenge(id))?;
        if row.opponent_id.is_none() {
            if row.challenger_id == who.id {
                return Err(GameError::NotYourChallenge("someone else".into()));
            }
            return Err(GameError::DeclineOpen);
        }
        self.check_answerable(&row, who, now).await?;
        if !tx
            .resolve_challenge(id, ChallengeState::Declined.as_str(), now, None)
            .await?
        {
            return Err(GameError::ChallengeClosed(ChallengeState::Declined));
        }
        tx.commit().await?;
        self.challenge_view(id).await
    }

    /// Cancels a challenge `who` made: the one given, or all their pending ones in the server.
    pub async fn cancel(&self, who: &Member, which: ChallengeRef) -> Result<Vec<Challenge>> {
        let now = self.now();
        let ids: Vec<ChallengeId> = match which {
            ChallengeRef::Id(at, id) => vec![self.challenge_at(at, id).await?],
            ChallengeRef::Find(place, _) => self
                .store
                .challenges_by(place.guild, who.id)
                .await?
                .iter()
                .map(|c| c.id)
                .collect(),
        };
        if ids.is_empty() {
            return Err(GameError::NoChallenge(
                "you have no pending challenge here".into(),
            ));
        }
        let mut tx = self.store.begin().await?;
        for &id in &ids {
            let row = tx
                .challenge(id)
                .await?
                .ok_or(GameError::NoSuchChallenge(id))?;
            if row.challenger_id != who.id {
                return Err(GameError::NotYourCancel(
                    self.name_of(row.guild_id, row.challenger_id).await?,
                ));
            }
            let state =
                ChallengeState::parse(&row.state).ok_or_else(|| corrupt("challenge state"))?;
            if state != ChallengeState::Pending {
                return Err(GameError::ChallengeClosed(state));
            }
            tx.resolve_challenge(id, ChallengeState::Cancelled.as_str(), now, None)
                .await?;
        }
        tx.commit().await?;
        let mut out = Vec::new();
        for id in ids {
            out.push(self.challenge_view(id).await?);
        }
        Ok(out)
    }

    /// A challenge by id.
    pub async fn challenge_view(&self, id: ChallengeId) -> Result<Challenge> {
        let row = self
            .store
            .challenge(id)
            .await?
            .ok_or(GameError::NoSuchChallenge(id))?;
        self.challenge_from_row(row).await
    }

    async fn challenge_from_row(&self, row: ChallengeRow) -> Result<Challenge> {
        let challenger = Member::new(
            row.challenger_id,
            self.name_of(row.guild_id, row.challenger_id).await?,
        );
        let opponent = match row.opponent_id {
            Some(o) => Some(Member::new(o, self.name_of(row.guild_id, o).await?)),
            None => None,
        };
        Ok(Challenge {
            id: row.id,
            place: Place {
                guild: row.guild_id,
                channel: row.channel_id,
            },
            challenger,
            opponent,
            size: parse_size(&row.size)?,
            color: row
                .challenger_color
                .as_deref()
                .map(|c| c.parse::<Color>().map_err(|_| corrupt("challenge colour")))
                .transpose()?,
            time: parse_time(row.time_limit)?,
            rated: row.rated,
            casual_by_limit: false,
            state: ChallengeState::parse(&row.state).ok_or_else(|| corrupt("challenge state"))?,
            expires_at: row.expires_at,
            game: row.game_id,
        })
    }

    /// A game by id.
    pub async fn game(&self, id: GameId) -> Result<Game> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or(GameError::NoSuchGame(id))?;
        self.game_from_row(row).await
    }

    /// The game a command from `who`, sent from `at`, means. A game by id that `at` may not see
    /// is refused as if it did not exist.
    async fn game_row(&self, who: u64, at: Place, which: GameRef) -> Result<GameRow> {
        match which {
            GameRef::Id(id) => self
                .store
                .game(id)
                .await?
                .filter(|row| at.sees(row_place(row)) || is_player(row, who))
                .ok_or(GameError::NoSuchGame(id)),
            GameRef::Only => {
                let mut rows = self
                    .store
                    .active_games(who, Some(at.guild), Some(at.channel))
                    .await?;
                match rows.len() {
                    0 => Err(GameError::NoActiveGame),
                    1 => Ok(rows.remove(0)),
                    _ => {
                        let mut list = Vec::new();
                        for r in &rows {
                            let other = if r.black_id == who {
                                &r.white_name
                            } else {
                                &r.black_name
                            };
                            list.push(format!("#{} against {other}", r.id));
                        }
                        Err(GameError::AmbiguousGame(list.join(", ")))
                    }
                }
            }
        }
    }

    /// The game a command from `who`, sent from `at`, means, if it may act on it there: a game is
    /// played in its own channel (a game against the AI in a direct message, in that message).
    async fn game_row_to_act(
        &self,
        who: u64,
        at: Place,
        which: GameRef,
        action: Action,
    ) -> Result<GameRow> {
        let row = self.game_row(who, at, which).await?;
        let place = row_place(&row);
        if place != at {
            return Err(GameError::PlayedElsewhere {
                game: row.id,
                place,
                action,
            });
        }
        Ok(row)
    }

    /// The game a command from `who`, sent from `at`, means, to look at: any game of the server
    /// `at` is in, or the game of the direct message it is. A game from elsewhere is refused as
    /// if it did not exist, whoever asks.
    pub async fn find_game(&self, who: u64, at: Place, which: GameRef) -> Result<Game> {
        let row = self.game_row(who, at, which).await?;
        if !at.sees(row_place(&row)) {
            return Err(GameError::NoSuchGame(row.id));
        }
        self.game_from_row(row).await
    }

    async fn game_from_row(&self, row: GameRow) -> Result<Game> {
        let change = if row.rated && row.state == "finished" {
            self.store
                .rating_change(row.id)
                .await?
                .map(|c| rating_change_from_row(&c))
        } else {
            None
        };
        game_from_parts(row, change)
    }

    /// Plays `text` (any accepted notation) for `who`, sent from `at`, in the game they mean.
    ///
    /// The move is checked against the position read before the write; the write applies only if
    /// the game is still at that ply, inside one transaction. Of two moves racing for one ply,
    /// exactly one applies; the other gets [`GameError::PositionChanged`].
    ///
    /// Against the AI, a move it must answer is only written if the AI can take the reply: else
    /// [`GameError::AiQueueFull`] or [`GameError::AiBusyForYou`], and nothing changes.
    pub async fn play(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
        text: &str,
    ) -> Result<Played> {
        Ok(self.play_with_slot(who, at, which, text).await?.0)
    }

    /// [`Games::play`], keeping the AI's place in the queue for its reply, when it has one to
    /// make: pass it to [`Games::ai_reply_with`].
    pub async fn play_with_slot(
        &self,
        who: &Member,
        at: Place,
        which: GameRef,
        text: &str,
    ) -> Result<(Played, Option<AiSlot>)> {
        let now = self.now();
        let syntax: MoveText = text
            .parse()
            .map_err(|e| GameError::Move(crate::rules::MoveError::Parse(e)))?;
        let row = self
            .game_row_to_act(who.id, at, which, Action::Move)
            .await?;
        let id = row.id;
        if row.state != "active" {
            return Err(GameError::GameOver(id));
        }
        let position = position_of(&row)?;
        let color = if row.black_id == who.id {
            Color::Black
        } else if row.white_id == who.id {
            Color::White
        } else {
            return Err(GameError::NotAPlayer(id));
        };
        if position.turn() != color {
            let other = if color == Color::Black {
                &row.white_name
            } else {
                &row.black_name
            };
            return Err(GameError::NotYourTurn(other.clone()));
        }
        if now >= row.deadline {
            return Err(GameError::OutOfTime);
        }
        let mv = syntax
            .resolve(&position)
            .map_err(|e| GameError::Move(e.into()))?;
        let game_goes_on = position.play(mv).is_ok_and(|next| next.outcome().is_none());
        let slot = match row.ai_level {
            Some(_) if game_goes_on => Some(self.ai_slot(who.id, id)?),
            _ => None,
        };
        Ok((self.apply(row, &position, mv, now, None).await?, slot))
    }

    /// Writes `mv`, checked legal in `position` (the position of `row`), if the game is still at
    /// the ply of `row`; otherwise [`GameError::PositionChanged`]. The move that ends the game
    /// writes the result (and the ratings, if rated) in the same transaction, as does `announce`
    /// its announcement.
    async fn apply(
        &self,
        row: GameRow,
        position: &Position,
        mv: Move,
        now: i64,
        announce: Option<Announcement>,
    ) -> Result<Played> {
        let id = row.id;
        let next = position.play(mv).map_err(|e| GameError::Move(e.into()))?;
        let notation = mv.to_string();
        let deadline = now + row.time_limit;

        let write = MoveWrite {
            game: id,
            ply: row.ply,
            notation: notation.clone(),
            position: next.to_string(),
            deadline,
            now,
        };
        let mut change = None;
        let mut result = None;
        match next.outcome() {
            // Most moves: one statement, grouped with the moves of other games.
            None => {
                let applied = match &announce {
                    None => self.store.apply_move(write).await?,
                    Some(a) => {
                        let queued = a.row(place_of(&row), now)?;
                        self.store.apply_move_announced(write, &queued).await?
                    }
                };
                if !applied {
                    return Err(GameError::PositionChanged);
                }
            }
            // The last move, the result and the ratings: one statement of their own.
            Some(outcome) => {
                let reason = EndReason::from(outcome.reason);
                let last = (write.notation, write.position);
                change = self
                    .end(
                        &row,
                        Some(row.ply),
                        Some(last),
                        Some(outcome.winner),
                        reason,
                        now,
                        announce,
                    )
                    .await?;
                result = Some((Some(outcome.winner), reason));
            }
        }

        let mut game = game_at(row, next, change)?;
        game.ply += 1;
        game.last_move = Some(mv);
        game.deadline = deadline;
        if let Some(r) = result {
            game.state = GameState::Finished;
            game.result = Some(r);
        }
        Ok(Played { mv, game })
    }

    /// Ends the game of `row`, still at `ply` if given (else at any ply, while active): with
    /// `last`, the move that ended it and the position after it, if there is one; won by
    /// `winner`, or aborted if `None`. A rated result writes both ratings in the same statement
    /// and returns the change, and `announce` is queued with it; a game ending before both sides
    /// have moved is not rated. [`GameError::PositionChanged`] when the game moved on meanwhile.
    #[allow(clippy::too_many_arguments)]
    async fn end(
        &self,
        row: &GameRow,
        ply: Option<i64>,
        last: Option<(String, String)>,
        winner: Option<Color>,
        reason: EndReason,
        now: i64,
        announce: Option<Announcement>,
    ) -> Result<Option<RatingChange>> {
        // A game that ends before both sides have moved is unrated, whoever wins it.
        let plies = row.ply + i64::from(last.is_some());
        let rated_result = row.rated && plies >= i64::from(BOTH_SIDES_MOVED);
        let announce = match announce {
            Some(a) => Some(a.row(place_of(row), now)?),
            None => None,
        };
        // Ratings are read before the write and checked by it; another game of one of the
        // players ending in between sends the ending round again with fresh ratings.
        for _ in 0..ENDING_ATTEMPTS {
            let (rated, change) = match winner {
                Some(w) if rated_result => {
                    let (black, white) = self
                        .store
                        .rating_pair(row.guild_id, &row.size, row.black_id, row.white_id)
                        .await?;
                    let (rated, change) = rated_ending(row, black, white, w, now);
                    (Some(rated), Some(change))
                }
                _ => (None, None),
            };
            let ending = GameEnding {
                game: row.id,
                ply,
                last_move: last.clone(),
                now,
                winner: winner.map(Color::name),
                reason: reason.as_str(),
                rated,
                announce: announce.clone(),
            };
            match self.store.end_game(&ending).await? {
                Ended::Done => return Ok(change),
                Ended::GameMovedOn => return Err(GameError::PositionChanged),
                Ended::RatingsMovedOn => continue,
            }
        }
        Err(GameError::Internal(InternalError::Contention(
            "ratings kept changing while a game ended",
        )))
    }

    /// The game `who` means, if they may resign it now: before asking them to confirm.
    pub async fn resignable(&self, who: u64, at: Place, which: GameRef) -> Result<Game> {
        let row = self.game_row_to_act(who, at, which, Action::Resign).await?;
        self.check_player(&row, who)?;
        self.game_from_row(row).await
    }

    /// Resigns the game for `who`: the opponent wins.
    pub async fn resign(&self, who: &Member, at: Place, which: GameRef) -> Result<Game> {
        let row = self
            .game_row_to_act(who.id, at, which, Action::Resign)
            .await?;
        let color = self.check_player(&row, who.id)?;
        let now = self.now();
        match self
            .end(
                &row,
                None,
                None,
                Some(color.opposite()),
                EndReason::Resignation,
                now,
                None,
            )
            .await
        {
            Err(GameError::PositionChanged) => Err(GameError::GameOver(row.id)),
            done => done,
        }?;
        self.game(row.id).await
    }

    /// Ends a game without a result, allowed only before both sides have moved.
    pub async fn abort(&self, who: &Member, at: Place, which: GameRef) -> Result<Game> {
        let row = self
            .game_row_to_act(who.id, at, which, Action::Abort)
            .await?;
        self.check_player(&row, who.id)?;
        if row.ply >= i64::from(BOTH_SIDES_MOVED) {
            return Err(GameError::AbortTooLate);
        }
        let now = self.now();
        self.end(
            &row,
            Some(row.ply),
            None,
            None,
            EndReason::Aborted,
            now,
            None,
        )
        .await?;
        self.game(row.id).await
    }

    fn check_player(&self, row: &GameRow, who: u64) -> Result<Color> {
        if row.state != "active" {
            return Err(GameError::GameOver(row.id));
        }
        if row.black_id == who {
            Ok(Color::Black)
        } else if row.white_id == who {
            Ok(Color::White)
        } else {
            Err(GameError::NotAPlayer(row.id))
        }
    }

    /// Active games of a member: in one server, or everywhere when `guild` is `None`.
    pub async fn games_of(&self, member: u64, guild: Option<u64>) -> Result<Vec<Game>> {
        let rows = self.store.active_games(member, guild, None).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.game_from_row(row).await?);
        }
        Ok(out)
    }

    /// The move list of a game, asked for from `at`: as [`Games::find_game`], a game from
    /// elsewhere is refused as if it did not exist.
    pub async fn history(&self, at: Place, id: GameId) -> Result<History> {
        let game = self.game(id).await?;
        if !at.sees(game.place) {
            return Err(GameError::NoSuchGame(id));
        }
        let moves = self
            .store
            .moves(id)
            .await?
            .into_iter()
            .map(|m| m.notation)
            .collect();
        Ok(History { game, moves })
    }

    /// Legal moves for `who` in the game they mean, in canonical notation, for autocomplete:
    /// those starting with `prefix` (case and separators ignored), at most `limit`. None for a
    /// game played elsewhere than `at`, where the move would be refused.
    pub async fn move_suggestions(
        &self,
        who: u64,
        at: Place,
        which: GameRef,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<String>> {
        let row = self.game_row(who, at, which).await?;
        if row_place(&row) != at {
            return Ok(Vec::new());
        }
        let game = self.game_from_row(row).await?;
        if !game.is_active() || game.color_of(who) != Some(game.position.turn()) {
            return Ok(Vec::new());
        }
        let wanted = squares_key(prefix);
        Ok(game
            .position
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .filter(|m| squares_key(m).starts_with(&wanted))
            .take(limit)
            .collect())
    }

    /// A member's rating card on one board of a server.
    pub async fn rating(&self, guild: u64, member: &Member, size: BoardSize) -> Result<RatingCard> {
        let now = self.now();
        let key = size.to_string();
        let row = self.store.rating(guild, member.id, &key).await?;
        let (value, games, wins, losses) = match row {
            Some(r) => (rating_now(&r, now), r.games, r.wins, r.losses),
            None => (RatingValue::START, 0, 0, 0),
        };
        let mut recent = Vec::new();
        for r in self.store.recent_results(guild, member.id, &key, 5).await? {
            let opponent_id = if r.black_id == member.id {
                r.white_id
            } else {
                r.black_id
            };
            let my_color = if r.black_id == member.id {
                "black"
            } else {
                "white"
            };
            recent.push(RecentResult {
                game: r.id,
                opponent: Member::new(opponent_id, self.name_of(guild, opponent_id).await?),
                won: r.winner.as_deref() == Some(my_color),
                reason: r
                    .end_reason
                    .as_deref()
                    .and_then(EndReason::parse)
                    .ok_or_else(|| corrupt("end reason"))?,
                change: r.change,
            });
        }
        let name = self
            .store
            .member_name(guild, member.id)
            .await?
            .unwrap_or_else(|| member.name.clone());
        Ok(RatingCard {
            member: Member::new(member.id, name),
            size,
            value,
            games,
            wins,
            losses,
            recent,
        })
    }

    /// One page (one-based) of a server's leaderboard on a board size. Provisional ratings
    /// (deviation above 110, after inactivity decay) are left out and counted.
    pub async fn leaderboard(
        &self,
        guild: u64,
        size: BoardSize,
        page: usize,
    ) -> Result<Leaderboard> {
        let now = self.now();
        let mut established = Vec::new();
        let mut provisional = 0;
        for (row, name) in self.store.board_ratings(guild, &size.to_string()).await? {
            let value = rating_now(&row, now);
            if value.is_provisional() {
                provisional += 1;
                continue;
            }
            established.push((row, name, value));
        }
        established.sort_by(|a, b| {
            b.2.rating
                .total_cmp(&a.2.rating)
                .then(a.0.member_id.cmp(&b.0.member_id))
        });
        let per = self.limits.page_size.max(1);
        let pages = established.len().div_ceil(per).max(1);
        let page = page.clamp(1, pages);
        let standings = established
            .into_iter()
            .enumerate()
            .skip((page - 1) * per)
            .take(per)
            .map(|(i, (row, name, value))| Standing {
                rank: i + 1,
                member: Member::new(row.member_id, name),
                value,
                games: row.games,
                wins: row.wins,
                losses: row.losses,
            })
            .collect();
        Ok(Leaderboard {
            size,
            page,
            pages,
            standings,
            provisional,
        })
    }

    /// One pass of the clock at `now`: expires challenges, ends games whose side to move ran out
    /// of time (a loss, rated; an abort if a side has not moved yet), and takes the reminders due.
    /// With [`Games::with_outbox`], each of these is queued as an [`Announcement`] in the same
    /// transaction as the change itself. A game that cannot be ended (or read back) is logged
    /// with its id and left for the next pass; the others go on.
    pub async fn sweep(&self, now: i64) -> Result<SweepReport> {
        let mut report = SweepReport::default();
        let mut tx = self.store.begin().await?;
        let expired = tx.expire_challenges(now, self.servers).await?;
        let reminders = tx
            .take_due_reminders(now, self.limits.reminder_fraction, self.servers)
            .await?;
        if self.outbox {
            for c in &expired {
                let place = Place {
                    guild: c.guild_id,
                    channel: c.channel_id,
                };
                let a = Announcement::ChallengeExpired { challenge: c.id };
                tx.insert_outbox(&a.row(place, now)?).await?;
            }
            for r in &reminders {
                let place = Place {
                    guild: r.guild_id,
                    channel: r.channel_id,
                };
                let a = Announcement::Reminder {
                    game: r.id,
                    member: r.to_move,
                    deadline: r.deadline,
                };
                tx.insert_outbox(&a.row(place, now)?).await?;
            }
        }
        tx.commit().await?;
        // Each time-out is written on its own, checked against the ply it was read at: a move
        // that comes in first wins, and the game is left alone.
        let mut ended = Vec::new();
        for row in self.store.overdue_games(now, self.servers).await? {
            match self.time_out(&row, now).await {
                Ok(Some(lost)) => ended.push((row.id, lost)),
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(game = row.id, error = ?e, "could not end an overdue game")
                }
            }
        }
        for row in expired {
            let id = row.id;
            match self.challenge_from_row(row).await {
                Ok(c) => report.expired.push(c),
                Err(e) => {
                    tracing::error!(challenge = id, error = ?e, "could not read an expired challenge")
                }
            }
        }
        for (id, lost) in ended {
            match self.game(id).await {
                Ok(game) if lost => report.timed_out.push(game),
                Ok(game) => report.aborted.push(game),
                Err(e) => tracing::error!(game = id, error = ?e, "could not read an ended game"),
            }
        }
        for r in reminders {
            match self.game(r.id).await {
                Ok(game) => report.reminders.push(game),
                Err(e) => {
                    tracing::error!(game = r.id, error = ?e, "could not read a reminded game")
                }
            }
        }
        Ok(report)
    }

    /// Ends the overdue game of `row` at the ply it was read at: lost by the side to move, or
    /// aborted before both sides have moved. `Some(lost)` when it ended, `None` when a move got
    /// there first.
    async fn time_out(&self, row: &GameRow, now: i64) -> Result<Option<bool>> {
        let position = position_of(row)?;
        let (winner, reason) = if row.ply < i64::from(BOTH_SIDES_MOVED) {
            (None, EndReason::Aborted)
        } else {
            (Some(position.turn().opposite()), EndReason::Timeout)
        };
        let announce = self
            .outbox
            .then_some(Announcement::TimedOut { game: row.id });
        match self
            .end(row, Some(row.ply), None, winner, reason, now, announce)
            .await
        {
            Ok(_) => Ok(Some(winner.is_some())),
            Err(GameError::PositionChanged) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Where the game of `row` is played.
fn row_place(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

fn is_player(row: &GameRow, who: u64) -> bool {
    row.black_id == who || row.white_id == who
}

/// A move's squares run together for prefix matching: `D4xE5` and `d4-e5` both give `d4e5`.
/// Columns stop at `j`, so an `x` after a row number can only be a capture sign.
fn squares_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    let mut after_digit = false;
    for c in text.chars().filter(char::is_ascii_alphanumeric) {
        let c = c.to_ascii_lowercase();
        if !(c == 'x' && after_digit) {
            key.push(c);
        }
        after_digit = c.is_ascii_digit();
    }
    key
}

/// How many times an ending is written again after a rating it read changed before the write
/// (another game of the same player ended at the same moment).
const ENDING_ATTEMPTS: usize = 8;

/// The ratings a result writes, from both players' stored ratings (`None`: not rated yet), and
/// the change to report.
fn rated_ending(
    row: &GameRow,
    black: Option<RatingRow>,
    white: Option<RatingRow>,
    winner: Color,
    now: i64,
) -> (RatedEnding, RatingChange) {
    let load = |r: &Option<RatingRow>| {
        r.as_ref()
            .map_or(RatingValue::START, |r| rating_now(r, now))
    };
    let (black_before, white_before) = (load(&black), load(&white));
    let (black_after, white_after) = ratings::rate(black_before, white_before, winner);
    let triple = |v: RatingValue| (v.rating, v.deviation, v.volatility);
    let rated = RatedEnding {
        black_games: black.map(|r| r.games),
        white_games: white.map(|r| r.games),
        change: RatingChangeRow {
            game_id: row.id,
            black_before: triple(black_before),
            white_before: triple(white_before),
            black_after: triple(black_after),
            white_after: triple(white_after),
            created_at: now,
        },
    };
    let change = RatingChange {
        black_before,
        black_after,
        white_before,
        white_after,
    };
    (rated, change)
}

/// A stored rating as it stands at `now`: its deviation grown back over the weeks since its last
/// rated game.
fn rating_now(r: &RatingRow, now: i64) -> RatingValue {
    ratings::decayed(
        RatingValue {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        },
        now - r.last_active,
    )
}

fn parse_size(s: &str) -> Result<BoardSize> {
    s.parse().map_err(|_| corrupt(format!("board size {s}")))
}

fn parse_time(seconds: i64) -> Result<TimeControl> {
    TimeControl::from_seconds(seconds).ok_or_else(|| corrupt(format!("time limit {seconds}")))
}

fn rating_change_from_row(c: &RatingChangeRow) -> RatingChange {
    let v = |(rating, deviation, volatility): (f64, f64, f64)| RatingValue {
        rating,
        deviation,
        volatility,
    };
    RatingChange {
        black_before: v(c.black_before),
        black_after: v(c.black_after),
        white_before: v(c.white_before),
        white_after: v(c.white_after),
    }
}

fn game_from_parts(row: GameRow, change: Option<RatingChange>) -> Result<Game> {
    let position = position_of(&row)?;
    game_at(row, position, change)
}

/// Where the game of `row` is played.
fn place_of(row: &GameRow) -> Place {
    Place {
        guild: row.guild_id,
        channel: row.channel_id,
    }
}

/// The stored position of a game.
fn position_of(row: &GameRow) -> Result<Position> {
    row.position
        .parse()
        .map_err(|e| corrupt(format!("game {} position: {e}", row.id)))
}

/// A game from its row, with its position already read.
fn game_at(row: GameRow, position: Position, change: Option<RatingChange>) -> Result<Game> {
    let id = row.id;
    let size = parse_size(&row.size)?;
    let state = match row.state.as_str() {
        "active" => GameState::Active,
        "finished" => GameState::Finished,
        "aborted" => GameState::Aborted,
        other => return Err(corrupt(format!("game {id} state {other}"))),
    };
    let result = match state {
        GameState::Active => None,
        _ => {
            let reason = row
                .end_reason
                .as_deref()
                .and_then(EndReason::parse)
                .ok_or_else(|| corrupt(format!("game {id} end reason")))?;
            let winner = row
                .winner
                .as_deref()
                .map(|w| {
                    w.parse::<Color>()
                        .map_err(|_| corrupt(format!("game {id} winner")))
                })
                .transpose()?;
            Some((winner, reason))
        }
    };
    let ai = match row.ai_level {
        None => None,
        Some(n) => {
            let level = Level::new(n).ok_or_else(|| corrupt(format!("game {id} AI level {n}")))?;
            let color = match (row.black_is_bot, row.white_is_bot) {
                (true, false) => Color::Black,
                (false, true) => Color::White,
                _ => return Err(corrupt(format!("game {id}: which side is the AI"))),
            };
            Some(AiPlayer { color, level })
        }
    };
    let last_move = match &row.last_move {
        Some(text) => Some(
            last_move_of(size, text)
                .ok_or_else(|| corrupt(format!("game {id} last move {text}")))?,
        ),
        None => None,
    };
    Ok(Game {
        id,
        place: Place {
            guild: row.guild_id,
            channel: row.channel_id,
        },
        black: Member::new(row.black_id, row.black_name.clone()),
        white: Member::new(row.white_id, row.white_name.clone()),
        size,
        time: parse_time(row.time_limit)?,
        rated: row.rated,
        state,
        position,
        ply: u32::try_from(row.ply).map_err(|_| corrupt(format!("game {id} ply")))?,
        last_move,
        deadline: row.deadline,
        result,
        rating_change: change,
        ai,
    })
}

/// The engine's seed for the AI's move at `ply` of game `id`: the same game and ply always give
/// the same move, so a replay, a test or a second racing reply agrees with the first.
fn ai_seed(id: GameId, ply: i64) -> u64 {
    (id as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(17)
        ^ (ply as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// The stored (canonical) notation of a game's last move, as a move to mark on the board.
fn last_move_of(size: BoardSize, text: &str) -> Option<Move> {
    match text.parse::<MoveText>().ok()? {
        MoveText::Full { from, to, capture } => Some(Move::new(
            from.on(size).ok()?,
            to.on(size).ok()?,
            capture == Some(true),
        )),
        MoveText::Destination(_) => None,
    }
}
