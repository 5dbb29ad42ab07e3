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

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, CommandFactory, Parser, Subcommand};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::engine::{Level, LevelError};
use crate::game::{
    self, text,
    text::{Markup, Plain},
    Announced, ChallengeAsk, ChallengeRef, ChannelId, Clock, Decision, GameError, GameId, GameRef,
    Games, Member, MemberId, Opponent, Place, Played, Rematch, SystemClock, TimeControl,
    TimeControlError, Timestamp, LOCAL_SERVER,
};
use crate::i18n::commands::{command_id, option_id, Part};
use crate::i18n::{self, Lang};
use crate::render;
use crate::rules::{BoardSize, Color, SizeError};
use crate::tr;

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

/// A stable id for a console member's name (FNV-1a of the lower-cased name, kept positive and
/// clear of small numbers).
pub fn member_id(name: &str) -> MemberId {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    MemberId::new((h >> 2) | (1 << 60))
}

fn member(name: &str) -> Member {
    let name = name.trim_start_matches('@');
    Member::new(member_id(name), name)
}

/// The name the built-in AI goes by in the console: `/challenge opponent:@bot level:2`.
pub const AI_NAME: &str = "bot";

fn is_ai(m: &Member) -> bool {
    m.name.as_str().eq_ignore_ascii_case(AI_NAME)
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
    games: Games,
    clock: Arc<ConsoleClock>,
    plain: bool,
    /// The language of everything the game says.
    lang: Lang,
}

/// The console's commands, typed after a member's name: `@alice /challenge opponent:@bob 7x7`.
///
/// Each field is an option, given by name (`size:7x7`) or as a bare value: bare values go to the
/// options not named, in the order they are declared here (see [`clap_words`]). Adding a command
/// is adding a variant, and its arm in [`Console::run`].
#[derive(Debug, PartialEq, Subcommand)]
enum Command {
    /// Challenge a member, anyone here (without opponent), or the AI (`opponent:@bot`).
    Challenge {
        #[arg(long)]
        opponent: Option<String>,
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long, value_parser = side)]
        color: Option<Side>,
        #[arg(long)]
        time: Option<TimeControl>,
        #[arg(long, value_parser = yes_or_no)]
        rated: Option<bool>,
        #[arg(long)]
        level: Option<Level>,
    },
    /// Accept a challenge: the one for you here, or the one from `challenger`.
    Accept {
        #[arg(long)]
        challenger: Option<String>,
    },
    /// Decline a challenge made to you.
    Decline {
        #[arg(long)]
        challenger: Option<String>,
    },
    /// Cancel your pending challenges here.
    Cancel,
    /// Play a move: `e7-e6`, or in two words, `e7 e6`.
    Move {
        #[arg(long = "move", value_name = "e7-e6", required = true)]
        words: Vec<String>,
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Show a board: to its players from their own side, privately.
    Board {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
        #[arg(long, value_parser = yes_or_no)]
        flip: Option<bool>,
    },
    /// Resign, once confirmed.
    Resign {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
        #[arg(long, value_parser = yes_or_no)]
        confirm: Option<bool>,
    },
    /// Play a finished game again, colours swapped (by default your game here that ended last).
    Rematch {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Abort a game before both sides have moved.
    Abort {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Games in progress, yours or `user`'s.
    Games {
        #[arg(long)]
        user: Option<String>,
    },
    /// The server's ratings on one board size.
    Leaderboard {
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long, value_parser = page_number)]
        page: Option<usize>,
    },
    /// A rating card, yours or `user`'s.
    Rating {
        #[arg(long)]
        user: Option<String>,
        #[arg(long)]
        size: Option<BoardSize>,
    },
    /// A game's move list.
    History {
        #[arg(long, value_parser = game_number, value_name = "12", required = true)]
        game: GameId,
    },
    /// Be told by direct message when it is your turn (`dm:yes`/`dm:no`; left out, the setting).
    Notify {
        #[arg(long, value_parser = yes_or_no)]
        dm: Option<bool>,
    },
    /// Pause your clocks in all your games for some days (0 ends your vacation).
    Vacation {
        #[arg(long, value_name = "3", required = true)]
        days: i64,
    },
    /// The engine's look back at a game: the summary, then every move's evaluation.
    Analyze {
        #[arg(long, value_parser = game_number, value_name = "12", required = true)]
        game: GameId,
    },
    /// Rules, notation and commands.
    Help,
}

