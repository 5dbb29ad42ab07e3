//! The terminal front end: the bot's commands typed as `@member /command options`, acting as the
//! named member in one local server, on the same database and `game` API as the Discord bot.
//!
//! ```text
//! @alice /challenge opponent:@bob size:7x7 time:1h
//! @bob /accept
//! @bob /move e7-e6
//! wait 2h
//! ```
//!
//! Works interactively and with a script on stdin. Before each line the clock is swept, so
//! expiries, time-outs and reminders are announced as the bot would post them in the channel.
//! `wait DURATION` moves the console's clock forward, to try the clocks without waiting.
//!
//! This file holds the [`Console`], its loop over lines and [`run`], the `console` subcommand; `commands` the commands, their
//! options and what each does; `parse` a typed line read as a command, in the console's
//! language; `render` the boards and announcements in the console's words; `images` the boards
//! and replays written as picture files, with `--images DIR`; `tournaments` the `/tournament`
//! subcommands; `puzzles` `/puzzle` and the moves that answer one.

mod commands;
mod images;
mod parse;
mod puzzles;
mod render;
mod tournaments;
mod values;

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::game::Timestamp;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::config::DatabaseConfig;
use crate::game::{
    ChannelId, Clock, GameId, Limits, Member, Place, Services, SystemClock, LOCAL_SERVER,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::store::Store;
use crate::text::{self, AnyError, Markup, Plain};

use images::Images;
use parse::words;
use values::is_word;
use values::member_name;

/// The one local server and channel the console plays in.
pub const CONSOLE_PLACE: Place = Place {
    guild: LOCAL_SERVER,
    channel: ChannelId::new(1),
};

/// The system clock plus however far `wait` has moved it.
#[derive(Debug, Default)]
pub struct ConsoleClock {
    /// In milliseconds.
    offset: AtomicU64,
}

impl Clock for ConsoleClock {
    fn now(&self) -> Timestamp {
        SystemClock.now() + Duration::from_millis(self.offset.load(Ordering::SeqCst))
    }
}

impl ConsoleClock {
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        let moved = |ms: u64| Some(ms.saturating_add(by));
        let _always = self
            .offset
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, moved);
    }
}

/// The name the built-in AI goes by in the console: `/challenge opponent:@bot level:2`.
pub const AI_NAME: &str = "bot";

fn is_ai(m: &Member) -> bool {
    m.name.as_str().eq_ignore_ascii_case(AI_NAME)
}

/// A text put after a marker such as `(to @alice only)`: on the same line when it is one line,
/// else from the next line on, so that a board keeps its rows in line.
fn own_lines(text: String) -> String {
    if text.contains('\n') {
        format!("\n{text}")
    } else {
        text
    }
}

/// A marker and its text as one printed line, or lines: no space is left at the end of the
/// marker's line when the text starts on the next (see [`own_lines`]).
fn marked(line: String) -> String {
    line.replacen(" \n", "\n", 1)
}

/// What the console prints for one line.
#[derive(Debug, Default, PartialEq)]
pub struct Reply {
    /// Seen by everyone in the channel.
    pub public: Vec<String>,
    /// Seen only by the member who typed the line.
    pub private: Vec<String>,
}

impl Reply {
    fn public(text: impl Into<String>) -> Reply {
        Reply {
            public: vec![text.into()],
            private: Vec::new(),
        }
    }

    fn private(text: impl Into<String>) -> Reply {
        Reply {
            public: Vec::new(),
            private: vec![text.into()],
        }
    }
}

/// The console's state: the service, its clock, and how boards are drawn.
pub struct Console {
    games: Services,
    clock: Arc<ConsoleClock>,
    plain: bool,
    /// The language of everything the game says.
    lang: Lang,
    /// Where boards and replays are written as pictures, if anywhere.
    images: Option<Images>,
}

/// The longest `wait`: far beyond any clock in the game, and far from overflowing one.
pub const MAX_WAIT: Duration = Duration::from_secs(365 * 86_400);

