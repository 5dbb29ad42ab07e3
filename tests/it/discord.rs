//! The real bot binary against a fake Discord on 127.0.0.1: registration, a whole game from
//! /challenge and the Accept button to the result, refusals, autocomplete, the other commands
//! and buttons, and the sweeper's time-out message. Every request the bot makes is checked
//! against Discord's OpenAPI description (`../shared/discord-api-spec/openapi.json`).

use crate::common::fake_discord;

use fake_discord::{
    BotProcess, FakeDiscord, InteractionBuilder, StubAnswer, TestUser, CHANNEL_ID, GUILD_ID,
};
use serde_json::Value;

use breakthrough_bot::game::{ChallengeId, ChallengeState, GameId, GameState, GuildId};
use breakthrough_bot::store::Store;

use crate::common::overdue;

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
    async fn start_game(&self, from: &TestUser, to: &TestUser, size: &str) {
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
    /// settings; returns once it has registered its commands.
    pub(crate) async fn start_again(&mut self, extra: &[(&str, &str)]) {
        self.kill();
        let guild_id = GUILD_ID.to_string();
        let mut env = vec![
            ("DATABASE_URL", self.db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
        ];
        env.extend_from_slice(extra);
        let process = BotProcess::spawn(BOT, &self.fake, &env);
        self.process = process;
        self.fake.wait_for_commands(Some(GUILD_ID)).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_register_in_the_guild_with_their_options() {
    let bot = start().await;
    let commands = bot.fake.commands(Some(GUILD_ID));
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "abort",
            "accept",
            "analyze",
            "board",
            "cancel",
            "challenge",
            "decline",
            "games",
            "help",
            "history",
            "leaderboard",
            "move",
            "notify",
            "rating",
            "rematch",
            "resign",
            "vacation"
        ]
    );
    assert!(bot.fake.commands(None).is_empty());
    let command = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap_or_default()
    };
    let option = |c: &Value, name: &str| {
        c["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == name).cloned())
            .unwrap_or_else(|| panic!("no option {name} in {c}"))
    };
    assert_eq!(option(&command("board"), "flip")["type"], 5);
    assert_eq!(option(&command("rematch"), "game")["type"], 4);
    let challenge = command("challenge");
    assert_eq!(option(&challenge, "opponent")["type"], 6);
    assert_eq!(option(&challenge, "size")["autocomplete"], true);
    assert_eq!(option(&challenge, "rated")["type"], 5);
    let time = option(&challenge, "time");
    let times: Vec<&str> = time["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(times, ["10 minutes", "1 hour", "1 day", "3 days", "7 days"]);
    assert_eq!(
        option(&challenge, "color")["choices"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
    let mv = command("move");
    assert_eq!(option(&mv, "move")["required"], true);
    assert_eq!(option(&mv, "move")["autocomplete"], true);
    assert_eq!(option(&mv, "game")["type"], 4);
    assert_eq!(option(&command("history"), "game")["required"], true);
    bot.finish();
}

/// Discord's rule for a command or option name in any locale: 1 to 32 lowercase letters, digits,
/// `-` or `_` (`^[-_\p{L}\p{N}]{1,32}$`, lowercase where the script has case).
fn discord_name_problem(name: &str) -> Option<String> {
    let chars = name.chars().count();
    if !(1..=32).contains(&chars) {
        return Some(format!("`{name}` has {chars} characters"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Some(format!("`{name}` has `{c}`"));
    }
    (name.to_lowercase() != name).then(|| format!("`{name}` is not lowercase"))
}

/// Every command, option and choice is registered with names and descriptions for Spanish
/// (Spain and Latin America) within Discord's rules, and no two commands, or two options of one
/// command, share a name in any language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_register_in_spanish_too_within_discords_rules() {
    let bot = start().await;
    let commands = bot.fake.commands(Some(GUILD_ID));
    assert!(!commands.is_empty());
    let mut problems = Vec::new();
    let text = |v: &Value, key: &str, locale: Option<&str>| -> Option<String> {
        match locale {
            None => v[key].as_str().map(String::from),
            Some(l) => v[format!("{key}_localizations")][l]
                .as_str()
                .map(String::from),
        }
    };
    for locale in [None, Some("es-ES"), Some("es-419")] {
        let at = locale.unwrap_or("default");
        let mut command_names = std::collections::HashSet::new();
        for c in &commands {
            let Some(name) = text(c, "name", locale) else {
                problems.push(format!("{at}: command {} has no name", c["name"]));
                continue;
            };
            problems.extend(discord_name_problem(&name).map(|p| format!("{at}: command {p}")));
            if !command_names.insert(name.clone()) {
                problems.push(format!("{at}: two commands are called `{name}`"));
            }
            match text(c, "description", locale) {
                Some(d) if (1..=100).contains(&d.chars().count()) => {}
                other => problems.push(format!("{at}: /{name} description {other:?}")),
            }
            let mut option_names = std::collections::HashSet::new();
            for o in c["options"].as_array().into_iter().flatten() {
                let Some(oname) = text(o, "name", locale) else {
                    problems.push(format!("{at}: /{name} option {} has no name", o["name"]));
                    continue;
                };
                problems.extend(
                    discord_name_problem(&oname).map(|p| format!("{at}: /{name} option {p}")),
                );
                if !option_names.insert(oname.clone()) {
                    problems.push(format!("{at}: /{name} has two options called `{oname}`"));
                }
                match text(o, "description", locale) {
                    Some(d) if (1..=100).contains(&d.chars().count()) => {}
                    other => problems.push(format!("{at}: /{name} {oname} description {other:?}")),
                }
                for choice in o["choices"].as_array().into_iter().flatten() {
                    match text(choice, "name", locale) {
                        Some(n) if (1..=100).contains(&n.chars().count()) => {}
                        other => problems.push(format!(
                            "{at}: /{name} {oname} choice {} named {other:?}",
                            choice["value"]
                        )),
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_register_globally_without_a_guild() {
    let bot = start_with(false, &[]).await;
    assert_eq!(bot.fake.commands(None).len(), 17);
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_from_challenge_to_result() {
    let bot = start().await;
    let reply = bot.challenge(&alice(), Some(&bob()), "3x5").await;
    assert_eq!(reply["type"], 4);
    assert!(!is_ephemeral(&reply));
    let content = reply["data"]["content"].as_str().unwrap();
    assert!(content.starts_with(&bob().mention()), "{content}");
    assert_eq!(
        reply["data"]["allowed_mentions"]["users"],
        serde_json::json!([bob().id.to_string()])
    );
    let buttons: Vec<&str> = reply["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(
        buttons,
        [
            "challenge:accept:1",
            "challenge:decline:1",
            "challenge:cancel:1"
        ]
    );

    // bob accepts with the button: the challenge message loses its buttons, and the board is
    // posted mentioning alice, who moves first.
    let (update, click) = bot.click(&bob(), "challenge:accept:1").await;
    assert_eq!(update["type"], 7);
    assert_eq!(update["data"]["components"], serde_json::json!([]));
    let board = &bot.fake.wait_followups(&click.token, 1).await[0];
    assert!(board
        .str_at("/content")
        .unwrap()
        .starts_with(&alice().mention()));
    assert_eq!(
        board.at("/allowed_mentions/users"),
        &serde_json::json!([alice().id.to_string()])
    );
    let start_text = embed_text(board.body.as_ref().unwrap());
    assert!(
        start_text.contains("Game #1 · 3x5 · rated · 1 day per move"),
        "{start_text}"
    );
    assert!(start_text.contains("5️⃣⚫⚫⚫"), "{start_text}");

    let moves = [
        ("a4-a3", alice(), bob()),
        ("c2-c3", bob(), alice()),
        ("a3xb2", alice(), bob()),
        ("c3xb4", bob(), alice()),
    ];
    for (mv, by, next) in &moves {
        let r = bot.play(by, mv).await;
        assert_eq!(r["type"], 4, "{r}");
        assert!(!is_ephemeral(&r));
        assert!(
            r["data"]["content"]
                .as_str()
                .unwrap()
                .starts_with(&next.mention()),
            "{r}"
        );
        assert_eq!(
            r["data"]["allowed_mentions"]["users"],
            serde_json::json!([next.id.to_string()])
        );
        let text = embed_text(&r["data"]);
        assert!(text.contains(&format!("Last move: {mv}")), "{text}");
    }
    let last = bot.play(&alice(), "b2xa1").await;
    let text = embed_text(&last["data"]);
    assert!(
        text.contains("Black (alice) wins: a piece reached the far row"),
        "{text}"
    );
    assert!(text.contains("alice: 1500? → 1662? (+162)"), "{text}");
    assert!(text.contains("bob: 1500? → 1338? (-162)"), "{text}");
    assert_eq!(
        last["data"]["allowed_mentions"]["users"],
        serde_json::json!([])
    );

    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.state.as_str(), game.winner.map(|c| c.name())),
        ("finished", Some("black"))
    );
    let moves: Vec<String> = store
        .moves(GameId::new(1))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect();
    assert_eq!(moves, ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"]);
    let rating = store
        .rating(
            GuildId::new(GUILD_ID),
            alice().id.into(),
            "3x5".parse().unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(rating.value.rating.round(), 1662.0);
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_ephemeral_say_why_and_change_nothing() {
    let bot = start().await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    // A third member clicking Accept.
    let (refusal, _) = bot.click(&carol(), "challenge:accept:1").await;
    assert_eq!(refusal["type"], 4);
    assert!(is_ephemeral(&refusal));
    assert_eq!(
        refusal["data"]["content"],
        "this challenge is for bob: only they can answer it"
    );

    let accepted = bot
        .slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    assert!(!is_ephemeral(&accepted), "{accepted}");

    let cases = [
        (alice(), "a4-a2", "a piece moves one square at a time"),
        (bob(), "a2-a3", "it is not your turn: alice is to move"),
        (
            alice(),
            "a4xa3",
            "there is nothing to capture on a3: write a4-a3",
        ),
        (
            alice(),
            "z9",
            "z9 is off the board: this board is 3x5 (columns a to c, rows 1 to 5)",
        ),
        (
            alice(),
            "banana",
            "cannot read `banana` as a move: write it like e2-e3, or d4xe5 for a capture",
        ),
        (
            carol(),
            "a4-a3",
            "you have no game in progress in this channel",
        ),
    ];
    for (who, mv, why) in cases {
        let r = bot.play(&who, mv).await;
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(r["data"]["content"], why);
    }
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&carol())
                .string("move", "a4-a3")
                .integer("game", 1),
        )
        .await;
    assert_eq!(r["data"]["content"], "you are not playing in game #1");
    let store = bot.store().await;
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 0);
    assert!(store.moves(GameId::new(1)).await.unwrap().is_empty());
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocomplete_offers_exactly_the_legal_moves_typed_so_far() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "8x8").await;
    let choices = |v: Value| -> Vec<String> {
        v["data"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["name"].as_str().map(String::from))
            .collect()
    };
    let typed = |who: TestUser, partial: &'static str| {
        InteractionBuilder::autocomplete("move")
            .by(&who)
            .focused("move", partial)
    };
    let r = bot.slash(typed(alice(), "e7")).await;
    assert_eq!(r["type"], 8);
    assert_eq!(choices(r), ["e7-d6", "e7-e6", "e7-f6"]);
    let all = choices(bot.slash(typed(alice(), "")).await);
    assert_eq!(all.len(), 22);
    assert_eq!(
        choices(bot.slash(typed(alice(), "H7-")).await),
        ["h7-g6", "h7-h6"]
    );
    assert!(choices(bot.slash(typed(alice(), "e2")).await).is_empty());
    // Not bob's turn: nothing to offer.
    assert!(choices(bot.slash(typed(bob(), "")).await).is_empty());
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_challenge_decline_cancel_resign_and_abort() {
    let bot = start().await;
    // An open challenge, taken by carol.
    let open = bot.challenge(&alice(), None, "5x5").await;
    let ids: Vec<&str> = open["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(ids, ["challenge:accept:1", "challenge:cancel:1"]);
    let (update, click) = bot.click(&carol(), "challenge:accept:1").await;
    assert_eq!(update["type"], 7);
    let board = &bot.fake.wait_followups(&click.token, 1).await[0];
    assert!(embed_text(board.body.as_ref().unwrap()).contains("Game #1 · 5x5"));

    // A decline by button, and a cancel by command.
    bot.challenge(&alice(), Some(&bob()), "6x6").await;
    let (declined, _) = bot.click(&bob(), "challenge:decline:2").await;
    assert_eq!(declined["type"], 7);
    assert_eq!(declined["data"]["content"], "Challenge #2 is declined.");
    bot.challenge(&bob(), Some(&alice()), "7x7").await;
    let cancelled = bot
        .slash(InteractionBuilder::slash("cancel").by(&bob()))
        .await;
    assert!(is_ephemeral(&cancelled));
    assert_eq!(cancelled["data"]["content"], "Cancelled challenge #3.");

    // Resign asks first; "Keep playing" changes nothing, "Resign" ends the game.
    let ask = bot
        .slash(InteractionBuilder::slash("resign").by(&carol()))
        .await;
    assert!(is_ephemeral(&ask));
    let (kept, _) = bot.click(&carol(), "resign:no:1").await;
    assert_eq!(kept["data"]["content"], "You keep playing.");
    assert_eq!(kept["data"]["components"], serde_json::json!([]));
    let store = bot.store().await;
    assert_eq!(
        store.game(GameId::new(1)).await.unwrap().unwrap().state,
        GameState::Active
    );
    bot.slash(InteractionBuilder::slash("resign").by(&carol()))
        .await;
    // The button resigns whoever clicks it, and only a player can: bob is refused.
    let (refused, _) = bot.click(&bob(), "resign:yes:1").await;
    assert!(is_ephemeral(&refused));
    assert_eq!(refused["data"]["content"], "you are not playing in game #1");
    let (done, click) = bot.click(&carol(), "resign:yes:1").await;
    assert_eq!(done["type"], 7);
    let result = &bot.fake.wait_followups(&click.token, 1).await[0];
    let text = embed_text(result.body.as_ref().unwrap());
    assert!(
        text.contains("Black (alice) wins: carol resigned"),
        "{text}"
    );

    // Abort before both have moved; then abort is refused once both have. (bob challenges:
    // alice may not challenge bob again for an hour after he declined.)
    bot.start_game(&bob(), &alice(), "8x8").await;
    let aborted = bot
        .slash(InteractionBuilder::slash("abort").by(&bob()))
        .await;
    assert!(embed_text(&aborted["data"]).contains("Aborted: no result"));
    assert_eq!(
        store.game(GameId::new(2)).await.unwrap().unwrap().state,
        GameState::Aborted
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_leaderboard_rating_games_and_help() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("history")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request
        .file("breakthrough-game-1.txt")
        .expect("the move list as a file");
    assert!(file.text().contains("1. a4-a3"), "{}", file.text());
    let games = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&carol())
                .user("user", &alice()),
        )
        .await;
    assert!(
        embed_text(&games["data"]).contains("#1 against bob"),
        "{games}"
    );
    let lb = bot
        .slash(
            InteractionBuilder::slash("leaderboard")
                .by(&carol())
                .string("size", "3x5"),
        )
        .await;
    assert!(embed_text(&lb["data"]).contains("page 1/1"), "{lb}");
    let (next, _) = bot.click(&carol(), "leaderboard:3x5:2").await;
    assert_eq!(next["type"], 7);
    let rating = bot
        .slash(InteractionBuilder::slash("rating").by(&carol()))
        .await;
    assert!(embed_text(&rating["data"]).contains("1500?"), "{rating}");
    let help = bot
        .slash(InteractionBuilder::slash("help").by(&carol()))
        .await;
    assert!(is_ephemeral(&help));
    assert!(help["data"]["content"]
        .as_str()
        .unwrap()
        .contains("/challenge"));
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_announces_a_time_out_in_the_channel() {
    let bot = start_with(true, &[("SWEEP_INTERVAL_SECS", "1")]).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "c2-c3").await;
    // alice's clock runs out: deadlines live in the database.
    let pool = sqlx::sqlite::SqlitePool::connect(&bot.db).await.unwrap();
    sqlx::query("UPDATE games SET deadline = 0 WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().unwrap());
    assert!(
        text.contains("White (bob) wins: alice ran out of time"),
        "{text}"
    );
    assert!(text.contains("Ratings"), "{text}");
    let store = bot.store().await;
    assert_eq!(
        store
            .game(GameId::new(1))
            .await
            .unwrap()
            .unwrap()
            .end_reason
            .map(|r| r.as_str()),
        Some("timeout")
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_messages_offer_the_read_only_commands() {
    let bot = start_with(false, &[]).await;
    let dm = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .dm(dm)
                .user("opponent", &bob()),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .contains("server channel"),
        "{r}"
    );
    let help = bot
        .slash(InteractionBuilder::slash("help").by(&alice()).dm(dm))
        .await;
    assert_eq!(help["type"], 4);
    bot.finish();
}

/// The bot's own user, as the fake's READY reports it.
fn the_bot() -> TestUser {
    TestUser::new(fake_discord::BOT_USER_ID, fake_discord::BOT_USERNAME)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_answers_each_move_in_a_deferred_response() {
    let bot = start().await;
    let commands = bot.fake.commands(Some(GUILD_ID));
    let level = commands
        .iter()
        .find(|c| c["name"] == "challenge")
        .and_then(|c| c["options"].as_array())
        .and_then(|o| o.iter().find(|o| o["name"] == "level"))
        .cloned()
        .expect("a level option");
    assert_eq!(level["type"], 4);
    assert_eq!(level["min_value"].as_f64(), Some(1.0));
    assert_eq!(level["max_value"].as_f64(), Some(5.0));

    // alice takes Black against the bot at level 2: the board at once, no buttons.
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .user("opponent", &the_bot())
                .string("size", "5x5")
                .integer("color", 0)
                .integer("level", 2),
        )
        .await;
    assert_eq!(r["type"], 4, "{r}");
    assert!(!is_ephemeral(&r));
    assert!(r["data"]["components"].as_array().is_none_or(Vec::is_empty));
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with(&alice().mention()),
        "{r}"
    );
    let text = embed_text(&r["data"]);
    assert!(
        text.contains("Game #1 · 5x5 · vs AI (level 2) · casual · 1 day per move"),
        "{text}"
    );

    // Her move: the response is deferred, then completed with the board after the AI's reply.
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a4-a3"),
        )
        .await;
    assert_eq!(bot.fake.callback_for(sent.id).await["type"], 5);
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let store = bot.store().await;
    let moves: Vec<String> = store
        .moves(GameId::new(1))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect();
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0], "a4-a3");
    // The reply is legal: the stored moves replay.
    breakthrough_bot::rules::replay("5x5".parse().unwrap(), moves.iter().map(String::as_str))
        .expect("every stored move is legal");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert!(
        content.contains(&format!("The AI (level 2) played {}.", moves[1])),
        "{content}"
    );
    assert_eq!(
        body["allowed_mentions"]["users"],
        serde_json::json!([alice().id.to_string()])
    );
    let text = embed_text(&body);
    assert!(text.contains(&format!("Last move: {}", moves[1])), "{text}");
    assert!(text.contains("Move 2 · Black to move: alice"), "{text}");
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.ai_level, game.rated),
        (breakthrough_bot::engine::Level::new(2), false)
    );

    // A refusal is still ephemeral, not deferred, and changes nothing.
    let r = bot.play(&alice(), "a5-a3").await;
    assert_eq!(r["type"], 4);
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 2);
    // Other options that only fit one kind of game are refused.
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&carol())
                .user("opponent", &bob())
                .integer("level", 4),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert_eq!(
        r["data"]["content"],
        "level is for games against the AI: choose the bot as opponent, or leave level out"
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&carol())
                .user("opponent", &the_bot())
                .boolean("rated", true),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(store.game(GameId::new(2)).await.unwrap().is_none());
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_direct_message_the_ai_with_black_opens_the_game() {
    let bot = start_with(false, &[]).await;
    let dm = bot.fake.next_id();
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .dm(dm)
                .user("opponent", &the_bot())
                .string("size", "6x6")
                // 1 is white: the AI has Black and moves first.
                .integer("color", 1),
        )
        .await;
    assert_eq!(bot.fake.callback_for(sent.id).await["type"], 5);
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert!(content.contains("The AI (level 3) played"), "{content}");
    let text = embed_text(&body);
    assert!(text.contains("vs AI (level 3)"), "{text}");
    assert!(text.contains("Move 1 · White to move: alice"), "{text}");
    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.guild_id.get(), game.channel_id.get(), game.ply),
        (0, dm, 1)
    );
    assert_eq!(game.black_id.get(), fake_discord::BOT_USER_ID);
    bot.finish();
}

/// A game left waiting for the AI (the bot stopped before it answered) is answered by the
/// sweeper after a restart, and the AI's move is posted in the game's channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_sweeper_answers_a_game_waiting_for_the_ai() {
    use breakthrough_bot::game::{AiRequest, Games, Limits, Member, Place, SystemClock};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    {
        let store = Store::open(&db).await.unwrap();
        let games = Games::new(
            store.clone(),
            std::sync::Arc::new(SystemClock),
            Limits::default(),
        );
        let game = games
            .challenge_ai(AiRequest {
                place: Place::new(GUILD_ID, CHANNEL_ID),
                challenger: Member::new(alice().id, "alice"),
                ai: Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
                level: breakthrough_bot::engine::Level::DEFAULT,
                size: "5x5".parse().unwrap(),
                color: Some(breakthrough_bot::rules::Color::White),
                time: breakthrough_bot::game::TimeControl::OneHour,
            })
            .await
            .unwrap();
        assert!(game.ai_to_move());
        store.close().await;
        // The AI's turn began a minute ago.
        let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
        sqlx::query("UPDATE games SET deadline = deadline - 60 WHERE id = 1")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let (fake, _process) = bot_on(&db).await;
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let body = posted.body.clone().expect("a body");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert!(content.contains("The AI (level 3) played"), "{content}");
    let store = Store::open(&db).await.unwrap();
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!((game.state, game.ply), (GameState::Active, 1));
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

/// The console can share the bot's database: the bot's sweeper leaves the console's local server
/// alone (its clocks, challenges and AI replies are the console's), while it looks after its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_leaves_the_console_server_to_the_console() {
    use breakthrough_bot::game::{ChallengeRef, Member, Place, LOCAL_SERVER};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let local = Place::new(LOCAL_SERVER.get(), 1);
    let seeded = overdue::seed(
        &db,
        local,
        Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
    )
    .await;
    // And a game of the bot's own server, as overdue.
    let ours = {
        let store = Store::open(&db).await.unwrap();
        let games = overdue::games_back_then(&store);
        let here = Place::new(GUILD_ID, CHANNEL_ID);
        let (zelda, yusuf) = (Member::new(9001, "zelda"), Member::new(9002, "yusuf"));
        let c = games
            .challenge(overdue::request(here, &zelda, &yusuf))
            .await
            .unwrap();
        let game = games
            .accept(&yusuf, ChallengeRef::Id(c.place, c.id))
            .await
            .unwrap()
            .game;
        store.close().await;
        game.id
    };
    let (fake, _process) = bot_on(&db).await;
    // The sweep that ends the bot's own game has looked at everything.
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().unwrap());
    assert!(text.contains("Aborted"), "{text}");
    let store = Store::open(&db).await.unwrap();
    assert_eq!(
        store.game(ours).await.unwrap().unwrap().state,
        GameState::Aborted
    );
    store.close().await;
    overdue::assert_untouched(&db, &seeded).await;
    fake.assert_spec_ok();
    fake.assert_no_problems();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_acted_on_in_its_channel_and_seen_only_from_its_server() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let elsewhere = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&alice())
                .in_channel(elsewhere)
                .string("move", "a4-a3")
                .integer("game", 1),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        format!("game #1 is played in <#{CHANNEL_ID}>; make your move there")
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("abort")
                .by(&alice())
                .dm(bot.fake.next_id())
                .integer("game", 1),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        format!("game #1 is played in <#{CHANNEL_ID}>; abort it there")
    );
    // The autocomplete offers nothing for it elsewhere, and its moves in its channel.
    let typed = |channel: u64| {
        InteractionBuilder::autocomplete("move")
            .by(&alice())
            .in_channel(channel)
            .integer("game", 1)
            .focused("move", "a4")
    };
    let r = bot.slash(typed(elsewhere)).await;
    assert_eq!(r["data"]["choices"], serde_json::json!([]));
    let r = bot.slash(typed(CHANNEL_ID)).await;
    assert_eq!(r["data"]["choices"].as_array().unwrap().len(), 2, "{r}");
    // Anyone in the server may look from any channel; from another server nothing shows.
    let r = bot
        .slash(
            InteractionBuilder::slash("board")
                .by(&carol())
                .in_channel(elsewhere)
                .integer("game", 1),
        )
        .await;
    assert!(!is_ephemeral(&r));
    assert!(embed_text(&r["data"]).contains("Game #1 · 3x5"), "{r}");
    let other_server = bot.fake.next_id();
    for command in ["board", "history"] {
        let r = bot
            .slash(
                InteractionBuilder::slash(command)
                    .by(&alice())
                    .in_guild(other_server)
                    .in_channel(bot.fake.next_id())
                    .integer("game", 1),
            )
            .await;
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(r["data"]["content"], "there is no game #1 here");
        assert!(r["data"]["embeds"].as_array().is_none_or(|e| e.is_empty()));
        assert!(!r.to_string().contains("bob"), "{r}");
    }
    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!((game.state, game.ply), (GameState::Active, 0));
    bot.finish();
}

