//! The console front end, driven through the real binary: a whole script, and durability of
//! acknowledged moves when the process is killed.

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
        "Leaderboard 3x5 · page 1/1\nNo established ratings yet.\n2 provisional players not shown",
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

#[test]
fn wait_moves_the_clock_at_most_a_year_and_refuses_what_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("w.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 5x5 black 1h\n@bob /accept\n\
         wait 366d\nwait 53w\nwait 106751991167d\nwait 99999999999999999999d\nwait -5m\n\
         wait 1y\n@alice /games\n",
        true,
    );
    assert_eq!(
        out.matches("wait moves the clock at most a year (365d) at a time")
            .count(),
        3,
        "{out}"
    );
    assert_eq!(
        out.matches("wait takes a duration such as 30m, 2h or 1d")
            .count(),
        3,
        "{out}"
    );
    assert!(!out.contains("the clock moves on"), "{out}");
    // The clock did not move: the game is still on, with its hour.
    assert!(
        out.contains("#1 against bob · Move 1 · Black to move: alice"),
        "{out}"
    );
    let out = run_script(&db, "wait 365d\n@alice /games\n", true);
    assert!(out.contains("(the clock moves on 365d 0h)"), "{out}");
    assert!(out.contains("alice has no game in progress."), "{out}");
}

/// A line the console cannot read gets one short line back, to the member only, in the console's
/// own terms (`name:value`, never clap's `--flags`, usage or colours), and changes nothing.
#[test]
fn unreadable_commands_get_one_private_line_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("u.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob colour:black\n\
         @alice /history\n\
         @alice /move\n\
         @alice /frobnicate opponent:@bob\n\
         @alice /accept @bob @carol\n\
         @alice /challenge @bob size:9x99\n\
         @alice /games\n@bob /games\n",
        true,
    );
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines[..6],
        [
            // An unknown option.
            "(to @alice only) unknown option `colour` for /challenge: it takes opponent, size, \
             color, time, rated, level",
            // A missing required value.
            "(to @alice only) /history needs game: write it like /history 12",
            "(to @alice only) /move needs move: write it like /move e7-e6",
            // An unknown command.
            "(to @alice only) unknown command /frobnicate: type help",
            // A value too many, and one that does not read.
            "(to @alice only) too many values for /accept: `@carol` (it takes challenger)",
            "(to @alice only) 9x99 is not a supported board: boards have 3 to 10 columns and 5 \
             to 10 rows",
        ],
        "{out}"
    );
    assert!(out.contains("alice has no game in progress."), "{out}");
    assert!(out.contains("bob has no game in progress."), "{out}");
    assert!(!out.contains("Challenge #"), "{out}");
    for clap_words in ["error:", "Usage", "--", "\u{1b}["] {
        assert!(!out.contains(clap_words), "{out}");
    }
}

/// `/board` shows a player their own side privately, an onlooker White's side in public, and a
/// board turned round only to the one who asked.
#[test]
fn a_player_sees_their_own_side_and_onlookers_the_channels() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("f.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 3x5 black\n@bob /accept\n@alice /move b4-c3\n\
         @alice /board\n@carol /board #1\n@carol /board #1 flip:yes\n",
        true,
    );
    // alice (Black) sees row 1 on top and the columns from c to a, to her alone.
    assert!(
        out.contains(
            "(to @alice only)  1  w w w\n 2  w w w\n 3  B . .\n 4  b * b\n 5  b b b\n    c b a"
        ),
        "{out}"
    );
    // carol sees the channel's board in public, and Black's side only for herself.
    assert!(
        out.contains("\n 5  b b b\n 4  b * b\n 3  . . B\n 2  w w w\n 1  w w w\n    a b c\nGame #1"),
        "{out}"
    );
    assert!(out.contains("(to @carol only)  1  w w w"), "{out}");
}

/// `/rematch` after a game: a challenge to the other player with the colours swapped, once;
/// against the AI the new game at once.
#[test]
fn rematch_challenges_the_other_player_with_colours_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("m.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 3x5 black 1h\n@bob /accept\n@bob /rematch\n@bob /rematch #1\n\
         @alice /move a4-a3\n@bob /move c2-c3\n@alice /move a3xb2\n@bob /move c3xb4\n\
         @alice /move b2xa1\n@bob /rematch\n@alice /rematch #1\n@alice /accept\n\
         @carol /challenge @bot 5x5 black\n@carol /resign confirm:yes\n@carol /rematch\n",
        true,
    );
    for want in [
        "(to @bob only) you have no finished game in this channel to play again",
        "(to @bob only) game #1 is still in progress: a rematch can be asked for once it is over",
        "Challenge #2: bob challenges alice · 3x5 · bob plays black · 1 hour per move · rated",
        "(to @alice only) the rematch of game #1 has already been offered",
        "alice accepted: the game begins.",
        // carol had Black against the AI: in the rematch the AI has it, and opens.
        "carol starts a game against the AI (level 3).",
        "Game #4 · 5x5 · vs AI (level 3)",
        "The AI (level 3) played",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
}

