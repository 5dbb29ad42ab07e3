//! The Discord front end: poise slash commands and buttons over the `game` API. Thin: read the
//! interaction, call `game`, build the message (`view`), reply.

mod analyze;
mod button;
mod challenge;
mod info;
pub mod locales;
mod outbox;
mod play;
mod rate;
mod refusals;
mod retry;
mod startup;
pub mod view;
mod window;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use crate::config::{BotConfig, MISSING_TOKEN};
use crate::game::{self, text, GameError, Games, Member, Place};
use crate::i18n::Lang;
use crate::tr;

use button::Button;
pub use refusals::layer as gateway_refusals;

/// What every command can reach: the game service, and nothing else (no game state in memory);
/// and the members' rate limit.
pub struct Data {
    pub games: Games,
    pub rate: rate::RateLimit,
    /// Tells the outbox something was queued, for a command whose change announces itself.
    pub outbox: Arc<tokio::sync::Notify>,
}

/// Why a command or a click did not go through.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A refusal from the game, or a fault inside it.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Input the Discord layer itself cannot use; the text speaks to the member.
    #[error("{0}")]
    Input(String),
    /// The member is over the rate limit, and may send again after this wait.
    #[error("over the rate limit for {0:?}")]
    SlowDown(Duration),
    /// Boxed: serenity's error is large, and every `Result` here carries this type.
    #[error("discord: {0}")]
    Discord(Box<serenity::Error>),
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> Self {
        BotError::Discord(Box::new(e))
    }
}