/// A finished game's message carries a Rematch button: pressed by either player it posts a
/// challenge to the other, colours swapped, with the usual buttons; pressed again it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rematch_button_challenges_the_other_player_once() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (mv, by) in [
        ("a4-a3", alice()),
        ("c2-c3", bob()),
        ("a3xb2", alice()),
        ("c3xb4", bob()),
    ] {
        bot.play(&by, mv).await;
    }
    let last = bot.play(&alice(), "b2xa1").await;
    let row = &last["data"]["components"][0]["components"][0];
    assert_eq!(
        (row["custom_id"].as_str(), row["label"].as_str()),
        (Some("game:rematch:1"), Some("Rematch"))
    );

    let (posted, _) = bot.click(&bob(), "game:rematch:1").await;
    assert_eq!(posted["type"], 4, "{posted}");
    assert!(!is_ephemeral(&posted));
    let content = posted["data"]["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert_eq!(
        posted["data"]["allowed_mentions"]["users"],
        serde_json::json!([alice().id.to_string()])
    );
    let text = embed_text(&posted["data"]);
    // bob had White: now he has Black. Same board, time and rating.
    assert!(
        text.contains(
            "Challenge #2: bob challenges alice · 3x5 · bob plays black · 1 day per move · rated"
        ),
        "{text}"
    );
    let buttons: Vec<&str> = posted["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(
        buttons,
        [
            "challenge:accept:2",
            "challenge:decline:2",
            "challenge:cancel:2"
        ]
    );

    // alice presses it too, and later asks with the command: one rematch.
    let (again, _) = bot.click(&alice(), "game:rematch:1").await;
    assert!(is_ephemeral(&again), "{again}");
    assert_eq!(
        again["data"]["content"],
        "the rematch of game #1 has already been offered"
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("rematch")
                .by(&alice())
                .integer("game", 1),
        )
        .await;
    assert_eq!(
        r["data"]["content"],
        "the rematch of game #1 has already been offered"
    );
    let store = bot.store().await;
    assert!(store
        .challenge(ChallengeId::new(3))
        .await
        .unwrap()
        .is_none());
    bot.finish();
}

