//! The console front end, driven through the real binary: a whole script, durability of
//! acknowledged moves when the process is killed, games against the AI, and the games of
//! Discord servers it leaves alone. Its commands one by one are in `console/commands.rs`, its
//! settings in `console/settings.rs`, its picture files in `console/images.rs`, its
//! tournaments in `console/tournaments.rs`, and its puzzles in `console/puzzles.rs`.

mod commands;
mod first_hour;
mod images;
mod puzzles;
mod settings;
mod tournaments;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use breakthrough_bot::game::GameId;
use breakthrough_bot::store::Store;

use crate::common::overdue;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"));
    c.env_remove("DATABASE_URL").env("RUST_LOG", "warn");
    c
}

fn run_script(db: &str, script: &str, plain: bool) -> String {
    let mut cmd = bin();
    cmd.args(["console", "--db", db]);
    if plain {
        cmd.arg("--plain");
    }
    output_of(&mut cmd, script)
}

/// What the console `cmd` starts prints for `script` on its input, once it ends with success.
pub(crate) fn output_of(cmd: &mut Command, script: &str) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start console");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write script");
    let out = child
        .wait_with_output()
        .expect("console ends at end of input");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

const SCRIPT: &str = "\
# A short rated game on 3x5, with mistakes along the way.
help
@alice /challenge opponent:@bob size:3x5 color:black time:1h
@bob /accept
@bob /move a2-a3
@alice /move a4-a2
@alice /move a4-a3
@carol /move c2-c3
@bob /move c2 c3
@alice /move a3xb2
@bob /move c3-b4
@alice /move b2xa1
@alice /move b4-b5
@alice /move b4-b5 #1
@bob /rating size:3x5
@alice /history 1
@alice /leaderboard 3x5
@alice /frobnicate
nonsense line
";

#[test]
fn a_console_script_plays_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("c.db").display());
    let out = run_script(&db, SCRIPT, true);
    let expect = [
        "Console: each line is `@member /command options`",
        "Challenge #1: alice challenges bob · 3x5 · alice plays black · 1 hour per move · rated · expires in 1h 0m",
        "@bob: answer with /accept or /decline",
        "bob accepted: the game begins.",
        "(to @bob only) it is not your turn: alice is to move",
        "(to @alice only) a piece moves one square at a time",
        "(to @carol only) you have no game in progress in this channel",
        "Last move: c2-c3",
        "Last move: c3xb4",
        "Black (alice) wins: a piece reached the far row",
        "alice: 1500? → 1662? (+162)",
        "bob: 1500? → 1338? (-162)",
        "(to @alice only) you have no game in progress in this channel",
        "(to @alice only) game #1 is over",
        "bob on 3x5: 1338? (deviation 290) · 1 game, 0 wins, 1 loss",
        "#1 lost against alice (a piece reached the far row) -162",
        "1. a4-a3 c2-c3\n2. a3xb2 c3xb4\n3. b2xa1",
        "Leaderboard 3x5 · page 1/1\nProvisional (a few more rated games earn a rank):\n· alice 1662? (1-0)\n· bob 1338? (0-1)",
        "(to @alice only) unknown command /frobnicate: type help",
        "lines look like `@alice /challenge opponent:@bob`; type help",
    ];
    for e in expect {
        assert!(out.contains(e), "missing {e:?} in:\n{out}");
    }
    // Plain boards: the final position with the move marked.
    assert!(out.contains(" 2  w * .\n 1  B w w"), "{out}");
}

#[test]
fn emoji_boards_by_default_and_the_database_persists_between_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("e.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 5x5 white 10m no\n@bob /accept\n@bob /move b4-b3\n",
        false,
    );
    assert!(
        out.contains("alice plays white · 10 minutes per move · casual"),
        "{out}"
    );
    assert!(out.contains("4️⃣⚫⬇️⚫⚫⚫"), "{out}");
    assert!(out.contains("⬛🇦\u{200b}🇧"), "{out}");
    // A second run on the same file sees the game, and its clock.
    let out = run_script(&db, "@alice /board\nwait 11m\n@alice /games\n", false);
    assert!(out.contains("Move 1 · White to move: alice"), "{out}");
    assert!(
        out.contains("White (alice) wins") || out.contains("Aborted"),
        "{out}"
    );
    assert!(out.contains("alice has no game in progress."), "{out}");
}

