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

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::engine::Level;
use crate::game::{
    self, text, AiRequest, ChallengeRef, ChallengeRequest, Clock, GameError, GameId, GameRef,
    Games, Member, Place, Played, SweepReport, SystemClock, TimeControl, LOCAL_SERVER,
};
use crate::render;
use crate::rules::{BoardSize, Color};

/// The one local server and channel the console plays in.
pub const CONSOLE_PLACE: Place = Place {
    guild: LOCAL_SERVER,
    channel: 1,
};

/// The system clock plus however far `wait` has moved it.
#[derive(Debug, Default)]
pub struct ConsoleClock {
    offset: AtomicI64,
}

impl Clock for ConsoleClock {
    fn now(&self) -> i64 {
        SystemClock.now() + self.offset.load(Ordering::SeqCst)
    }
}

impl ConsoleClock {
    pub fn advance(&self, seconds: i64) {
        self.offset.fetch_add(seconds, Ordering::SeqCst);
    }
}

/// A stable id for a console member's name (FNV-1a of the lower-cased name, kept positive and
/// clear of small numbers).
pub fn member_id(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h >> 2) | (1 << 60)
}

fn member(name: &str) -> Member {
    let name = name.trim_start_matches('@');
    Member::new(member_id(name), name)
}

/// The name the built-in AI goes by in the console: `/challenge opponent:@bot level:2`.
pub const AI_NAME: &str = "bot";

fn is_ai(m: &Member) -> bool {
    m.name.eq_ignore_ascii_case(AI_NAME)
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
}