/// Against the AI the rematch is the game itself; when the AI now has Black it opens, in a
/// deferred response completed with its move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_ai_starts_at_once_and_the_ai_opens() {
    let bot = start().await;
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .user("opponent", &the_bot())
                .string("size", "5x5")
                .integer("color", 0),
        )
        .await;
    assert_eq!(r["type"], 4, "{r}");
    bot.slash(InteractionBuilder::slash("resign").by(&alice()))
        .await;
    let (_, resigned) = bot.click(&alice(), "resign:yes:1").await;
    // The board of the game resigned, posted for the channel, carries the button.
    bot.fake.wait_followups(&resigned.token, 1).await;
    let (deferred, click) = bot.click(&alice(), "game:rematch:1").await;
    assert_eq!(deferred["type"], 5, "{deferred}");
    let edit = bot.fake.wait_original_edit(&click.token).await;
    let body = edit.body.clone().expect("a body");
    assert!(
        body["content"]
            .as_str()
            .unwrap()
            .contains("The AI (level 3) played"),
        "{body}"
    );
    let text = embed_text(&body);
    assert!(text.contains("Game #2 · 5x5 · vs AI (level 3)"), "{text}");
    assert!(text.contains("Move 1 · White to move: alice"), "{text}");
    bot.finish();
}

