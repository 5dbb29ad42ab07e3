//! Members' display names are their own text, whatever it holds. Every refusal that names a
//! member shows the name escaped on Discord and as it is in the console, and `/history`'s file
//! quotes it as PGN does.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRequest, Limits, Member, Place, Services, SystemClock, TimeControl,
    Timestamp,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;
use serde_json::Value;

use crate::common::fake_discord::{InteractionBuilder, TestUser, GUILD_ID};
use crate::discord::{start_with, Bot};

/// A display name of markdown, a link, a mention and line breaks that start a quote and a
/// heading.
const FIRST: &str = "**b** _i_ ~s~ |p| `c` [l](https://x.y) <@1>\n> q\n# h";
/// [`FIRST`] as Discord must receive it: every mark escaped, the line breaks kept.
const FIRST_ESCAPED: &str =
    "\\*\\*b\\*\\* \\_i\\_ \\~s\\~ \\|p\\| \\`c\\` \\[l\\]\\(https\\:\\/\\/x\\.y\\) \\<\\@1\\>\n\\> q\n\\# h";
/// A display name with quotes, a backslash and a line break.
const SECOND: &str = "__u__ *e* \\ \"q\"\nend";
const SECOND_ESCAPED: &str = "\\_\\_u\\_\\_ \\*e\\* \\\\ \\\"q\\\"\nend";

fn user(n: u64, name: &str) -> TestUser {
    TestUser::new(300_000_000_000_000_700 + n, name)
}
fn alice() -> TestUser {
    user(1, "alice")
}
fn bob() -> TestUser {
    user(2, "bob")
}
fn carol() -> TestUser {
    user(3, "carol")
}
fn first() -> TestUser {
    user(8, FIRST)
}
fn second() -> TestUser {
    user(9, SECOND)
}
/// A bot of another application, by the name [`FIRST`].
fn robot() -> TestUser {
    user(7, FIRST)
}

fn challenge(from: &TestUser, to: &TestUser) -> InteractionBuilder {
    InteractionBuilder::slash("challenge")
        .by(from)
        .user("opponent", to)
        .string("size", "3x5")
        .integer("color", 0)
}

/// What `who` is told, privately, when they press the button `custom_id`.
async fn click(bot: &Bot, who: &TestUser, custom_id: &str) -> Value {
    let message = bot
        .fake
        .message_with_component(custom_id)
        .unwrap_or_else(|| panic!("no message with button {custom_id}"));
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::button(custom_id)
                .by(who)
                .on_message(&message),
        )
        .await;
    bot.fake.callback_for(sent.id).await
}

/// `answer` is a private refusal with exactly `words`, and neither name appears raw in it.
fn refused(answer: &Value, words: &str) {
    let flags = answer["data"]["flags"].as_u64().unwrap_or(0);
    assert_eq!(flags & (1 << 6), 1 << 6, "not private: {answer}");
    let content = answer["data"]["content"].as_str().unwrap_or_default();
    assert_eq!(content, words);
    for raw in ["**b**", "(https://x.y)", "<@1>", "__u__", "*e*"] {
        assert!(!content.contains(raw), "{raw} raw in {content}");
    }
}