/// `90s`, `10m`, `2h`, `3d`. Only digits before the unit, so never negative.
pub fn parse_duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    let (n, unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit())?);
    let n: u64 = n.parse().ok()?;
    let unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    n.checked_mul(unit).map(Duration::from_secs)
}

/// Announcements read from the outbox at a time.
const OUTBOX_BATCH: i64 = 50;

impl Console {
    /// A console over `games`, looking after the clocks and AI replies of its own local server
    /// only, so that it can run on the bot's database without touching Discord's games.
    pub fn new(games: Services, clock: Arc<ConsoleClock>, plain: bool) -> Console {
        Console {
            games: games.only_server(CONSOLE_PLACE.guild),
            clock,
            plain,
            lang: Lang::En,
            images: None,
        }
    }

    /// The console writing each board it shows, and each replay, as a picture file in `dir`
    /// (made when missing), with the file's path under the board.
    pub fn with_images(mut self, dir: PathBuf) -> Console {
        self.images = Some(Images::new(dir));
        self
    }

    /// The console speaking `lang`.
    pub fn speaking(mut self, lang: Lang) -> Console {
        self.lang = lang;
        self
    }

    /// Everything the outbox holds for the local server, as the channel (or, for a turn
    /// notification, the member) sees it, oldest first; each is removed once shown.
    async fn announcements(&self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let owed = match self
                .games
                .outbox
                .due_announcements(Timestamp::MAX, OUTBOX_BATCH)
                .await
            {
                Ok(owed) => owed,
                Err(e) => {
                    out.push(self.apology(e));
                    return out;
                }
            };
            let full = owed.len() as i64 == OUTBOX_BATCH;
            for owed in owed {
                match self.games.outbox.to_say(&owed).await {
                    Ok(said) => out.extend(said.and_then(|what| self.announced(&what))),
                    Err(e) => {
                        out.push(self.apology(e));
                        return out;
                    }
                }
                if let Err(e) = self.games.outbox.announced(owed.id).await {
                    out.push(self.apology(e));
                    return out;
                }
            }
            if !full {
                return out;
            }
        }
    }

    /// Handles one line. `None` means the member asked to quit.
    pub async fn line(&self, line: &str) -> Option<Vec<String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Some(Vec::new());
        }
        // Games a previous run left waiting for the AI are answered first, so its clock never
        // runs out for a reply it could not make.
        let mut out: Vec<String> = self.answer_waiting_ai().await.into_iter().collect();
        if let Err(e) = self.games.play.sweep(self.games.now()).await {
            out.push(self.apology(e));
        }
        out.extend(self.announcements().await);
        let w = words(line);
        let first = w.first().map(String::as_str).unwrap_or("");
        let word = if is_word(first, |l| tr!(l, "console-word-quit")) || first == "exit" {
            "quit"
        } else if is_word(first, |l| tr!(l, "console-word-help")) {
            "help"
        } else if is_word(first, |l| tr!(l, "console-word-wait")) {
            "wait"
        } else {
            first
        };
        match word {
            "quit" => return None,
            "help" => {
                out.push(tr!(self.lang, "console-help"));
                out.push(text::help(self.lang, &Plain));
            }
            "wait" => match w.get(1).and_then(|d| parse_duration(d)) {
                Some(span) if span > MAX_WAIT => out.push(tr!(
                    self.lang,
                    "console-wait-too-long",
                    days = MAX_WAIT.as_secs() / 86_400
                )),
                Some(span) => {
                    self.clock.advance(span);
                    out.push(tr!(
                        self.lang,
                        "console-clock-moved",
                        duration = text::duration(self.lang, span)
                    ));
                    if let Err(e) = self.games.play.sweep(self.games.now()).await {
                        out.push(self.apology(e));
                    }
                    out.extend(self.announcements().await);
                }
                None => out.push(tr!(self.lang, "console-wait-how")),
            },
            name if name.starts_with('@') && name.len() > 1 => {
                let who = match member_name(first) {
                    Ok(who) => who,
                    Err(bad) => {
                        out.push(bad.localized(self.lang));
                        return Some(out);
                    }
                };
                let reply = match w.get(1).and_then(|c| c.strip_prefix('/')) {
                    Some(_) if is_ai(&who) => {
                        Reply::private(tr!(self.lang, "console-ai-plays-itself", ai = AI_NAME))
                    }
                    Some(command) => {
                        self.command(&who, &command.to_ascii_lowercase(), &w[2..])
                            .await
                    }
                    None => Reply::private(tr!(self.lang, "console-command-missing")),
                };
                out.extend(reply.public);
                out.extend(reply.private.into_iter().map(|p| {
                    marked(tr!(
                        self.lang,
                        "console-private",
                        name = Plain.name(&who.name),
                        text = own_lines(p)
                    ))
                }));
                // What the command told others: turn notifications, vacation notices.
                out.extend(self.announcements().await);
            }
            _ => out.push(tr!(self.lang, "console-line-how")),
        }
        Some(out)
    }

    /// The AI's replies to every game of the local server waiting for it, each queued in the
    /// outbox with its move.
    async fn answer_waiting_ai(&self) -> Option<String> {
        let ids = match self.games.play.ai_games_to_move(Duration::ZERO).await {
            Ok(ids) => ids,
            Err(e) => return Some(self.apology(e)),
        };
        for id in ids {
            if let Err(e) = self.games.play.ai_reply_announced(id).await {
                return Some(self.apology(e));
            }
        }
        None
    }

    /// The AI's reply in game `id`, if it is to move there, as a channel message.
    async fn ai_turn(&self, id: GameId) -> Option<String> {
        match self.games.play.ai_reply(id).await {
            Ok(Some(played)) => Some(self.ai_board(&played)),
            Ok(None) => None,
            Err(e) => Some(self.apology(e)),
        }
    }

    fn apology(&self, e: impl Into<AnyError>) -> String {
        let e = e.into();
        if e.is_internal() {
            tracing::error!(error = ?e, "console command failed");
        }
        e.localized(self.lang, &Plain)
    }

    /// Reads lines from stdin until it ends or `quit`, printing every answer.
    pub async fn run_stdin(&self) -> std::io::Result<()> {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        let mut stdout = std::io::stdout();
        writeln!(stdout, "{}", tr!(self.lang, "console-welcome"))?;
        stdout.flush()?;
        while let Some(line) = lines.next_line().await? {
            let Some(out) = self.line(&line).await else {
                break;
            };
            for block in out {
                writeln!(stdout, "{block}")?;
            }
            stdout.flush()?;
        }
        Ok(())
    }
}