/// `/vacation` answers the member privately, tells each opponent once in the game's channel,
/// and the board says whose clock waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_confirmed_privately_and_told_to_the_opponent() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let r = bot
        .slash(
            InteractionBuilder::slash("vacation")
                .by(&alice())
                .integer("days", 2),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    let said = r["data"]["content"].as_str().unwrap();
    assert!(said.starts_with("You are on vacation until "), "{said}");
    assert!(
        said.contains("your game in progress, and your opponents are told"),
        "{said}"
    );
    assert!(said.ends_with("19 days left this year."), "{said}");
    let told = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let body = told.body.as_ref().unwrap();
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&bob().mention()), "{content}");
    assert!(
        content.contains("alice is on vacation until ")
            && content.contains("in game #1 their clock waits for them; yours runs as usual."),
        "{content}"
    );
    assert_eq!(
        body["allowed_mentions"]["users"],
        serde_json::json!([bob().id.to_string()])
    );
    let board = bot
        .slash(
            InteractionBuilder::slash("board")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    assert!(
        embed_text(&board["data"]).contains("alice is on vacation until "),
        "{board}"
    );
    // A second vacation while on one is refused, privately.
    let r = bot
        .slash(
            InteractionBuilder::slash("vacation")
                .by(&alice())
                .integer("days", 1),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("you are on vacation until "),
        "{r}"
    );
    bot.finish();
}

/// With `/notify dm:true`, a member gets a direct message each time it becomes their turn: the
/// board from their side, the opponent's move, the time left and a link to the game's message.
/// When Discord refuses it (their direct messages are closed), the setting turns itself off and
/// they are told once, privately, at their next command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_notifications_by_direct_message_and_when_they_are_refused() {
    use std::time::Duration;
    let bot = start().await;
    let r = bot
        .slash(
            InteractionBuilder::slash("notify")
                .by(&alice())
                .boolean("dm", true),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("Turn notifications by direct message are on"),
        "{r}"
    );
    let r = bot
        .slash(InteractionBuilder::slash("notify").by(&alice()))
        .await;
    assert!(
        r["data"]["content"].as_str().unwrap().contains("are on"),
        "{r}"
    );

    // The last board posted: the message a direct message links to.
    let fake = &bot.fake;
    let last_board = || {
        let board = fake
            .requests()
            .into_iter()
            .rfind(|r| r.method == "GET" && r.path.ends_with("/messages/@original"))
            .expect("the board's message read back");
        board.response.as_ref().unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let link = |message: &str| {
        format!("Go to the game: https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{message}")
    };
    // bob accepts alice's challenge: alice, Black, has the first move and is told.
    bot.start_game(&alice(), &bob(), "3x5").await;
    let opened = fake
        .wait_for("a direct message channel", Duration::from_secs(10), |r| {
            r.method == "POST" && r.path == "/users/@me/channels"
        })
        .await;
    assert_eq!(
        opened.body.as_ref().unwrap()["recipient_id"],
        alice().id.to_string()
    );
    let dm: u64 = opened.response.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let first = fake.wait_channel_message(dm).await;
    let content = first.body.as_ref().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        content.starts_with(
            "Your move in game #1 against bob: the game has begun and you have the first move."
        ),
        "{content}"
    );
    assert!(content.ends_with(&link(&last_board())), "{content}");
    // alice moves, then bob: alice's turn is told again.
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "c2-c3").await;
    let told = fake.wait_channel_messages(dm, 2).await.pop().unwrap();
    let body = told.body.as_ref().unwrap();
    let content = body["content"].as_str().unwrap();
    assert!(
        content.starts_with("Your move in game #1 against bob: bob played c2-c3. ")
            // A day per move, less the second or so the message waited.
            && (content.contains(". 1d 0h left.\n") || content.contains(". 23h 59m left.\n")),
        "{content}"
    );
    // The link goes to the board bob's move posted.
    assert!(content.ends_with(&link(&last_board())), "{content}");
    // Alice's own side: Black at the bottom, row 1 on top.
    let grid = body["embeds"][0]["description"].as_str().unwrap();
    assert!(grid.starts_with("1️⃣"), "{grid}");

    // alice closes her direct messages: the next one is refused, and the setting goes off.
    fake.stub(
        "POST",
        "/channels/{channel_id}/messages",
        403,
        Some(serde_json::json!({
            "message": "Cannot send messages to this user", "code": 50007
        })),
    );
    bot.play(&alice(), "a3xb2").await;
    bot.play(&bob(), "c3xb4").await;
    fake.wait_for("the refused direct message", Duration::from_secs(10), |r| {
        r.method == "POST" && r.path == format!("/channels/{dm}/messages") && r.status == 403
    })
    .await;
    let store = bot.store().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while store.dm_setting(alice().id.into()).await.unwrap().0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the setting stayed on"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Her next command is answered as usual, then she is told, once and privately.
    let sent = fake
        .send_interaction(InteractionBuilder::slash("games").by(&alice()))
        .await;
    fake.callback_for(sent.id).await;
    let notes = fake.wait_followups(&sent.token, 1).await;
    let note = notes[0].body.as_ref().unwrap();
    assert!(
        note["content"]
            .as_str()
            .unwrap()
            .starts_with("Your turn notifications are off: Discord would not deliver"),
        "{note}"
    );
    assert_ne!(note["flags"].as_u64().unwrap_or(0) & EPHEMERAL, 0);
    let sent = fake
        .send_interaction(InteractionBuilder::slash("games").by(&alice()))
        .await;
    fake.callback_for(sent.id).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(fake
        .requests()
        .iter()
        .all(|r| !r.path.contains(&sent.token) || r.path.ends_with("/callback")));
    bot.finish();
}

/// `/board` from a player answers them alone, from their own side; an onlooker sees the
/// channel's board, White at the bottom, in public; a board turned round is only ever private.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_player_sees_the_board_from_their_own_side_and_onlookers_see_whites() {
    let bot = start().await;
    // alice has Black, bob White.
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "b4-c3").await;
    let board = |who: TestUser, flip: Option<bool>| {
        let mut b = InteractionBuilder::slash("board")
            .by(&who)
            .integer("game", 1);
        if let Some(flip) = flip {
            b = b.boolean("flip", flip);
        }
        b
    };
    // The first row drawn, and the column letters under the board.
    let seen = |r: &Value| -> (String, String) {
        let grid = r["data"]["embeds"][0]["description"].as_str().unwrap();
        let lines: Vec<&str> = grid.lines().collect();
        let letters = lines.last().unwrap().replace('\u{200B}', "");
        (lines[0].to_string(), letters)
    };
    let white_view = ("5️⃣⚫⚫⚫".to_string(), "⬛🇦🇧🇨".to_string());
    let black_view = ("1️⃣⚪⚪⚪".to_string(), "⬛🇨🇧🇦".to_string());

    let r = bot.slash(board(alice(), None)).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), black_view);
    // The last move's arrow points the way the piece went as drawn: b4-c3 goes up and left.
    assert!(
        r["data"]["embeds"][0]["description"]
            .as_str()
            .unwrap()
            .contains("↖️"),
        "{r}"
    );
    let r = bot.slash(board(bob(), None)).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);
    let r = bot.slash(board(alice(), Some(true))).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);

    let r = bot.slash(board(carol(), None)).await;
    assert!(!is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);
    assert!(
        r["data"]["embeds"][0]["description"]
            .as_str()
            .unwrap()
            .contains("↘️"),
        "{r}"
    );
    let r = bot.slash(board(carol(), Some(true))).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), black_view);
    // The boards posted for moves keep the channel's orientation.
    let r = bot.play(&bob(), "a2-a3").await;
    assert_eq!(seen(&r), white_view);
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_message_shows_only_the_callers_own_games() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let dm = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&carol())
                .dm(dm)
                .user("user", &alice()),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        "in a direct message you can see your own games only: ask in a server for someone else's"
    );
    assert!(!r.to_string().contains("bob"), "{r}");
    for user in [None, Some(alice())] {
        let mut b = InteractionBuilder::slash("games").by(&alice()).dm(dm);
        if let Some(u) = &user {
            b = b.user("user", u);
        }
        let r = bot.slash(b).await;
        let text = embed_text(&r["data"]);
        assert!(text.contains("#1 against bob"), "{text}");
    }
    let r = bot
        .slash(
            InteractionBuilder::slash("rating")
                .by(&carol())
                .dm(dm)
                .user("user", &alice()),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        "ratings belong to a server: ask in one"
    );
    // In another server, the game is not listed.
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&alice())
                .in_guild(bot.fake.next_id())
                .in_channel(bot.fake.next_id()),
        )
        .await;
    let text = embed_text(&r["data"]);
    assert!(text.contains("alice has no game in progress."), "{text}");
    bot.finish();
}

