//! `/challenge`, `/accept`, `/decline`, `/cancel`, and the challenge message's buttons.

use crate::discord::views::Audience;
use poise::serenity_prelude as serenity;

use crate::discord::button::Button;
use crate::discord::params::{read_size, sizes, Side, Time};
use crate::discord::reply::{self, Linked};
use crate::discord::{
    caller, place, public_lang, reach, user_member, views, BotError, Context, Data,
};
use crate::engine::{Level, LevelError};
use crate::game::{
    AiLevel, AiRequest, AiSlot, ChallengeAsk, ChallengeRef, ChallengeRefusal, Decision, Game,
    GameId, GameRef, Member, Opponent, Rematch, TimeControl,
};
use crate::i18n::tr;
use crate::rules::Color;

/// Challenge a member to a game of Breakthrough (or, without opponent, anyone in this channel).
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play; leave empty for an open challenge"] opponent: Option<
        serenity::User,
    >,
    #[description = "Board size, columns x rows (default 8x8)"]
    #[autocomplete = "sizes"]
    size: Option<String>,
    #[description = "Your side (default random)"] color: Option<Side>,
    #[description = "Time per move (default 1 day)"] time: Option<Time>,
    #[description = "Rated game (default yes; games against the AI are never rated)"] rated: Option<
        bool,
    >,
    #[description = "The AI's strength with me as opponent: 1 beginner to 5 strong (default: the level that meets you)"]
    #[min = 1]
    #[max = 5]
    level: Option<i64>,
) -> Result<(), BotError> {
    let color = match color {
        Some(Side::Black) => Some(Color::Black),
        Some(Side::White) => Some(Color::White),
        Some(Side::Random) | None => None,
    };
    let time = time.map(TimeControl::from).unwrap_or_default();
    let opponent = match &opponent {
        Some(u) if u.id == ctx.framework().bot_id() => Opponent::Ai(user_member(u)),
        Some(u) if u.bot => {
            return Err(BotError::refused(ChallengeRefusal::BotOpponent(
                u.display_name().into(),
            )))
        }
        Some(u) => Opponent::Member(user_member(u)),
        None => Opponent::Open,
    };
    let level = match level {
        Some(n) => Some(
            u8::try_from(n)
                .ok()
                .and_then(Level::new)
                .map(AiLevel::Fixed)
                .ok_or(BotError::refused(LevelError))?,
        ),
        None => None,
    };
    let ask = ChallengeAsk {
        place: place(ctx),
        challenger: caller(ctx).await,
        opponent,
        size: read_size(size)?,
        color,
        time,
        rated,
        level,
        reach: reach(ctx),
    };
    let request = match ask.decide().map_err(BotError::refused)? {
        Decision::PlayAi(request) => return play_ai(ctx, request).await,
        Decision::Challenge(request) => request,
    };
    let games = &ctx.data().games;
    let c = games.challenges.challenge(request).await?;
    ctx.send(views::challenge(public_lang(ctx), &c, games.now()).reply(Audience::Channel))
        .await?;
    Ok(())
}

/// Starts a game against the AI at once and posts its board; when the AI has Black, after its
/// first move.
async fn play_ai(ctx: Context<'_>, request: AiRequest) -> Result<(), BotError> {
    let (game, slot) = ctx
        .data()
        .games
        .challenges
        .challenge_ai_with_slot(request)
        .await?;
    show_ai_game(ctx, &game, slot).await
}

/// A game against the AI just started: its board, after the AI's first move when it has Black
/// (`slot`: its place in the queue).
async fn show_ai_game(ctx: Context<'_>, game: &Game, slot: Option<AiSlot>) -> Result<(), BotError> {
    if let Some(slot) = slot.filter(|_| game.ai_to_move()) {
        return reply::answer_ai(ctx, game, slot).await;
    }
    reply::reply_board(ctx, game, Linked::Record).await;
    Ok(())
}

async fn find(ctx: Context<'_>, challenger: Option<serenity::User>) -> ChallengeRef {
    ChallengeRef::Find(
        place(ctx),
        challenger.map(|u| crate::discord::member_id(u.id)),
    )
}

/// Accept a challenge (the one for you here, or the one from `challenger`).
#[poise::command(slash_command, guild_only)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "Whose challenge, if you have several"] challenger: Option<serenity::User>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let which = find(ctx, challenger).await;
    let me = caller(ctx).await;
    let started = games.challenges.accept(&me, which).await?;
    reply::reply_board(ctx, &started.game, Linked::Record).await;
    Ok(())
}

/// Decline a challenge made to you.
#[poise::command(slash_command, guild_only)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "Whose challenge, if you have several"] challenger: Option<serenity::User>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let which = find(ctx, challenger).await;
    let c = games.challenges.decline(&caller(ctx).await, which).await?;
    ctx.send(views::challenge(public_lang(ctx), &c, games.now()).reply(Audience::Channel))
        .await?;
    Ok(())
}

