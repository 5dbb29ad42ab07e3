//! The command line's contract: `perft` and `moves`, including every kind of bad input.

use std::process::{Command, Output};

pub(crate) fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("the binary starts")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_the_leaf_count() {
    let o = run(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "11132\n");
    let o = run(&["perft", "--size", "7x7", "4"]);
    assert_eq!(stdout(&o), "144251\n");
    let o = run(&["perft", "--size", "6x5", "0"]);
    assert_eq!(stdout(&o), "1\n");
}

#[test]
fn moves_lists_the_side_to_move_and_its_moves() {
    let o = run(&["moves", "--size", "3x5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "to move: black\na4-a3\na4-b3\nb4-a3\nb4-b3\nb4-c3\nc4-b3\nc4-c3\n"
    );
    let o = run(&["moves", "--size", "3x5", "b4-b3", "A2-A3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // a2 emptied, a3 blocks a4, b2 cannot be taken straight on: b3 steps to a2 or takes c2.
    assert_eq!(
        stdout(&o),
        "to move: black\na5-b4\nb3-a2\nb3xc2\nb5-b4\nc4-c3\nc5-b4\n"
    );
}

#[test]
fn moves_reports_the_winner_when_the_game_is_over() {
    // Black breaks through on the a file of 3x5.
    let o = run(&[
        "moves", "--size", "3x5", "a4-a3", "c2-c3", "a3xb2", "c3-b4", "b2xa1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "winner: black (a piece reached the far row)\n");
}

fn refused(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?} should exit 2");
    assert_eq!(stdout(&o), "", "{args:?} printed on stdout");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_bad_move_exits_2_naming_the_move_and_why() {
    let err = refused(&["moves", "e7-e6", "e2-e4"]);
    assert!(err.contains("move 2 (e2-e4)"), "{err}");
    assert!(err.contains("one square at a time"), "{err}");

    let err = refused(&["moves", "e2-e3"]);
    assert!(
        err.contains("move 1 (e2-e3)") && err.contains("not yours"),
        "{err}"
    );

    let err = refused(&["moves", "e7-e6", "e2-e3", "nonsense"]);
    assert!(
        err.contains("move 3 (nonsense)") && err.contains("cannot read"),
        "{err}"
    );

    let err = refused(&["moves", "e7xe6"]);
    assert!(err.contains("nothing to capture"), "{err}");

    let err = refused(&[
        "moves", "--size", "3x5", "a4-a3", "c2-c3", "a3xb2", "c3-b4", "b2xa1", "b4-b5",
    ]);
    assert!(
        err.contains("move 6 (b4-b5)") && err.contains("game is over"),
        "{err}"
    );

    let err = refused(&["moves", "-e7-e6"]);
    assert!(err.contains("move 1"), "{err}");
}

#[test]
fn bad_arguments_exit_2_without_panicking() {
    let err = refused(&["moves", "--size", "12x8"]);
    assert!(err.contains("12x8 is not a supported board"), "{err}");
    let err = refused(&["perft", "--size", "8by8", "2"]);
    assert!(err.contains("cannot read board size"), "{err}");
    refused(&["perft"]);
    refused(&["perft", "-1"]);
    refused(&["perft", "99999999999999"]);
    refused(&["perft", "two"]);
    refused(&["no-such-command"]);
    refused(&["moves", &"e".repeat(100_000)]);
}

#[test]
fn bestmove_prints_one_legal_move_the_same_for_the_same_seed() {
    let o = run(&["bestmove", "--level", "2", "--seed", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mv = stdout(&o);
    let legal = stdout(&run(&["moves"]));
    assert!(
        legal.lines().skip(1).any(|l| format!("{l}\n") == mv),
        "{mv:?}"
    );
    assert_eq!(
        stdout(&run(&["bestmove", "--level", "2", "--seed", "5"])),
        mv
    );

    // After moves, on another size, in canonical notation.
    let o = run(&["bestmove", "--size", "5x5", "--level", "4", "d4-d3", "A2a3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mv = stdout(&o);
    let legal = stdout(&run(&["moves", "--size", "5x5", "d4-d3", "a2-a3"]));
    assert!(
        legal.lines().skip(1).any(|l| format!("{l}\n") == mv),
        "{mv:?} not in {legal}"
    );
}

#[test]
fn bestmove_refuses_bad_input_with_exit_2_and_nothing_on_stdout() {
    for args in [
        &["bestmove", "--level", "6"][..],
        &["bestmove", "--level", "zero"],
        &["bestmove", "--size", "11x11"],
        &["bestmove", "e2-e3"],
        &[
            "bestmove", "--size", "3x5", "a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1",
        ],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
    let o = run(&[
        "bestmove", "--size", "3x5", "a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1",
    ]);
    assert!(stderr(&o).contains("over"), "{}", stderr(&o));
}

// ----- the newcomer's path: a copied .env.example ----------------------------------------------

/// Every variable the binary reads, removed from the test's own environment.
const SETTINGS: [&str; 17] = [
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "DISCORD_API_BASE",
    "DATABASE_URL",
    "SWEEP_INTERVAL_SECS",
    "RATE_LIMIT_COMMANDS",
    "RATE_LIMIT_PERIOD_SECS",
    "AI_GAMES_PER_MEMBER",
    "AI_QUEUE",
    "VACATION_DAYS_PER_YEAR",
    "SHARD_COUNT",
    "SHARDS",
    "SHARD_LEASE_SECS",
    "POST_TIMEOUT_MS",
    "RUST_LOG",
    "LOG_FORMAT",
    "HEALTH_ADDR",
];

/// A directory holding the project's own `.env.example` copied as `.env`.
fn copied_env_example() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.env.example"),
        dir.path().join(".env"),
    )
    .expect("copy .env.example");
    dir
}

/// Runs the binary in `dir` with `args`, `stdin` as its input, and only `env` of the settings.
fn run_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"));
    cmd.current_dir(dir).args(args);
    for k in SETTINGS {
        cmd.env_remove(k);
    }
    cmd.envs(env.iter().copied())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_copied_env_example_runs_the_console_and_perft() {
    let dir = copied_env_example();
    let o = run_in(dir.path(), &["perft", "1"], &[], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "22\n");
    let o = run_in(
        dir.path(),
        &["console", "--plain"],
        &[],
        "@alice /challenge opponent:@bob\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("alice"), "{}", stdout(&o));
    assert!(dir.path().join("breakthrough.db").exists());
}

#[test]
fn empty_settings_in_the_environment_mean_not_set() {
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.env.example"))
        .expect("read .env.example");
    for line in example.lines().filter(|l| !l.starts_with('#')) {
        if let Some((name, _)) = line.split_once('=') {
            assert!(SETTINGS.contains(&name), "{name} is not in SETTINGS");
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let empty: Vec<(&str, &str)> = SETTINGS.iter().map(|k| (*k, "")).collect();
    let o = run_in(dir.path(), &["perft", "1"], &empty, "");
    assert!(o.status.success(), "{}", stderr(&o));
    // No token, so `run` says what to set, not that a value is invalid.
    let o = run_in(dir.path(), &["run"], &empty, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("DISCORD_TOKEN is not set"),
        "{}",
        stderr(&o)
    );
    let dir = copied_env_example();
    let o = run_in(dir.path(), &[], &[], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("DISCORD_TOKEN is not set"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_token_is_not_a_flag_and_the_api_base_must_keep_it_safe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = run_in(dir.path(), &["run", "--token", "abc"], &[], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unexpected argument '--token'"),
        "{}",
        stderr(&o)
    );
    for (base, why) in [
        (
            "http://example.com",
            "plain http would send the token in clear",
        ),
        (
            "http://192.168.1.2:8080",
            "plain http would send the token in clear",
        ),
        ("ftp://127.0.0.1", "the scheme must be https"),
    ] {
        let o = run_in(
            dir.path(),
            &["run"],
            &[("DISCORD_TOKEN", "x"), ("DISCORD_API_BASE", base)],
            "",
        );
        assert_eq!(o.status.code(), Some(2), "{base}");
        assert!(stderr(&o).contains(why), "{base}: {}", stderr(&o));
        assert!(stderr(&o).contains("DISCORD_API_BASE"), "{}", stderr(&o));
    }
    let o = run_in(
        dir.path(),
        &["run"],
        &[("DISCORD_TOKEN", "x"), ("DISCORD_GUILD_ID", "0")],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("DISCORD_GUILD_ID"), "{}", stderr(&o));
}

#[test]
fn processes_started_together_on_a_fresh_file_all_get_a_migrated_database() {
    for round in 0..3 {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = format!("sqlite://{}", dir.path().join("fresh.db").display());
        let children: Vec<_> = (0..6)
            .map(|_| {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"));
                for k in SETTINGS {
                    cmd.env_remove(k);
                }
                cmd.args(["console", "--db", db.as_str()])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("the binary starts")
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().expect("the binary ends");
            assert!(o.status.success(), "round {round}: {}", stderr(&o));
        }
    }
}

#[test]
fn shards_out_of_their_count_are_refused_before_anything_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = run_in(
        dir.path(),
        &["run"],
        &[
            ("DISCORD_TOKEN", "t"),
            ("SHARD_COUNT", "2"),
            ("SHARDS", "1-2"),
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("`1-2` is not a range of shards of 2"),
        "{}",
        stderr(&o)
    );
    // SHARDS means nothing without SHARD_COUNT.
    let o = run_in(dir.path(), &["run"], &[("SHARDS", "0")], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--shard-count"), "{}", stderr(&o));
    assert!(!dir.path().join("breakthrough.db").exists());
}

/// A database the bot cannot migrate (here another program's file, with a table of the same name
/// as one of the bot's) ends start-up with exit 1 and one line that says why once, not once for
/// each layer of the error.
#[test]
fn a_database_that_cannot_be_migrated_says_why_once() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("other.db").display());
    tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(async {
            let mut conn = sqlx::SqliteConnection::connect(&format!("{url}?mode=rwc")).await?;
            sqlx::query("CREATE TABLE members (name TEXT)")
                .execute(&mut conn)
                .await?;
            conn.close().await
        })
        .expect("another program's database");
    let o = run_in(dir.path(), &["console", "--plain", "--db", &url], &[], "");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("error: migrations: "), "{err}");
    assert_eq!(
        lines[0].matches("table members already exists").count(),
        1,
        "{err}"
    );
}

// ----- what `run` tells a newcomer ---------------------------------------------------------------

#[test]
fn the_help_says_the_token_comes_from_discord_token() {
    let o = run(&["run", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = stdout(&o);
    assert!(
        help.contains("DISCORD_TOKEN, in the environment or in a .env file"),
        "{help}"
    );
    let o = run(&["--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = stdout(&o);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("run "))
        .unwrap_or_else(|| panic!("no line for run:\n{help}"));
    assert!(line.contains("DISCORD_TOKEN"), "{line}");
}

/// Logs read from a pipe or a file (a service manager's journal, `2> bot.log`) carry no colour
/// codes: its first warning, that Discord is out of reach, read from a pipe.
#[test]
fn logs_through_a_pipe_carry_no_colour_codes() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("temp dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"));
    for k in SETTINGS {
        cmd.env_remove(k);
    }
    let base = format!("http://127.0.0.1:{port}");
    let mut child = cmd
        .current_dir(dir.path())
        .arg("run")
        .envs([("DISCORD_TOKEN", "t"), ("DISCORD_API_BASE", base.as_str())])
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut first = String::new();
    let read = std::io::BufReader::new(child.stderr.take().expect("stderr")).read_line(&mut first);
    let _ = child.kill();
    let _ = child.wait();
    read.expect("read the log");
    assert!(first.contains("WARN"), "{first:?}");
    assert!(!first.contains('\x1b'), "{first:?}");
}