/// A display name made of markdown, a link and mentions.
const HOSTILE: &str = "[free nitro](https://example.com) **x** @everyone <@1> `y` _z_ ~w~ |v|";
/// The same name as every message must carry it.
const HOSTILE_ESCAPED: &str = r"\[free nitro\]\(https\:\/\/example\.com\) \*\*x\*\* \@everyone \<\@1\> \`y\` \_z\_ \~w\~ \|v\|";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_name_stays_text_and_no_message_pings_anyone_else() {
    let bot = start().await;
    let mallory = TestUser::new(300_000_000_000_000_009, HOSTILE);
    bot.challenge(&mallory, Some(&alice()), "3x5").await;
    let (_, click) = bot.click(&alice(), "challenge:accept:1").await;
    bot.fake.wait_followups(&click.token, 1).await;
    let moves = [
        ("a4-a3", &mallory),
        ("c2-c3", &alice()),
        ("a3xb2", &mallory),
        ("c3xb4", &alice()),
    ];
    for (mv, by) in moves {
        bot.play(by, mv).await;
    }
    // alice, not to move, is told whose turn it is.
    let r = bot.play(&alice(), "a1-a2").await;
    assert_eq!(
        r["data"]["content"],
        format!("it is not your turn: {HOSTILE_ESCAPED} is to move")
    );
    let last = bot.play(&mallory, "b2xa1").await;
    let text = embed_text(&last["data"]);
    assert!(
        text.contains(&format!(
            "Black ({HOSTILE_ESCAPED}) wins: a piece reached the far row"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{HOSTILE_ESCAPED}: 1500? → 1662? (+162)")),
        "{text}"
    );
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("history")
                .by(&alice())
                .integer("game", 1),
        )
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request.file("breakthrough-game-1.txt").expect("a file");
    assert!(
        file.text().contains(&format!("[Black \"{HOSTILE}\"]")),
        "{}",
        file.text()
    );
    for user in [None, Some(&mallory)] {
        let mut b = InteractionBuilder::slash("rating").by(&mallory);
        if let Some(u) = user {
            b = b.user("user", u);
        }
        let r = bot.slash(b).await;
        assert!(embed_text(&r["data"]).contains(HOSTILE_ESCAPED), "{r}");
    }
    bot.slash(InteractionBuilder::slash("games").by(&alice()))
        .await;
    bot.slash(InteractionBuilder::slash("leaderboard").by(&alice()))
        .await;

    // Every message the bot sent: the name never raw, and no ping but the one meant.
    let mut messages = 0;
    for r in bot.fake.requests() {
        let Some(body) = &r.body else { continue };
        let message = if body.get("type").is_some() {
            &body["data"]
        } else {
            body
        };
        if message.get("content").is_none() && message.get("embeds").is_none() {
            continue;
        }
        messages += 1;
        let all = message.to_string();
        assert!(!all.contains("nitro]("), "{} {}: {all}", r.method, r.path);
        assert!(!all.contains("**x**"), "{} {}: {all}", r.method, r.path);
        let mentions = &message["allowed_mentions"];
        assert!(mentions.is_object(), "{} {}: {all}", r.method, r.path);
        assert!(
            mentions["parse"].as_array().is_none_or(|p| p.is_empty()),
            "{} {}: {all}",
            r.method,
            r.path
        );
        for user in mentions["users"].as_array().into_iter().flatten() {
            let id = user.as_str().unwrap_or("");
            assert!(
                id == alice().id.to_string() || id == mallory.id.to_string(),
                "{all}"
            );
        }
    }
    assert!(messages >= 12, "{messages}");
    bot.finish();
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

/// A bot on a fresh database in the fake's server, not waited for.
fn spawn_on_fresh_db(fake: &FakeDiscord, dir: &tempfile::TempDir) -> BotProcess {
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let guild_id = GUILD_ID.to_string();
    BotProcess::spawn(
        BOT,
        fake,
        &[
            ("DATABASE_URL", db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
        ],
    )
}

/// Waits for the bot to give up, and returns what it said.
fn exit_and_log(bot: &BotProcess) -> String {
    let status = bot
        .wait_exit(std::time::Duration::from_secs(10))
        .unwrap_or_else(|| panic!("the bot is still running:\n{}", bot.log()));
    assert!(!status.success(), "it exited 0:\n{}", bot.log());
    bot.log()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_failures_at_start_up_are_retried_and_the_bot_serves() {
    let fake = FakeDiscord::start().await;
    fake.add_stub("GET", "/users/@me", StubAnswer::rate_limited(0.2).times(1));
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::server_error().times(2),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let _bot = spawn_on_fresh_db(&fake, &dir);
    fake.wait_for_commands(Some(GUILD_ID)).await;
    let puts: Vec<u16> = fake
        .requests_to("PUT", "/applications/")
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(puts, [500, 500, 200]);
    answers_help(&fake).await;
    fake.assert_spec_ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_cannot_access_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::missing_access(),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = spawn_on_fresh_db(&fake, &dir);
    let log = exit_and_log(&bot);
    assert!(
        log.contains(&format!(
            "error: the bot cannot access the server DISCORD_GUILD_ID={GUILD_ID} (403 Missing Access)"
        )),
        "{log}"
    );
    assert_eq!(fake.gateway_stats().connections, 0, "it went online anyway");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_server_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::new(
            404,
            Some(serde_json::json!({"message": "Unknown Guild", "code": 10004})),
        ),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let log = exit_and_log(&spawn_on_fresh_db(&fake, &dir));
    assert!(
        log.contains(&format!(
            "error: Discord knows no server DISCORD_GUILD_ID={GUILD_ID}"
        )),
        "{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub("GET", "/users/@me", StubAnswer::unauthorized());
    let dir = tempfile::tempdir().expect("temp dir");
    let log = exit_and_log(&spawn_on_fresh_db(&fake, &dir));
    assert!(
        log.contains("error: Discord rejected DISCORD_TOKEN (401 Unauthorized)"),
        "{log}"
    );
    assert!(fake.requests_to("PUT", "/applications/").is_empty());
    assert_eq!(fake.gateway_stats().connections, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_bot_on_the_same_database_refuses_and_names_the_first() {
    let first = start().await;
    let pid = first.process.id();
    let other_fake = FakeDiscord::start().await;
    let guild_id = GUILD_ID.to_string();
    let second = BotProcess::spawn(
        BOT,
        &other_fake,
        &[
            ("DATABASE_URL", first.db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
        ],
    );
    let log = exit_and_log(&second);
    assert!(
        log.contains(&format!(
            "another bot process already serves this database (process {pid}, running for"
        )),
        "{log}"
    );
    assert!(other_fake.requests_to("PUT", "/applications/").is_empty());
    // The console may still run beside it, and the first bot goes on serving.
    let console = std::process::Command::new(BOT)
        .args(["console", "--db", first.db.as_str()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("stdin")
                .write_all(b"@alice /games\n")?;
            c.wait_with_output()
        })
        .expect("run the console");
    assert!(
        console.status.success(),
        "{}",
        String::from_utf8_lossy(&console.stderr)
    );
    answers_help(&first.fake).await;
    first.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copied_env_example_with_only_the_token_filled_in_registers_globally_and_serves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.env.example"))
        .expect("read .env.example");
    assert!(example.contains("\nDISCORD_TOKEN=\n"), "{example}");
    let env = example.replace("\nDISCORD_TOKEN=\n", "\nDISCORD_TOKEN=fake-token\n");
    std::fs::write(dir.path().join(".env"), env).expect("write .env");
    let fake = FakeDiscord::start().await;
    let _bot = BotProcess::spawn_in_dir(BOT, &fake, dir.path(), &[("RUST_LOG", "info")]);
    fake.wait_for_commands(None).await;
    answers_help(&fake).await;
    assert!(
        dir.path().join("breakthrough.db").exists(),
        "the database of .env.example"
    );
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_never_reaches_the_log_even_at_trace() {
    const TOKEN: &str = "NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I";
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let guild_id = GUILD_ID.to_string();
    let fake = FakeDiscord::start().await;
    fake.set_heartbeat_interval(std::time::Duration::from_millis(300));
    let bot = BotProcess::spawn(
        BOT,
        &fake,
        &[
            ("DATABASE_URL", db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
            ("DISCORD_TOKEN", TOKEN),
            ("RUST_LOG", "trace"),
        ],
    );
    fake.wait_for_commands(Some(GUILD_ID)).await;
    answers_help(&fake).await;
    // IDENTIFY carries the token; so does RESUME after a dropped connection.
    fake.close_gateway_connection();
    fake.wait_gateway("the bot resumed", |g| g.resumes >= 1)
        .await;
    answers_help(&fake).await;
    let identify = fake.identify_payloads();
    assert_eq!(
        identify[0]["d"]["token"],
        format!("Bot {TOKEN}"),
        "the fake saw the token"
    );
    bot.kill();
    let log = bot.log();
    assert!(log.contains("TRACE"), "not a trace log:\n{log}");
    assert!(log.len() > 10_000, "too little was logged to tell:\n{log}");
    let secret = TOKEN.split('.').next_back().unwrap_or(TOKEN);
    assert!(!log.contains(secret), "the token is in the log");
    for text in [TOKEN, secret] {
        let bytes: Vec<String> = text.bytes().map(|b| b.to_string()).collect();
        assert!(
            !log.contains(&bytes.join(", ")),
            "the token is in the log as bytes"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_gateway_drops_and_is_invalidated_commands_are_answered_and_results_posted_once()
{
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let (fake, _process) = bot_on(&db).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    fake.wait_ready().await;
    fake.close_gateway_connection();
    fake.wait_gateway("the bot resumed", |g| g.resumes >= 1)
        .await;
    answers_help(&fake).await;
    fake.invalidate_session();
    fake.wait_gateway("a new READY", |g| g.readies >= 2).await;
    answers_help(&fake).await;
    // A game whose clock ran out while all that happened: announced once.
    let store = Store::open(&db).await.expect("open");
    let games = overdue::games_back_then(&store);
    let here = breakthrough_bot::game::Place::new(GUILD_ID, CHANNEL_ID);
    let (zelda, yusuf) = (
        breakthrough_bot::game::Member::new(9001, "zelda"),
        breakthrough_bot::game::Member::new(9002, "yusuf"),
    );
    let c = games
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .expect("challenge");
    games
        .accept(
            &yusuf,
            breakthrough_bot::game::ChallengeRef::Id(c.place, c.id),
        )
        .await
        .expect("accept");
    store.close().await;
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    assert!(embed_text(posted.body.as_ref().unwrap()).contains("Aborted"));
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 1);
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_commits_after_the_answer_window_still_reaches_the_channel() {
    use sqlx::{Connection, Executor};
    let bot = start().await;
    bot.challenge(&alice(), Some(&bob()), "5x5").await;
    bot.click(&bob(), "challenge:accept:1").await;
    // Another process holds the database's write lock past Discord's 3 seconds.
    let mut other = sqlx::SqliteConnection::connect(&bot.db)
        .await
        .expect("connect");
    other.execute("BEGIN IMMEDIATE").await.expect("lock");
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a4-a3"),
        )
        .await;
    let lock_for = fake_discord::ANSWER_WINDOW + std::time::Duration::from_millis(300);
    tokio::time::sleep(lock_for).await;
    other.execute("COMMIT").await.expect("unlock");
    // Deferred in time, privately; the board in the channel; the note completes the answer.
    let reply = bot.fake.callback_for(sent.id).await;
    assert_eq!(reply["type"], 5, "{reply}");
    assert!(is_ephemeral(&reply));
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    assert!(
        posted
            .str_at("/content")
            .is_some_and(|c| c.starts_with(&bob().mention())),
        "{}",
        posted.summary()
    );
    assert!(embed_text(posted.body.as_ref().unwrap()).contains("a4-a3"));
    let note = bot.fake.wait_original_edit(&sent.token).await;
    assert_eq!(
        note.str_at("/content"),
        Some("Your move a4-a3 in game #1 is played; the board is posted in the channel.")
    );
    let store = bot.store().await;
    let moves = store.moves(GameId::new(1)).await.expect("moves");
    assert_eq!(moves.len(), 1);
    store.close().await;
    bot.finish();
}

// ----- the per-member rate limit ---------------------------------------------------------------

/// The default burst of 8 commands, refilled over 80 s instead of 10 (one back every 10 s), so
/// that a slow machine still sends the 9th before a token comes back.
const SLOW_REFILL: [(&str, &str); 1] = [("RATE_LIMIT_PERIOD_SECS", "80")];

fn assert_slow_down(reply: &Value) {
    assert_eq!(reply["type"], 4, "{reply}");
    assert!(is_ephemeral(reply), "{reply}");
    let text = reply["data"]["content"].as_str().unwrap_or_default();
    let wait = text
        .strip_prefix("you are sending commands too fast: try again in ")
        .and_then(|rest| rest.strip_suffix(" s"))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(
        wait.is_some_and(|n| (1..=10).contains(&n)),
        "not a slow-down reply: {reply}"
    );
}

impl Bot {
    async fn help(&self, who: &TestUser) {
        let help = self.slash(InteractionBuilder::slash("help").by(who)).await;
        assert!(
            help["data"]["content"]
                .as_str()
                .is_some_and(|c| c.contains("/challenge")),
            "help was not served: {help}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ninth_quick_command_is_refused_and_does_nothing_while_others_are_served() {
    let bot = start_with(true, &SLOW_REFILL).await;
    let reply = bot.challenge(&alice(), Some(&bob()), "3x5").await;
    assert!(!is_ephemeral(&reply), "{reply}");
    for _ in 0..7 {
        bot.help(&alice()).await;
    }
    // The 9th: /cancel would end the challenge.
    let refused = bot
        .slash(InteractionBuilder::slash("cancel").by(&alice()))
        .await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    let challenge = store.challenge(ChallengeId::new(1)).await.unwrap().unwrap();
    assert_eq!(challenge.state, ChallengeState::Pending);
    // bob has his own bucket: his /accept starts the game.
    let game = bot
        .slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    assert!(!is_ephemeral(&game), "{game}");
    assert!(embed_text(&game["data"]).contains("Game #1"), "{game}");
    assert_eq!(
        store.game(GameId::new(1)).await.unwrap().unwrap().state,
        GameState::Active
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_is_never_rate_limited() {
    let bot = start_with(true, &SLOW_REFILL).await;
    bot.start_game(&alice(), &bob(), "8x8").await;
    let suggest = || async {
        let r = bot
            .slash(
                InteractionBuilder::autocomplete("move")
                    .by(&alice())
                    .focused("move", "e7"),
            )
            .await;
        assert_eq!(r["type"], 8, "{r}");
        assert_eq!(
            r["data"]["choices"].as_array().map(Vec::len),
            Some(3),
            "{r}"
        );
    };
    // More suggestions than the whole burst: none of them is counted.
    for _ in 0..12 {
        suggest().await;
    }
    for _ in 0..7 {
        bot.help(&alice()).await;
    }
    let refused = bot.play(&alice(), "e7-e6").await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    assert!(store.moves(GameId::new(1)).await.unwrap().is_empty());
    // Over the limit, she is still offered her moves.
    suggest().await;
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_click_over_the_limit_is_refused_the_same_way() {
    let bot = start_with(true, &SLOW_REFILL).await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    for _ in 0..8 {
        bot.help(&bob()).await;
    }
    let (refused, _) = bot.click(&bob(), "challenge:accept:1").await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    assert_eq!(
        store
            .challenge(ChallengeId::new(1))
            .await
            .unwrap()
            .unwrap()
            .state
            .as_str(),
        "pending"
    );
    assert!(store.game(GameId::new(1)).await.unwrap().is_none());
    // alice, within her limit, can still use the buttons.
    let (cancelled, _) = bot.click(&alice(), "challenge:cancel:1").await;
    assert_eq!(cancelled["type"], 7, "{cancelled}");
    assert_eq!(
        store
            .challenge(ChallengeId::new(1))
            .await
            .unwrap()
            .unwrap()
            .state
            .as_str(),
        "cancelled"
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_games_setting_limits_games_against_the_ai() {
    let bot = start_with(true, &[("AI_GAMES_PER_MEMBER", "1")]).await;
    let against_the_ai = || {
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .user("opponent", &the_bot())
            .string("size", "5x5")
            .integer("color", 0)
    };
    let first = bot.slash(against_the_ai()).await;
    assert!(!is_ephemeral(&first), "{first}");
    let second = bot.slash(against_the_ai()).await;
    assert_eq!(second["type"], 4, "{second}");
    assert!(is_ephemeral(&second), "{second}");
    assert_eq!(
        second["data"]["content"],
        "you already have 1 game against the AI in progress, the most allowed: finish or resign one first"
    );
    let store = bot.store().await;
    assert!(store.game(GameId::new(1)).await.unwrap().is_some());
    assert!(store.game(GameId::new(2)).await.unwrap().is_none());
    bot.finish();
}

// ----- outages: the outbox, clocks that stop while the bot is down, a sweeper that goes on -----

mod outages {
    use std::time::{Duration, Instant};

    use crate::common::fake_discord::{RecordedRequest, StubAnswer};
    use breakthrough_bot::game::{
        ChallengeRef, ChallengeRequest, GameRef, Games, Limits, Member, Place, SystemClock,
        TimeControl,
    };
    use breakthrough_bot::rules::{Color, MoveText, Position};
    use breakthrough_bot::store::Store;
    use serde_json::json;
    use sqlx::Row;

    use super::*;

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
    pub async fn service(db: &str) -> (Store, Games) {
        let store = Store::open(db).await.unwrap();
        let games = Games::new(
            store.clone(),
            std::sync::Arc::new(SystemClock),
            Limits::default(),
        );
        (store, games)
    }

    /// A rated 3x5 game with an hour per move between `black` and `white` in `place`, in which
    /// both have moved once: running out of time now loses it.
    pub async fn game_under_way(
        games: &Games,
        place: Place,
        black: &Member,
        white: &Member,
    ) -> GameId {
        let c = games
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
            .accept(white, ChallengeRef::Id(c.place, c.id))
            .await
            .unwrap()
            .game
            .id;
        games
            .play(black, place, GameRef::Id(id), "a4-a3")
            .await
            .unwrap();
        games
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

    /// Discord answers 500 twice, then does not answer in time twice: the time-out result and
    /// the reminder are posted once it answers again, once each.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn announcements_outlast_discord_failing_and_timing_out() {
        let (_dir, db) = database();
        let (alice, bob, carol, dave) = players();
        let (store, games) = service(&db).await;
        let lost = game_under_way(&games, HERE, &alice, &bob).await;
        let reminded = game_under_way(&games, HERE, &carol, &dave).await;
        store.close().await;
        set_deadline(&db, lost, unix_now() - 10).await;
        set_deadline(&db, reminded, unix_now() + 600).await;
        let route = format!("/channels/{CHANNEL_ID}/messages");
        let (fake, _bot) = bot_with(&db, &[], |fake| {
            // Newest first: two 500s, then two answers later than the bot waits.
            fake.add_stub(
                "POST",
                &route,
                StubAnswer::server_error()
                    .delay(Duration::from_secs(3))
                    .times(2),
            );
            fake.add_stub("POST", &route, StubAnswer::server_error().times(2));
        })
        .await;
        fake.wait_for_n(
            "two posts that went through",
            2,
            Duration::from_secs(15),
            |r| posted(r, CHANNEL_ID),
        )
        .await;
        wait_outbox_empty(&db).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
        assert_eq!(
            count_posts(&fake, CHANNEL_ID, &format!("your move in game #{reminded}")),
            1
        );
        assert_eq!(
            fake.channel_messages(CHANNEL_ID).len(),
            6,
            "4 failed, 2 posted"
        );
        fake.assert_spec_ok();
    }

    /// A rate-limited post is tried again after a pause, and arrives once. (With
    /// `DISCORD_API_BASE` set serenity's rate limiter is off, and the error it hands on keeps
    /// neither the 429's `retry_after` nor its headers: the pause is the outbox's first, a quarter
    /// of a second. Against Discord itself, serenity's rate limiter waits `retry_after` out.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_rate_limited_post_is_tried_again_after_a_pause() {
        let (_dir, db) = database();
        let (alice, bob, _, _) = players();
        let (store, games) = service(&db).await;
        let lost = game_under_way(&games, HERE, &alice, &bob).await;
        store.close().await;
        set_deadline(&db, lost, unix_now() - 10).await;
        let route = format!("/channels/{CHANNEL_ID}/messages");
        let (fake, _bot) = bot_with(&db, &[], |fake| {
            fake.add_stub("POST", &route, StubAnswer::rate_limited(2.0).times(1));
        })
        .await;
        fake.wait_for("a rate-limited post", Duration::from_secs(10), |r| {
            r.path == route && r.status == 429
        })
        .await;
        let limited = Instant::now();
        fake.wait_for("the post again", Duration::from_secs(10), |r| {
            posted(r, CHANNEL_ID)
        })
        .await;
        let waited = limited.elapsed();
        assert!(
            waited >= Duration::from_millis(150),
            "retried after {waited:?}"
        );
        assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 2);
        assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
    }

    /// A post to a channel that is gone is dropped with a log line; the other channel's
    /// announcement still arrives.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_post_to_a_gone_channel_is_dropped_and_the_rest_arrive() {
        let gone = CHANNEL_ID + 1;
        let (_dir, db) = database();
        let (alice, bob, carol, dave) = players();
        let (store, games) = service(&db).await;
        let there = Place::new(GUILD_ID, gone);
        let first = game_under_way(&games, there, &alice, &bob).await;
        let second = game_under_way(&games, HERE, &carol, &dave).await;
        store.close().await;
        set_deadline(&db, first, unix_now() - 10).await;
        set_deadline(&db, second, unix_now() - 10).await;
        let (fake, bot) = bot_with(&db, &[], |fake| {
            fake.stub(
                "POST",
                &format!("/channels/{gone}/messages"),
                404,
                Some(json!({"message": "Unknown Channel", "code": 10003})),
            );
        })
        .await;
        let post = fake.wait_channel_message(CHANNEL_ID).await;
        assert!(
            words(&post).contains("carol ran out of time"),
            "{}",
            words(&post)
        );
        wait_outbox_empty(&db).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            fake.channel_messages(gone).len(),
            1,
            "tried once, then dropped"
        );
        let log = bot.log();
        assert!(
            log.contains("dropping an announcement Discord will not accept"),
            "{log}"
        );
    }

    /// Another process holds the database's write lock while reminders and time-outs fall due:
    /// once it lets go, everything is posted, once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_locked_database_delays_the_sweep_and_loses_nothing() {
        use sqlx::Connection;
        let (_dir, db) = database();
        let (alice, bob, carol, dave) = players();
        let (store, games) = service(&db).await;
        let lost = game_under_way(&games, HERE, &alice, &bob).await;
        let reminded = game_under_way(&games, HERE, &carol, &dave).await;
        store.close().await;
        let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        // Both games fall due two seconds from now, while the lock is held (alice's reminder at
        // once, her time-out then; carol's reminder then).
        let mut lock = sqlx::sqlite::SqliteConnection::connect(&db).await.unwrap();
        let soon = unix_now() + 2;
        for (id, deadline) in [(lost, soon), (reminded, soon + 720)] {
            sqlx::query("UPDATE games SET deadline = ? WHERE id = ?")
                .bind(deadline)
                .bind(id.get())
                .execute(&mut lock)
                .await
                .unwrap();
        }
        sqlx::query("BEGIN EXCLUSIVE")
            .execute(&mut lock)
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(1800)).await;
        sqlx::query("COMMIT").execute(&mut lock).await.unwrap();
        lock.close().await.unwrap();
        fake.wait_for_n("three posts", 3, Duration::from_secs(10), |r| {
            posted(r, CHANNEL_ID)
        })
        .await;
        wait_outbox_empty(&db).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
        for id in [lost, reminded] {
            let reminder = format!("your move in game #{id}");
            assert_eq!(count_posts(&fake, CHANNEL_ID, &reminder), 1, "{reminder}");
        }
        assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 3);
    }

    /// The bot is stopped for three hours, longer than the game's hour per move: after the
    /// restart nobody has lost on time, and the deadline moved on by the time it was away.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clocks_stop_while_the_bot_is_down() {
        let (_dir, db) = database();
        let (alice, bob, _, _) = players();
        let (store, games) = service(&db).await;
        let id = game_under_way(&games, HERE, &alice, &bob).await;
        store.close().await;
        {
            let (fake, bot) = bot_with(&db, &[], |_| {}).await;
            fake.wait_for_commands(Some(GUILD_ID)).await;
            let deadline = Instant::now() + Duration::from_secs(10);
            while scalar(&db, "SELECT count(*) FROM alive").await == 0 {
                assert!(Instant::now() < deadline, "the bot never said it was alive");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            bot.kill();
        }
        // While it was away: three hours passed, and with them the game's deadline.
        let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
        sqlx::query("UPDATE alive SET seen_at = seen_at - 10800")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        let old_deadline = unix_now() - 60;
        set_deadline(&db, id, old_deadline).await;
        let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        while scalar(&db, "SELECT min(seen_at) FROM alive").await < unix_now() - 60 {
            assert!(Instant::now() < deadline, "the bot never said it was back");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        fake.assert_no_request("a time-out post", Duration::from_millis(1500), |r| {
            r.path.starts_with("/channels/")
        })
        .await;
        let store = Store::open(&db).await.unwrap();
        let game = store.game(id).await.unwrap().unwrap();
        assert_eq!(game.state, GameState::Active);
        assert!(
            game.deadline >= old_deadline + 10800,
            "deadline {} was {old_deadline}",
            game.deadline
        );
    }

    /// A stored game's moves replay to its stored position.
    async fn assert_replays(store: &Store, id: GameId) {
        let row = store.game(id).await.unwrap().unwrap();
        let mut position = Position::new(row.size);
        for m in store.moves(id).await.unwrap() {
            let mv = m
                .notation
                .parse::<MoveText>()
                .unwrap()
                .resolve(&position)
                .unwrap();
            position = position.play(mv).unwrap();
        }
        assert_eq!(position.to_string(), row.position, "game {id}");
    }

    /// kill -9 while 32 rated games end on time and members' moves come in; after a restart,
    /// every game replays to its position, every rating counts its rating changes, every
    /// acknowledged move is there, and every owed announcement is posted.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_kill_in_a_burst_of_endings_loses_nothing() {
        let (_dir, db) = database();
        let (store, games) = service(&db).await;
        let mut ending = Vec::new();
        for i in 0..32u64 {
            let black = Member::new(400_000_000_000_000_000 + 2 * i, format!("b{i}"));
            let white = Member::new(400_000_000_000_000_001 + 2 * i, format!("w{i}"));
            ending.push(game_under_way(&games, HERE, &black, &white).await);
        }
        let (alice, bob, carol, dave) = players();
        let moving = [
            game_under_way(&games, HERE, &alice, &bob).await,
            game_under_way(&games, HERE, &carol, &dave).await,
        ];
        store.close().await;
        for &id in &ending {
            set_deadline(&db, id, unix_now() - 60).await;
        }
        let (fake, bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        // Black (alice, carol) moves in both games while the endings are written; the bot is
        // killed a few endings in.
        let mut sent = Vec::new();
        for (&id, who) in moving.iter().zip([super::alice(), super::carol()]) {
            let move_ = fake
                .send_interaction(
                    InteractionBuilder::slash("move")
                        .by(&who)
                        .string("move", "b4-b3")
                        .integer("game", id.get()),
                )
                .await;
            sent.push((id, move_.id));
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while scalar(&db, "SELECT count(*) FROM games WHERE state = 'finished'").await < 4 {
            assert!(Instant::now() < deadline, "no game ended");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        bot.kill();
        // A move is acknowledged when the bot answered it with the board.
        let acknowledged: Vec<(GameId, &str)> = sent
            .iter()
            .filter(|(_, interaction)| {
                fake.requests().iter().any(|r| {
                    r.path.starts_with(&format!("/interactions/{interaction}/"))
                        && r.status == 204
                        && r.body.as_ref().is_some_and(|b| !is_ephemeral(b))
                })
            })
            .map(|&(id, _)| (id, "b4-b3"))
            .collect();
        let before: Vec<RecordedRequest> = fake.requests();
        drop(fake);

        let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let finished = scalar(&db, "SELECT count(*) FROM games WHERE state = 'finished'").await;
            let queued = scalar(&db, "SELECT count(*) FROM outbox").await;
            if finished == 32 && queued == 0 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{finished} finished, {queued} queued"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let store = Store::open(&db).await.unwrap();
        for id in ending.iter().chain(&moving) {
            assert_replays(&store, *id).await;
        }
        for (id, mv) in acknowledged {
            let moves = store.moves(id).await.unwrap();
            assert_eq!(
                moves.get(2).map(|m| m.notation.as_str()),
                Some(mv),
                "game {id}"
            );
        }
        let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
        for row in sqlx::query("SELECT guild_id, member_id, size, games FROM ratings")
            .fetch_all(&pool)
            .await
            .unwrap()
        {
            let (guild, member, size, games): (i64, i64, String, i64) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            let changes: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM rating_changes rc JOIN games g ON g.id = rc.game_id
                 WHERE g.guild_id = ? AND g.size = ? AND (g.black_id = ?3 OR g.white_id = ?3)",
            )
            .bind(guild)
            .bind(&size)
            .bind(member)
            .fetch_one(&pool)
            .await
            .unwrap();
            assert_eq!(games, changes, "member {member}");
        }
        pool.close().await;
        // Every ending announced; at most the one post in flight at the kill twice, with the
        // same nonce (Discord keeps one of the two).
        let mut all = before;
        all.extend(fake.requests());
        let mut twice = 0;
        for i in 0..32 {
            let posts: Vec<&RecordedRequest> = all
                .iter()
                .filter(|r| {
                    posted(r, CHANNEL_ID) && words(r).contains(&format!("b{i} ran out of time"))
                })
                .collect();
            assert!(!posts.is_empty(), "game of b{i} never announced");
            if posts.len() > 1 {
                twice += 1;
                assert_eq!(posts[0].at("/nonce"), posts[1].at("/nonce"));
            }
        }
        assert!(twice <= 1, "{twice} announcements posted twice");
    }

    /// One member plays three level-5 AI games as fast as they can (and a restart left all
    /// three waiting for the AI): a reminder in another server is still posted within a sweep
    /// interval of falling due.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ai_games_do_not_hold_up_another_servers_reminder() {
        use breakthrough_bot::engine::Level;
        use breakthrough_bot::game::AiRequest;
        let elsewhere = Place::new(GUILD_ID + 1, CHANNEL_ID + 1);
        let (_dir, db) = database();
        let (alice, _, carol, dave) = players();
        let (store, games) = service(&db).await;
        let mut ai_games = Vec::new();
        for _ in 0..3 {
            let g = games
                .challenge_ai(AiRequest {
                    place: HERE,
                    challenger: alice.clone(),
                    ai: Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
                    level: Level::new(5).unwrap(),
                    size: "8x8".parse().unwrap(),
                    color: Some(Color::White),
                    time: TimeControl::OneHour,
                })
                .await
                .unwrap();
            ai_games.push(g.id);
        }
        let reminded = game_under_way(&games, elsewhere, &carol, &dave).await;
        store.close().await;
        let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
        // The AI's turns began a minute ago.
        sqlx::query("UPDATE games SET deadline = deadline - 60 WHERE ai_level IS NOT NULL")
            .execute(&pool)
            .await
            .unwrap();
        let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        let due = unix_now() + 3;
        set_deadline(&db, reminded, due + 720).await;
        let mut sent: Vec<(GameId, i64)> = Vec::new();
        let limit = Instant::now() + Duration::from_secs(15);
        let mut posted_at = None;
        // Until the reminder is posted and the AI has answered alice at least once (on a slow
        // or busy machine its first answer may come after the reminder is due).
        let posted_at = loop {
            if posted_at.is_none()
                && fake
                    .channel_messages(elsewhere.channel.get())
                    .iter()
                    .any(|r| posted(r, elsewhere.channel.get()))
            {
                posted_at = Some(unix_now_f64());
            }
            if let Some(at) = posted_at.filter(|_| !sent.is_empty()) {
                break at;
            }
            assert!(
                Instant::now() < limit,
                "the reminder was never posted, or alice never got to move"
            );
            // alice (White) moves wherever it is her turn.
            for &id in &ai_games {
                let row = sqlx::query("SELECT ply, position, state FROM games WHERE id = ?")
                    .bind(id.get())
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                let (ply, position, state): (i64, String, String) =
                    (row.get(0), row.get(1), row.get(2));
                if state != "active" || ply % 2 == 0 || sent.contains(&(id, ply)) {
                    continue;
                }
                let position: Position = position.parse().unwrap();
                let mv = position.legal_moves()[0].to_string();
                fake.send_interaction(
                    InteractionBuilder::slash("move")
                        .by(&super::alice())
                        .string("move", &mv)
                        .integer("game", id.get()),
                )
                .await;
                sent.push((id, ply));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        pool.close().await;
        let late = posted_at - due as f64;
        assert!(late <= 1.5, "posted {late:.2} s after it was due");
    }

    fn unix_now_f64() -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64()
    }
}

/// Black wins on 3x5 down the a file in five plies (alice has Black).
const BLACK_WINS: [&str; 5] = ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_defers_then_shows_the_summary_with_every_move_in_a_file() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (i, mv) in BLACK_WINS.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        bot.play(&who, mv).await;
    }
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("analyze")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    let deferred = bot.fake.callback_for(sent.id).await;
    assert_eq!(deferred["type"], 5, "{deferred}");
    assert!(!is_ephemeral(&deferred));
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let text = embed_text(&body);
    assert!(text.starts_with("Analysis of game #1\n"), "{text}");
    assert!(
        text.contains("alice (Black) against bob (White) · 3x5 · 3 moves"),
        "{text}"
    );
    assert!(text.contains("Black wins in"), "{text}");
    assert!(text.contains("Black's worst moves"), "{text}");
    let file = edit
        .file("breakthrough-analysis-1.txt")
        .expect("every move's evaluation as a file");
    let lines: Vec<String> = file
        .text()
        .lines()
        .filter(|l| l.contains(" → "))
        .map(String::from)
        .collect();
    for (i, mv) in BLACK_WINS.iter().enumerate() {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{} · ", i + 1)) && l.contains(mv)),
            "ply {} ({mv}) missing:\n{}",
            i + 1,
            file.text()
        );
    }
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_refuses_a_game_between_members_in_progress_privately() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    for who in [alice(), carol()] {
        let r = bot
            .slash(
                InteractionBuilder::slash("analyze")
                    .by(&who)
                    .integer("game", 1),
            )
            .await;
        assert_eq!(r["type"], 4, "{r}");
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(
            r["data"]["content"],
            "game #1 is still being played: a game between members can be analysed once it is \
             over, so that the engine helps no one during play"
        );
    }
    // In Spanish, and for a game that does not exist as /history says it.
    let r = bot
        .slash(
            InteractionBuilder::slash("analyze")
                .by(&carol())
                .locale("es-ES")
                .integer("game", 7),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(r["data"]["content"], "aquí no existe la partida #7");
    let store = bot.store().await;
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 1);
    bot.finish();
}

/// Two bot processes on one database, shard 0 and shard 1 of 2, each against the gateway of its
/// own shards: each ends and announces only the games of its own servers. A third process that
/// claims a shard already held refuses to start and names the holder; once the holder is killed,
/// its replacement starts at once and takes its games over. Nothing is posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_servers_by_shard_and_a_replacement_takes_over() {
    use breakthrough_bot::game::{Member, Place, Shards};
    use outages::{bot_with, database, game_under_way, service, set_deadline, unix_now};
    use std::time::Duration;

    // GUILD_ID is on shard 1 of 2; this server on shard 0.
    let there = Place::new(900_000_000_004_194_314, 31);
    let here = Place::new(GUILD_ID, CHANNEL_ID);
    assert_eq!(
        (Shards::of(there.guild, 2), Shards::of(here.guild, 2)),
        (0, 1)
    );
    let (_dir, db) = database();
    let (store, games) = service(&db).await;
    let (a, b) = (Member::new(401, "ann"), Member::new(402, "ben"));
    let (c, d) = (Member::new(403, "cid"), Member::new(404, "dee"));
    let on_0 = game_under_way(&games, there, &a, &b).await;
    let on_1 = game_under_way(&games, here, &c, &d).await;
    store.close().await;
    for id in [on_0, on_1] {
        set_deadline(&db, id, unix_now() - 60).await;
    }
    let shard = |n: &'static str| [("SHARD_COUNT", "2"), ("SHARDS", n)];
    let (fake0, _p0) = bot_with(&db, &shard("0"), |f| f.set_shard_count(2)).await;
    let (fake1, p1) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    fake0.wait_for_commands(Some(GUILD_ID)).await;
    fake1.wait_for_commands(Some(GUILD_ID)).await;
    async fn lost(fake: &FakeDiscord, channel: u64) -> String {
        let posted = fake.wait_channel_message(channel).await;
        embed_text(posted.body.as_ref().unwrap())
    }
    assert!(lost(&fake0, there.channel.get())
        .await
        .contains("ann ran out of time"));
    assert!(lost(&fake1, CHANNEL_ID)
        .await
        .contains("cid ran out of time"));

    // A second process for shard 1 refuses, naming the first.
    let (fake_x, px) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    let status = px.wait_exit(Duration::from_secs(20)).expect("it stops");
    assert!(!status.success());
    let log = px.log();
    assert!(log.contains("shard-1-of-2"), "{log}");
    assert!(log.contains(&format!("process {}", p1.id())), "{log}");
    drop(fake_x);

    // Shard 1's process dies; a game of its server runs out of time meanwhile; the replacement
    // starts at once and ends it.
    p1.kill();
    let (store, games) = service(&db).await;
    let (e, f) = (Member::new(405, "eve"), Member::new(406, "fay"));
    let later = game_under_way(&games, here, &e, &f).await;
    store.close().await;
    set_deadline(&db, later, unix_now() - 60).await;
    let (fake2, _p2) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    fake2.wait_for_commands(Some(GUILD_ID)).await;
    assert!(lost(&fake2, CHANNEL_ID)
        .await
        .contains("eve ran out of time"));
    // Each announcement was posted once, by its own shard's process.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = |fake: &FakeDiscord, channel: u64| {
        fake.requests_to("POST", &format!("/channels/{channel}/messages"))
            .len()
    };
    assert_eq!(posts(&fake0, there.channel.get()), 1);
    assert_eq!(posts(&fake0, CHANNEL_ID), 0);
    assert_eq!(posts(&fake1, CHANNEL_ID), 1);
    assert_eq!(posts(&fake1, there.channel.get()), 0);
    assert_eq!(posts(&fake2, CHANNEL_ID), 1);
    fake0.assert_spec_ok();
    fake2.assert_spec_ok();
}
