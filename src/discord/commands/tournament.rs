//! `/tournament` and its subcommands, the sign-up message with its Join and Leave buttons, and
//! how a tournament's posts look.

use crate::discord::views::Audience;
use poise::serenity_prelude as serenity;
use tracing::warn;

use crate::discord::params::{read_size, sizes, Time};
use crate::discord::reply;
use crate::discord::views::{embedded, signup, Markdown, View};
use crate::discord::{caller, ids, place, private_lang, public_lang, BotError, Context, Data};
use crate::game::{
    Member, RoundNumber, TimeControl, Tournament, TournamentFormat, TournamentId, TournamentRef,
    TournamentRequest,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text::{self, Entry};

/// How the games are paired.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Format {
    #[name = "round-robin"]
    RoundRobin,
    #[name = "swiss"]
    Swiss,
}

impl From<Format> for TournamentFormat {
    fn from(f: Format) -> Self {
        match f {
            Format::RoundRobin => TournamentFormat::RoundRobin,
            Format::Swiss => TournamentFormat::Swiss,
        }
    }
}

/// Tournaments in this server: sign up, play, and see the standings
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "start",
        "standings",
        "pairings",
        "withdraw",
        "cancel"
    ),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// The server's tournaments matching what is typed, as `name (#id)`: the open and running ones
/// first.
async fn tournaments(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let typed = partial.trim().to_lowercase();
    let list = match ctx
        .data()
        .games
        .tournaments
        .tournaments_in(place(ctx).guild)
        .await
    {
        Ok(list) => list,
        Err(e) => {
            warn!(error = ?e, "could not list a server's tournaments");
            Vec::new()
        }
    };
    let choices = list
        .into_iter()
        .map(|(id, name)| (id, format!("{name} (#{id})")))
        .filter(|(_, shown)| shown.to_lowercase().contains(&typed))
        .take(25)
        .map(|(id, shown)| serenity::AutocompleteChoice::new(shown, id.get()))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The tournament an option names, or the only one open or running here.
fn meant(tournament: Option<i64>) -> TournamentRef {
    tournament.map_or(TournamentRef::Only, |n| {
        TournamentRef::Id(TournamentId::new(n))
    })
}

/// Whether the member who sent the command may manage the server (or is an administrator), as
/// the interaction's member permissions say.
fn manages_server(ctx: Context<'_>) -> bool {
    let poise::Context::Application(app) = ctx else {
        return false;
    };
    app.interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator())
}

/// A number option Discord bounds, as the service counts it (out of range: refused there).
fn count(n: Option<i64>) -> Option<u32> {
    n.map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

// poise reads a slash command's options from its function's parameters: eight options are
// eight parameters.
#[allow(clippy::too_many_arguments)]
/// Create a tournament in this channel (Manage Server)
#[poise::command(slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "The tournament's name"]
    #[max_length = 60]
    name: String,
    #[description = "round-robin: every pair plays once; swiss: rounds paired by score"]
    format: Format,
    #[description = "Board size, columns x rows (default 8x8)"]
    #[autocomplete = "sizes"]
    size: Option<String>,
    #[description = "Time per move (default 1 day)"] time: Option<Time>,
    #[description = "Rated games (default yes)"] rated: Option<bool>,
    #[description = "Swiss only: the number of rounds (default log2 of the players, plus 1)"]
    #[min = 1]
    #[max = 20]
    rounds: Option<i64>,
    #[description = "The most players it takes (default 32 for a round robin, 128 for a Swiss)"]
    #[min = 3]
    #[max = 128]
    max_players: Option<i64>,
    #[description = "When it starts by itself, like 1d, 12h or 30m (default: when you start it)"]
    starts_in: Option<String>,
) -> Result<(), BotError> {
    let starts_in = match starts_in {
        Some(said) => Some(crate::game::parse_starts_in(&said).ok_or_else(|| {
            BotError::Input(tr!(
                private_lang(ctx),
                "tournament-error-wait",
                text = crate::rules::shorten(&said)
            ))
        })?),
        None => None,
    };
    let organizer = caller(ctx).await;
    let request = TournamentRequest {
        place: place(ctx),
        organizer: organizer.clone(),
        manages_server: manages_server(ctx),
        name,
        format: format.into(),
        size: read_size(size)?,
        time: time.map(TimeControl::from).unwrap_or_default(),
        rated: rated.unwrap_or(true),
        rounds: count(rounds),
        max_players: count(max_players),
        starts_in,
    };
    let games = &ctx.data().games;
    let t = games.tournaments.create_tournament(request).await?;
    let reply = ctx
        .send(signup(public_lang(ctx), &t, &organizer).reply(Audience::Channel))
        .await?;
    match reply.message().await {
        Ok(posted) => {
            if let Err(e) = games
                .tournaments
                .tournament_posted(t.id, ids::message_id(posted.id))
                .await
            {
                warn!(error = ?e, tournament = %t.id, "could not record a sign-up message");
            }
        }
        Err(e) => warn!(error = %e, "could not read back a sign-up message"),
    }
    Ok(())
}

