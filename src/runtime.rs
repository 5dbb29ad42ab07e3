//! How the binary's jobs run: logs to standard error, as text or JSON lines (with the caps that
//! keep secrets out of them), the async runtime, and an error said on one line with the exit
//! code it gives.

use std::process::ExitCode;

use crate::discord::Refusals;
use crate::store::StoreError;

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
/// [`LOG_CAPS`] on top, as text or JSON lines (`LOG_FORMAT`); for the bot, `refusals` hears of
/// a gateway shard Discord refused.
fn init_logging(refusals: Option<&Refusals>) {
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
    let format = LogFormat::from_env();
    let log = match format {
        Ok(LogFormat::Json) => tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .with_writer(std::io::stderr)
            .with_filter(filter)
            .boxed(),
        Ok(LogFormat::Text) | Err(_) => tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal() && !no_color)
            .with_filter(filter)
            .boxed(),
    };
    let _ = tracing_subscriber::registry()
        .with(log)
        .with(refusals.map(Refusals::layer))
        .try_init();
    if let Err(given) = format {
        tracing::warn!(%given, "LOG_FORMAT is text or json; logging as text");
    }
}

/// How log lines are written: text for a terminal or journald, or one JSON object a line for a
/// log shipper (`LOG_FORMAT=json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    Text,
    Json,
}

impl LogFormat {
    /// `LOG_FORMAT`: `text` (also when unset or empty) or `json`; anything else, as given.
    fn from_env() -> Result<LogFormat, String> {
        let given = std::env::var("LOG_FORMAT").unwrap_or_default();
        match given.trim().to_ascii_lowercase().as_str() {
            "" | "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(given),
        }
    }
}

/// Runs `job` on a multi-threaded runtime, logging as [`init_logging`] says, and turns its
/// result into the process's exit code: an error is said on one line.
pub fn run_async(
    refusals: Option<&Refusals>,
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