/// A command and its options as clap reads them: see [`clap_words`].
#[derive(Debug, Parser)]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    color = clap::ColorChoice::Never
)]
struct CommandLine {
    #[command(subcommand)]
    command: Command,
}

/// The challenger's side as typed: `random` draws it, like leaving it out.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Side(Option<Color>);

fn side(v: &str) -> Result<Side, BadValue> {
    let v = v.trim();
    if is_word(v, |l| tr!(l, "console-value-random")) {
        Ok(Side(None))
    } else if is_word(v, |l| tr!(l, "console-value-black")) {
        Ok(Side(Some(Color::Black)))
    } else if is_word(v, |l| tr!(l, "console-value-white")) {
        Ok(Side(Some(Color::White)))
    } else {
        v.to_ascii_lowercase()
            .parse::<Color>()
            .map(|c| Side(Some(c)))
            .map_err(|_| BadValue::Side(v.to_string()))
    }
}

/// Whether `typed` is the console word `word` gives in some language (`negras`, `black`):
/// a member may use their own language's or English, with or without accents.
fn is_word(typed: &str, word: impl Fn(Lang) -> String) -> bool {
    let typed = fold(typed);
    Lang::all().any(|lang| fold(&word(lang)) == typed)
}

/// A word as compared: lower case, without the accents a keyboard may not have (`Sí` → `si`).
fn fold(word: &str) -> String {
    word.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' => 'a',
            'é' | 'è' => 'e',
            'í' | 'ì' => 'i',
            'ó' | 'ò' => 'o',
            'ú' | 'ù' | 'ü' => 'u',
            c => c,
        })
        .collect()
}

/// An option's value the console cannot read, as typed. Said in the console's language by
/// [`BadValue::localized`]; `Display` (what clap keeps) is English.
#[derive(Debug)]
enum BadValue {
    Side(String),
    GameNumber(String),
    Page(String),
    YesOrNo(String),
}

impl BadValue {
    fn localized(&self, lang: Lang) -> String {
        match self {
            BadValue::Side(v) => tr!(lang, "console-bad-side", value = v),
            BadValue::GameNumber(v) => tr!(lang, "console-bad-game-number", value = v),
            BadValue::Page(v) => tr!(lang, "console-bad-page", value = v),
            BadValue::YesOrNo(v) => tr!(lang, "console-bad-yes-or-no", value = v),
        }
    }
}

impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.localized(Lang::En))
    }
}

impl std::error::Error for BadValue {}