/// Enter a tournament before it starts
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = caller(ctx).await;
    let games = &ctx.data().games;
    let t = games
        .tournaments
        .join_tournament(&me, place(ctx), meant(tournament))
        .await?;
    entered(ctx, &t, Entry::Join).await
}

/// Leave a tournament before it starts
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = caller(ctx).await;
    let games = &ctx.data().games;
    let t = games
        .tournaments
        .leave_tournament(&me, place(ctx), meant(tournament))
        .await?;
    entered(ctx, &t, Entry::Leave).await
}

/// Brings the sign-up message up to date after a join or a leave, then answers it privately.
async fn entered(ctx: Context<'_>, t: &Tournament, entry: Entry) -> Result<(), BotError> {
    if let Some(message) = t.message {
        let v = signup_of(&ctx.data().games, public_lang(ctx), t).await?;
        let channel = serenity::ChannelId::new(t.place.channel.get());
        let edit = v.edit_message();
        if let Err(e) = channel
            .edit_message(ctx.http(), serenity::MessageId::new(message.get()), edit)
            .await
        {
            warn!(error = %e, tournament = %t.id, "could not update a sign-up message");
        }
    }
    let said = text::entry_answer(private_lang(ctx), t, entry);
    ctx.send(View::text(said).reply(Audience::Caller)).await?;
    Ok(())
}

/// Start a tournament now (its organizer, or Manage Server)
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = caller(ctx).await;
    let games = &ctx.data().games;
    let round = games
        .tournaments
        .start_tournament(&me, manages_server(ctx), place(ctx), meant(tournament))
        .await?;
    // The answer is the sign-up, now under way and without its buttons; the round's games
    // follow in its announcement, which pings their players.
    let v = signup_of(games, public_lang(ctx), &round.tournament).await?;
    // The round's own announcements (direct messages) were queued with it, for the outbox.
    ctx.send(v.reply(Audience::Channel)).await?;
    Ok(())
}

/// A tournament's standings
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let table = games
        .tournaments
        .tournament_standings(place(ctx), meant(tournament))
        .await?;
    let said = text::table(public_lang(ctx), &Markdown, &table);
    ctx.send(embedded(said).reply(Audience::Channel)).await?;
    Ok(())
}

/// The games of a tournament's round
#[poise::command(slash_command, guild_only)]
pub async fn pairings(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
    #[description = "Which round (default: the one being played)"]
    #[min = 1]
    round: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let round = games
        .tournaments
        .tournament_pairings(
            place(ctx),
            meant(tournament),
            count(round).map(RoundNumber::new),
        )
        .await?;
    let said = text::round_games(public_lang(ctx), &Markdown, &round, games.now());
    ctx.send(embedded(said).reply(Audience::Channel)).await?;
    Ok(())
}

/// Leave a running tournament: your games left are lost, those played stand
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = caller(ctx).await;
    let games = &ctx.data().games;
    let (t, lost) = games
        .tournaments
        .withdraw(&me, place(ctx), meant(tournament))
        .await?;
    let said = text::withdrawn(public_lang(ctx), &Markdown, &t, &lost, &me);
    ctx.send(View::text(said).reply(Audience::Channel)).await?;
    Ok(())
}

/// Cancel a tournament; its games under way go on as ordinary games (its organizer, or Manage
/// Server)
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which tournament (default: the only one here)"]
    #[autocomplete = "tournaments"]
    tournament: Option<i64>,
) -> Result<(), BotError> {
    let me = caller(ctx).await;
    let games = &ctx.data().games;
    let t = games
        .tournaments
        .cancel_tournament(&me, manages_server(ctx), place(ctx), meant(tournament))
        .await?;
    let said = text::tournament_cancelled(public_lang(ctx), &t, text::CancelledBy::Organizer);
    ctx.send(View::text(said).reply(Audience::Channel)).await?;
    Ok(())
}

/// Join or Leave on a sign-up message: the message shows the entrants after the change; a
/// refusal goes to the clicker alone.
pub async fn on_button(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: TournamentId,
    entry: Entry,
) -> Result<(), BotError> {
    let games = &data.games;
    let at = crate::discord::click_place(click);
    let which = TournamentRef::Id(id);
    let t = match entry {
        Entry::Join => games.tournaments.join_tournament(who, at, which).await?,
        Entry::Leave => games.tournaments.leave_tournament(who, at, which).await?,
    };
    let v = signup_of(games, crate::discord::click_public_lang(click), &t).await?;
    reply::update(ctx, click, v, Audience::Channel).await
}

/// The sign-up message of `t`, its organizer's name read from the server's members.
async fn signup_of(
    games: &crate::game::Services,
    lang: Lang,
    t: &Tournament,
) -> Result<View, BotError> {
    let organizer = games.play.member_in(t.place.guild, t.organizer).await?;
    Ok(signup(lang, t, &organizer))
}
