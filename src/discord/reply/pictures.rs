//! Boards as pictures on Discord: which look a post of a game takes, and the replay that a
//! finished game's post, and `/history`, carry.

use poise::serenity_prelude as serenity;

use crate::game::{BoardStyle, Game, History, MemberId, Services};
use crate::i18n::Lang;

use crate::discord::views::{self as view, Attached, View};
use crate::discord::Context;

/// What Discord takes in files on a message when no interaction says (its smallest limit).
pub(in crate::discord) const DEFAULT_ATTACHMENT_LIMIT: u64 = 10 * 1024 * 1024;

/// The look of a post of `game` that everyone in its channel sees: the server's choice; in a
/// direct message, that of the member playing there, the only one who sees it.
pub(in crate::discord) async fn public_style(games: &Services, game: &Game) -> BoardStyle {
    let only_for = game.place.is_direct().then(|| game.member());
    games.settings.board_style(game.place, only_for).await
}

/// The look of what only `member` sees: their own choice.
pub(in crate::discord) async fn private_style(
    games: &Services,
    game: &Game,
    member: MemberId,
) -> BoardStyle {
    games.settings.board_style(game.place, Some(member)).await
}

/// `game`'s board as a post everyone sees, in the look chosen for it; over, with pictures, it
/// carries the game's replay too when that fits in `limit` bytes with the rest.
pub(in crate::discord) async fn public_board(
    games: &Services,
    lang: Lang,
    game: &Game,
    limit: u64,
) -> View {
    let style = public_style(games, game).await;
    let v = view::game(lang, game, games.now(), style);
    at_the_end(games, lang, v, game, style, limit).await
}

/// `v`, a board of `game` drawn in `style`: once the game is over and drawn as pictures, with
/// the game's replay as an animated GIF too (drawn off the async runtime), if that fits in
/// `limit` bytes with what `v` carries already; else `v` as it is.
pub(in crate::discord) async fn at_the_end(
    games: &Services,
    lang: Lang,
    mut v: View,
    game: &Game,
    style: BoardStyle,
    limit: u64,
) -> View {
    if style != BoardStyle::Image || game.is_active() {
        return v;
    }
    let history = match games.standings.history(game.place, game.id).await {
        Ok(h) => h,
        Err(e) => {
            tracing::warn!(game = %game.id, error = ?e, "could not read a game for its replay");
            return v;
        }
    };
    if let Some(replay) = replay_within(lang, history, v.file_bytes(), limit).await {
        v.files.push(replay);
    }
    v
}

/// The replay of `history` as an animated GIF, drawn off the async runtime, if it fits in
/// `limit` bytes beside `used` bytes of other files; `None` (logged) when it does not, or cannot
/// be drawn.
pub(in crate::discord) async fn replay_within(
    lang: Lang,
    history: History,
    used: usize,
    limit: u64,
) -> Option<Attached> {
    let game = history.game.id;
    let replay = tokio::task::spawn_blocking(move || view::replay(lang, &history))
        .await
        .ok()??;
    let size = (used + replay.bytes.len()) as u64;
    if size > limit {
        tracing::info!(game = %game, size, limit, "a replay left out: over the attachment limit");
        return None;
    }
    Some(replay)
}

/// What the interaction behind a command lets its answer carry in files.
pub(in crate::discord) fn attachment_limit(ctx: Context<'_>) -> u64 {
    match ctx {
        poise::Context::Application(app) => limit_of(app.interaction.attachment_size_limit),
        poise::Context::Prefix(_) => DEFAULT_ATTACHMENT_LIMIT,
    }
}

/// What a button's answer may carry in files.
pub(in crate::discord) fn click_attachment_limit(click: &serenity::ComponentInteraction) -> u64 {
    limit_of(click.attachment_size_limit)
}

/// Discord's limit as an interaction reports it; the smallest when it reports none.
fn limit_of(reported: u32) -> u64 {
    if reported == 0 {
        DEFAULT_ATTACHMENT_LIMIT
    } else {
        u64::from(reported)
    }
}