/// Why clap refused a value, in `lang`: the console's own refusals and the game's.
fn value_error(lang: Lang, why: &(dyn std::error::Error + 'static)) -> String {
    if let Some(e) = why.downcast_ref::<BadValue>() {
        e.localized(lang)
    } else if let Some(e) = why.downcast_ref::<SizeError>() {
        GameError::Size(e.clone()).localized(lang, &Plain)
    } else if let Some(e) = why.downcast_ref::<TimeControlError>() {
        GameError::Time(e.clone()).localized(lang, &Plain)
    } else if why.downcast_ref::<LevelError>().is_some() {
        GameError::Level(LevelError).localized(lang, &Plain)
    } else {
        why.to_string()
    }
}

/// Splits a line into words, keeping "quoted phrases" together.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// [`parse_command_in`] in English.
#[cfg(test)]
fn parse_command(command: &str, args: &[String]) -> Result<Command, String> {
    parse_command_in(Lang::En, command, args)
}

/// Reads `command` and its words (`name:value` options and bare values), or says what is wrong
/// with them in one line, in `lang`.
fn parse_command_in(lang: Lang, command: &str, args: &[String]) -> Result<Command, String> {
    let line = CommandLine::command();
    let command = english_command(&line, lang, command);
    let args: Vec<String> = match line.find_subcommand(&command) {
        Some(sub) => args
            .iter()
            .map(|word| english_option(sub, lang, word))
            .collect(),
        None => args.to_vec(),
    };
    CommandLine::try_parse_from(clap_words(&command, &args))
        .map(|line| line.command)
        .map_err(|e| usage_error(lang, &command, &e))
}

/// The console's own (English) name of a command typed in `lang`, as Discord shows it to a
/// member of that language (`desafiar` → `challenge`); any other word as it is. The English
/// names are understood whatever the language.
fn english_command(line: &clap::Command, lang: Lang, typed: &str) -> String {
    let typed_folded = fold(typed);
    line.get_subcommands()
        .map(|c| c.get_name().to_string())
        .find(|name| fold(&command_name(lang, name)) == typed_folded)
        .unwrap_or_else(|| typed.to_string())
}

/// A command's name in `lang`, as Discord shows it (`challenge` → `desafiar`).
fn command_name(lang: Lang, command: &str) -> String {
    i18n::lookup(lang, &command_id(command, Part::Name), &[])
        .unwrap_or_else(|_| command.to_string())
}

/// An option's name in `lang`, as Discord shows it (`size` → `tamaño`); the console's own
/// `confirm` has a name of its own.
fn option_name(lang: Lang, command: &str, option: &str) -> String {
    if option == "confirm" {
        return tr!(lang, "console-opt-confirm");
    }
    i18n::lookup(lang, &option_id(command, option, Part::Name), &[])
        .unwrap_or_else(|_| option.to_string())
}

/// A `name:value` word for the command `sub` with the option's name, typed in `lang`, made the
/// console's own (`tamaño:7x7` → `size:7x7`); any other word as it is.
fn english_option(sub: &clap::Command, lang: Lang, word: &str) -> String {
    let Some((name, value)) = word.split_once(':') else {
        return word.to_string();
    };
    let name_folded = fold(name);
    sub.get_arguments()
        .filter_map(clap::Arg::get_long)
        .find(|long| fold(&option_name(lang, sub.get_name(), long)) == name_folded)
        .map_or_else(|| word.to_string(), |long| format!("{long}:{value}"))
}

/// Whether a word is a `name:value` option (rather than a bare value with a colon in it): its
/// name is letters, one of the command's options or at least three letters long, so that an
/// unknown name is refused rather than taken as a value.
fn named<'w>(options: &[&clap::Arg], word: &'w str) -> Option<(String, &'w str)> {
    let (name, value) = word.split_once(':')?;
    let name = name.to_ascii_lowercase();
    let known = options.iter().any(|o| o.get_long() == Some(name.as_str()));
    let looks_like_one = name.len() > 2 && name.chars().all(|c| c.is_ascii_alphabetic());
    (known || looks_like_one).then_some((name, value))
}

/// The words clap parses for `command`: each `name:value` becomes `--name=value`, and each bare
/// value goes to the next option not named, in the order [`Command`] declares them, except that a
/// bare `#12` is the game. An option that takes several values (the move) takes every bare value
/// left. Bare values no option is left for go after `--`, for clap to refuse.
fn clap_words(command: &str, args: &[String]) -> Vec<String> {
    let mut out = vec![command.to_string()];
    let line = CommandLine::command();
    let Some(sub) = line.find_subcommand(command) else {
        return out;
    };
    let options: Vec<&clap::Arg> = sub
        .get_arguments()
        .filter(|a| a.get_long().is_some())
        .collect();
    let mut given = HashSet::new();
    let mut bare = Vec::new();
    for word in args {
        match named(&options, word) {
            Some((name, value)) => {
                out.push(format!("--{name}={value}"));
                given.insert(name);
            }
            None => bare.push(word.as_str()),
        }
    }
    let game_free = options.iter().any(|o| o.get_long() == Some("game")) && !given.contains("game");
    if game_free {
        if let Some(i) = bare.iter().position(|w| w.starts_with('#')) {
            out.push(format!("--game={}", bare.remove(i)));
            given.insert("game".to_string());
        }
    }
    let mut free = options
        .iter()
        .filter_map(|o| Some((o.get_long()?, o.get_action())))
        .filter(|(name, _)| !given.contains(*name));
    let mut bare = bare.into_iter().peekable();
    while bare.peek().is_some() {
        let Some((name, action)) = free.next() else {
            out.push("--".to_string());
            out.extend(bare.map(String::from));
            break;
        };
        if matches!(action, ArgAction::Append) {
            out.extend(bare.by_ref().map(|w| format!("--{name}={w}")));
        } else if let Some(w) = bare.next() {
            out.push(format!("--{name}={w}"));
        }
    }
    out
}

