//! `/games`, `/leaderboard` (paged with buttons), `/rating` (with the puzzle rating), `/history`,
//! `/help`, `/vacation`, `/notify`.

use crate::discord::views::Audience;
use poise::serenity_prelude as serenity;

use crate::discord::params::{read_size, sizes};
use crate::discord::reply;
use crate::discord::views::Markdown;
use crate::discord::{
    caller, member_id, place, public_lang, user_member, views, BotError, Context, Data,
};
use crate::game::{GameId, GuildId};
use crate::i18n::tr;
use crate::rules::BoardSize;
use crate::text::{self, Markup};

/// Your games, yours to move first, in every server; or a member's games here.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games here (default: your own, everywhere, shown to you alone)"]
    user: Option<serenity::User>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let whom = match &user {
        // A direct message is private to its member: it shows their own games only.
        Some(u) if ctx.guild_id().is_none() && u.id != ctx.author().id => {
            return Err(BotError::Input(tr!(
                crate::discord::private_lang(ctx),
                "games-direct-own-only"
            )))
        }
        Some(u) => user_member(u),
        // Your own list, for you alone: every server's games, yours to move first.
        None => {
            let me = caller(ctx).await;
            let listed = data.games.standings.own_games(me.id).await?;
            let lang = crate::discord::private_lang(ctx);
            let v = views::own_games(lang, &me, &listed, data.games.now());
            ctx.send(v.reply(Audience::Caller)).await?;
            return Ok(());
        }
    };
    let list = data
        .games
        .standings
        .games_of(whom.id, ctx.guild_id().map(crate::discord::guild_id))
        .await?;
    let now = data.games.now();
    let body = text::games_list(public_lang(ctx), &Markdown, &whom, &list, now);
    let name = Markdown.name(&whom.name);
    let embed = serenity::CreateEmbed::new()
        .title(tr!(public_lang(ctx), "games-title", name = name))
        .description(body);
    ctx.send(poise::CreateReply::default().embed(embed)).await?;
    Ok(())
}

fn server(ctx: Context<'_>) -> Result<GuildId, BotError> {
    ctx.guild_id().map(crate::discord::guild_id).ok_or_else(|| {
        BotError::Input(tr!(
            crate::discord::private_lang(ctx),
            "ratings-need-server"
        ))
    })
}

/// This server's ratings on a board size.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Board size (default 8x8)"]
    #[autocomplete = "sizes"]
    size: Option<String>,
    #[description = "Page (default 1)"]
    #[min = 1]
    page: Option<i64>,
) -> Result<(), BotError> {
    let size = read_size(size)?;
    let page = usize::try_from(page.unwrap_or(1).max(1)).unwrap_or(1);
    let board = ctx
        .data()
        .games
        .standings
        .leaderboard(server(ctx)?, size, page)
        .await?;
    ctx.send(views::leaderboard(public_lang(ctx), &board).reply(Audience::Channel))
        .await?;
    Ok(())
}

/// A member's rating, record and recent results.
#[poise::command(slash_command)]
pub async fn rating(
    ctx: Context<'_>,
    #[description = "Whose rating (default: yours)"] user: Option<serenity::User>,
    #[description = "Board size (default: each size rated on)"]
    #[autocomplete = "sizes"]
    size: Option<String>,
) -> Result<(), BotError> {
    let whom = match &user {
        Some(u) => user_member(u),
        None => caller(ctx).await,
    };
    let games = &ctx.data().games;
    let size = size
        .map(|s| s.parse::<BoardSize>().map_err(BotError::refused))
        .transpose()?;
    let ratings = games.standings.ratings(server(ctx)?, &whom, size).await?;
    // The puzzle rating, beside the game rating: the member's own, the same in every server.
    let puzzles = games.puzzles.puzzle_rating(&whom).await?;
    let lang = public_lang(ctx);
    let mut reply = poise::CreateReply::default();
    let last = ratings.cards.len().saturating_sub(1);
    for (i, card) in ratings.cards.iter().enumerate() {
        let name = Markdown.name(&card.member.name);
        let mut description = text::rating_card(lang, &Markdown, card);
        if i == last {
            if let Some(more) = text::rating_more(lang, &ratings.more) {
                description.push_str("\n\n");
                description.push_str(&more);
            }
            description.push_str("\n\n");
            description.push_str(&text::puzzle_card(lang, &Markdown, &puzzles));
        }
        reply = reply.embed(
            serenity::CreateEmbed::new()
                .title(format!("{name} · {}", card.size))
                .description(description),
        );
    }
    ctx.send(reply).await?;
    Ok(())
}

