//! The command line's tools on the rules and the engine, each printing what it found: `moves`
//! (the legal moves after a game), `bestmove` (the AI's choice), `prove` (a proof search) and
//! `puzzles` (a pool of proven puzzles). What they compute is [`crate::rules`]' and
//! [`crate::engine`]'s; this is only how they are asked and answered.

use std::io::Write;
use std::process::ExitCode;

use crate::engine::{self, Level};
use crate::rules::{self, BoardSize, MoveText};

/// `moves`: everything goes to stdout at once at the end, so a refusal leaves stdout empty.
/// The position after `moves`, or the exit code after saying on stderr which move is wrong.
fn replayed(size: BoardSize, moves: &[String]) -> Result<rules::Position, ExitCode> {
    match rules::replay(size, moves.iter().map(String::as_str)) {
        Ok((position, _)) => Ok(position),
        Err((i, err)) => {
            eprintln!("move {} ({}): {err}", i + 1, MoveText::quote(&moves[i]));
            Err(ExitCode::from(2))
        }
    }
}

pub fn moves(size: BoardSize, moves: &[String]) -> ExitCode {
    let position = match replayed(size, moves) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut out = String::new();
    match position.outcome() {
        Some(outcome) => {
            out.push_str(&format!(
                "winner: {} ({})\n",
                outcome.winner,
                outcome.reason.describe()
            ));
        }
        None => {
            out.push_str(&format!("to move: {}\n", position.turn()));
            for mv in position.legal_moves() {
                out.push_str(&format!("{mv}\n"));
            }
        }
    }
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}

pub fn bestmove(
    size: BoardSize,
    level: Level,
    seed: u64,
    verbose: bool,
    moves: &[String],
) -> ExitCode {
    let position = match replayed(size, moves) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(outcome) = position.outcome() {
        eprintln!(
            "the game is over: {} won ({})",
            outcome.winner,
            outcome.reason.describe()
        );
        return ExitCode::from(2);
    }
    let began = std::time::Instant::now();
    let Some(thought) = engine::think(&position, level, seed) else {
        eprintln!("no move to make");
        return ExitCode::from(2);
    };
    println!("{}", thought.best);
    if verbose {
        eprintln!(
            "score {}, depth {}, {} positions, {:.0} ms",
            thought.score,
            thought.depth,
            thought.nodes,
            began.elapsed().as_secs_f64() * 1000.0
        );
        let proof = match engine::prove(&position, PROVE_PLIES, engine::PROOF_NODES) {
            engine::Proof::Win { plies, best } => format!("win {plies} ({best})"),
            engine::Proof::Loss { plies } => format!("loss {plies}"),
            engine::Proof::Unknown => format!("none within {PROVE_PLIES} plies"),
        };
        eprintln!("proof: {proof}");
    }
    ExitCode::SUCCESS
}

/// The bound of `prove` when none is given, and of the proof `bestmove --verbose` prints.
pub const PROVE_PLIES: u32 = 9;

/// A proof as `prove` prints it: `win N MOVE`, `loss N` or `unknown`.
fn proof_line(proof: engine::Proof) -> String {
    match proof {
        engine::Proof::Win { plies, best } => format!("win {plies} {best}"),
        engine::Proof::Loss { plies } => format!("loss {plies}"),
        engine::Proof::Unknown => "unknown".to_string(),
    }
}

/// `prove`: a finished game is a loss in 0 for the side to move, as the prover counts it.
pub fn prove(size: BoardSize, plies: u32, moves: &[String]) -> ExitCode {
    let position = match replayed(size, moves) {
        Ok(p) => p,
        Err(code) => return code,
    };
    println!(
        "{}",
        proof_line(engine::prove(&position, plies, engine::PROOF_NODES))
    );
    ExitCode::SUCCESS
}

pub fn puzzles(
    size: BoardSize,
    count: usize,
    out: &std::path::Path,
    seed: u64,
    threads: usize,
) -> ExitCode {
    let began = std::time::Instant::now();
    let puzzles = engine::puzzles::generate(size, count, seed, threads, |n| {
        eprint!(
            "\r{n} of {count} puzzles, {:.0} s",
            began.elapsed().as_secs_f64()
        );
    });
    eprintln!();
    let mut text = format!(
        "# {} puzzles of {size}, found by `breakthrough-bot puzzles --size {size} --count {count} --seed {seed}` in {:.0} s\n",
        puzzles.len(),
        began.elapsed().as_secs_f64()
    );
    for p in &puzzles {
        text.push_str(&format!("{p}\n"));
    }
    if let Err(e) = std::fs::write(out, text) {
        eprintln!("cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `backup`: a consistent copy of the SQLite database at `db` into the new file `file`, taken
/// while the bot runs. A file that exists is refused (a backup never overwrites one); so is a
/// PostgreSQL database, whose own tool does it.
///
/// # Errors
///
/// The refusals above, or the database's own error (no such database, no room for the copy).
pub async fn backup(db: &str, file: &std::path::Path) -> anyhow::Result<()> {
    if crate::store::is_postgres(db) {
        anyhow::bail!(
            "backup copies a SQLite database; for PostgreSQL use pg_dump (see the README)"
        );
    }
    if file.exists() {
        anyhow::bail!(
            "{} exists: a backup never overwrites a file; name a new one",
            file.display()
        );
    }
    crate::store::backup(db, file).await?;
    println!("backed up {db} to {}", file.display());
    Ok(())
}

/// `health`: asks the running bot's health listener at `addr` whether it is ready (`/readyz`),
/// for a container's or systemd's check: says `ready`, or fails with the bot's reason.
///
/// # Errors
///
/// No address, no answer within 5 s, or the bot not ready (with its reason).
pub async fn health(addr: Option<std::net::SocketAddr>) -> anyhow::Result<()> {
    let Some(addr) = addr else {
        anyhow::bail!("HEALTH_ADDR is not set: it names the bot's health listener");
    };
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(5))
        .build()?;
    let answer = client
        .get(format!("http://{addr}/readyz"))
        .send()
        .await
        .map_err(|e| anyhow::anyhow!("no answer from the bot at {addr}: {e}"))?;
    let ready = answer.status().is_success();
    let said = answer.text().await.unwrap_or_default();
    if !ready {
        anyhow::bail!("not ready: {}", said.trim());
    }
    println!("{}", said.trim());
    Ok(())
}
