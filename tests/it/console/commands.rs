//! The console's commands one by one: `/wait`, lines it cannot read, `/board`, `/rematch`,
//! `/vacation`, `/analyze`, `/notify` and `/leaderboard`.

use std::io::Write;
use std::process::Stdio;

use breakthrough_bot::game::Timestamp;
use breakthrough_bot::rules::BoardSize;
use breakthrough_bot::store::Store;
use breakthrough_bot::LOCAL_SERVER;

use super::{bin, run_script};

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
            // A game left unsaid, where the member has none.
            "(to @alice only) you have no game here: say which game with its number (game:12)",
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
            "(to @alice only)\n 1  w w w\n 2  w w w\n 3  B . .\n 4  b * b\n 5  b b b\n    c b a"
        ),
        "{out}"
    );
    // carol sees the channel's board in public, and Black's side only for herself.
    assert!(
        out.contains("\n 5  b b b\n 4  b * b\n 3  . . B\n 2  w w w\n 1  w w w\n    a b c\nGame #1"),
        "{out}"
    );
    assert!(out.contains("(to @carol only)\n 1  w w w"), "{out}");
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
        // carol had Black against the AI, at a newcomer's level (2): in the rematch the AI has
        // it, and opens, one level down after her loss.
        "carol starts a game against the AI (level 2).",
        "carol starts a game against the AI (level 1).",
        "Game #4 · 5x5 · vs AI (level 1)",
        "The AI (level 1) played",
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

/// The console's server with three established ratings and nine provisional ones, all rated
/// just now on the default board: `(name, rating, deviation)`.
fn seed_leaderboard(db: &str) {
    let now = Timestamp::from_unix_millis(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
            .try_into()
            .unwrap(),
    );
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = Store::open(db).await.unwrap();
        crate::common::seeded::seed_leaderboard(&store, LOCAL_SERVER, now).await;
        store.close().await;
    });
}

/// Ranked players first, then the provisional ones under their heading, ten to a page: the
/// heading comes again on a page that holds only provisional players.
#[test]
fn the_leaderboard_ranks_the_established_then_lists_the_provisional() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("l.db").display());
    seed_leaderboard(&db);
    let size = BoardSize::DEFAULT;
    let out = run_script(
        &db,
        "@alice /leaderboard\n@alice /leaderboard page:2\n",
        true,
    );
    let heading = "Provisional (a few more rated games earn a rank):";
    let page1 = format!(
        "Leaderboard {size} · page 1/2\n\
         1. ben 1700 (2-1)\n\
         2. ann 1600 (2-1)\n\
         3. cy 1550 (2-1)\n\
         {heading}\n\
         · n1 1950? (2-1)\n\
         · n2 1900? (2-1)\n\
         · n3 1850? (2-1)\n\
         · n4 1800? (2-1)\n\
         · n5 1750? (2-1)\n\
         · n6 1700? (2-1)\n\
         · n7 1650? (2-1)\n"
    );
    let page2 = format!(
        "Leaderboard {size} · page 2/2\n\
         {heading}\n\
         · n8 1600? (2-1)\n\
         · n9 1550? (2-1)\n"
    );
    assert!(out.contains(&page1), "{out}");
    assert!(out.contains(&page2), "{out}");
}

/// A vote game in the console: the channel plays the AI, members vote with `/move` (each told
/// alone), and `wait` closes the window: the leader is played, and the AI answers.
#[test]
fn a_vote_game_in_the_console_is_played_by_votes_and_wait() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("t.db").display());
    let out = run_script(
        &db,
        "@alice /team-game 5x5 black 1 10m\n@bob /move a4-a3\n@carol /move a4-a3\n\
         @dave /move b4-b3\n@bob /move a4-a3 \nwait 11m\n@alice /move b4-b3\n\
         @carol /team-game opponent:#east\n",
        true,
    );
    for want in [
        "Game #1: #console plays Black against the AI (level 1), voting on each move.",
        "each window lasts 10 minutes",
        "(to @bob only) Your vote for a4-a3 in game #1 is counted. Leading: a4-a3 (1) · 1 voter.",
        "(to @dave only) Your vote for b4-b3 in game #1 is counted. Leading: a4-a3 (2), b4-b3 (1) · 3 voters.",
        "(to @bob only) Your vote in game #1 is now a4-a3.",
        "#console plays a4-a3, with 2 of 3 votes. The AI (level 1) played e2-e3.",
        "(to @alice only) Your vote for b4-b3 in game #1 is counted.",
        "(to @carol only) the console has a single channel, so a vote game here plays the AI; \
         games between channels are played on Discord",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
}