impl BotError {
    /// What the member is told, in `lang`. Faults on our side are logged, and the member gets
    /// an apology.
    fn for_member(&self, lang: Lang) -> String {
        match self {
            BotError::Game(e) if !e.is_internal() => e.localized(lang, &view::Markdown),
            BotError::Input(s) => s.clone(),
            BotError::SlowDown(wait) => text::slow_down(lang, *wait),
            other => {
                error!(error = ?other, "request failed");
                text::apology(lang)
            }
        }
    }
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;

/// The language of a reply only the caller sees: their own Discord language.
fn private_lang(ctx: Context<'_>) -> Lang {
    ctx.locale().map_or(Lang::En, Lang::from_locale)
}

/// The language of a message the channel sees: the server's, or in a direct message the
/// member's own.
fn public_lang(ctx: Context<'_>) -> Lang {
    match ctx {
        poise::Context::Application(app) => shared_lang(
            app.interaction.guild_locale.as_deref(),
            &app.interaction.locale,
        ),
        poise::Context::Prefix(_) => Lang::En,
    }
}

/// The server's language when there is a server, else the member's.
fn shared_lang(guild_locale: Option<&str>, member_locale: &str) -> Lang {
    Lang::from_locale(guild_locale.unwrap_or(member_locale))
}

/// The language of a button's ephemeral answer: the clicker's.
fn click_lang(click: &serenity::ComponentInteraction) -> Lang {
    Lang::from_locale(&click.locale)
}

/// The language of a button's public message: the server's, or in a DM the clicker's.
fn click_public_lang(click: &serenity::ComponentInteraction) -> Lang {
    shared_lang(click.guild_locale.as_deref(), &click.locale)
}

/// Records the language of the channel a command came from, for the posts there that answer no
/// command. A failure costs only that: it is logged, and the command goes on.
async fn remember_language(ctx: Context<'_>) {
    let (place, lang) = (place(ctx), public_lang(ctx));
    if let Err(e) = ctx.data().games.spoken_in(place, lang).await {
        warn!(error = ?e, "could not record a channel's language");
    }
}

/// After a command: tells its member, once and privately, that their turn notifications went off
/// because Discord would not deliver them (their direct messages are closed).
async fn tell_closed_dms(ctx: Context<'_>) {
    let me = member_id(ctx.author().id);
    match ctx.data().games.take_dm_refusal(me).await {
        Ok(true) => {
            let said = tr!(private_lang(ctx), "notify-refused");
            if let Err(e) = ctx.send(view::View::text(said).reply(true)).await {
                warn!(error = %e, "could not tell a member their notifications went off");
            }
        }
        Ok(false) => {}
        Err(e) => warn!(error = ?e, "could not read a member's notification setting"),
    }
}

/// After a change that posted `game`'s board as `message`: when the game told a member their
/// turn by direct message (`notified`), records the message for the notification to link to,
/// and wakes the outbox to send it.
async fn board_shown(
    data: &Data,
    game: game::GameId,
    notified: Option<game::MemberId>,
    message: Option<serenity::MessageId>,
) {
    if notified.is_none() {
        return;
    }
    if let Some(message) = message {
        if let Err(e) = data.games.board_posted(game, message.get()).await {
            warn!(error = ?e, "could not record a board's message");
        }
    }
    data.outbox.notify_one();
}

/// The public board of a change that went through, which Discord did not take as the reply to
/// its command (`why`: a 5xx, a time-out): handed to the outbox, which posts it in the game's
/// channel until Discord has it. The change stands, so the member is never told it failed.
async fn board_owed(data: &Data, game: &game::Game, why: &(dyn std::fmt::Display + Sync)) {
    warn!(game = %game.id, error = %why, "could not post a board as a reply; handing it to the outbox");
    match data.games.board_owed(game).await {
        Ok(()) => data.outbox.notify_one(),
        Err(e) => error!(game = %game.id, error = ?e, "could not hand a board to the outbox"),
    }
}

/// Replies to a command with `game`'s board after the change it made: the public post of that
/// change. A reply Discord does not take goes to the outbox instead ([`board_owed`]).
async fn reply_board(ctx: Context<'_>, game: &game::Game, notified: Option<game::MemberId>) {
    let games = &ctx.data().games;
    let v = view::game(public_lang(ctx), game, games.now());
    match ctx.send(v.reply(false)).await {
        Ok(reply) => {
            let message = sent_message(&reply, notified.is_some()).await;
            board_shown(ctx.data(), game.id, notified, message).await;
        }
        Err(e) => board_owed(ctx.data(), game, &e).await,
    }
}

/// The message of a reply just sent, read back (one more request) only when `wanted`.
async fn sent_message(reply: &poise::ReplyHandle<'_>, wanted: bool) -> Option<serenity::MessageId> {
    if !wanted {
        return None;
    }
    match reply.message().await {
        Ok(m) => Some(m.id),
        Err(e) => {
            warn!(error = %e, "could not read back a board's message");
            None
        }
    }
}

/// The member who sent a command, with the name they show in this server.
async fn caller(ctx: Context<'_>) -> Member {
    let name = match ctx.author_member().await {
        Some(m) => m.display_name().to_string(),
        None => ctx.author().display_name().to_string(),
    };
    Member::new(member_id(ctx.author().id), name)
}

fn user_member(user: &serenity::User) -> Member {
    Member::new(member_id(user.id), user.display_name().to_string())
}

/// A Discord user as the game knows them: the same snowflake.
fn member_id(id: serenity::UserId) -> game::MemberId {
    game::MemberId::new(id.get())
}

/// A server as the game knows it: the same snowflake.
fn guild_id(id: serenity::GuildId) -> game::GuildId {
    game::GuildId::new(id.get())
}

/// The server of an interaction; none is a direct message ([`game::GuildId::DIRECT`]).
fn guild_or_direct(id: Option<serenity::GuildId>) -> game::GuildId {
    id.map_or(game::GuildId::DIRECT, guild_id)
}

/// Where a command was sent.
fn place(ctx: Context<'_>) -> Place {
    Place {
        guild: guild_or_direct(ctx.guild_id()),
        channel: game::ChannelId::new(ctx.channel_id().get()),
    }
}

/// Every slash command the bot offers.
pub fn commands() -> Vec<poise::Command<Data, BotError>> {
    vec![
        challenge::challenge(),
        challenge::accept(),
        challenge::decline(),
        challenge::cancel(),
        challenge::rematch(),
        play::play_move(),
        play::board(),
        play::resign(),
        play::abort(),
        info::games(),
        info::leaderboard(),
        info::rating(),
        info::history(),
        info::vacation(),
        info::notify(),
        analyze::analyze(),
        info::help(),
    ]
}

/// The Discord locales each catalogue speaks for, beyond the default (English).
const LOCALES: &[(&str, Lang)] = &[("es-ES", Lang::Es), ("es-419", Lang::Es)];

/// Every slash command, with its descriptions from the English catalogue and its names,
/// descriptions and choices in every locale of [`LOCALES`], as they are registered.
pub fn localized_commands() -> Vec<poise::Command<Data, BotError>> {
    let mut commands = commands();
    let locales: Vec<&'static str> = LOCALES.iter().map(|(l, _)| *l).collect();
    locales::localize(&mut commands, "en-US", &locales, |locale, id| {
        let lang = LOCALES
            .iter()
            .find(|(l, _)| *l == locale)
            .map_or(Lang::En, |(_, lang)| *lang);
        crate::i18n::lookup(lang, id, &[]).ok()
    });
    commands
}

async fn on_error(err: poise::FrameworkError<'_, Data, BotError>) {
    let (ctx, message) = match err {
        poise::FrameworkError::Command { error, ctx, .. } => {
            (ctx, error.for_member(private_lang(ctx)))
        }
        // The rate limit's refusal, before the command ran (autocomplete is never refused).
        poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => (ctx, error.for_member(private_lang(ctx))),
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            // The parser's own words are English and about types: the log keeps them.
            warn!(%error, "could not read a command's option");
            let what =
                input.map_or_else(String::new, |i| format!(" `{}`", crate::rules::shorten(&i)));
            (
                ctx,
                tr!(private_lang(ctx), "discord-unreadable-option", what = what),
            )
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            warn!(%description, "command options do not match; re-register the commands");
            let ctx = poise::Context::Application(ctx);
            (ctx, tr!(private_lang(ctx), "discord-command-changed"))
        }
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            let payload = payload.as_deref().unwrap_or("(no message)");
            let command = &ctx.command().qualified_name;
            error!(%command, %payload, "a command panicked");
            (ctx, tr!(private_lang(ctx), "error-internal"))
        }
        // The rest of what the framework refuses before a command runs: none of the commands
        // asks for it today, but a member still gets a sentence in their language.
        other => match other.ctx() {
            Some(ctx) => {
                warn!(error = %other, "the framework refused a command");
                (ctx, tr!(private_lang(ctx), "discord-command-refused"))
            }
            None => {
                if let Err(e) = poise::builtins::on_error(other).await {
                    error!(error = %e, "while handling an error");
                }
                return;
            }
        },
    };
    let reply = poise::CreateReply::default()
        .content(message)
        .ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        warn!(error = %e, "could not send an error reply");
    }
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, BotError>,
    event: &serenity::FullEvent,
) -> Result<(), BotError> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        let ctx = framework.serenity_context;
        let data = framework.user_data;
        let here = click_place(click);
        if let Err(e) = data.games.spoken_in(here, click_public_lang(click)).await {
            warn!(error = ?e, "could not record a channel's language");
        }
        if let Err(e) = components(ctx, data, click).await {
            let refusal = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(e.for_member(click_lang(click)))
                    .allowed_mentions(serenity::CreateAllowedMentions::new())
                    .ephemeral(true),
            );
            if let Err(e) = click.create_response(&ctx.http, refusal).await {
                warn!(error = %e, "could not answer a button");
            }
        }
    }
    Ok(())
}

