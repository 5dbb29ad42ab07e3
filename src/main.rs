//! The `breakthrough-bot` command line: parse arguments, call into the library, print.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use breakthrough_bot::engine::Level;
use breakthrough_bot::rules::{self, BoardSize};
use breakthrough_bot::tools::{self, PROVE_PLIES};
use breakthrough_bot::{run_async, BotConfig, DatabaseConfig, GatewayRefusals, Lang};

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
    /// Copy the SQLite database into FILE, a new file, while the bot runs: a consistent snapshot
    /// that opens as a database of its own.
    Backup {
        #[command(flatten)]
        db: DatabaseConfig,
        /// The copy to make; it must not exist.
        file: std::path::PathBuf,
    },
    /// Ask the running bot's health listener whether it is ready: exits 0 when it is, 1 with its
    /// reason when not (for a container's or systemd's check).
    Health {
        /// The bot's health listener.
        #[arg(long, env = "HEALTH_ADDR")]
        addr: Option<std::net::SocketAddr>,
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
        /// The AI's level in the games --analyze or --windows plays.
        #[arg(long, default_value_t = Level::DEFAULT)]
        level: Level,
        /// Record the bot's metrics while it plays, as a bot with HEALTH_ADDR does: run with and
        /// without to see what they cost.
        #[arg(long, conflicts_with = "analyze")]
        metrics: bool,
        /// Time closing the windows of this many vote games due at once instead, the AI at
        /// --level answering each: prints how long after the close each channel saw its move
        /// and the AI's answer.
        #[arg(long, value_name = "GAMES", conflicts_with_all = ["analyze", "metrics"])]
        windows: Option<usize>,
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
/// and the log filter and format.
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
    let mut names = vec![
        "DISCORD_TOKEN".to_string(),
        "RUST_LOG".to_string(),
        "LOG_FORMAT".to_string(),
    ];
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
            run_async(
                Some(&refusals),
                breakthrough_bot::serve(config, refusals.clone()),
            )
        }
        Command::Backup { db, file } => {
            run_async(
                None,
                async move { tools::backup(&db.database_url, &file).await },
            )
        }
        Command::Health { addr } => run_async(None, tools::health(addr)),
        Command::Perft { size, depth } => {
            println!("{}", rules::Position::new(size).perft(depth));
            ExitCode::SUCCESS
        }
        Command::Moves { size, moves } => tools::moves(size, &moves),
        Command::Console {
            db,
            plain,
            lang,
            images,
        } => run_async(
            None,
            breakthrough_bot::console(db, plain, lang.unwrap_or_else(Lang::from_env), images),
        ),
        Command::Bench {
            windows: Some(windows),
            level,
            ..
        } => run_async(None, async move {
            println!("{}", breakthrough_bot::bench_windows(windows, level).await?);
            Ok(())
        }),
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
            metrics,
            ..
        } => run_async(None, async move {
            let games = games.unwrap_or(400);
            let rows =
                breakthrough_bot::bench_compare(games, &concurrency, size, seed, &db, metrics)
                    .await?;
            print!("{}", breakthrough_bot::bench_table(&rows));
            Ok(())
        }),
        Command::Bestmove {
            size,
            level,
            seed,
            verbose,
            moves,
        } => tools::bestmove(size, level, seed, verbose, &moves),
        Command::Prove { size, plies, moves } => tools::prove(size, plies, &moves),
        Command::Puzzles {
            size,
            count,
            out,
            seed,
            threads,
        } => tools::puzzles(size, count, &out, seed, threads),
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
