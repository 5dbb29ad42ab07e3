//! The `breakthrough-bot` command line: parse arguments, call into the library, print.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{CommandFactory, Parser, Subcommand};

use breakthrough_bot::engine::{self, Level};
use breakthrough_bot::rules::{self, BoardSize};
use breakthrough_bot::Lang;
use breakthrough_bot::{BotConfig, DatabaseConfig, GatewayRefusals};
use breakthrough_bot::{Console, ConsoleClock};
use breakthrough_bot::{InstanceLock, Store, StoreError};
use breakthrough_bot::{Limits, Services, SystemClock, LOCAL_SERVER};

#[derive(Parser)]
#[command(
    name = "breakthrough-bot",
    version,
    about = "Breakthrough on Discord, and its tools"
)]
struct Cli {
    /// What to do; without one, `run`.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    bot: BotConfig,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default), with its token from DISCORD_TOKEN.
    #[command(after_help = TOKEN_HELP)]
    Run {
        #[command(flatten)]
        config: BotConfig,
    },
    /// Count the move sequences of DEPTH plies from the start position.
    Perft {
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Plies to look ahead.
        depth: u32,
    },
    /// Play MOVEs from the start position, then print the winner or the side to move and its legal moves.
    Moves {
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Moves in algebraic notation, such as e7-e6 or d4xe5.
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// Play from a terminal: type the bot's commands as named members, on the same database.
    Console {
        #[command(flatten)]
        db: DatabaseConfig,
        /// Draw boards as plain text instead of emoji.
        #[arg(long)]
        plain: bool,
        /// The language to speak: en or es (default: from LC_ALL or LANG, else English).
        #[arg(long, value_name = "en|es")]
        lang: Option<Lang>,
        /// Also write each board shown as a PNG picture, and each /history as a GIF replay, into
        /// DIR (made when missing), and print their paths under the boards.
        #[arg(long, value_name = "DIR")]
        images: Option<PathBuf>,
    },
    /// Play many games at once through the game service on a fresh temporary SQLite file (and on
    /// each --db beside it), and report moves per second and move latency; with --analyze, time
    /// the analysis of whole games the AI played against itself.
    Bench {
        /// Games to play (default 400; 10 with --analyze).
        #[arg(long)]
        games: Option<usize>,
        /// Games in flight at once; several, comma-separated, run one after the other.
        #[arg(long, default_value = "32", value_delimiter = ',')]
        concurrency: Vec<usize>,
        /// Also run on this database (postgres://…), side by side with SQLite; may be repeated.
        #[arg(long, value_name = "URL")]
        db: Vec<String>,
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Time `/analyze` instead: the AI plays each game against itself, then every position
        /// is judged as `/analyze` does; prints each game's time, the median and the maximum.
        #[arg(long)]
        analyze: bool,
        /// The AI's level in the games --analyze plays.
        #[arg(long, default_value_t = Level::DEFAULT, requires = "analyze")]
        level: Level,
    },
    /// Print the AI's move for the position after MOVEs from the start.
    Bestmove {
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Strength, 1 (beginner) to 5 (strong).
        #[arg(long, default_value_t = Level::DEFAULT)]
        level: Level,
        /// Seed of the AI's choices: the same seed, the same move.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Also print the score, depth, positions searched and time, on stderr.
        #[arg(long)]
        verbose: bool,
        /// Moves in algebraic notation, such as e7-e6 or d4xe5.
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// Prove the position after MOVEs from the start: print `win N MOVE` (the side to move wins in
    /// N plies, the last its winning move, by playing MOVE), `loss N` (it loses in N plies however
    /// it defends) or `unknown` (neither within the bound).
    Prove {
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// The bound: the longest win or loss looked for, in plies (each side's move is one).
        #[arg(long, default_value_t = PROVE_PLIES, value_name = "N")]
        plies: u32,
        /// Moves in algebraic notation, such as e7-e6 or d4xe5.
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// Find puzzles in games the AI plays against itself: positions where the side to move wins
    /// by force in 3 to 11 plies with exactly one first move, each proven; writes one a line
    /// (position, solution, plies), the pool's format.
    Puzzles {
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// How many puzzles to find.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Where to write them.
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Seed of the first game; the next games count up from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Measure the AI: each level against the one below, and the top level against plain UCT.
    Selfplay {
        /// Games per match (pairs of games with colours swapped).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Simulations per move of the UCT opponent.
        #[arg(long, default_value_t = 10_000)]
        uct_simulations: u32,
        /// Seed of the openings and of the players' choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Matches to play: `2-1` (level 2 against level 1), `5-5fixed` (the top level against
        /// itself with a fixed budget per move), `5-uct`; all of them by default.
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
    },
}

/// Where `run` finds the token, under its options (which cannot hold it).
const TOKEN_HELP: &str = "\
The bot's token is read from DISCORD_TOKEN, in the environment or in a .env file in the current
directory (see .env.example); never from a flag, which would show it to every user of the machine.";

/// Every variable a setting is read from: the ones clap knows (on every subcommand), the token,
/// and the log filter.
fn setting_names() -> Vec<String> {
    fn walk(cmd: &clap::Command, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if let Some(name) = arg.get_env() {
                out.push(name.to_string_lossy().into_owned());
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut names = vec!["DISCORD_TOKEN".to_string(), "RUST_LOG".to_string()];
    walk(&Cli::command(), &mut names);
    names.sort();
    names.dedup();
    names
}

fn main() -> ExitCode {
    // An empty setting, in the environment or in .env (as in a copied .env.example), means
    // "not set": it is removed before .env is read (so .env can fill it) and again after.
    let names = setting_names();
    let forget = || breakthrough_bot::forget_empty_settings(names.iter().map(String::as_str));
    forget();
    // A missing .env is fine: the environment and flags may say it all.
    let _ = dotenvy::dotenv();
    forget();
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Run { config: cli.bot });
    match command {
        Command::Run { config } => {
            let config = config.with_token_from_env();
            if config.token.is_none() {
                eprintln!("{}", breakthrough_bot::MISSING_TOKEN);
                return ExitCode::from(2);
            }
            let refusals = GatewayRefusals::default();
            run_async(Some(&refusals), serve(config, refusals.clone()))
        }
        Command::Perft { size, depth } => {
            println!("{}", rules::Position::new(size).perft(depth));
            ExitCode::SUCCESS
        }
        Command::Moves { size, moves } => moves_command(size, &moves),
        Command::Console {
            db,
            plain,
            lang,
            images,
        } => run_async(
            None,
            console(db, plain, lang.unwrap_or_else(Lang::from_env), images),
        ),
        Command::Bench {
            games,
            size,
            seed,
            analyze: true,
            level,
            ..
        } => {
            let report = breakthrough_bot::bench_analysis(games.unwrap_or(10), size, level, seed);
            println!("{report}");
            ExitCode::SUCCESS
        }
        Command::Bench {
            games,
            concurrency,
            db,
            size,
            seed,
            ..
        } => run_async(None, async move {
            let games = games.unwrap_or(400);
            let rows =
                breakthrough_bot::bench_compare(games, &concurrency, size, seed, &db).await?;
            print!("{}", breakthrough_bot::bench_table(&rows));
            Ok(())
        }),
        Command::Bestmove {
            size,
            level,
            seed,
            verbose,
            moves,
        } => bestmove_command(size, level, seed, verbose, &moves),
        Command::Prove { size, plies, moves } => prove_command(size, plies, &moves),
        Command::Puzzles {
            size,
            count,
            out,
            seed,
            threads,
        } => puzzles_command(size, count, &out, seed, threads),
        Command::Selfplay {
            games,
            size,
            uct_simulations,
            seed,
            threads,
            only,
        } => breakthrough_bot::selfplay(games, size, uct_simulations, seed, threads, &only),
    }
}

/// Crates whose detailed logs carry what must never reach a log: the websocket crates print
/// every gateway frame they send (IDENTIFY carries the token) as bytes at `trace`, and the HTTP
/// stack can print request headers (`Authorization`). Their levels are capped whatever
/// `RUST_LOG` says.
const LOG_CAPS: [&str; 7] = [
    "tungstenite=info",
    "tokio_tungstenite=info",
    "async_tungstenite=info",
    "hyper=info",
    "hyper_util=info",
    "reqwest=info",
    "h2=info",
];

/// Logs go to stderr, filtered by `RUST_LOG` (warnings and errors by default), with
/// [`LOG_CAPS`] on top; for the bot, `refusals` hears of a gateway shard Discord refused.
fn init_logging(refusals: Option<&GatewayRefusals>) {
    let mut filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    for cap in LOG_CAPS {
        if let Ok(directive) = cap.parse() {
            filter = filter.add_directive(directive);
        }
    }
    // What `filter` lets through goes to standard error, coloured only on a terminal (a file, a
    // pipe or journald would keep the escape codes as text) and unless `NO_COLOR` is set; beside
    // it, whatever the filter, the Discord front end watches serenity's gateway for a shard
    // Discord refused.
    use std::io::IsTerminal;
    use tracing_subscriber::prelude::*;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal() && !no_color)
        .with_filter(filter);
    let _ = tracing_subscriber::registry()
        .with(log)
        .with(refusals.map(GatewayRefusals::layer))
        .try_init();
}

fn run_async(
    refusals: Option<&GatewayRefusals>,
    job: impl std::future::Future<Output = anyhow::Result<()>>,
) -> ExitCode {
    init_logging(refusals);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = runtime.block_on(job);
    // Tasks still running are dropped; a blocking one (a search of the AI's, a shard serenity
    // could not stop) is given a moment, not the power to keep the process from exiting.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes on one line, each said once: many errors (sqlx's, the migrator's)
/// already end with their cause's text, which `{:#}` would repeat after them, and the store's
/// say their causes in their own words.
fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.ends_with(&text) {
            line = format!("{line}: {text}");
        }
        if cause.is::<StoreError>() {
            break;
        }
    }
    line
}

/// `run`: claims the database (one bot per database, or per shard of it), opens it, builds the
/// game service as the bot serves it, and hands it to the Discord front end. On PostgreSQL the
/// claim is a lease per shard in the database, renewed while the bot runs and given up when it
/// stops; losing it stops the bot.
async fn serve(config: BotConfig, refusals: GatewayRefusals) -> anyhow::Result<()> {
    let shards = config.shard_range()?;
    let _claim = InstanceLock::acquire_for(&config.db.database_url, shards)?;
    let store = Store::open(&config.db.database_url).await?;
    let lease_time = std::time::Duration::from_secs(config.shard_lease_secs);
    let lease = if breakthrough_bot::is_postgres(&config.db.database_url) {
        let holder = breakthrough_bot::holder_name();
        store.claim_shards(shards, &holder, lease_time).await?;
        Some(holder)
    } else {
        None
    };
    // The console's local server, should it share this database, is the console's to look after.
    let mut games = Services::new(store.clone(), Arc::new(SystemClock), config.limits())
        .all_servers_but(LOCAL_SERVER);
    if let Some(shards) = shards {
        games = games.on_shards(shards);
    }
    games.puzzles.load_puzzles().await?;
    let served = match &lease {
        None => breakthrough_bot::serve_discord(config, games, refusals).await,
        Some(holder) => tokio::select! {
            served = breakthrough_bot::serve_discord(config, games, refusals) => served,
            lost = store.keep_shards(shards, holder, lease_time) => Err(match lost {
                lost @ breakthrough_bot::StoreError::LeaseLost => lost.into(),
                failed => anyhow::Error::from(failed).context(
                    "could not renew this process's shard leases before they would run out; \
                     stopping, so that no two processes serve the same games",
                ),
            }),
        },
    };
    if let Some(holder) = &lease {
        if let Err(e) = store.release_shards(holder).await {
            tracing::warn!(error = %e, "could not give up this process's shard leases; they run out by themselves");
        }
    }
    store.close().await;
    served
}

async fn console(
    db: DatabaseConfig,
    plain: bool,
    lang: Lang,
    images: Option<PathBuf>,
) -> anyhow::Result<()> {
    let store = Store::open(&db.database_url).await?;
    let clock = Arc::new(ConsoleClock::default());
    let games = Services::new(store.clone(), clock.clone(), Limits::default());
    games.puzzles.load_puzzles().await?;
    let mut console = Console::new(games, clock, plain).speaking(lang);
    if let Some(dir) = images {
        console = console.with_images(dir);
    }
    console.run_stdin().await?;
    store.close().await;
    Ok(())
}

/// `moves`: everything goes to stdout at once at the end, so a refusal leaves stdout empty.
/// The position after `moves`, or the exit code after saying on stderr which move is wrong.
fn replayed(size: BoardSize, moves: &[String]) -> Result<rules::Position, ExitCode> {
    match rules::replay(size, moves.iter().map(String::as_str)) {
        Ok((position, _)) => Ok(position),
        Err((i, err)) => {
            eprintln!(
                "move {} ({}): {err}",
                i + 1,
                breakthrough_bot::rules::MoveText::quote(&moves[i])
            );
            Err(ExitCode::from(2))
        }
    }
}

fn moves_command(size: BoardSize, moves: &[String]) -> ExitCode {
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

fn bestmove_command(
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
const PROVE_PLIES: u32 = 9;

/// A proof as `prove` prints it: `win N MOVE`, `loss N` or `unknown`.
fn proof_line(proof: engine::Proof) -> String {
    match proof {
        engine::Proof::Win { plies, best } => format!("win {plies} {best}"),
        engine::Proof::Loss { plies } => format!("loss {plies}"),
        engine::Proof::Unknown => "unknown".to_string(),
    }
}

/// `prove`: a finished game is a loss in 0 for the side to move, as the prover counts it.
fn prove_command(size: BoardSize, plies: u32, moves: &[String]) -> ExitCode {
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

fn puzzles_command(
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
