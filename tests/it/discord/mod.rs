//! The real bot binary against a fake Discord on 127.0.0.1, a module per area. Every request the
//! bot makes is checked against Discord's OpenAPI description, shipped with the tests
//! (`tests/it/data/discord-api-spec/`).
//!
//! This file holds what the areas share: the `Bot` wrapper and its start, the members, the
//! messages' flags and words, and the game service and bot processes that outage tests drive
//! behind the bot's back.

mod ai;
mod analysis;
mod anywhere;
mod challenges;
mod fake_threads;
mod fake_uploads;
mod faults;
mod game;
mod health;
mod notifications;
mod outbox;
mod pictures;
mod postgres_restarts;
mod puzzles;
mod refusals;
mod restarts;
mod settings;
mod standings;
mod startup;
mod taps;
mod teams;
mod threads;
mod tournament_restarts;
mod tournaments;

use std::time::{Duration, Instant};

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRequest, GameId, GameRef, Limits, Member, Place, Services, SystemClock,
    TimeControl,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;
use serde_json::Value;

use crate::common::fake_discord::{
    self, BotProcess, FakeDiscord, InteractionBuilder, RecordedRequest, TestUser, CHANNEL_ID,
    GUILD_ID,
};

const BOT: &str = env!("CARGO_BIN_EXE_breakthrough-bot");
/// Discord's EPHEMERAL message flag.
const EPHEMERAL: u64 = 1 << 6;

pub(crate) fn alice() -> TestUser {
    TestUser::new(300_000_000_000_000_001, "alice")
}
pub(crate) fn bob() -> TestUser {
    TestUser::new(300_000_000_000_000_002, "bob")
}
pub(crate) fn carol() -> TestUser {
    TestUser::new(300_000_000_000_000_003, "carol")
}

/// The bot binary on a fresh database file, against its own fake Discord.
pub(crate) struct Bot {
    pub(crate) fake: FakeDiscord,
    process: BotProcess,
    pub(crate) db: String,
    _dir: tempfile::TempDir,
}

/// The bot, registering its commands in the test server when `guild`, with `extra` settings,
/// once its commands are registered.
pub(crate) async fn start_with(guild: bool, extra: &[(&str, &str)]) -> Bot {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let fake = FakeDiscord::start().await;
    let guild_id = GUILD_ID.to_string();
    let mut env = vec![("DATABASE_URL", db.as_str())];
    if guild {
        env.push(("DISCORD_GUILD_ID", guild_id.as_str()));
    }
    env.extend_from_slice(extra);
    let process = BotProcess::spawn(BOT, &fake, &env);
    fake.wait_for_commands(guild.then_some(GUILD_ID)).await;
    Bot {
        fake,
        process,
        db,
        _dir: dir,
    }
}

pub(crate) async fn start() -> Bot {
    start_with(true, &[]).await
}

fn flags(v: &Value) -> u64 {
    v["data"]["flags"].as_u64().unwrap_or(0)
}

pub(crate) fn is_ephemeral(v: &Value) -> bool {
    flags(v) & EPHEMERAL != 0
}

impl Bot {
    /// Sends a slash command and returns the bot's answer to it.
    pub(crate) async fn slash(&self, b: InteractionBuilder) -> Value {
        let sent = self.fake.send_interaction(b).await;
        self.fake.callback_for(sent.id).await
    }

    pub(crate) async fn challenge(
        &self,
        from: &TestUser,
        to: Option<&TestUser>,
        size: &str,
    ) -> Value {
        let mut b = InteractionBuilder::slash("challenge")
            .by(from)
            .string("size", size)
            // Fixed choices travel as their index: 0 is black.
            .integer("color", 0);
        if let Some(to) = to {
            b = b.user("opponent", to);
        }
        self.slash(b).await
    }

    /// `from` challenges `to` on `size` (`from` has Black), and `to` accepts with `/accept`.
    pub(crate) async fn start_game(&self, from: &TestUser, to: &TestUser, size: &str) {
        self.challenge(from, Some(to), size).await;
        self.slash(InteractionBuilder::slash("accept").by(to)).await;
    }

