//! The `breakthrough-bot` command line: parse arguments, call into the library, print.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use breakthrough_bot::config::{BotConfig, DatabaseConfig};
use breakthrough_bot::console::{Console, ConsoleClock};
use breakthrough_bot::game::{Games, Limits};
use breakthrough_bot::rules::{self, BoardSize};
use breakthrough_bot::store::Store;

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
    /// Run the Discord bot (the default).
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
    },
    /// Play many games at once through the game service on a fresh temporary database, and
    /// report moves per second and move latency.
    Bench {
        /// Games to play.
        #[arg(long, default_value_t = 400)]
        games: usize,
        /// Games in flight at once.
        #[arg(long, default_value_t = 32)]
        concurrency: usize,
        /// Board size, columns x rows.
        #[arg(long, default_value_t = BoardSize::DEFAULT, value_name = "COLSxROWS")]
        size: BoardSize,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    // A missing .env is fine: the environment and flags may say it all.
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Run { config: cli.bot });
    match command {
        Command::Run { config } => {
            if config.token.as_deref().is_none_or(|t| t.trim().is_empty()) {
                eprintln!("{}", breakthrough_bot::config::MISSING_TOKEN);
                return ExitCode::from(2);
            }
            run_async(breakthrough_bot::discord::run(config))
        }
        Command::Perft { size, depth } => {
            println!("{}", rules::Position::new(size).perft(depth));
            ExitCode::SUCCESS
        }
        Command::Moves { size, moves } => moves_command(size, &moves),
        Command::Console { db, plain } => run_async(console(db, plain)),
        Command::Bench {
            games,
            concurrency,
            size,
            seed,
        } => run_async(async move {
            let report = breakthrough_bot::bench::run(games, concurrency, size, seed).await?;
            println!("{report}");
            Ok(())
        }),
    }
}

/// Logs go to stderr, filtered by `RUST_LOG` (warnings and errors by default).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn run_async(job: impl std::future::Future<Output = anyhow::Result<()>>) -> ExitCode {
    init_logging();
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
    match runtime.block_on(job) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn console(db: DatabaseConfig, plain: bool) -> anyhow::Result<()> {
    let store = Store::open(&db.database_url).await?;
    let clock = Arc::new(ConsoleClock::default());
    let games = Games::new(store.clone(), clock.clone(), Limits::default());
    Console::new(games, clock, plain).run_stdin().await?;
    store.close().await;
    Ok(())
}

/// `moves`: everything goes to stdout at once at the end, so a refusal leaves stdout empty.
fn moves_command(size: BoardSize, moves: &[String]) -> ExitCode {
    let (position, _) = match rules::replay(size, moves.iter().map(String::as_str)) {
        Ok(done) => done,
        Err((i, err)) => {
            eprintln!(
                "move {} ({}): {err}",
                i + 1,
                breakthrough_bot::rules::MoveText::quote(&moves[i])
            );
            return ExitCode::from(2);
        }
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