/// Every refusal of the game that names a member, each with a name that is all markdown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_that_names_a_member_shows_the_name_escaped_on_discord() {
    let bot = start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    let guild = breakthrough_bot::game::GuildId::new(GUILD_ID);
    let store = Store::open(&bot.db).await.unwrap();
    let mut tx = store.begin().await.unwrap();
    tx.upsert_bot(guild, robot().id.into(), FIRST, Timestamp::UNIX_EPOCH)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // A bot.
    let r = bot.slash(challenge(&alice(), &robot())).await;
    refused(
        &r,
        &format!("{FIRST_ESCAPED} is a bot: bots cannot play here"),
    );
    // The same challenge twice (challenge #1).
    bot.slash(challenge(&alice(), &first())).await;
    let r = bot.slash(challenge(&alice(), &first())).await;
    refused(
        &r,
        &format!("there is already a pending challenge between you and {FIRST_ESCAPED}"),
    );
    // Someone else's challenge, accepted.
    let r = click(&bot, &bob(), "challenge:accept:1").await;
    refused(
        &r,
        &format!("this challenge is for {FIRST_ESCAPED}: only they can answer it"),
    );
    // Not one's turn (game #1: alice has Black and moves first).
    bot.slash(InteractionBuilder::slash("accept").by(&first()))
        .await;
    bot.slash(
        InteractionBuilder::slash("move")
            .by(&alice())
            .string("move", "a4-a3"),
    )
    .await;
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "b4-b3"),
        )
        .await;
    refused(
        &r,
        &format!("it is not your turn: {FIRST_ESCAPED} is to move"),
    );
    // Someone else's challenge, cancelled (challenge #2).
    bot.slash(challenge(&first(), &bob())).await;
    let r = click(&bot, &alice(), "challenge:cancel:2").await;
    refused(
        &r,
        &format!("only {FIRST_ESCAPED} can cancel this challenge"),
    );
    // Challenged again too soon after a no (challenge #3).
    bot.slash(challenge(&alice(), &second())).await;
    bot.slash(InteractionBuilder::slash("decline").by(&second()))
        .await;
    let r = bot.slash(challenge(&alice(), &second())).await;
    let content = r["data"]["content"].as_str().unwrap_or_default();
    let words =
        format!("{SECOND_ESCAPED} declined your challenge: you can challenge them again in ");
    assert!(content.starts_with(&words), "{content}");
    // Challenged too often in an hour (challenges #4 to #8).
    for _ in 0..5 {
        bot.slash(challenge(&carol(), &second())).await;
        bot.slash(InteractionBuilder::slash("cancel").by(&carol()))
            .await;
    }
    let r = bot.slash(challenge(&carol(), &second())).await;
    let content = r["data"]["content"].as_str().unwrap_or_default();
    let words = format!(
        "you have challenged {SECOND_ESCAPED} 5 times in the last hour, the most allowed: you can \
         challenge them again in "
    );
    assert!(content.starts_with(&words), "{content}");
    // Several games in the channel (game #2: second has Black).
    bot.slash(challenge(&second(), &alice())).await;
    bot.slash(
        InteractionBuilder::slash("accept")
            .by(&alice())
            .user("challenger", &second()),
    )
    .await;
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a2-a3"),
        )
        .await;
    refused(
        &r,
        &format!(
            "you have several games in this channel; say which with game: #1 against \
             {FIRST_ESCAPED}, #2 against {SECOND_ESCAPED}"
        ),
    );
    // Several challenges to answer.
    bot.slash(challenge(&first(), &alice())).await;
    bot.slash(challenge(&second(), &alice())).await;
    let r = bot
        .slash(InteractionBuilder::slash("accept").by(&alice()))
        .await;
    refused(
        &r,
        &format!(
            "you have several pending challenges here; say whose: {FIRST_ESCAPED}, \
             {SECOND_ESCAPED}"
        ),
    );
    // No challenge from someone (the name as the server last saw it).
    let r = bot
        .slash(
            InteractionBuilder::slash("accept")
                .by(&alice())
                .user("challenger", &robot()),
        )
        .await;
    refused(
        &r,
        &format!("{FIRST_ESCAPED} has no pending challenge for you here"),
    );
    // A challenger with as many games as allowed: 24 more for second, elsewhere in the server.
    let games = Services::new(store.clone(), Arc::new(SystemClock), Limits::default());
    let them = Member::new(second().id, SECOND);
    let elsewhere = Place::new(GUILD_ID, bot.fake.next_id());
    for n in 0..24 {
        let other = Member::new(300_000_000_000_000_800 + n, format!("p{n}"));
        let c = games
            .challenges
            .challenge(ChallengeRequest {
                place: elsewhere,
                challenger: them.clone(),
                opponent: Some(other.clone()),
                size: "3x5".parse().unwrap(),
                color: Some(Color::Black),
                time: TimeControl::OneDay,
                rated: false,
            })
            .await
            .unwrap();
        games
            .challenges
            .accept(&other, ChallengeRef::Id(c.place, c.id))
            .await
            .unwrap();
    }
    let r = bot
        .slash(
            InteractionBuilder::slash("accept")
                .by(&alice())
                .user("challenger", &second()),
        )
        .await;
    refused(
        &r,
        &format!("{SECOND_ESCAPED} already has 25 games in progress, the most allowed"),
    );
    bot.finish();
}

/// `/history`'s file: the name, quotes, backslash and line break included, is one header value
/// that a PGN reader takes back as the name (its line break a space).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_history_file_quotes_names_as_pgn_does() {
    let bot = start_with(true, &[]).await;
    bot.slash(challenge(&second(), &alice())).await;
    bot.slash(InteractionBuilder::slash("accept").by(&alice()))
        .await;
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("history")
                .by(&alice())
                .integer("game", 1),
        )
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request
        .file("breakthrough-game-1.txt")
        .expect("a file")
        .text();
    let headers: Vec<(&str, String)> = file
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (tag, value) = l
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .and_then(|l| l.split_once(' '))
                .unwrap_or_else(|| panic!("not a header: {l:?}\n{file}"));
            (tag, pgn_value(value).unwrap_or_else(|| panic!("{l}")))
        })
        .collect();
    let tags: Vec<&str> = headers.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        tags,
        ["Game", "Size", "Black", "White", "Time", "Rated", "Result"]
    );
    assert_eq!(headers[2].1, SECOND.replace('\n', " "));
    assert_eq!(headers[3].1, "alice");
    bot.finish();
}

/// A quoted PGN value read back: the text between the quotes, each backslash escaping the
/// character after it; `None` when it is not one quoted value.
fn pgn_value(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// The console writes names as they are: no backslash is added to any.
#[test]
fn the_console_shows_names_plainly_in_its_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("c.db").display());
    let script = "\
@alice /challenge opponent:@\"**b** _i_\" size:3x5 color:black
@alice /challenge opponent:@\"**b** _i_\" size:3x5 color:black
@\"**b** _i_\" /accept
@alice /move a4-a3
@alice /move b4-b3
@\"[l](x)\" /challenge opponent:@alice size:3x5
@alice /challenge opponent:@\"[l](x)\" size:3x5
";
    let mut child = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"))
        .args(["console", "--plain", "--db", &db])
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the console");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let out = String::from_utf8(out.stdout).unwrap();
    for line in [
        "(to @alice only) there is already a pending challenge between you and **b** _i_",
        "(to @alice only) it is not your turn: **b** _i_ is to move",
        "(to @alice only) there is already a pending challenge between you and [l](x)",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    assert!(!out.contains('\\'), "{out}");
}
