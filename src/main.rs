//! The `breakthrough-bot` command line: parse arguments, call into the library, print.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use breakthrough_bot::rules::{self, BoardSize};

#[derive(Parser)]
#[command(
    name = "breakthrough-bot",
    version,
    about = "Breakthrough on Discord, and its tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft { size, depth } => {
            println!("{}", rules::Position::new(size).perft(depth));
            ExitCode::SUCCESS
        }
        Command::Moves { size, moves } => moves_command(size, &moves),
    }
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
