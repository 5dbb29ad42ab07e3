//! The values the console's options read, and what it says of one it cannot read
//! ([`BadValue`]): sides, game and tournament numbers, yes or no, members' names, puzzle sizes,
//! formats, spans of time, and the words of any language the console speaks ([`is_word`]).

use std::time::Duration;

use crate::engine::{Level, LevelError};
use crate::game::{
    self, AiLevel, BoardStyle, GameId, Member, MemberId, TournamentFormat, TournamentId,
};
use crate::i18n::{tr, Lang};
use crate::rules::{BoardSize, Color};
use crate::text;

/// Whether `typed` is the console word `word` gives in some language (`negras`, `black`):
/// a member may use their own language's or English, with or without accents.
pub(super) fn is_word(typed: &str, word: impl Fn(Lang) -> String) -> bool {
    let typed = fold(typed);
    Lang::all().any(|lang| fold(&word(lang)) == typed)
}

/// A word as compared: lower case, without the accents a keyboard may not have (`Sí` → `si`).
pub(super) fn fold(word: &str) -> String {
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

/// The challenger's side as typed: `random` draws it, like leaving it out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Side(pub(super) Option<Color>);

pub(super) fn side(v: &str) -> Result<Side, BadValue> {
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

/// An option's value the console cannot read, as typed. Said in the console's language by
/// [`BadValue::localized`]; `Display` (what clap keeps) is English.
#[derive(Debug)]
pub(super) enum BadValue {
    Side(String),
    GameNumber(String),
    Page(String),
    YesOrNo(String),
    Board(String),
    OnOrOff(String),
    Format(String),
    TournamentNumber(String),
    Number(String),
    StartsIn(String),
    PuzzleSize(String),
    MemberName(String),
}

impl BadValue {
    pub(super) fn localized(&self, lang: Lang) -> String {
        match self {
            BadValue::Side(v) => tr!(lang, "console-bad-side", value = v),
            BadValue::GameNumber(v) => tr!(lang, "console-bad-game-number", value = v),
            BadValue::Page(v) => tr!(lang, "console-bad-page", value = v),
            BadValue::YesOrNo(v) => tr!(lang, "console-bad-yes-or-no", value = v),
            BadValue::Board(v) => tr!(lang, "console-bad-board", value = v),
            BadValue::OnOrOff(v) => tr!(lang, "console-bad-on-or-off", value = v),
            BadValue::Format(v) => tr!(lang, "console-bad-format", value = v),
            BadValue::TournamentNumber(v) => tr!(lang, "console-bad-tournament-number", value = v),
            BadValue::Number(v) => tr!(lang, "console-bad-number", value = v),
            BadValue::StartsIn(v) => tr!(lang, "console-bad-starts-in", value = v),
            BadValue::PuzzleSize(v) => tr!(lang, "console-bad-puzzle", value = v),
            BadValue::MemberName(v) => {
                tr!(lang, "console-bad-member", value = v, max = MEMBER_NAME_MAX)
            }
        }
    }
}

impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.localized(Lang::En))
    }
}

impl std::error::Error for BadValue {}

/// The longest name a member can have, as on Discord.
pub(super) const MEMBER_NAME_MAX: usize = 32;

/// A member as named in a line, `@bob` or `bob`: a name of 1 to [`MEMBER_NAME_MAX`] characters.
pub(super) fn member_name(v: &str) -> Result<Member, BadValue> {
    let name = v.trim().trim_start_matches('@');
    if name.is_empty() || name.chars().count() > MEMBER_NAME_MAX {
        return Err(BadValue::MemberName(v.to_string()));
    }
    Ok(member(name))
}

pub(super) fn game_number(v: &str) -> Result<GameId, BadValue> {
    v.trim()
        .trim_start_matches('#')
        .parse::<GameId>()
        .map_err(|_| BadValue::GameNumber(v.to_string()))
}

pub(super) fn page_number(v: &str) -> Result<usize, BadValue> {
    v.trim()
        .parse::<usize>()
        .map_err(|_| BadValue::Page(v.to_string()))
}

pub(super) fn yes_or_no(v: &str) -> Result<bool, BadValue> {
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

/// The AI's level: `auto` (in any language the console speaks), or a number from 1 to 5.
pub(super) fn ai_level(v: &str) -> Result<AiLevel, LevelError> {
    if is_word(v, |l| tr!(l, "console-value-auto")) {
        return Ok(AiLevel::Auto);
    }
    v.parse::<Level>().map(AiLevel::Fixed)
}

/// How boards are shown, as Discord offers it in any language (`emoji`, `imagen`).
pub(super) fn board_style(v: &str) -> Result<BoardStyle, BadValue> {
    if is_word(v, |l| tr!(l, "cmd-settings-board-emoji")) {
        Ok(BoardStyle::Emoji)
    } else if is_word(v, |l| tr!(l, "cmd-settings-board-image")) {
        Ok(BoardStyle::Image)
    } else {
        Err(BadValue::Board(v.to_string()))
    }
}

/// A setting on or off, as Discord offers it in any language (`on`, `sí`), or as a yes or no.
pub(super) fn on_or_off(v: &str) -> Result<bool, BadValue> {
    if is_word(v, |l| tr!(l, "cmd-server-settings-threads-on")) {
        Ok(true)
    } else if is_word(v, |l| tr!(l, "cmd-server-settings-threads-off")) {
        Ok(false)
    } else {
        yes_or_no(v).map_err(|_| BadValue::OnOrOff(v.to_string()))
    }
}

/// What `/puzzle` asks for: a puzzle of a size (or the default), or the server's daily one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PuzzleAsk {
    Size(BoardSize),
    Daily,
}

/// `daily` (in any language the console speaks) or a board size.
pub(super) fn puzzle_ask(v: &str) -> Result<PuzzleAsk, BadValue> {
    if is_word(v, |l| tr!(l, "console-value-daily")) {
        return Ok(PuzzleAsk::Daily);
    }
    v.trim()
        .parse::<BoardSize>()
        .map(PuzzleAsk::Size)
        .map_err(|_| BadValue::PuzzleSize(v.to_string()))
}

/// `round-robin` or `swiss` (also `round_robin`, `rr`), or the format's name in any language.
pub(super) fn format_of(v: &str) -> Result<TournamentFormat, BadValue> {
    TournamentFormat::from_option(v)
        .or_else(|| {
            TournamentFormat::ALL.into_iter().find(|&f| {
                is_word(&v.replace(['-', '_'], " "), |l| {
                    text::tournament_format(l, f)
                })
            })
        })
        .ok_or_else(|| BadValue::Format(v.to_string()))
}

/// A tournament's number: `3` or `#3`.
pub(super) fn tournament_number(v: &str) -> Result<TournamentId, BadValue> {
    v.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|&n| n > 0)
        .map(TournamentId::new)
        .ok_or_else(|| BadValue::TournamentNumber(v.to_string()))
}

/// A count: rounds, players, a round's number. Whether it is in bounds is the game's to say.
pub(super) fn number(v: &str) -> Result<u32, BadValue> {
    v.trim()
        .parse::<u32>()
        .map_err(|_| BadValue::Number(v.to_string()))
}

pub(super) fn starts_in(v: &str) -> Result<Duration, BadValue> {
    game::parse_starts_in(v).ok_or_else(|| BadValue::StartsIn(v.to_string()))
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

pub(super) fn member(name: &str) -> Member {
    let name = name.trim_start_matches('@');
    Member::new(member_id(name), name)
}