/// Answers a button click: `kind:action:argument`.
async fn components(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
) -> Result<(), BotError> {
    let who = match &click.member {
        Some(m) => Member::new(member_id(m.user.id), m.display_name().to_string()),
        None => user_member(&click.user),
    };
    data.rate.take(who.id)?;
    let button: Button = click
        .data
        .custom_id
        .parse()
        .map_err(|_| BotError::Input(tr!(click_lang(click), "discord-dead-button")))?;
    match button {
        Button::Accept(_) | Button::Decline(_) | Button::Cancel(_) => {
            challenge::on_button(ctx, data, click, &who, button).await
        }
        Button::Resign(id) => play::on_resign(ctx, data, click, &who, id).await,
        Button::Rematch(id) => challenge::on_rematch(ctx, data, click, &who, id).await,
        Button::KeepPlaying(_) => {
            let text = tr!(click_lang(click), "resign-kept-playing");
            update(ctx, click, view::View::text(text), true).await
        }
        Button::Leaderboard { size, page } => info::on_page(ctx, data, click, size, page).await,
    }
}

/// Answers a click by replacing the message that carries the button.
async fn update(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    v: view::View,
    ephemeral: bool,
) -> Result<(), BotError> {
    let message = v.interaction_message(ephemeral);
    click
        .create_response(
            &ctx.http,
            serenity::CreateInteractionResponse::UpdateMessage(message),
        )
        .await?;
    Ok(())
}