/// Cancel your pending challenges in this server.
#[poise::command(slash_command, guild_only)]
pub async fn cancel(ctx: Context<'_>) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let cancelled = games
        .challenges
        .cancel(&caller(ctx).await, ChallengeRef::Find(place(ctx), None))
        .await?;
    let ids: Vec<String> = cancelled.iter().map(|c| format!("#{}", c.id)).collect();
    let text = tr!(
        crate::discord::private_lang(ctx),
        "cancel-done",
        count = ids.len(),
        ids = ids.join(", ")
    );
    ctx.send(views::View::text(text).reply(Audience::Caller))
        .await?;
    Ok(())
}

/// Play a finished game again, colours swapped (by default your game here that ended last).
#[poise::command(slash_command)]
pub async fn rematch(
    ctx: Context<'_>,
    #[description = "Game number (default: your game here that ended last)"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let which = crate::discord::params::game_ref(game);
    match games
        .challenges
        .rematch(&caller(ctx).await, place(ctx), which)
        .await?
    {
        Rematch::Challenge(c) => {
            ctx.send(views::challenge(public_lang(ctx), &c, games.now()).reply(Audience::Channel))
                .await?;
            Ok(())
        }
        Rematch::AiGame(game, slot) => show_ai_game(ctx, &game, slot).await,
    }
}

/// Rematch on a finished game's message: a new challenge message, or against the AI the new
/// game's board (after the AI's first move when it now has Black).
pub async fn on_rematch(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
) -> Result<(), BotError> {
    let games = &data.games;
    let lang = crate::discord::click_public_lang(click);
    let (v, started) = match games
        .challenges
        .rematch(who, crate::discord::click_place(click), GameRef::Id(id))
        .await?
    {
        Rematch::Challenge(c) => (views::challenge(lang, &c, games.now()), None),
        Rematch::AiGame(game, Some(slot)) if game.ai_to_move() => {
            let defer = serenity::CreateInteractionResponse::Defer(
                serenity::CreateInteractionResponseMessage::new(),
            );
            click.create_response(&ctx.http, defer).await?;
            let limit = reply::pictures::click_attachment_limit(click);
            let v = reply::after_ai(data, lang, &game, slot, limit).await?;
            let posted = click.edit_response(&ctx.http, v.edit()).await?;
            reply::board_shown(data, game.id, Some(posted.id)).await;
            return Ok(());
        }
        Rematch::AiGame(game, _) => {
            let limit = reply::pictures::click_attachment_limit(click);
            let v = reply::pictures::public_board(&data.games, lang, &game, limit).await;
            (v, Some(game.id))
        }
    };
    let message =
        serenity::CreateInteractionResponse::Message(v.interaction_message(Audience::Channel));
    click.create_response(&ctx.http, message).await?;
    // A new game's board: its thread may open on it.
    if let Some(game) = started {
        match click.get_response(&ctx.http).await {
            Ok(posted) => reply::board_shown(data, game, Some(posted.id)).await,
            Err(e) => tracing::warn!(error = %e, "could not read back a board's message"),
        }
    }
    Ok(())
}

/// Accept / Decline / Cancel on a challenge message.
pub async fn on_button(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    button: Button,
) -> Result<(), BotError> {
    let games = &data.games;
    let now = games.now();
    let at = crate::discord::click_place(click);
    let lang = crate::discord::click_public_lang(click);
    match button {
        Button::Accept(id) => {
            let started = games
                .challenges
                .accept(who, ChallengeRef::Id(at, id))
                .await?;
            // The game has begun: whatever Discord does from here, nobody is told otherwise.
            let closed = match games.challenges.challenge_view(id).await {
                Ok(closed) => reply::update(
                    ctx,
                    click,
                    views::challenge(lang, &closed, now),
                    Audience::Channel,
                )
                .await
                .err(),
                Err(e) => Some(e.into()),
            };
            if let Some(e) = closed {
                tracing::warn!(error = %e, "could not close an accepted challenge's message");
            }
            let limit = reply::pictures::click_attachment_limit(click);
            let board = reply::pictures::public_board(&data.games, lang, &started.game, limit)
                .await
                .followup();
            match click.create_followup(&ctx.http, board).await {
                Ok(posted) => {
                    reply::board_shown(data, started.game.id, Some(posted.id)).await;
                }
                Err(e) => reply::board_owed(data, &started.game, &e).await,
            }
        }
        Button::Decline(id) => {
            let c = games
                .challenges
                .decline(who, ChallengeRef::Id(at, id))
                .await?;
            reply::update(
                ctx,
                click,
                views::challenge(lang, &c, now),
                Audience::Channel,
            )
            .await?;
        }
        Button::Cancel(id) => {
            let c = games
                .challenges
                .cancel(who, ChallengeRef::Id(at, id))
                .await?
                .pop()
                .ok_or_else(|| {
                    BotError::Input(tr!(crate::discord::click_lang(click), "challenge-gone"))
                })?;
            reply::update(
                ctx,
                click,
                views::challenge(lang, &c, now),
                Audience::Channel,
            )
            .await?;
        }
        _ => {
            return Err(BotError::Input(tr!(
                crate::discord::click_lang(click),
                "discord-dead-button"
            )))
        }
    }
    Ok(())
}