#[test]
fn reminders_and_expiries_read_as_the_bot_posts_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("r.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 5x5 white 10m no\n@bob /accept\nwait 9m\n@alice /games\n\
         @carol /challenge @dave\nwait 2d\n@carol /games\n",
        true,
    );
    // Bob (Black) is to move, with a tenth of his time left: the one reminder.
    assert_eq!(
        out.matches("@bob: your move in game #1: ").count(),
        1,
        "{out}"
    );
    assert!(out.contains("Challenge #2 from carol expired."), "{out}");
}

#[test]
fn turn_messages_and_vacation_notices_come_from_the_outbox_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("n.db").display());
    let out = run_script(
        &db,
        "@bob /notify dm:yes\n@alice /challenge @bob 5x5 white 1h no\n@bob /accept\n\
         @bob /move a4-a3\n@alice /move c2-c3\n@alice /vacation 3\n@bob /games\nwait 50m\n\
         @bob /games\n",
        true,
    );
    // bob accepted, so he is not told his first turn; alice's move makes it his turn, once.
    assert_eq!(
        out.matches("(direct message to @bob) ").count(),
        2,
        "one turn, then its reminder:\n{out}"
    );
    assert_eq!(
        out.matches(
            "(direct message to @bob) Your move in game #1 against alice: alice played c2-c3."
        )
        .count(),
        1,
        "{out}"
    );
    // bob hears of alice's vacation, in the game's channel, once.
    assert_eq!(
        out.matches("@bob: alice is on vacation until ").count(),
        1,
        "{out}"
    );
    // The console shows moments as plain UTC (Discord's timestamps are Discord's alone).
    let told = out
        .lines()
        .find(|l| l.contains("@bob: alice is on vacation until "))
        .unwrap();
    assert!(told.contains(" UTC: in game #1"), "{told}");
    assert!(!out.contains("<t:"), "{out}");
    // The reminder goes to the channel and, as he asked, to bob.
    assert_eq!(
        out.matches("@bob: your move in game #1: ").count(),
        1,
        "{out}"
    );
}

/// A console running on a database, fed one line at a time.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    /// Everything it printed so far.
    seen: String,
}

impl Running {
    /// The console on `db`, with its output lines read as they come.
    fn start(db: &str) -> Running {
        let mut child = bin()
            .args(["console", "--plain", "--db", db])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start console");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            stdin,
            lines,
            seen: String::new(),
        }
    }

    /// Sends `line` and waits until a line of output contains `ack`.
    fn send_and_wait(&mut self, line: &str, ack: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
        loop {
            let got = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no {ack:?} after {line:?}:\n{}", self.seen));
            self.seen.push_str(&got);
            self.seen.push('\n');
            if got.contains(ack) {
                break;
            }
        }
    }

    /// Kills the process at once (as `kill -9` would) and gives what it printed.
    fn kill(mut self) -> String {
        self.child.kill().expect("kill -9");
        let _ = self.child.wait();
        self.seen
    }
}

/// The notation of every stored move of a game, in order.
async fn stored_moves(store: &Store, game: GameId) -> Vec<String> {
    store
        .moves(game)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect()
}