/// `/vacation` in the console: the member is answered privately, each opponent told in public,
/// and moving brings the member back.
#[test]
fn a_vacation_in_the_console_is_told_to_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("v.db").display());
    let out = run_script(
        &db,
        "@alice /challenge @bob 3x5 black 1h\n@bob /accept\n@alice /vacation 3\n\
         wait 2h\n@bob /games\n@alice /move a4-a3\n@alice /vacation 0\n@alice /vacation 30\n",
        true,
    );
    for want in [
        "(to @alice only) You are on vacation until ",
        "@bob: alice is on vacation until ",
        "in game #1 their clock waits for them; yours runs as usual.",
        " · alice is on vacation until ",
        "(to @alice only) you are not on vacation",
        "(to @alice only) you have 20 vacation days left this year; ask for 1 to 20",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    // Two hours on, with an hour per move, alice had not lost: her clock waited.
    assert!(!out.contains("ran out of time"), "{out}");
}

#[test]
fn the_console_analyses_a_finished_game_and_refuses_one_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("c.db").display());
    let script = "\
@alice /challenge opponent:@bob size:3x5 color:black time:1h
@bob /accept
@alice /move a4-a3
@carol /analyze 1
@bob /move c2-c3
@alice /move a3xb2
@bob /move c3xb4
@alice /move b2xa1
@carol /analyze game:1
@carol /analyze #2
";
    let out = run_script(&db, script, true);
    let expect = [
        "(to @carol only) game #1 is still being played: a game between members can be analysed once it is over, so that the engine helps no one during play",
        "Analysis of game #1",
        "alice (Black) against bob (White) · 3x5 · 3 moves",
        "Black's worst moves (chances before → after, and the engine's move):",
        "ply · side · move · chances of the side that moved, before → after · the engine's move",
        "1 · Black · a4-a3 · ",
        "5 · Black · b2xa1 · wins in 1 → won · ",
        "(to @carol only) there is no game #2 here",
    ];
    let mut rest = out.as_str();
    for line in expect {
        let at = rest
            .find(line)
            .unwrap_or_else(|| panic!("missing, or out of order: {line}\n---\n{out}"));
        rest = &rest[at + line.len()..];
    }
    // In Spanish, by the command's Spanish name and option.
    let mut cmd = bin();
    cmd.args(["console", "--db", &db, "--plain", "--lang", "es"]);
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
        .write_all(b"@carol /analizar partida:1\n")
        .expect("write script");
    let out = child.wait_with_output().expect("console ends");
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("Análisis de la partida #1"), "{out}");
    assert!(
        out.contains("alice (negras) contra bob (blancas) · 3x5 · 3 jugadas"),
        "{out}"
    );
    assert!(
        out.contains("5 · negras · b2xa1 · gana en 1 → ganada · "),
        "{out}"
    );
}

/// `/notify dm:yes` in the console: the member's turns are shown as the direct messages they
/// would get.
#[test]
fn turn_notifications_show_as_direct_messages_in_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("n.db").display());
    let out = run_script(
        &db,
        "@alice /notify dm:yes\n@alice /challenge @bob 3x5 black 1h\n@bob /accept\n\
         @alice /move a4-a3\n@bob /move c2-c3\nwait 50m\n@alice /notify\n@alice /notify no\n\
         @alice /move a3xb2\n@bob /move c3xb4\n",
        true,
    );
    for want in [
        "(to @alice only) Turn notifications by direct message are on",
        "(direct message to @alice) Your move in game #1 against bob: the game has begun and you have the first move. ",
        "(direct message to @alice) Your move in game #1 against bob: bob played c2-c3. ",
        "(direct message to @alice) Your time is running short in game #1 against bob: ",
        "(to @alice only) Turn notifications by direct message are off.",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    // The time left, as the console's clock (the system's, moved on by `wait`) reads it: a
    // second may tick between the move and the line on a busy machine.
    for (after, left) in [
        ("first move. ", ["1h 0m left.", "59m left."]),
        ("played c2-c3. ", ["1h 0m left.", "59m left."]),
        (
            "running short in game #1 against bob: ",
            ["10m left.", "9m left."],
        ),
    ] {
        let said = out
            .lines()
            .filter(|l| l.starts_with("(direct message to @alice)"))
            .find_map(|l| l.split_once(after).map(|(_, rest)| rest))
            .unwrap_or_else(|| panic!("no {after:?} in:\n{out}"));
        assert!(left.contains(&said), "{said:?} in:\n{out}");
    }
    // Off: bob's last move tells alice nothing more.
    assert_eq!(
        out.matches("(direct message to @alice)").count(),
        3,
        "{out}"
    );
}
