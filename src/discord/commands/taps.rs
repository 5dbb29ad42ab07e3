//! Moves by taps. The **Move** button on a game's boards opens, for the member who taps alone,
//! the menus of the legal moves (`views::menu`): a piece, then its target, or the move itself
//! when every move fits in one menu. The move chosen is played as a typed `/move` is, and its
//! board posted in the game's channel: as a follow-up when the tap came from there, through the
//! outbox when it came from elsewhere (the turn's direct message).

use poise::serenity_prelude as serenity;

use crate::discord::reply::{self, pictures};
use crate::discord::views::menu::{move_menu, piece_menu};
use crate::discord::views::{Audience, View};
use crate::discord::{click_lang, click_place, click_public_lang, BotError, Data};
use crate::game::{Error, Game, GameId, Member, PlayRefusal, Played};
use crate::i18n::tr;

/// How a menu is shown: a new message for the member alone (from a board), or in place of the
/// menu tapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    New,
    InPlace,
}

/// The first menu of game `id` for `who`, if it is their turn there.
pub async fn on_move(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    open: Open,
) -> Result<(), BotError> {
    let game = data.games.play.movable(who.id, id).await?;
    let v = menu(data, click, &game, who, None).await;
    match open {
        Open::New => {
            let message = v.interaction_message(Audience::Caller);
            click
                .create_response(
                    &ctx.http,
                    serenity::CreateInteractionResponse::Message(message),
                )
                .await?;
            Ok(())
        }
        Open::InPlace => reply::update(ctx, click, v, Audience::Caller).await,
    }
}

/// A piece chosen at `ply`: the menu of its moves, or a fresh first menu when the game moved on.
pub async fn on_piece(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    ply: u32,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let game = match data.games.play.movable(who.id, id).await {
        Ok(game) => game,
        Err(e) => return refused(ctx, click, e).await,
    };
    let v = if game.ply != ply {
        menu(data, click, &game, who, Some(tr!(lang, "menu-changed"))).await
    } else {
        // Only a square with a legal move is read: anything else sent gets the first menu.
        let square = chosen(click).and_then(|value| {
            game.position
                .legal_moves()
                .iter()
                .map(|m| m.from())
                .find(|s| s.to_string() == value)
        });
        match square {
            Some(from) => {
                let style = style(data, click, who).await;
                piece_menu(lang, &game, data.games.now(), style, from)
            }
            None => menu(data, click, &game, who, None).await,
        }
    };
    reply::update(ctx, click, v, Audience::Caller).await
}

/// A move chosen at `ply`: played, the menu replaced by what was played, and the board posted
/// as a typed move's is. A menu of a position gone gets the fresh one; another refusal replaces
/// the menu.
pub async fn on_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    ply: u32,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let Some(value) = chosen(click) else {
        return Err(BotError::Input(tr!(lang, "discord-dead-button")));
    };
    let (played, slot) = match data.games.play.play_chosen(who, id, ply, value).await {
        Ok(done) => done,
        Err(Error::Refused(PlayRefusal::PositionChanged)) => {
            return match data.games.play.movable(who.id, id).await {
                Ok(game) => {
                    let note = Some(tr!(lang, "menu-changed"));
                    let v = menu(data, click, &game, who, note).await;
                    reply::update(ctx, click, v, Audience::Caller).await
                }
                Err(e) => refused(ctx, click, e).await,
            };
        }
        Err(e) => return refused(ctx, click, e).await,
    };
    let said = tr!(
        lang,
        "menu-played",
        mv = played.mv.to_string(),
        id = id.to_string()
    );
    // The move stands: whatever Discord does from here, the member is not told otherwise.
    if let Err(e) = reply::update(ctx, click, View::text(said), Audience::Caller).await {
        tracing::warn!(error = %e, "could not confirm a move played by taps");
    }
    post_board(ctx, data, click, &played, slot).await;
    Ok(())
}

/// The board after a move played by taps, as a typed move's: after the AI's reply when it has
/// one to make; a follow-up in the game's channel when the tap came from there, else handed to
/// the outbox, which posts it there.
async fn post_board(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    played: &Played,
    slot: Option<crate::game::AiSlot>,
) {
    let games = &data.games;
    let game = &played.game;
    let slot = slot.filter(|_| game.ai_to_move());
    if click_place(click) != game.place {
        let owed = match slot {
            Some(slot) => games.play.ai_reply_with_announced(slot).await.err(),
            None => games.outbox.board_owed(game).await.err().map(Error::Failed),
        };
        if let Some(e) = owed {
            tracing::error!(error = ?e, game = %game.id, "could not hand a board to the outbox");
        }
        return;
    }
    let lang = click_public_lang(click);
    let limit = pictures::click_attachment_limit(click);
    let v = match slot {
        Some(slot) => match reply::after_ai(data, lang, game, slot, limit).await {
            Ok(v) => v,
            Err(e) => {
                tracing::error!(error = ?e, game = %game.id, "could not show the AI's reply");
                return;
            }
        },
        None => pictures::public_board(games, lang, game, limit).await,
    };
    match click.create_followup(&ctx.http, v.followup()).await {
        Ok(message) => reply::board_shown(data, game.id, Some(message.id)).await,
        Err(e) => {
            let now = games.play.game(game.id).await;
            reply::board_owed(data, now.as_ref().unwrap_or(game), &e).await;
        }
    }
}

/// The first menu of `game` for `who`, in their own look, with `note` above it.
async fn menu(
    data: &Data,
    click: &serenity::ComponentInteraction,
    game: &Game,
    who: &Member,
    note: Option<String>,
) -> View {
    let style = style(data, click, who).await;
    move_menu(click_lang(click), game, data.games.now(), style, note)
}

/// The look of what only `who` sees where they tapped.
async fn style(
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
) -> crate::game::BoardStyle {
    data.games
        .settings
        .board_style(click_place(click), Some(who.id))
        .await
}

/// The menu replaced by why the tap was refused; a failure on our side is the caller's to say.
async fn refused(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    e: Error<PlayRefusal>,
) -> Result<(), BotError> {
    if matches!(e, Error::Failed(_)) {
        return Err(e.into());
    }
    let said = e.localized(click_lang(click), &crate::discord::views::Markdown);
    reply::update(ctx, click, View::text(said), Audience::Caller).await
}

/// The value chosen in a select menu.
fn chosen(click: &serenity::ComponentInteraction) -> Option<&str> {
    match &click.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            values.first().map(String::as_str)
        }
        _ => None,
    }
}
