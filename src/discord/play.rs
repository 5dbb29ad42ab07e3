//! `/move` (with autocomplete of the caller's legal moves), `/board`, `/resign`, `/abort`.

use poise::serenity_prelude as serenity;

use super::{caller, place, view, BotError, Context, Data};
use crate::game::{Game, GameRef, Member, Place};

/// Discord shows at most 25 autocomplete choices.
const MAX_CHOICES: usize = 25;

fn game_ref(game: Option<i64>) -> GameRef {
    match game {
        Some(id) => GameRef::Id(id),
        None => GameRef::Only,
    }
}

/// The caller's legal moves starting with what they typed.
async fn legal_moves(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
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
    let moves = ctx
        .data()
        .games
        .move_suggestions(
            ctx.author().id.get(),
            place(ctx),
            game_ref(game),
            partial,
            MAX_CHOICES,
        )
        .await
        .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// Play a move, like e7-e6 or d4xe5.
#[poise::command(slash_command, rename = "move")]
pub async fn play_move(
    ctx: Context<'_>,
    #[description = "Your move, like e7-e6 or d4xe5"]
    #[autocomplete = "legal_moves"]
    #[rename = "move"]
    text: String,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    // The member's own move is quick, so a refusal can still be an ephemeral reply; only the
    // AI's thinking needs the response deferred.
    let played = games
        .play(&caller(ctx).await, place(ctx), game_ref(game), &text)
        .await?;
    if played.game.ai_to_move() {
        return answer_ai(ctx, &played.game).await;
    }
    ctx.send(view::game(&played.game, games.now()).reply(false))
        .await?;
    Ok(())
}

/// Defers the response, lets the AI reply in `game` (off the async runtime: up to 2 seconds),
/// and completes the response with the board after its move.
pub async fn answer_ai(ctx: Context<'_>, game: &Game) -> Result<(), BotError> {
    ctx.defer().await?;
    let games = &ctx.data().games;
    let v = match games.ai_reply(game.id).await {
        Ok(Some(played)) => view::ai_move(&played, games.now()),
        // Another reply (the sweeper's) got there first: show the game as it stands.
        Ok(None) => view::game(&games.game(game.id).await?, games.now()),
        Err(e) => {
            tracing::error!(error = ?e, game = game.id, "the AI could not reply");
            let mut v = view::game(game, games.now());
            v.content =
                Some("The AI could not answer just now; its move will be posted here.".into());
            v.mention = None;
            v
        }
    };
    match ctx {
        poise::Context::Application(app) => {
            app.interaction
                .edit_response(ctx.serenity_context(), v.edit())
                .await?;
        }
        poise::Context::Prefix(_) => {
            ctx.send(v.reply(false)).await?;
        }
    }
    Ok(())
}

/// Show a game's board.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Game number (default: your game here)"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let g = games
        .find_game(ctx.author().id.get(), place(ctx), game_ref(game))
        .await?;
    let mut v = view::game(&g, games.now());
    // Looking at a board pings nobody.
    v.mention = None;
    if g.is_active() {
        v.content = None;
    }
    ctx.send(v.reply(false)).await?;
    Ok(())
}

/// Resign a game (asks to confirm).
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let g = ctx
        .data()
        .games
        .resignable(ctx.author().id.get(), place(ctx), game_ref(game))
        .await?;
    ctx.send(view::confirm_resign(&g).reply(true)).await?;
    Ok(())
}

/// End a game without result, before both players have moved.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let g = games
        .abort(&caller(ctx).await, place(ctx), game_ref(game))
        .await?;
    ctx.send(view::game(&g, games.now()).reply(false)).await?;
    Ok(())
}

/// The resign confirmation's buttons: `yes:ID` resigns, `no:ID` keeps playing.
pub async fn on_button(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    rest: &str,
) -> Result<(), BotError> {
    let id = super::id_after(rest)?;
    let games = &data.games;
    if rest.starts_with("no") {
        super::update(ctx, click, view::View::text("You keep playing."), true).await?;
        return Ok(());
    }
    let at = Place {
        guild: click.guild_id.map_or(0, |g| g.get()),
        channel: click.channel_id.get(),
    };
    let game = games.resign(who, at, GameRef::Id(id)).await?;
    super::update(
        ctx,
        click,
        view::View::text(format!("You resigned game #{id}.")),
        true,
    )
    .await?;
    click
        .create_followup(&ctx.http, view::game(&game, games.now()).followup())
        .await?;
    Ok(())
}
