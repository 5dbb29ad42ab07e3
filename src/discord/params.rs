//! The options commands share: the challenger's side, the time per move, board sizes and game
//! numbers, with the autocompletes that offer them (sizes, and the caller's legal moves).

use poise::serenity_prelude as serenity;
use tracing::warn;

use crate::game::{GameId, GameRef, MemberId, Services, TimeControl};
use crate::rules::{BoardSize, Move};

use super::{ids, place, BotError, Context};

/// Discord shows at most 25 autocomplete choices.
const MAX_CHOICES: usize = 25;

/// The challenger's side.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Side {
    #[name = "black (moves first)"]
    Black,
    #[name = "white"]
    White,
    #[name = "random"]
    Random,
}

/// Time per move.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Time {
    #[name = "10 minutes"]
    TenMinutes,
    #[name = "1 hour"]
    OneHour,
    #[name = "1 day"]
    OneDay,
    #[name = "3 days"]
    ThreeDays,
    #[name = "7 days"]
    SevenDays,
}

impl From<Time> for TimeControl {
    fn from(t: Time) -> Self {
        match t {
            Time::TenMinutes => TimeControl::TenMinutes,
            Time::OneHour => TimeControl::OneHour,
            Time::OneDay => TimeControl::OneDay,
            Time::ThreeDays => TimeControl::ThreeDays,
            Time::SevenDays => TimeControl::SevenDays,
        }
    }
}

/// Board sizes matching what is typed: the common ones first, then any supported size.
pub async fn sizes(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let typed = partial.trim().to_ascii_lowercase();
    let mut choices: Vec<String> = BoardSize::COMMON.iter().map(BoardSize::to_string).collect();
    choices.extend(BoardSize::all().map(|s| s.to_string()));
    let mut seen = std::collections::HashSet::new();
    let list = choices
        .into_iter()
        .filter(|s| s.starts_with(&typed) && seen.insert(s.clone()))
        .take(25)
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(list)
}

/// Reads a size option (autocompleted, but any text can arrive).
pub fn read_size(size: Option<String>) -> Result<BoardSize, BotError> {
    match size {
        Some(s) => s.parse::<BoardSize>().map_err(BotError::refused),
        None => Ok(BoardSize::DEFAULT),
    }
}

/// The game a command's `game` option means: that one, or the caller's only game here.
pub(super) fn game_ref(game: Option<i64>) -> GameRef {
    match game {
        Some(id) => GameRef::Id(GameId::new(id)),
        None => GameRef::Only,
    }
}

/// The caller's legal moves starting with what they typed.
pub(super) async fn legal_moves(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    // The game option may already be filled in; autocomplete sees it in the raw options.
    let game = match ctx {
        poise::Context::Application(app) => {
            app.args
                .iter()
                .find(|o| o.name == "game")
                .and_then(|o| match &o.value {
                    serenity::ResolvedValue::Integer(n) => Some(*n),
                    _ => None,
                })
        }
        poise::Context::Prefix(_) => None,
    };
    let games = &ctx.data().games;
    let me = ids::member_id(ctx.author().id);
    let here = place(ctx);
    let moves = games
        .play
        .move_suggestions(me, here, game_ref(game), partial, MAX_CHOICES)
        .await
        .unwrap_or_default();
    // No game number and no game here at the member's turn: the move goes to their puzzle, as
    // `/move` sends it (see `Play::move_or_puzzle`).
    let at_turn = !moves.is_empty()
        || game.is_some()
        || games
            .play
            .move_suggestions(me, here, GameRef::Only, "", 1)
            .await
            .is_ok_and(|any| !any.is_empty());
    let moves = if at_turn {
        moves
    } else {
        puzzle_moves(games, me, partial, MAX_CHOICES).await
    };
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// The legal moves of `who`'s puzzle in progress starting with `partial` (case and separators
/// ignored), at most `limit`; none when they are solving none.
async fn puzzle_moves(games: &Services, who: MemberId, partial: &str, limit: usize) -> Vec<String> {
    let view = match games.puzzles.puzzle_in_progress(who).await {
        Ok(Some(view)) => view,
        Ok(None) => return Vec::new(),
        Err(e) => {
            warn!(error = ?e, "could not read a member's puzzle");
            return Vec::new();
        }
    };
    let wanted = squares(partial);
    view.position
        .legal_moves()
        .iter()
        .map(Move::to_string)
        .filter(|m| squares(m).starts_with(&wanted))
        .take(limit)
        .collect()
}

/// A move's squares alone, in lowercase: `E7-E6` and `e7e6` alike.
fn squares(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}