/// `console`: the console on the database of `db`, speaking `lang`, with plain boards if
/// `plain`, and pictures written to `images` if given; reads stdin until it ends.
pub async fn run(
    db: DatabaseConfig,
    plain: bool,
    lang: Lang,
    images: Option<PathBuf>,
) -> anyhow::Result<()> {
    let store = Store::open(&db.database_url).await?;
    let clock = Arc::new(ConsoleClock::default());
    let games = Services::ready(store.clone(), clock.clone(), Limits::default()).await?;
    let mut console = Console::new(games, clock, plain).speaking(lang);
    if let Some(dir) = images {
        console = console.with_images(dir);
    }
    console.run_stdin().await?;
    store.close().await;
    Ok(())
}

#[cfg(test)]
mod same_commands;

#[cfg(test)]
mod tests {
    use super::values::member_id;
    use super::*;

    #[test]
    fn durations_and_ids() {
        assert_eq!(parse_duration("90s"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Some(Duration::from_secs(7_200)));
        assert_eq!(parse_duration("2x"), None);
        assert_eq!(parse_duration("h"), None);
        assert_eq!(parse_duration("99999999999999999999d"), None);
        assert_eq!(member_id("Alice"), member_id("alice"));
        assert_ne!(member_id("alice"), member_id("bob"));
    }
}