/// The options of a command in the order they may be given without a name.
fn option_names(command: &str) -> Option<&'static [&'static str]> {
    Some(match command {
        "challenge" => &["opponent", "size", "color", "time", "rated", "level"],
        "accept" | "decline" => &["challenger"],
        "cancel" => &[],
        "move" => &["move", "game"],
        "board" | "abort" => &["game"],
        "resign" => &["game", "confirm"],
        "games" => &["user"],
        "leaderboard" => &["size", "page"],
        "rating" => &["user", "size"],
        "history" => &["game"],
        "help" => &[],
        _ => return None,
    })
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

/// Reads `key:value` options and bare words (given to the options in order).
fn parse_options(command: &str, args: &[String]) -> Result<HashMap<&'static str, String>, String> {
    let names =
        option_names(command).ok_or_else(|| format!("unknown command /{command}: type help"))?;
    let mut opts = HashMap::new();
    let mut bare = Vec::new();
    for a in args {
        match a.split_once(':') {
            Some((k, v)) if names.iter().any(|n| n.eq_ignore_ascii_case(k)) => {
                let key = names
                    .iter()
                    .find(|n| n.eq_ignore_ascii_case(k))
                    .copied()
                    .unwrap_or("");
                opts.insert(key, v.to_string());
            }
            Some((k, _)) if k.chars().all(|c| c.is_ascii_alphabetic()) && k.len() > 2 => {
                return Err(format!(
                    "unknown option `{k}` for /{command}: it takes {}",
                    if names.is_empty() {
                        "no options".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            }
            _ => bare.push(a.clone()),
        }
    }
    if command == "move" && !opts.contains_key("move") && !bare.is_empty() {
        // `/move e7 e6` and `/move e7-e6 #3`: the move may be two words; a last `#N` is the game.
        if bare.len() > 1 && bare.last().is_some_and(|w| w.starts_with('#')) {
            let game = bare.pop().unwrap_or_default();
            opts.entry("game").or_insert(game);
        }
        opts.insert("move", bare.join(" "));
        return Ok(opts);
    }
    let free: Vec<&&str> = names.iter().filter(|n| !opts.contains_key(**n)).collect();
    if bare.len() > free.len() {
        return Err(format!(
            "too many values for /{command}: {}",
            bare.join(" ")
        ));
    }
    for (name, value) in free.into_iter().zip(bare) {
        opts.insert(name, value);
    }
    Ok(opts)
}

fn parse_game(v: &str) -> Result<i64, String> {
    v.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .map_err(|_| format!("`{v}` is not a game number: write it like 12 or #12"))
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "y" | "1" | "on" => Ok(true),
        "no" | "false" | "n" | "0" | "off" => Ok(false),
        _ => Err(format!("`{v}`: say yes or no")),
    }
}

/// The longest `wait`: far beyond any clock in the game, and far from overflowing one.
pub const MAX_WAIT: i64 = 365 * 86_400;

/// `90s`, `10m`, `2h`, `3d`: seconds. Only digits before the unit, so never negative.
pub fn parse_duration(v: &str) -> Option<i64> {
    let v = v.trim();
    let (n, unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit())?);
    let n: i64 = n.parse().ok()?;
    let unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    n.checked_mul(unit)
}

impl Console {
    /// A console over `games`, looking after the clocks and AI replies of its own local server
    /// only, so that it can run on the bot's database without touching Discord's games.
    pub fn new(games: Games, clock: Arc<ConsoleClock>, plain: bool) -> Console {
        Console {
            games: games.only_server(CONSOLE_PLACE.guild),
            clock,
            plain,
        }
    }

    fn board(&self, game: &game::Game) -> String {
        let mut out = if self.plain {
            render::text_board(&game.position, game.last_move)
        } else {
            render::emoji_board(&game.position, game.last_move)
        };
        let now = self.games.now();
        out.push('\n');
        out.push_str(&text::title(game));
        out.push_str(&format!(
            "\n{} Black: {} · {} White: {}",
            render::BLACK_PIECE,
            game.black.name,
            render::WHITE_PIECE,
            game.white.name
        ));
        if let Some(mv) = game.last_move {
            out.push_str(&format!("\nLast move: {mv}"));
        }
        out.push('\n');
        out.push_str(&text::status(game, now));
        if game.is_active() {
            out.push_str(&format!(" (@{})", game.to_move().name));
        }
        if let Some(change) = &game.rating_change {
            for line in text::rating_lines(game, change) {
                out.push('\n');
                out.push_str(&line);
            }
        }
        out
    }

    /// What the clock did, as channel messages.
    pub fn announce(&self, report: &SweepReport) -> Vec<String> {
        let mut out = Vec::new();
        for c in &report.expired {
            out.push(format!(
                "Challenge #{} from {} expired.",
                c.id, c.challenger.name
            ));
        }
        for g in report.timed_out.iter().chain(&report.aborted) {
            out.push(self.board(g));
        }
        for g in &report.reminders {
            out.push(format!(
                "@{}: your move in game #{}, {} left.",
                g.to_move().name,
                g.id,
                text::duration(g.deadline - self.games.now())
            ));
        }
        out
    }

    /// Handles one line. `None` means the member asked to quit.
    pub async fn line(&self, line: &str) -> Option<Vec<String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Some(Vec::new());
        }
        // Games a previous run left waiting for the AI are answered first, so its clock never
        // runs out for a reply it could not make.
        let mut out = self.answer_waiting_ai().await;
        match self.games.sweep(self.games.now()).await {
            Ok(report) => out.extend(self.announce(&report)),
            Err(e) => out.push(self.apology(&e)),
        }
        let w = words(line);
        let first = w.first().map(String::as_str).unwrap_or("");
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return None,
            "help" => {
                out.push(CONSOLE_HELP.to_string());
                out.push(text::HELP.to_string());
            }
            "wait" => match w.get(1).and_then(|d| parse_duration(d)) {
                Some(seconds) if seconds > MAX_WAIT => out.push(format!(
                    "wait moves the clock at most a year ({}d) at a time",
                    MAX_WAIT / 86_400
                )),
                Some(seconds) => {
                    self.clock.advance(seconds);
                    out.push(format!("(the clock moves on {})", text::duration(seconds)));
                    if let Ok(report) = self.games.sweep(self.games.now()).await {
                        out.extend(self.announce(&report));
                    }
                }
                None => out.push("wait takes a duration such as 30m, 2h or 1d".to_string()),
            },
            name if name.starts_with('@') && name.len() > 1 => {
                let who = member(first);
                let reply = match w.get(1).and_then(|c| c.strip_prefix('/')) {
                    Some(_) if is_ai(&who) => Reply::private(format!(
                        "@{AI_NAME} is the built-in AI: it plays by itself; challenge it with \
                         /challenge opponent:@{AI_NAME}"
                    )),
                    Some(command) => {
                        self.command(&who, &command.to_ascii_lowercase(), &w[2..])
                            .await
                    }
                    None => Reply::private("write a command after the name, like @alice /help"),
                };
                out.extend(reply.public);
                out.extend(
                    reply
                        .private
                        .into_iter()
                        .map(|p| format!("(to @{} only) {p}", who.name)),
                );
            }
            _ => {
                out.push("lines look like `@alice /challenge opponent:@bob`; type help".to_string())
            }
        }
        Some(out)
    }

    /// The AI's replies to every game of the local server waiting for it.
    async fn answer_waiting_ai(&self) -> Vec<String> {
        let ids = match self.games.ai_games_to_move(0).await {
            Ok(ids) => ids,
            Err(e) => return vec![self.apology(&e)],
        };
        let mut out = Vec::new();
        for id in ids {
            out.extend(self.ai_turn(id).await);
        }
        out
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
        format!("{}\n{}", text::ai_played(played), self.board(&played.game))
    }

    fn apology(&self, e: &GameError) -> String {
        if e.is_internal() {
            tracing::error!(error = ?e, "console command failed");
        }
        e.to_string()
    }

    async fn command(&self, who: &Member, command: &str, args: &[String]) -> Reply {
        let opts = match parse_options(command, args) {
            Ok(o) => o,
            Err(msg) => return Reply::private(msg),
        };
        match self.run(who, command, &opts).await {
            Ok(reply) => reply,
            Err(Refusal::Input(msg)) => Reply::private(msg),
            Err(Refusal::Game(e)) => Reply::private(self.apology(&e)),
        }
    }

    async fn run(
        &self,
        who: &Member,
        command: &str,
        o: &HashMap<&str, String>,
    ) -> Result<Reply, Refusal> {
        let g = &self.games;
        let game_ref = |o: &HashMap<&str, String>| -> Result<GameRef, Refusal> {
            Ok(match o.get("game") {
                Some(v) => GameRef::Id(parse_game(v)?),
                None => GameRef::Only,
            })
        };
        let size = |o: &HashMap<&str, String>| -> Result<BoardSize, Refusal> {
            Ok(match o.get("size") {
                Some(v) => v.parse::<BoardSize>().map_err(GameError::from)?,
                None => BoardSize::DEFAULT,
            })
        };
        let now = g.now();
        Ok(match command {
            "help" => Reply::private(text::HELP),
            "challenge" => {
                let color = match o.get("color").map(|c| c.to_ascii_lowercase()) {
                    None => None,
                    Some(c) if c == "random" => None,
                    Some(c) => Some(c.parse::<Color>().map_err(|_| {
                        Refusal::Input(format!(
                            "`{c}` is not a side: choose black, white or random"
                        ))
                    })?),
                };
                let time = match o.get("time") {
                    Some(t) => t.parse::<TimeControl>().map_err(GameError::from)?,
                    None => TimeControl::default(),
                };
                let rated = match o.get("rated") {
                    Some(r) => Some(parse_bool(r)?),
                    None => None,
                };
                let level = match o.get("level") {
                    Some(l) => Some(l.parse::<Level>().map_err(GameError::from)?),
                    None => None,
                };
                let opponent = o.get("opponent").map(|n| member(n));
                if opponent.as_ref().is_some_and(is_ai) {
                    let ai = member(AI_NAME);
                    if rated == Some(true) {
                        return Err(GameError::RatedAi.into());
                    }
                    let level = level.unwrap_or_default();
                    let game = g
                        .challenge_ai(AiRequest {
                            place: CONSOLE_PLACE,
                            challenger: who.clone(),
                            ai,
                            level,
                            size: size(o)?,
                            color,
                            time,
                        })
                        .await?;
                    let mut reply = Reply::public(format!(
                        "{} starts a game against the AI (level {level}).\n{}",
                        who.name,
                        self.board(&game)
                    ));
                    if game.ai_to_move() {
                        reply.public.extend(self.ai_turn(game.id).await);
                    }
                    return Ok(reply);
                }
                if level.is_some() {
                    return Err(GameError::LevelWithoutAi.into());
                }
                let rated = rated.unwrap_or(true);
                let c = g
                    .challenge(ChallengeRequest {
                        place: CONSOLE_PLACE,
                        challenger: who.clone(),
                        opponent,
                        size: size(o)?,
                        color,
                        time,
                        rated,
                    })
                    .await?;
                let answer = match &c.opponent {
                    Some(op) => format!("@{}: answer with /accept or /decline", op.name),
                    None => "anyone here may answer with /accept".to_string(),
                };
                Reply::public(format!("{}\n{answer}", text::challenge(&c, now)))
            }
            "accept" => {
                let from = o.get("challenger").map(|n| member(n).id);
                let game = g
                    .accept(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(format!(
                    "{} accepted: the game begins.\n{}",
                    who.name,
                    self.board(&game)
                ))
            }
            "decline" => {
                let from = o.get("challenger").map(|n| member(n).id);
                let c = g
                    .decline(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(format!(
                    "{} declined challenge #{} from {}.",
                    who.name, c.id, c.challenger.name
                ))
            }
            "cancel" => {
                let cancelled = g
                    .cancel(who, ChallengeRef::Find(CONSOLE_PLACE, None))
                    .await?;
                let ids: Vec<String> = cancelled.iter().map(|c| format!("#{}", c.id)).collect();
                Reply::public(format!(
                    "{} cancelled challenge {}.",
                    who.name,
                    ids.join(", ")
                ))
            }
            "move" => {
                let text = o.get("move").ok_or_else(|| {
                    Refusal::Input("which move? write it like /move e7-e6".into())
                })?;
                let played = g.play(who, CONSOLE_PLACE, game_ref(o)?, text).await?;
                let mut reply = Reply::public(self.board(&played.game));
                if played.game.ai_to_move() {
                    reply.public.extend(self.ai_turn(played.game.id).await);
                }
                reply
            }
            "board" => {
                let game = g.find_game(who.id, CONSOLE_PLACE, game_ref(o)?).await?;
                Reply::public(self.board(&game))
            }
            "resign" => {
                let confirmed = match o.get("confirm") {
                    Some(v) => parse_bool(v)?,
                    None => false,
                };
                let which = game_ref(o)?;
                if !confirmed {
                    let game = g.resignable(who.id, CONSOLE_PLACE, which).await?;
                    return Ok(Reply::private(format!(
                        "Resign game #{}? Send /resign game:{} confirm:yes to confirm.",
                        game.id, game.id
                    )));
                }
                let game = g.resign(who, CONSOLE_PLACE, which).await?;
                Reply::public(self.board(&game))
            }
            "abort" => {
                let game = g.abort(who, CONSOLE_PLACE, game_ref(o)?).await?;
                Reply::public(format!(
                    "Game #{} aborted by {}: no result.",
                    game.id, who.name
                ))
            }
            "games" => {
                let whom = o.get("user").map_or_else(|| who.clone(), |n| member(n));
                let games = g.games_of(whom.id, Some(CONSOLE_PLACE.guild)).await?;
                let list = text::games_list(&whom, &games, now);
                if games.is_empty() {
                    Reply::public(list)
                } else {
                    Reply::public(format!("Games of {}:\n{list}", whom.name))
                }
            }
            "leaderboard" => {
                let page = match o.get("page") {
                    Some(p) => p
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| Refusal::Input(format!("`{p}` is not a page number")))?,
                    None => 1,
                };
                let board = g.leaderboard(CONSOLE_PLACE.guild, size(o)?, page).await?;
                Reply::public(text::leaderboard(&board))
            }
            "rating" => {
                let whom = o.get("user").map_or_else(|| who.clone(), |n| member(n));
                let card = g.rating(CONSOLE_PLACE.guild, &whom, size(o)?).await?;
                Reply::public(text::rating_card(&card))
            }
            "history" => {
                let id = parse_game(
                    o.get("game")
                        .ok_or_else(|| Refusal::Input("which game? /history game:12".into()))?,
                )?;
                let h = g.history(CONSOLE_PLACE, id).await?;
                Reply::public(text::export(&h))
            }
            other => Reply::private(format!("unknown command /{other}: type help")),
        })
    }

    /// Reads lines from stdin until it ends or `quit`, printing every answer.
    pub async fn run_stdin(&self) -> std::io::Result<()> {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        let mut stdout = std::io::stdout();
        writeln!(
            stdout,
            "Breakthrough console. Type help, or a line like: @alice /challenge opponent:@bob"
        )?;
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

/// Why a console command was refused: bad words on the line, or the game said no.
enum Refusal {
    Input(String),
    Game(GameError),
}

impl From<String> for Refusal {
    fn from(s: String) -> Self {
        Refusal::Input(s)
    }
}

impl From<GameError> for Refusal {
    fn from(e: GameError) -> Self {
        Refusal::Game(e)
    }
}

const CONSOLE_HELP: &str = "\
Console: each line is `@member /command options`, acting as that member in one local server.
Options are name:value (opponent:@bob size:7x7 time:1h) or plain values in order (/move e7-e6).
`wait 2h` moves the clock forward; `quit` leaves. Lines starting with # are skipped.
The built-in AI is @bot: `@alice /challenge opponent:@bot level:2 size:6x6` starts a game at once
(level 1 beginner to 5 strong, default 3; never rated), and the AI answers each of your moves.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_by_name_and_in_order() {
        let w = words("opponent:@bob 7x7 time:1h");
        let o = parse_options("challenge", &w).unwrap();
        assert_eq!(o["opponent"], "@bob");
        assert_eq!(o["size"], "7x7");
        assert_eq!(o["time"], "1h");
        let o = parse_options("move", &words("e7 e6 #3")).unwrap();
        assert_eq!((o["move"].as_str(), o["game"].as_str()), ("e7 e6", "#3"));
        assert!(parse_options("move", &words("colour:black")).is_err());
        assert!(parse_options("frobnicate", &[]).is_err());
        assert!(parse_options("accept", &words("@a @b")).is_err());
    }

    #[test]
    fn durations_and_ids() {
        assert_eq!(parse_duration("90s"), Some(90));
        assert_eq!(parse_duration("2h"), Some(7_200));
        assert_eq!(parse_duration("2x"), None);
        assert_eq!(parse_duration("h"), None);
        assert_eq!(parse_duration("99999999999999999999d"), None);
        assert_eq!(member_id("Alice"), member_id("alice"));
        assert_ne!(member_id("alice"), member_id("bob"));
    }
}
