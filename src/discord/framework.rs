//! The poise framework: the commands as registered, the hooks around each command, the clicks
//! on buttons, and [`run`], which serves them until the process is told to stop.

use crate::discord::views::Audience;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{info, warn};

use crate::config::{BotConfig, MISSING_TOKEN};
use crate::game::{ChannelId, Member, Place, Services};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text::Entry;

use super::button::Button;
use super::commands::taps::{self, Of, Open};
use super::commands::{analyze, challenge, info, play, puzzle, settings, teams, tournament};
use super::error::on_error;
use super::health;
use super::lang::remember_language;
use super::measure::{self, Outcome};
use super::refusals::Refusals;
use super::reply::update;
use super::tasks::spawn_clock_tasks;
use super::views as view;
use super::views::menu::Menu;
use super::{
    click_lang, click_place, click_public_lang, guild_id, locales, member_id, private_lang, rate,
    reach, startup, user_member, BotError, Context, Data,
};

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
        settings::settings(),
        settings::server_settings(),
        analyze::analyze(),
        tournament::tournament(),
        teams::team_game(),
        puzzle::puzzle(),
        info::help(),
    ]
}

/// The commands of a server's own features: offered only where a server added the bot.
const SERVER_ONLY: &[&str] = &["server-settings", "tournament", "leaderboard", "team-game"];

/// Where each command is offered when registered for all of Discord (Discord reads this of
/// global commands only): a server's features where a server added the bot; every other
/// command also to a member who installs the bot to their own account, in any server, in its
/// direct messages and in group DMs.
pub fn offer_everywhere(commands: &mut [poise::Command<Data, BotError>]) {
    use serenity::{InstallationContext as Install, InteractionContext as Context};
    for c in commands {
        if SERVER_ONLY.contains(&&*c.name) {
            c.install_context = Some(vec![Install::Guild]);
            c.interaction_context = Some(vec![Context::Guild]);
        } else {
            c.install_context = Some(vec![Install::Guild, Install::User]);
            c.interaction_context = Some(vec![
                Context::Guild,
                Context::BotDm,
                Context::PrivateChannel,
            ]);
        }
    }
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

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, BotError>,
    event: &serenity::FullEvent,
) -> Result<(), BotError> {
    // A game's thread deleted: its games go back to the channel they started in.
    if let serenity::FullEvent::ThreadDelete { thread, .. } = event {
        let place = Place {
            guild: guild_id(thread.guild_id),
            channel: ChannelId::new(thread.id.get()),
        };
        match framework
            .user_data
            .games
            .threads
            .thread_deleted(place)
            .await
        {
            Ok(Some(parent)) => {
                info!(
                    thread = place.channel.get(),
                    parent = parent.channel.get(),
                    "a game's thread was deleted; its games are back in their channel"
                );
            }
            Ok(None) => {}
            Err(e) => warn!(error = ?e, "could not move games out of a deleted thread"),
        }
        return Ok(());
    }
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        let started = std::time::Instant::now();
        let ctx = framework.serenity_context;
        let data = framework.user_data;
        let here = click_place(click);
        if let Err(e) = data
            .games
            .settings
            .spoken_in(here, click_public_lang(click))
            .await
        {
            warn!(error = ?e, "could not record a channel's language");
        }
        let kind = click
            .data
            .custom_id
            .parse::<Button>()
            .ok()
            .map(|b| b.kind());
        let done = components(ctx, data, click).await;
        let outcome = done.as_ref().map_or_else(Outcome::of, |()| Outcome::Ok);
        measure::tapped(kind, outcome, started);
        if let Err(e) = done {
            let refusal = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(e.for_member(click_lang(click)))
                    .allowed_mentions(serenity::CreateAllowedMentions::new())
                    .ephemeral(true),
            );
            if let Err(e) = click.create_response(&ctx.http, refusal).await {
                measure::unanswered();
                warn!(error = %e, "could not answer a button");
            }
        }
    }
    Ok(())
}