/// Where a button was clicked.
fn click_place(click: &serenity::ComponentInteraction) -> Place {
    Place {
        guild: guild_or_direct(click.guild_id),
        channel: game::ChannelId::new(click.channel_id.get()),
    }
}

/// Starts the clock's tasks: the sweeper, the AI's answers to games a restart left waiting, and
/// the outbox that posts what both queued. Each posts nothing itself, so a slow Discord cannot
/// hold up the clocks, and a long AI search cannot hold up a reminder.
fn spawn_clock_tasks(
    http: Arc<serenity::Http>,
    cache: Arc<serenity::Cache>,
    games: Games,
    every: Duration,
    post_timeout: Duration,
    wake: Arc<tokio::sync::Notify>,
) {
    outbox::spawn_outbox(http, cache, games.clone(), wake.clone(), post_timeout);
    spawn_sweeper(games.clone(), every, wake.clone());
    spawn_ai_answers(games, every, wake);
}

/// Checks the clocks every `every`: first records that the bot is alive (moving every clock on
/// by the time it was away, after a silence of more than two sweeps), then sweeps. What the
/// sweep did is queued in the outbox with it; `wake` tells the outbox.
fn spawn_sweeper(games: Games, every: Duration, wake: Arc<tokio::sync::Notify>) {
    let grace = every.saturating_mul(2);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let now = games.now();
            // No sweep on clocks that may still have to move on.
            if let Err(e) = games.keep_alive(now, grace).await {
                error!(error = ?e, "could not record that the bot is alive");
                continue;
            }
            match games.sweep(now).await {
                Ok(0) => {}
                Ok(_) => wake.notify_one(),
                Err(e) => error!(error = ?e, "clock sweep failed"),
            }
        }
    });
}

/// Answers the games left waiting for the AI every `every`, on a task of its own.
fn spawn_ai_answers(games: Games, every: Duration, wake: Arc<tokio::sync::Notify>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            answer_waiting_ai(&games, &wake).await;
        }
    });
}

/// How long the AI must have been to move before the sweeper answers for it: longer than any
/// reply in progress in a `/move` takes, so the sweeper only picks up what a restart left.
const AI_STALLED: Duration = Duration::from_secs(10);

/// Answers the games left waiting for the AI; each move is queued in the outbox with its
/// announcement.
async fn answer_waiting_ai(games: &Games, wake: &tokio::sync::Notify) {
    let ids = match games.ai_games_to_move(AI_STALLED).await {
        Ok(ids) => ids,
        Err(e) => {
            error!(error = ?e, "could not list games waiting for the AI");
            return;
        }
    };
    for id in ids {
        match games.ai_reply_announced(id).await {
            Ok(Some(_)) => wake.notify_one(),
            Ok(None) => {}
            Err(e) => error!(error = ?e, game = %id, "the AI could not reply"),
        }
    }
}