    pub(crate) async fn play(&self, who: &TestUser, mv: &str) -> Value {
        self.slash(InteractionBuilder::slash("move").by(who).string("move", mv))
            .await
    }

    /// Clicks a button on the message that carries it; returns the callback and the interaction.
    pub(crate) async fn click(
        &self,
        who: &TestUser,
        custom_id: &str,
    ) -> (Value, fake_discord::SentInteraction) {
        let message = self
            .fake
            .message_with_component(custom_id)
            .unwrap_or_else(|| {
                panic!(
                    "no message with button {custom_id}:\n{}",
                    self.fake.report()
                )
            });
        let sent = self
            .fake
            .send_interaction(
                InteractionBuilder::button(custom_id)
                    .by(who)
                    .on_message(&message),
            )
            .await;
        (self.fake.callback_for(sent.id).await, sent)
    }

    async fn store(&self) -> Store {
        Store::open(&self.db)
            .await
            .expect("open the bot's database")
    }

    /// Stops the bot (as `kill -9` would), leaving its database and fake Discord.
    pub(crate) fn kill(&self) {
        self.process.kill();
    }

    /// Starts the bot again on its database, against the same fake Discord, with `extra`
    /// settings; returns once it has registered its commands and identified on the gateway.
    pub(crate) async fn start_again(&mut self, extra: &[(&str, &str)]) {
        self.kill();
        let guild_id = GUILD_ID.to_string();
        let mut env = vec![
            ("DATABASE_URL", self.db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
        ];
        env.extend_from_slice(extra);
        let identified = self.fake.identify_payloads().len();
        let process = BotProcess::spawn(BOT, &self.fake, &env);
        self.process = process;
        self.fake.wait_for_commands(Some(GUILD_ID)).await;
        // The new process's gateway session, not the one of the process just killed: what is
        // dispatched from now on reaches it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self.fake.identify_payloads().len() <= identified {
            assert!(
                std::time::Instant::now() < deadline,
                "the bot never identified again"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Every request the bot made met Discord's spec, and the fake saw nothing amiss.
    pub(crate) fn finish(&self) {
        self.fake.assert_spec_ok();
        self.fake.assert_no_problems();
    }
}

pub(crate) fn embed_text(message: &Value) -> String {
    let e = &message["embeds"][0];
    let mut s = format!(
        "{}\n{}\n",
        e["title"].as_str().unwrap_or(""),
        e["description"].as_str().unwrap_or("")
    );
    for f in e["fields"].as_array().into_iter().flatten() {
        s.push_str(&format!(
            "{}: {}\n",
            f["name"].as_str().unwrap_or(""),
            f["value"].as_str().unwrap_or("")
        ));
    }
    s
}

/// The bot's own user, as the fake's READY reports it.
pub(crate) fn the_bot() -> TestUser {
    TestUser::new(fake_discord::BOT_USER_ID, fake_discord::BOT_USERNAME)
}

/// The fake Discord, and the bot on the database at `db` in the fake's server, sweeping every
/// second.
async fn bot_on(db: &str) -> (FakeDiscord, BotProcess) {
    let fake = FakeDiscord::start().await;
    let guild_id = GUILD_ID.to_string();
    let process = BotProcess::spawn(
        BOT,
        &fake,
        &[
            ("DATABASE_URL", db),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
            ("SWEEP_INTERVAL_SECS", "1"),
        ],
    );
    (fake, process)
}

// ----- start-up: it serves, or it exits saying what to fix -------------------------------------

/// Whether the bot answers `/help`: it serves.
async fn answers_help(fake: &FakeDiscord) {
    let sent = fake
        .send_interaction(InteractionBuilder::slash("help").by(&alice()))
        .await;
    let reply = fake.callback_for(sent.id).await;
    assert_eq!(reply["type"], 4, "{reply}");
}

/// Waits for the bot to give up, and returns what it said.
fn exit_and_log(bot: &BotProcess) -> String {
    let status = bot
        .wait_exit(std::time::Duration::from_secs(10))
        .unwrap_or_else(|| panic!("the bot is still running:\n{}", bot.log()));
    assert!(!status.success(), "it exited 0:\n{}", bot.log());
    bot.log()
}

// ----- for the outage tests: the game service and the bot, driven behind each other's back -----

pub const HERE: Place = Place::new(GUILD_ID, CHANNEL_ID);

pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// A temporary database file and its URL.
pub fn database() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    (dir, db)
}

/// The game service on the database at `db`, on the system clock.
pub async fn service(db: &str) -> (Store, Services) {
    let store = Store::open(db).await.unwrap();
    let games = Services::new(
        store.clone(),
        std::sync::Arc::new(SystemClock),
        Limits::default(),
    );
    (store, games)
}

/// A rated 3x5 game with an hour per move between `black` and `white` in `place`, in which
/// both have moved once: running out of time now loses it.
pub async fn game_under_way(
    games: &Services,
    place: Place,
    black: &Member,
    white: &Member,
) -> GameId {
    let c = games
        .challenges
        .challenge(ChallengeRequest {
            place,
            challenger: black.clone(),
            opponent: Some(white.clone()),
            size: "3x5".parse().unwrap(),
            color: Some(Color::Black),
            time: TimeControl::OneHour,
            rated: true,
        })
        .await
        .unwrap();
    let id = games
        .challenges
        .accept(white, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game
        .id;
    games
        .play
        .play(black, place, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    games
        .play
        .play(white, place, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    id
}

pub async fn set_deadline(db: &str, game: GameId, deadline: i64) {
    crate::common::db::execute(
        db,
        "UPDATE games SET deadline = $1 WHERE id = $2",
        &[deadline, game.get()],
    )
    .await;
}

pub async fn scalar(db: &str, sql: &'static str) -> i64 {
    let pool = sqlx::sqlite::SqlitePool::connect(db).await.unwrap();
    let n: i64 = sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap();
    pool.close().await;
    n
}

/// The fake Discord, and the bot on `db` sweeping every second with `extra` settings; the
/// fake is returned before the bot is up, with `before` applied (stubs to set first).
pub async fn bot_with(
    db: &str,
    extra: &[(&str, &str)],
    before: impl FnOnce(&FakeDiscord),
) -> (FakeDiscord, BotProcess) {
    let fake = FakeDiscord::start().await;
    before(&fake);
    let guild_id = GUILD_ID.to_string();
    let mut env = vec![
        ("DATABASE_URL", db),
        ("DISCORD_GUILD_ID", guild_id.as_str()),
        ("SWEEP_INTERVAL_SECS", "1"),
        ("POST_TIMEOUT_MS", "300"),
    ];
    env.extend_from_slice(extra);
    let process = BotProcess::spawn(BOT, &fake, &env);
    (fake, process)
}

pub fn posted(r: &RecordedRequest, channel: u64) -> bool {
    r.method == "POST" && r.path == format!("/channels/{channel}/messages") && r.status == 200
}

/// A posted message's words: its content and its embed.
pub fn words(r: &RecordedRequest) -> String {
    let body = r.body.clone().unwrap_or_default();
    format!(
        "{}\n{}",
        body["content"].as_str().unwrap_or(""),
        embed_text(&body)
    )
}

pub fn count_posts(fake: &FakeDiscord, channel: u64, needle: &str) -> usize {
    fake.requests()
        .iter()
        .filter(|r| posted(r, channel) && words(r).contains(needle))
        .count()
}

pub async fn wait_outbox_empty(db: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while scalar(db, "SELECT count(*) FROM outbox").await > 0 {
        assert!(Instant::now() < deadline, "the outbox was never emptied");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn member(id: u64, name: &str) -> Member {
    Member::new(id, name)
}

pub fn players() -> (Member, Member, Member, Member) {
    (
        member(alice().id, "alice"),
        member(bob().id, "bob"),
        member(carol().id, "carol"),
        member(300_000_000_000_000_004, "dave"),
    )
}