/// One short line for words clap would not take, in the console's terms (`size:7x7`, not
/// `--size`); never clap's help.
fn usage_error(lang: Lang, command: &str, e: &clap::Error) -> String {
    let line = CommandLine::command();
    let Some(sub) = line.find_subcommand(command) else {
        return tr!(lang, "console-unknown-command", command = command);
    };
    let options: Vec<&str> = sub
        .get_arguments()
        .filter_map(clap::Arg::get_long)
        .collect();
    let takes = if options.is_empty() {
        tr!(lang, "console-no-options")
    } else {
        let names: Vec<String> = options
            .iter()
            .map(|o| option_name(lang, command, o))
            .collect();
        names.join(", ")
    };
    // What the member reads names the command as they know it; `command` is the console's own.
    let shown = command_name(lang, command);
    let invalid = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        Some(ContextValue::Strings(v)) => v.first().map(String::as_str),
        _ => None,
    };
    // `--size=9x99` or `--game <12>` as clap writes it: `size`, `game`.
    let long_name = |arg: &str| -> Option<String> {
        let name = arg.strip_prefix("--")?;
        Some(name.split(['=', ' ']).next().unwrap_or(name).to_string())
    };
    match (e.kind(), invalid) {
        (ErrorKind::UnknownArgument, Some(arg)) => match long_name(arg) {
            Some(name) => tr!(
                lang,
                "console-unknown-option",
                name = name,
                command = &shown,
                takes = takes
            ),
            None => tr!(
                lang,
                "console-too-many-values",
                command = &shown,
                value = arg,
                takes = takes
            ),
        },
        (ErrorKind::MissingRequiredArgument, Some(arg)) => {
            let name = long_name(arg).unwrap_or_else(|| arg.to_string());
            let example = sub
                .get_arguments()
                .find(|a| a.get_long() == Some(name.as_str()))
                .and_then(|a| a.get_value_names()?.first().map(ToString::to_string))
                .unwrap_or_else(|| "…".to_string());
            let example = if options.first() == Some(&name.as_str()) {
                example
            } else {
                format!("{}:{example}", option_name(lang, command, &name))
            };
            tr!(
                lang,
                "console-needs-value",
                command = &shown,
                name = option_name(lang, command, &name),
                example = example
            )
        }
        (ErrorKind::ValueValidation, _) => match std::error::Error::source(e) {
            Some(why) => value_error(lang, why),
            None => tr!(lang, "console-unreadable", command = &shown, takes = takes),
        },
        _ => tr!(lang, "console-unreadable", command = &shown, takes = takes),
    }
}

fn game_number(v: &str) -> Result<GameId, BadValue> {
    v.trim()
        .trim_start_matches('#')
        .parse::<GameId>()
        .map_err(|_| BadValue::GameNumber(v.to_string()))
}

fn page_number(v: &str) -> Result<usize, BadValue> {
    v.trim()
        .parse::<usize>()
        .map_err(|_| BadValue::Page(v.to_string()))
}

fn yes_or_no(v: &str) -> Result<bool, BadValue> {
    if is_word(v, |l| tr!(l, "console-value-yes")) {
        return Ok(true);
    }
    if is_word(v, |l| tr!(l, "console-value-no")) {
        return Ok(false);
    }
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "y" | "1" | "on" => Ok(true),
        "false" | "n" | "0" | "off" => Ok(false),
        _ => Err(BadValue::YesOrNo(v.to_string())),
    }
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

/// The name `member` plays under in `game`.
fn name_in(game: &game::Game, member: MemberId) -> &str {
    game.color_of(member)
        .map_or("", |side| game.player(side).name.as_str())
}

impl Console {
    /// A console over `games`, looking after the clocks and AI replies of its own local server
    /// only, so that it can run on the bot's database without touching Discord's games.
    pub fn new(games: Games, clock: Arc<ConsoleClock>, plain: bool) -> Console {
        Console {
            games: games.only_server(CONSOLE_PLACE.guild),
            clock,
            plain,
            lang: Lang::En,
        }
    }

    /// The console speaking `lang`.
    pub fn speaking(mut self, lang: Lang) -> Console {
        self.lang = lang;
        self
    }

    fn board(&self, game: &game::Game) -> String {
        self.board_facing(game, Color::White)
    }