/// Every move the console acknowledged is on disk, even when the process is killed at once.
#[test]
fn acknowledged_moves_survive_the_process_being_killed() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("k.db").display());
    let mut console = Running::start(&db);
    console.send_and_wait("@alice /challenge @bob 8x8 black", "Challenge #1");
    console.send_and_wait("@bob /accept", "the game begins");
    let moves = [
        "e7-e6", "d2-d3", "e6-e5", "d3-d4", "e5xd4", "c2-c3", "d4xc3", "b2xc3",
    ];
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "@alice" } else { "@bob" };
        console.send_and_wait(&format!("{who} /move {mv}"), &format!("Last move: {mv}"));
    }
    console.kill();

    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = Store::open(&db).await.unwrap();
        let stored = stored_moves(&store, GameId::new(1)).await;
        assert_eq!(stored, moves);
        let game = store.game(GameId::new(1)).await.unwrap().unwrap();
        assert_eq!(game.ply, moves.len() as u32);
        let (replayed, _) =
            breakthrough_bot::rules::replay(Default::default(), stored.iter().map(String::as_str))
                .unwrap();
        assert_eq!(replayed.to_string(), game.position);
    });
}

/// A game against the built-in AI (`@bot`): alice plays White, the AI opens, and each of her
/// moves (chosen from the legal moves of the stored position) gets a reply printed at once.
#[test]
fn the_console_plays_the_ai_and_prints_its_replies() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("ai.db").display());
    let mut console = Running::start(&db);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stored_position = || {
        rt.block_on(async {
            let store = Store::open(&db).await.unwrap();
            let game = store.game(GameId::new(1)).await.unwrap().unwrap();
            store.close().await;
            game.position
                .parse::<breakthrough_bot::rules::Position>()
                .unwrap()
        })
    };

    console.send_and_wait("help", "The built-in AI is @bot");
    console.send_and_wait(
        "@alice /challenge opponent:@bot level:2 size:5x5 color:white",
        "The AI (level 2) played",
    );
    console.send_and_wait("@bot /move a4-a3", "it plays by itself");
    console.send_and_wait(
        "@alice /challenge opponent:@bob level:2",
        "level is for games against the AI",
    );
    for _ in 0..3 {
        let position = stored_position();
        let mv = position.legal_moves()[0];
        console.send_and_wait(&format!("@alice /move {mv}"), "The AI (level 2) played");
    }
    let seen = console.kill();

    assert!(
        seen.contains("alice starts a game against the AI (level 2)."),
        "{seen}"
    );
    assert!(
        seen.contains("Game #1 · 5x5 · vs AI (level 2) · casual · 1 day per move"),
        "{seen}"
    );
    assert!(seen.contains("Black: bot · ⚪ White: alice"), "{seen}");
    assert_eq!(seen.matches("The AI (level 2) played").count(), 4, "{seen}");
    rt.block_on(async {
        let store = Store::open(&db).await.unwrap();
        let game = store.game(GameId::new(1)).await.unwrap().unwrap();
        assert_eq!(game.ai_level.map(|l| l.number()), Some(2));
        assert!(!game.rated);
        let stored = stored_moves(&store, GameId::new(1)).await;
        assert_eq!(stored.len(), 7);
        // Each AI reply printed is the stored one, and the whole game replays legally.
        for ply in (0..7).step_by(2) {
            assert!(
                seen.contains(&format!("The AI (level 2) played {}.", stored[ply])),
                "{seen}"
            );
        }
        let (replayed, _) = breakthrough_bot::rules::replay(
            "5x5".parse().unwrap(),
            stored.iter().map(String::as_str),
        )
        .unwrap();
        assert_eq!(replayed.to_string(), game.position);
    });
}

/// The console run on the bot's database looks after its own local server only: a Discord
/// server's overdue game, expired challenge and game waiting for the AI are left to the bot.
#[test]
fn the_console_leaves_the_games_of_discord_servers_alone() {
    use breakthrough_bot::game::{Member, Place};

    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("shared.db").display());
    let discord = Place::new(777_000_000_000_000_001, 777_000_000_000_000_002);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let seeded = rt.block_on(overdue::seed(&db, discord, Member::new(9999, "the bot")));

    let out = run_script(&db, "help\nwait 1h\n@dave /games\n", true);
    for name in ["zelda", "yusuf", "xenia"] {
        assert!(!out.contains(name), "{out}");
    }
    assert!(!out.contains("The AI"), "{out}");

    rt.block_on(overdue::assert_untouched(&db, &seeded));
}