/// Answers a click on a button or a choice in a menu: `kind:action:argument`.
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
            update(ctx, click, view::View::text(text), Audience::Caller).await
        }
        Button::Leaderboard { size, page } => info::on_page(ctx, data, click, size, page).await,
        Button::Join(id) => tournament::on_button(ctx, data, click, &who, id, Entry::Join).await,
        Button::Leave(id) => tournament::on_button(ctx, data, click, &who, id, Entry::Leave).await,
        Button::Move(id) => taps::on_open(ctx, data, click, &who, Of::Game(id), Open::New).await,
        Button::Pieces(id) => {
            taps::on_open(ctx, data, click, &who, Of::Game(id), Open::InPlace).await
        }
        Button::PuzzleMove => taps::on_open(ctx, data, click, &who, Of::Puzzle, Open::New).await,
        Button::PuzzlePieces => {
            taps::on_open(ctx, data, click, &who, Of::Puzzle, Open::InPlace).await
        }
        Button::Piece { game, ply } => {
            taps::on_piece(ctx, data, click, &who, Menu::Game { game, ply }).await
        }
        Button::PuzzlePiece { puzzle, left } => {
            taps::on_piece(ctx, data, click, &who, Menu::Puzzle { puzzle, left }).await
        }
        Button::Target { game, ply } => {
            taps::on_target(ctx, data, click, &who, Menu::Game { game, ply }).await
        }
        Button::PuzzleTarget { puzzle, left } => {
            taps::on_target(ctx, data, click, &who, Menu::Puzzle { puzzle, left }).await
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
pub async fn run(config: BotConfig, games: Services, refusals: Refusals) -> anyhow::Result<()> {
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
    // Health checks answer from the start: up at once, ready once the shards are connected.
    let shard_manager = Arc::new(tokio::sync::OnceCell::new());
    if let Some(addr) = config.health_addr {
        let readiness = health::Readiness {
            shards: Arc::clone(&shard_manager),
            games: games.clone(),
            metrics: crate::telemetry::install()?,
            probing: Arc::default(),
        };
        health::serve(addr, readiness).await.map_err(|e| {
            anyhow::anyhow!("cannot answer health checks on HEALTH_ADDR={addr}: {e}")
        })?;
    }
    let mut commands = localized_commands();
    if config.guild_id.is_none() {
        offer_everywhere(&mut commands);
    }
    startup::prepare(&http, &commands, config.guild_id).await?;

    let setup_games = games.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            command_check: Some(|ctx| Box::pin(rate::check(ctx))),
            pre_command: |ctx| {
                Box::pin(async move {
                    measure::started(ctx).await;
                    remember_language(ctx).await;
                })
            },
            post_command: |ctx| {
                Box::pin(async move {
                    measure::finished(ctx, Outcome::Ok).await;
                    tell_closed_dms(ctx).await;
                })
            },
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
    );

    let _ = shard_manager.set(client.shard_manager.clone());
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
        // A shard's start reads the gateway's address from Discord first.
        started = started => started.map_err(|e| match reach::unreached(&e) {
            Some(why) => anyhow::Error::new(why),
            None => e.into(),
        })?,
        // Only heard of if `main` set up logging with `refusals`' layer.
        refused = refusals.first() => {
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

/// After a command: tells its member, once and privately, that their turn notifications went off
/// because Discord would not deliver them (their direct messages are closed).
async fn tell_closed_dms(ctx: Context<'_>) {
    let me = member_id(ctx.author().id);
    match ctx.data().games.outbox.take_dm_refusal(me).await {
        Ok(true) => {
            let said = tr!(private_lang(ctx), "notify-refused");
            if let Err(e) = ctx
                .send(view::View::text(said).reply(Audience::Caller))
                .await
            {
                warn!(error = %e, "could not tell a member their notifications went off");
            }
        }
        Ok(false) => {}
        Err(e) => warn!(error = ?e, "could not read a member's notification setting"),
    }
}