    /// A board with `bottom`'s pieces at the bottom, and what is said under it.
    fn board_facing(&self, game: &game::Game, bottom: Color) -> String {
        let mut out = if self.plain {
            render::text_board_facing(&game.position, game.last_move, bottom)
        } else {
            render::emoji_board_facing(&game.position, game.last_move, bottom)
        };
        let now = self.games.now();
        out.push('\n');
        out.push_str(&text::title(self.lang, game));
        out.push('\n');
        out.push_str(&tr!(
            self.lang,
            "console-players",
            black_piece = render::BLACK_PIECE,
            black = Plain.name(&game.black.name),
            white_piece = render::WHITE_PIECE,
            white = Plain.name(&game.white.name)
        ));
        if let Some(mv) = game.last_move {
            out.push('\n');
            out.push_str(&tr!(self.lang, "console-last-move", move = mv.to_string()));
        }
        out.push('\n');
        out.push_str(&text::status(self.lang, &Plain, game, now));
        if game.is_active() {
            out.push_str(&format!(" (@{})", Plain.name(&game.to_move().name)));
        }
        if let Some(change) = &game.status.rating_change() {
            for line in text::rating_lines(&Plain, game, change) {
                out.push('\n');
                out.push_str(&line);
            }
        }
        out
    }

    /// Everything the outbox holds for the local server, as the channel (or, for a turn
    /// notification, the member) sees it, oldest first; each is removed once shown.
    async fn announcements(&self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let owed = match self
                .games
                .due_announcements(Timestamp::MAX, OUTBOX_BATCH)
                .await
            {
                Ok(owed) => owed,
                Err(e) => {
                    out.push(self.apology(&e));
                    return out;
                }
            };
            let full = owed.len() as i64 == OUTBOX_BATCH;
            for owed in owed {
                let said = match &owed.announcement {
                    Ok(a) => match self.games.announcement(a).await {
                        Ok(what) => what.map(|what| self.announced(&what)),
                        Err(e) if e.is_internal() => {
                            out.push(self.apology(&e));
                            return out;
                        }
                        // About something gone: nothing to say.
                        Err(_) => None,
                    },
                    Err(_) => None,
                };
                out.extend(said);
                if let Err(e) = self.games.announced(owed.id).await {
                    out.push(self.apology(&e));
                    return out;
                }
            }
            if !full {
                return out;
            }
        }
    }

    /// An announcement in the console's words.
    fn announced(&self, what: &Announced) -> String {
        let now = self.games.now();
        match what {
            Announced::ChallengeExpired(c) => text::challenge_expired(self.lang, &Plain, c),
            Announced::TimedOut(g) | Announced::Board(g) => self.board(g),
            Announced::Reminder { game, member } => format!(
                "@{}: {}",
                name_in(game, *member),
                text::reminder(self.lang, game, now)
            ),
            Announced::AiMoved(played) => self.ai_board(played),
            Announced::YourTurn {
                game,
                member,
                reminder,
                ..
            } => tr!(
                self.lang,
                "console-dm",
                name = name_in(game, *member),
                text = text::your_turn(self.lang, &Plain, game, *member, *reminder, now)
            ),
            Announced::Vacation {
                game,
                member,
                until,
            } => {
                let said = text::vacation_told(self.lang, &Plain, game, *member, *until);
                match game.color_of(*member) {
                    Some(side) => format!(
                        "@{}: {said}",
                        Plain.name(&game.player(side.opposite()).name)
                    ),
                    None => said,
                }
            }
        }
    }

    /// A game against the AI just started by `who`: its board, and the AI's first move when it
    /// opens.
    async fn ai_game_started(&self, who: &Member, game: &game::Game) -> Reply {
        let level = game.ai.map_or_else(String::new, |ai| ai.level.to_string());
        let mut reply = Reply::public(format!(
            "{}\n{}",
            tr!(
                self.lang,
                "console-ai-game",
                name = Plain.name(&who.name),
                level = level
            ),
            self.board(game)
        ));
        if game.ai_to_move() {
            reply.public.extend(self.ai_turn(game.id).await);
        }
        reply
    }

    /// A challenge just made, and who may answer it.
    fn challenge_made(&self, c: &game::Challenge, now: Timestamp) -> Reply {
        let answer = match &c.opponent {
            Some(op) => tr!(self.lang, "console-answer", name = Plain.name(&op.name)),
            None => tr!(self.lang, "console-answer-open"),
        };
        Reply::public(format!(
            "{}\n{answer}",
            text::challenge(self.lang, &Plain, c, now)
        ))
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
        if let Err(e) = self.games.sweep(self.games.now()).await {
            out.push(self.apology(&e));
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
                out.push(text::help(self.lang));
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
                    if let Err(e) = self.games.sweep(self.games.now()).await {
                        out.push(self.apology(&e));
                    }
                    out.extend(self.announcements().await);
                }
                None => out.push(tr!(self.lang, "console-wait-how")),
            },
            name if name.starts_with('@') && name.len() > 1 => {
                let who = member(first);
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
                    tr!(
                        self.lang,
                        "console-private",
                        name = Plain.name(&who.name),
                        text = p
                    )
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
        let ids = match self.games.ai_games_to_move(Duration::ZERO).await {
            Ok(ids) => ids,
            Err(e) => return Some(self.apology(&e)),
        };
        for id in ids {
            if let Err(e) = self.games.ai_reply_announced(id).await {
                return Some(self.apology(&e));
            }
        }
        None
    }

    /// The AI's reply in game `id`, if it is to move there, as a channel message.
    async fn ai_turn(&self, id: GameId) -> Option<String> {
        match self.games.ai_reply(id).await {
            Ok(Some(played)) => Some(self.ai_board(&played)),
            Ok(None) => None,
            Err(e) => Some(self.apology(&e)),
        }
    }

    fn ai_board(&self, played: &Played) -> String {
        format!(
            "{}\n{}",
            text::ai_played(self.lang, played),
            self.board(&played.game)
        )
    }

    fn apology(&self, e: &GameError) -> String {
        if e.is_internal() {
            tracing::error!(error = ?e, "console command failed");
        }
        e.localized(self.lang, &Plain)
    }

    async fn command(&self, who: &Member, command: &str, args: &[String]) -> Reply {
        let command = match parse_command_in(self.lang, command, args) {
            Ok(command) => command,
            Err(msg) => return Reply::private(msg),
        };
        match self.run(who, command).await {
            Ok(reply) => reply,
            Err(e) => Reply::private(self.apology(&e)),
        }
    }

    async fn run(&self, who: &Member, command: Command) -> Result<Reply, GameError> {
        let g = &self.games;
        let game_ref = |game: Option<GameId>| game.map_or(GameRef::Only, GameRef::Id);
        let whom = |user: Option<String>| user.map_or_else(|| who.clone(), |n| member(&n));
        let now = g.now();
        Ok(match command {
            Command::Help => Reply::private(text::help(self.lang)),
            Command::Challenge {
                opponent,
                size,
                color,
                time,
                rated,
                level,
            } => {
                let opponent = match opponent.map(|n| member(&n)) {
                    Some(m) if is_ai(&m) => Opponent::Ai(member(AI_NAME)),
                    Some(m) => Opponent::Member(m),
                    None => Opponent::Open,
                };
                let ask = ChallengeAsk {
                    place: CONSOLE_PLACE,
                    challenger: who.clone(),
                    opponent,
                    size: size.unwrap_or(BoardSize::DEFAULT),
                    color: color.and_then(|Side(c)| c),
                    time: time.unwrap_or_default(),
                    rated,
                    level,
                };
                match ask.decide()? {
                    Decision::PlayAi(request) => {
                        let game = g.challenge_ai(request).await?;
                        self.ai_game_started(who, &game).await
                    }
                    Decision::Challenge(request) => {
                        self.challenge_made(&g.challenge(request).await?, now)
                    }
                }
            }
            Command::Vacation { days } => {
                let change = g.vacation(who, days).await?;
                let reply = Reply::private(if change.started {
                    tr!(
                        self.lang,
                        "vacation-started",
                        until = text::utc_time(change.until),
                        games = change.games.len(),
                        left = change.days_left
                    )
                } else {
                    tr!(self.lang, "vacation-ended", left = change.days_left)
                });
                // Each opponent is told through the outbox.
                reply
            }
            Command::Rematch { game } => match g.rematch(who, CONSOLE_PLACE, game_ref(game)).await?
            {
                Rematch::Challenge(c) => self.challenge_made(&c, now),
                Rematch::AiGame(game, slot) => {
                    // The console's AI answers in a turn of its own, which takes the place.
                    drop(slot);
                    self.ai_game_started(who, &game).await
                }
            },
            Command::Accept { challenger } => {
                let from = challenger.map(|n| member(&n).id);
                let started = g
                    .accept(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(format!(
                    "{}\n{}",
                    tr!(self.lang, "console-accepted", name = Plain.name(&who.name)),
                    self.board(&started.game)
                ))
            }
            Command::Decline { challenger } => {
                let from = challenger.map(|n| member(&n).id);
                let c = g
                    .decline(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(tr!(
                    self.lang,
                    "console-declined",
                    name = Plain.name(&who.name),
                    id = c.id.to_string(),
                    challenger = Plain.name(&c.challenger.name)
                ))
            }
            Command::Cancel => {
                let cancelled = g
                    .cancel(who, ChallengeRef::Find(CONSOLE_PLACE, None))
                    .await?;
                let ids: Vec<String> = cancelled.iter().map(|c| format!("#{}", c.id)).collect();
                Reply::public(tr!(
                    self.lang,
                    "console-cancelled",
                    name = Plain.name(&who.name),
                    count = ids.len(),
                    ids = ids.join(", ")
                ))
            }
            Command::Move { words, game } => {
                let played = g
                    .play(who, CONSOLE_PLACE, game_ref(game), &words.join(" "))
                    .await?;
                let mut reply = Reply::public(self.board(&played.game));
                if played.game.ai_to_move() {
                    reply.public.extend(self.ai_turn(played.game.id).await);
                }
                reply
            }
            Command::Notify { dm } => {
                let on = match dm {
                    Some(on) => {
                        g.set_turn_dms(who.id, on, self.lang).await?;
                        on
                    }
                    None => g.turn_dms(who.id).await?,
                };
                Reply::private(if on {
                    tr!(self.lang, "notify-on")
                } else {
                    tr!(self.lang, "notify-off")
                })
            }
            Command::Board { game, flip } => {
                let game = g.find_game(who.id, CONSOLE_PLACE, game_ref(game)).await?;
                let seen = game.sight(who.id, flip.unwrap_or(false));
                let board = self.board_facing(&game, seen.bottom);
                if seen.private {
                    Reply::private(board)
                } else {
                    Reply::public(board)
                }
            }
            Command::Resign { game, confirm } => {
                let which = game_ref(game);
                if confirm != Some(true) {
                    let game = g.resignable(who.id, CONSOLE_PLACE, which).await?;
                    return Ok(Reply::private(tr!(
                        self.lang,
                        "console-confirm-resign",
                        id = game.id.to_string()
                    )));
                }
                let game = g.resign(who, CONSOLE_PLACE, which).await?;
                Reply::public(self.board(&game))
            }
            Command::Abort { game } => {
                let game = g.abort(who, CONSOLE_PLACE, game_ref(game)).await?;
                Reply::public(tr!(
                    self.lang,
                    "console-aborted",
                    id = game.id.to_string(),
                    name = Plain.name(&who.name)
                ))
            }
            Command::Games { user } => {
                let whom = whom(user);
                let games = g.games_of(whom.id, Some(CONSOLE_PLACE.guild)).await?;
                let list = text::games_list(self.lang, &Plain, &whom, &games, now);
                if games.is_empty() {
                    Reply::public(list)
                } else {
                    Reply::public(format!(
                        "{}\n{list}",
                        tr!(self.lang, "console-games-of", name = Plain.name(&whom.name))
                    ))
                }
            }
            Command::Leaderboard { size, page } => {
                let size = size.unwrap_or(BoardSize::DEFAULT);
                let board = g
                    .leaderboard(CONSOLE_PLACE.guild, size, page.unwrap_or(1))
                    .await?;
                Reply::public(text::leaderboard(self.lang, &Plain, &board))
            }
            Command::Rating { user, size } => {
                let size = size.unwrap_or(BoardSize::DEFAULT);
                let card = g.rating(CONSOLE_PLACE.guild, &whom(user), size).await?;
                Reply::public(text::rating_card(self.lang, &Plain, &card))
            }
            Command::History { game } => {
                let h = g.history(CONSOLE_PLACE, game).await?;
                Reply::public(text::export(self.lang, &h))
            }
            Command::Analyze { game } => {
                let done = g.analyze(who.id, CONSOLE_PLACE, game).await?;
                Reply::public(game::analysis::export(self.lang, &done))
            }
        })
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

#[cfg(test)]
mod same_commands;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_by_name_and_in_order() {
        let w = words("opponent:@bob 7x7 time:1h");
        let Ok(Command::Challenge {
            opponent,
            size,
            time,
            ..
        }) = parse_command("challenge", &w)
        else {
            panic!("{:?}", parse_command("challenge", &w));
        };
        assert_eq!(opponent.as_deref(), Some("@bob"));
        assert_eq!(size, Some(BoardSize::new(7, 7).unwrap()));
        assert_eq!(time, Some(TimeControl::OneHour));
        assert_eq!(
            parse_command("move", &words("e7 e6 #3")),
            Ok(Command::Move {
                words: vec!["e7".into(), "e6".into()],
                game: Some(GameId::new(3))
            })
        );
        assert!(parse_command("move", &words("colour:black")).is_err());
        assert!(parse_command("frobnicate", &[]).is_err());
        assert!(parse_command("accept", &words("@a @b")).is_err());
    }

    #[test]
    fn the_commands_are_a_valid_clap_definition() {
        CommandLine::command().debug_assert();
    }

    #[test]
    fn named_options_become_flags_and_bare_values_fill_the_rest_in_order() {
        let clap = |command: &str, line: &str| clap_words(command, &words(line)).join(" ");
        assert_eq!(
            clap("challenge", "@bob time:1h 7x7 black"),
            "challenge --time=1h --opponent=@bob --size=7x7 --color=black"
        );
        assert_eq!(
            clap("challenge", "Size:5x5 level:2"),
            "challenge --size=5x5 --level=2"
        );
        // The move takes every bare value; `#3` is the game wherever it stands.
        assert_eq!(
            clap("move", "e7 e6 #3"),
            "move --game=#3 --move=e7 --move=e6"
        );
        assert_eq!(clap("move", "#3 e7-e6"), "move --game=#3 --move=e7-e6");
        // A colon in a value is not an option; a word like one is, to be refused.
        assert_eq!(clap("move", "e7:e6"), "move --move=e7:e6");
        assert_eq!(clap("move", "colour:black"), "move --colour=black");
        // What no option is left for is handed on as is, and refused.
        assert_eq!(clap("accept", "@a @b"), "accept --challenger=@a -- @b");
        assert_eq!(clap("frobnicate", "x:y z"), "frobnicate");
    }

    #[test]
    fn values_are_read_with_the_words_members_see_today() {
        let refusal = |command: &str, line: &str| parse_command(command, &words(line)).unwrap_err();
        assert_eq!(
            refusal("challenge", "@bob 7x7 purple"),
            "`purple` is not a side: choose black, white or random"
        );
        assert_eq!(
            refusal("challenge", "@bob time:2h"),
            "`2h` is not a time control: choose 10m, 1h, 1d, 3d or 7d"
        );
        assert_eq!(
            refusal("challenge", "@bob level:9"),
            "the level must be a number from 1 to 5"
        );
        assert_eq!(refusal("resign", "#2 maybe"), "`maybe`: say yes or no");
        assert_eq!(refusal("leaderboard", "8x8 x"), "`x` is not a page number");
        assert_eq!(
            refusal("board", "x"),
            "`x` is not a game number: write it like 12 or #12"
        );
        assert_eq!(
            refusal("cancel", "@a"),
            "too many values for /cancel: `@a` (it takes no options)"
        );
        assert_eq!(
            parse_command("challenge", &words("@bot 6x6 random 1h no")),
            Ok(Command::Challenge {
                opponent: Some("@bot".into()),
                size: Some(BoardSize::new(6, 6).unwrap()),
                color: Some(Side(None)),
                time: Some(TimeControl::OneHour),
                rated: Some(false),
                level: None,
            })
        );
        // Given twice, the last one counts.
        assert_eq!(
            parse_command("board", &words("game:1 game:2")),
            Ok(Command::Board {
                game: Some(GameId::new(2)),
                flip: None
            })
        );
        assert_eq!(parse_command("help", &[]), Ok(Command::Help));
    }

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
