//! Registration and start-up: the commands and their options in the test server, in Spanish
//! within Discord's rules, and globally; a second bot on one database, a copied `.env.example`,
//! a token that never reaches the log, and a Discord the bot cannot reach (the host and why in
//! the log, and trying again).

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{alice, answers_help, exit_and_log, start, start_with, BOT};
use crate::common::fake_discord::{BotProcess, FakeDiscord, InteractionBuilder, GUILD_ID};

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
            "puzzle",
            "rating",
            "rematch",
            "resign",
            "server-settings",
            "settings",
            "team-game",
            "tournament",
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
    let puzzle_size = option(&command("puzzle"), "size");
    let sizes: Vec<&str> = puzzle_size["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(sizes, ["6x6", "7x7", "8x8", "daily"]);
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
    // In a game's thread, `/history` and `/analyze` mean that game.
    assert_eq!(option(&command("history"), "game")["required"], false);
    assert_eq!(option(&command("analyze"), "game")["required"], false);
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
    assert_eq!(bot.fake.commands(None).len(), 22);
    bot.finish();
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

/// A token shaped like Discord's, for the tests that look for it in the logs.
const TOKEN: &str = "NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I";

/// The bot with [`TOKEN`], logging at trace on a fresh database in `dir`, with `extra`
/// settings; returns once its commands are registered.
async fn at_trace(fake: &FakeDiscord, dir: &std::path::Path, extra: &[(&str, &str)]) -> BotProcess {
    let db = format!("sqlite://{}", dir.join("bot.db").display());
    let guild_id = GUILD_ID.to_string();
    let mut env = vec![
        ("DATABASE_URL", db.as_str()),
        ("DISCORD_GUILD_ID", guild_id.as_str()),
        ("DISCORD_TOKEN", TOKEN),
        ("RUST_LOG", "trace"),
    ];
    env.extend_from_slice(extra);
    let bot = BotProcess::spawn(BOT, fake, &env);
    fake.wait_for_commands(Some(GUILD_ID)).await;
    bot
}

/// Asserts [`TOKEN`] is nowhere in `log`: not its secret part, not as bytes.
fn assert_no_token(log: &str) {
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
async fn the_token_never_reaches_the_log_even_at_trace() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = FakeDiscord::start().await;
    fake.set_heartbeat_interval(std::time::Duration::from_millis(300));
    let bot = at_trace(&fake, dir.path(), &[]).await;
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
    assert_no_token(&log);
}

// ----- no way to Discord: the log says which host and why, and start-up goes on trying ---------

/// The bot with `DISCORD_API_BASE` at `base`, on a fresh database in `dir`, logging at the
/// default level (what a newcomer sees).
fn spawn_against(base: &str, dir: &tempfile::TempDir) -> BotProcess {
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    BotProcess::spawn_with_env(
        BOT,
        &[
            ("DISCORD_TOKEN", "fake-token"),
            ("DISCORD_API_BASE", base),
            ("DATABASE_URL", db.as_str()),
        ],
    )
}

/// Waits for the bot to log `line` a second time (the second try comes half a second after the
/// first), checks it is still trying, and stops it; its log.
fn said_twice(bot: &BotProcess, line: &str) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let log = bot.log();
        if log.matches(line).count() >= 2 {
            assert!(bot.is_running(), "it gave up:\n{log}");
            bot.kill();
            return log;
        }
        assert!(bot.is_running(), "it gave up:\n{log}");
        assert!(Instant::now() < until, "never said {line:?} twice:\n{log}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A port on this machine where nothing listens.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}

#[test]
fn a_refused_connection_is_named_with_its_host_and_tried_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = closed_port();
    let bot = spawn_against(&format!("http://127.0.0.1:{port}"), &dir);
    let log = said_twice(
        &bot,
        &format!("cannot reach 127.0.0.1:{port} (connection refused) while checking the token; trying again"),
    );
    assert!(!log.contains("Error while sending HTTP request"), "{log}");
}

/// `.invalid` names never resolve (RFC 6761), with a network or without.
#[test]
fn a_name_that_does_not_resolve_is_named_and_tried_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = spawn_against("https://nothing.invalid", &dir);
    said_twice(
        &bot,
        "cannot reach nothing.invalid (name not resolved) while checking the token; trying again",
    );
}

/// A server that answers TLS with plain HTTP, as a proxy set up without TLS would.
#[test]
fn a_failed_tls_handshake_is_named_and_tried_again() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0; 1024]);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = spawn_against(&format!("https://127.0.0.1:{port}"), &dir);
    said_twice(
        &bot,
        &format!("cannot reach 127.0.0.1:{port} (TLS failed: "),
    );
}

/// `LOG_FORMAT=json`: one JSON object a line, each with its level and message, and at trace
/// neither the bot's token nor an interaction's token in any of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_parse_line_by_line_and_never_hold_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = FakeDiscord::start().await;
    let bot = at_trace(&fake, dir.path(), &[("LOG_FORMAT", "json")]).await;
    let sent = fake
        .send_interaction(InteractionBuilder::slash("help").by(&alice()))
        .await;
    assert_eq!(fake.callback_for(sent.id).await["type"], 4);
    bot.kill();
    let log = bot.log();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() > 50, "too little was logged to tell:\n{log}");
    for line in &lines {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(entry["level"].is_string(), "{line}");
        assert!(entry["fields"].is_object(), "{line}");
    }
    assert_no_token(&log);
    assert!(
        !log.contains(&sent.token),
        "the interaction's token is in the log"
    );
}