/// A game's move list, with a text file to keep.
#[poise::command(slash_command)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Game number (in a game's thread: that game)"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let id = games
        .threads
        .game_meant(
            member_id(ctx.author().id),
            place(ctx),
            game.map(GameId::new),
        )
        .await?;
    let h = games.standings.history(place(ctx), id).await?;
    let lang = public_lang(ctx);
    let moves = if h.moves.is_empty() {
        tr!(lang, "history-no-moves")
    } else {
        text::move_list(&h.moves)
    };
    // An embed description holds 4,096 characters; the file always has everything.
    let shown: String = moves.chars().take(4_000).collect();
    let embed = serenity::CreateEmbed::new()
        .title(text::title(lang, &h.game))
        .description(shown)
        .field(
            tr!(lang, "history-status"),
            text::status(lang, &Markdown, &h.game, ctx.data().games.now()),
            false,
        );
    let export = text::export(lang, &h).into_bytes();
    let exported = export.len();
    let file =
        serenity::CreateAttachment::bytes(export, format!("breakthrough-game-{}.txt", h.game.id));
    let mut reply = poise::CreateReply::default().embed(embed).attachment(file);
    // The replay, when it fits in what Discord takes here.
    let limit = reply::pictures::attachment_limit(ctx);
    if let Some(replay) = reply::pictures::replay_within(lang, h, exported, limit).await {
        reply = reply
            .embed(
                serenity::CreateEmbed::new()
                    .title(tr!(lang, "history-replay"))
                    .image(replay.url()),
            )
            .attachment(replay.attachment());
    }
    ctx.send(reply).await?;
    Ok(())
}

/// Rules, notation and commands.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let help = text::help(crate::discord::private_lang(ctx), &Markdown);
    ctx.send(views::View::text(help).reply(Audience::Caller))
        .await?;
    Ok(())
}

/// Previous / Next on a leaderboard. Anyone may turn the pages.
pub async fn on_page(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    size: BoardSize,
    page: usize,
) -> Result<(), BotError> {
    let guild = click
        .guild_id
        .map(crate::discord::guild_id)
        .ok_or_else(|| {
            BotError::Input(tr!(
                crate::discord::click_lang(click),
                "ratings-server-only"
            ))
        })?;
    let board = data.games.standings.leaderboard(guild, size, page).await?;
    let lang = crate::discord::click_public_lang(click);
    reply::update(
        ctx,
        click,
        views::leaderboard(lang, &board),
        Audience::Channel,
    )
    .await?;
    Ok(())
}

/// Pause your clocks in all your games for some days (0 ends your vacation).
#[poise::command(slash_command)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "Days away, up to what is left of the year's allowance; 0 to come back"]
    #[min = 0]
    #[max = 366]
    days: i64,
) -> Result<(), BotError> {
    let change = ctx
        .data()
        .games
        .play
        .vacation(&caller(ctx).await, days)
        .await?;
    let lang = crate::discord::private_lang(ctx);
    let said = if change.started {
        tr!(
            lang,
            "vacation-started",
            until = crate::text::Markup::moment(&views::Markdown, change.until),
            games = change.games.len(),
            left = change.days_left
        )
    } else {
        tr!(lang, "vacation-ended", left = change.days_left)
    };
    // The opponents are told in each game's channel, through the outbox.
    ctx.send(views::View::text(said).reply(Audience::Caller))
        .await?;
    Ok(())
}

/// Be told by direct message when it is your turn (and when your time runs short).
#[poise::command(slash_command)]
pub async fn notify(
    ctx: Context<'_>,
    #[description = "On or off (leave out to see the setting)"] dm: Option<bool>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let me = member_id(ctx.author().id);
    let lang = crate::discord::private_lang(ctx);
    let on = match dm {
        Some(on) => {
            games.settings.set_turn_dms(me, on, lang).await?;
            on
        }
        None => games.settings.turn_dms(me).await?,
    };
    let said = text::notify_setting(lang, &Markdown, on);
    ctx.send(views::View::text(said).reply(Audience::Caller))
        .await?;
    Ok(())
}