/// How long one request to Discord may take before it counts as failed (and is tried again
/// where that is safe).
const HTTP_TIMEOUT: Duration = Duration::from_secs(20);

/// Serves `games` on Discord until SIGINT or SIGTERM.
///
/// Start-up checks the token and registers the commands before connecting to the gateway, and
/// only then starts the one sweeper: it either serves or returns an error that says what to fix.
/// The caller has claimed and opened the database (see `main`).
pub async fn run(config: BotConfig, games: Games) -> anyhow::Result<()> {
    let Some(token) = config.token.clone().filter(|t| !t.trim().is_empty()) else {
        anyhow::bail!("{MISSING_TOKEN}");
    };
    let burst = NonZeroU32::new(config.rate_limit_commands).unwrap_or(NonZeroU32::MIN);
    let rate_period = Duration::from_secs(config.rate_limit_period_secs.max(1));
    let sweep_every = Duration::from_secs(config.sweep_interval_secs.max(1));
    let post_timeout = Duration::from_millis(config.post_timeout_ms.max(1));

    let client_http = reqwest::Client::builder()
        .use_rustls_tls()
        .timeout(HTTP_TIMEOUT)
        .build()?;
    let mut http = serenity::HttpBuilder::new(&token).client(client_http);
    if let Some(base) = &config.api_base {
        // Both are needed: with the rate limiter on, requests ignore the proxy.
        http = http.proxy(base).ratelimiter_disabled(true);
    }
    let http = http.build();
    let commands = localized_commands();
    startup::prepare(&http, &commands, config.guild_id).await?;

    let setup_games = games.clone();
    let wake = Arc::new(tokio::sync::Notify::new());
    let setup_wake = wake.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            command_check: Some(|ctx| Box::pin(rate::check(ctx))),
            pre_command: |ctx| Box::pin(remember_language(ctx)),
            post_command: |ctx| Box::pin(tell_closed_dms(ctx)),
            on_error: |err| Box::pin(on_error(err)),
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            // Replies that name no one to ping (refusals, lists, ratings) ping no one.
            allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
            ..Default::default()
        })
        .setup(move |_ctx, ready, _framework| {
            Box::pin(async move {
                info!(user = %ready.user.name, "connected to Discord");
                Ok(Data {
                    games: setup_games,
                    rate: rate::RateLimit::new(burst, rate_period),
                    outbox: setup_wake,
                })
            })
        })
        .build();

    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    // Spawned here, once, not on READY: a resumed or re-identified gateway session never
    // starts a second sweeper or sender.
    spawn_clock_tasks(
        client.http.clone(),
        client.cache.clone(),
        games.clone(),
        sweep_every,
        post_timeout,
        wake,
    );

    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        info!("shutting down");
        shards.shutdown_all().await;
    });
    // The gateway shards this process runs: a range of them, all of a count, or as many as
    // Discord recommends.
    let range = config.shard_range()?;
    let shards = client.shard_manager.clone();
    let started = async {
        match range {
            Some(s) if !s.is_all() => {
                info!(shards = %s, "running some of the bot's gateway shards");
                // serenity 0.12 reads this range's end as included: `first..last` runs `last`.
                client.start_shard_range(s.first..s.last, s.count).await
            }
            Some(s) => client.start_shards(s.count).await,
            None => client.start_autosharded().await,
        }
    };
    tokio::select! {
        started = started => started?,
        // Only heard of if `main` set up logging with `gateway_refusals`.
        refused = refusals::first() => {
            // The refused shard's runner no longer answers (serenity waits 5 s for it): the
            // others get a moment to close cleanly, then the process stops all the same.
            let _ = tokio::time::timeout(Duration::from_secs(1), shards.shutdown_all()).await;
            anyhow::bail!(refused);
        }
    }
    Ok(())
}

/// Waits for SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
