//! `/analyze`: the engine's look back at a game, deferred while it thinks, then the summary and
//! every move's evaluation as a text file.

use poise::serenity_prelude as serenity;

use crate::discord::views::Markdown;
use crate::discord::{member_id, place, public_lang, BotError, Context};
use crate::game::GameId;
use crate::text;
use crate::text::analysis::{export, summary, title};

/// The engine's look back at a game: the worst moves, where it was decided, and a file.
#[poise::command(slash_command)]
pub async fn analyze(
    ctx: Context<'_>,
    #[description = "Game number (in a game's thread: that game)"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    // Refusals (a game not seen from here, one still played between members, the AI's queue
    // full) are quick and private; only the engine's work is deferred.
    let id = games
        .threads
        .game_meant(
            member_id(ctx.author().id),
            place(ctx),
            game.map(GameId::new),
        )
        .await?;
    let queued = games
        .standings
        .queue_analysis(member_id(ctx.author().id), place(ctx), id)
        .await?;
    ctx.defer().await?;
    let lang = public_lang(ctx);
    let answer = match games.standings.analyze_queued(queued).await {
        Ok(done) => {
            let embed = serenity::CreateEmbed::new()
                .title(title(lang, &done))
                .description(summary(lang, &Markdown, &done));
            let file = serenity::CreateAttachment::bytes(
                export(lang, &done).into_bytes(),
                format!("breakthrough-analysis-{}.txt", done.game.id),
            );
            Ok((embed, file))
        }
        Err(e) => {
            tracing::error!(error = ?e, game, "the analysis failed");
            Err(text::apology(lang))
        }
    };
    match (ctx, answer) {
        (poise::Context::Application(app), answer) => {
            let edit = match answer {
                Ok((embed, file)) => serenity::EditInteractionResponse::new()
                    .embed(embed)
                    .new_attachment(file),
                Err(sorry) => serenity::EditInteractionResponse::new().content(sorry),
            };
            app.interaction
                .edit_response(ctx.serenity_context(), edit)
                .await?;
        }
        (poise::Context::Prefix(_), Ok((embed, file))) => {
            ctx.send(poise::CreateReply::default().embed(embed).attachment(file))
                .await?;
        }
        (poise::Context::Prefix(_), Err(sorry)) => {
            ctx.say(sorry).await?;
        }
    }
    Ok(())
}
