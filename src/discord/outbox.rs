//! Posting the outbox: the announcements the game service queued (time-outs, expiries,
//! reminders, the AI's moves after a restart), oldest first, each deleted once Discord has it.
//!
//! A post that fails for a while (a 5xx, a time-out, a network error, a 429 that serenity's rate
//! limiter did not wait out) is tried again later, with a growing pause; one Discord will never
//! accept (no access to the channel, no permission, the channel gone) is dropped with a warning.
//! Neither holds up the rest.

use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use poise::serenity_prelude as serenity;
use tracing::{error, warn};

use crate::game::{
    Announced, ChannelId, Game, MessageId, Owed, Place, Services, ThreadRefusal, Timestamp,
};
use crate::i18n::Lang;
use crate::text;

use super::reply::pictures::{self, DEFAULT_ATTACHMENT_LIMIT};
use super::retry::{self, Backoff, Verdict};
use super::views as view;

/// Announcements taken from the outbox at a time.
const BATCH: i64 = 50;

/// The pause before a failed post is tried again: from a quarter of a second, doubling with each
/// failure, up to five minutes.
const BACKOFF: Backoff = Backoff {
    first: Duration::from_millis(250),
    cap: Duration::from_secs(300),
};

/// The longest the task sleeps without looking at the outbox: rows queued by another process
/// sharing the database are seen this late at worst.
const MAX_IDLE: Duration = Duration::from_secs(5);

/// Starts the task that posts the outbox, woken by the service when something was queued;
/// each post may take `timeout` before it counts as failed.
pub(super) fn spawn_outbox(
    http: Arc<serenity::Http>,
    cache: Arc<serenity::Cache>,
    games: Services,
    timeout: Duration,
) {
    tokio::spawn(async move {
        let poster = Poster { http, timeout };
        loop {
            let full = match games.outbox.due_announcements(wall_clock(), BATCH).await {
                Ok(due) => {
                    let full = due.len() as i64 == BATCH;
                    for owed in due {
                        post_one(&poster, &cache, &games, owed).await;
                    }
                    full
                }
                Err(e) => {
                    error!(error = ?e, "could not read the outbox");
                    false
                }
            };
            if full {
                continue;
            }
            let wait = match games.outbox.next_announcement_at().await {
                Ok(Some(at)) => at - wall_clock(),
                Ok(None) => MAX_IDLE,
                Err(e) => {
                    error!(error = ?e, "could not read the outbox");
                    MAX_IDLE
                }
            };
            // Never spin, even on a row that keeps failing to be postponed.
            let wait = wait.clamp(Duration::from_millis(50), MAX_IDLE);
            tokio::select! {
                () = games.outbox.queued() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    });
}

/// The language of a post in `place`: in a server, the server's as the gateway last told it;
/// else (a direct message, or a server the gateway has not mentioned since start-up) the
/// channel's as its last command showed it; English when neither is known.
async fn post_lang(cache: &serenity::Cache, games: &Services, place: Place) -> Lang {
    if !place.is_direct() {
        let id = serenity::GuildId::new(place.guild.get());
        if let Some(locale) = cache.guild(id).map(|g| g.preferred_locale.clone()) {
            return Lang::from_locale(&locale);
        }
    }
    match games.settings.lang_in(place).await {
        Ok(lang) => lang.unwrap_or_default(),
        Err(e) => {
            warn!(error = ?e, "could not read a channel's language; posting in English");
            Lang::En
        }
    }
}

/// Renders and posts one announcement (or opens the thread it asks for), and removes it or puts
/// it off as the answer says.
async fn post_one(poster: &Poster, cache: &serenity::Cache, games: &Services, owed: Owed) {
    let what = match games.outbox.to_say(&owed).await {
        Ok(Some(what)) => what,
        // Nothing left to say.
        Ok(None) => {
            forget(games, &owed).await;
            return;
        }
        Err(e) => {
            error!(outbox = %owed.id, error = ?e, "could not prepare an announcement");
            later(games, &owed).await;
            return;
        }
    };
    if let Announced::OpenThread { game, message } = &what {
        open_thread(poster, games, &owed, game, *message).await;
        return;
    }
    let channel = owed.place.channel.get();
    let now = games.now();
    // A turn told by direct message goes to its member, in their language (the view knows it);
    // the rest to the game's channel, in the channel's.
    let dm_to = what.direct_to();
    let board_of = what.board_of();
    let lang = post_lang(cache, games, owed.place).await;
    // What only its member sees, in their look; the rest in the one chosen for the game's posts.
    let style = match (dm_to, what.game()) {
        (None, Some(game)) => pictures::public_style(games, game).await,
        _ => games.settings.board_style(owed.place, dm_to).await,
    };
    let Some(mut message) = view::announcement(lang, &what, now, style) else {
        forget(games, &owed).await;
        return;
    };
    // A board that shows a game's end, with pictures, carries its replay.
    if let (Some(_), Some(game)) = (board_of, what.game()) {
        message =
            pictures::at_the_end(games, lang, message, game, style, DEFAULT_ATTACHMENT_LIMIT).await;
    }
    // The nonce lets Discord drop a second copy, should a post that timed out have arrived.
    let message = message
        .message()
        .nonce(serenity::Nonce::String(format!("outbox-{}", owed.id)))
        .enforce_nonce(true);
    let why = match poster
        .post(channel, dm_to.map(|member| member.get()), message)
        .await
    {
        Ok(message_id) => {
            if let Some(game) = board_of {
                if let Err(e) = games
                    .outbox
                    .board_posted(game, super::ids::message_id(message_id))
                    .await
                {
                    warn!(outbox = %owed.id, error = ?e, "could not record a board's message");
                }
            }
            if let Announced::ThreadEnded(game) = &what {
                poster.archive(game.place.channel.get()).await;
            }
            forget(games, &owed).await;
            return;
        }
        Err(why) => why,
    };
    // A game's thread a moderator deleted: the game, and what it still owes, go back to the
    // channel it started in, and this is posted there.
    if dm_to.is_none() && why.code() == Some(retry::UNKNOWN_CHANNEL) {
        match games.threads.thread_deleted(owed.place).await {
            Ok(Some(parent)) => {
                warn!(
                    outbox = %owed.id,
                    thread = channel,
                    parent = parent.channel.get(),
                    "a game's thread is gone; its games are back in their channel"
                );
                later(games, &owed).await;
                return;
            }
            Ok(None) => {}
            Err(e) => {
                error!(outbox = %owed.id, error = ?e, "could not move games out of a deleted thread");
                later(games, &owed).await;
                return;
            }
        }
    }
    match why.verdict() {
        Verdict::DmClosed => {
            warn!(outbox = %owed.id, %why, "a member's direct messages are closed; their turn notifications are off");
            if let Some(member) = dm_to {
                if let Err(e) = games.outbox.turn_dms_refused(member).await {
                    error!(outbox = %owed.id, error = ?e, "could not turn off refused notifications");
                }
            }
            forget(games, &owed).await;
        }
        Verdict::Never => {
            warn!(
                outbox = %owed.id,
                channel,
                %why,
                "dropping an announcement Discord will not accept"
            );
            forget(games, &owed).await;
        }
        Verdict::Later => {
            warn!(
                outbox = %owed.id,
                channel,
                %why,
                attempts = owed.attempts + 1,
                "could not post an announcement; will try again"
            );
            later(games, &owed).await;
        }
    }
}

/// Discord's JSON error code for missing permissions.
const MISSING_PERMISSIONS: i64 = 50_013;
/// Discord's JSON error code for a server at its cap of active threads.
const TOO_MANY_THREADS: i64 = 160_006;

/// What Discord's refusal of a thread, by its JSON error `code`, means for the service.
fn thread_refusal(code: i64) -> ThreadRefusal {
    match code {
        MISSING_PERMISSIONS => ThreadRefusal::MissingPermissions,
        TOO_MANY_THREADS => ThreadRefusal::TooManyThreads,
        other => ThreadRefusal::Other(other),
    }
}

/// Opens the thread a game that just started asks for, on `message` (the one showing its
/// board), and moves the game into it. Refused, the game stays in its channel, and a refusal the
/// server's admins can mend (missing permissions, too many threads) is kept for them to see.
async fn open_thread(
    poster: &Poster,
    games: &Services,
    owed: &Owed,
    game: &Game,
    message: Option<MessageId>,
) {
    // Due once the board's message is recorded, or when it waited as long as it may.
    let Some(message) = message.and_then(|m| NonZeroU64::new(m.get())) else {
        warn!(
            outbox = %owed.id,
            game = game.id.get(),
            "no message shows the game's board; it stays in its channel"
        );
        forget(games, owed).await;
        return;
    };
    let Some(channel) = NonZeroU64::new(game.place.channel.get()).map(serenity::ChannelId::from)
    else {
        forget(games, owed).await;
        return;
    };
    let thread = serenity::CreateThread::new(text::thread_name(game))
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let opened = poster
        .limited(channel.create_thread_from_message(
            &poster.http,
            serenity::MessageId::from(message),
            thread,
        ))
        .await;
    match opened {
        Ok(thread) => {
            let thread = ChannelId::new(thread.id.get());
            match games.threads.thread_opened(game, thread).await {
                Ok(true) => {}
                Ok(false) => warn!(
                    outbox = %owed.id,
                    game = game.id.get(),
                    "the game ended or moved while its thread opened"
                ),
                Err(e) => {
                    // Opening again would be refused (160004): the game stays in its channel.
                    error!(outbox = %owed.id, error = ?e, "could not move a game into its thread");
                }
            }
            forget(games, owed).await;
        }
        Err(why) => match why.verdict() {
            Verdict::Later => {
                warn!(outbox = %owed.id, %why, attempts = owed.attempts + 1, "could not open a game's thread; will try again");
                later(games, owed).await;
            }
            Verdict::Never | Verdict::DmClosed => {
                let code = why.code().map_or(0, |code| code as i64);
                warn!(outbox = %owed.id, game = game.id.get(), %why, "Discord would not open a game's thread; it stays in its channel");
                if code != 0 {
                    let refusal = thread_refusal(code);
                    if let Err(e) = games.threads.thread_refused(game.place, refusal).await {
                        error!(outbox = %owed.id, error = ?e, "could not record why a thread was refused");
                    }
                }
                forget(games, owed).await;
            }
        },
    }
}

/// Removes a posted (or hopeless) announcement. Until that is done nothing else is posted:
/// an announcement left behind would be posted a second time.
async fn forget(games: &Services, owed: &Owed) {
    let mut failures = 0;
    while let Err(e) = games.outbox.announced(owed.id).await {
        error!(outbox = %owed.id, error = ?e, "could not remove an announcement from the outbox");
        tokio::time::sleep(BACKOFF.pause(failures)).await;
        failures = failures.saturating_add(1);
    }
}

/// Puts an announcement off by the pause for its failures so far.
async fn later(games: &Services, owed: &Owed) {
    let earlier = u32::try_from(owed.attempts.max(0)).unwrap_or(u32::MAX);
    let wait = BACKOFF.pause(earlier);
    let at = wall_clock() + wait;
    if let Err(e) = games.outbox.announce_later(owed, at).await {
        error!(outbox = %owed.id, error = ?e, "could not put an announcement off");
    }
}

/// The system's time, to the millisecond: when a post is due is reckoned with it, not with the
/// game's clock (to the second).
fn wall_clock() -> Timestamp {
    Timestamp::from(SystemTime::now())
}

/// Why a post did not go through.
#[derive(Debug, thiserror::Error)]
enum PostError {
    /// The place or member has no id Discord could know (zero).
    #[error("no channel or member to post to")]
    Nowhere,
    #[error("no answer within the time limit")]
    TimedOut,
    #[error(transparent)]
    Discord(#[from] serenity::Error),
}

impl PostError {
    /// Discord's JSON error code, if Discord refused.
    fn code(&self) -> Option<isize> {
        match self {
            PostError::Discord(e) => retry::json_code(e),
            _ => None,
        }
    }

    /// How it is counted among the posts: by Discord's status (`4xx`, `429`, `5xx`), or
    /// `no_answer`.
    fn status_class(&self) -> &'static str {
        match self {
            PostError::Discord(serenity::Error::Http(
                serenity::http::HttpError::UnsuccessfulRequest(r),
            )) => match r.status_code.as_u16() {
                429 => "429",
                500.. => "5xx",
                _ => "4xx",
            },
            _ => "no_answer",
        }
    }

    fn verdict(&self) -> Verdict {
        match self {
            PostError::Nowhere => Verdict::Never,
            PostError::TimedOut => Verdict::Later,
            PostError::Discord(e) => retry::verdict(e),
        }
    }
}

/// Posts messages through the bot's `Http` (its token, its proxy, its rate limiter when there is
/// one), with a time limit on each request.
struct Poster {
    http: Arc<serenity::Http>,
    timeout: Duration,
}

impl Poster {
    /// Posts `message` in `channel`, or to member `dm_to` by direct message (in the channel
    /// Discord makes on first use); the new message's id.
    async fn post(
        &self,
        channel: u64,
        dm_to: Option<u64>,
        message: serenity::CreateMessage,
    ) -> Result<serenity::MessageId, PostError> {
        let channel = match dm_to {
            Some(member) => {
                let member = NonZeroU64::new(member)
                    .map(serenity::UserId::from)
                    .ok_or(PostError::Nowhere)?;
                self.limited(member.create_dm_channel(&self.http)).await?.id
            }
            None => NonZeroU64::new(channel)
                .map(serenity::ChannelId::from)
                .ok_or(PostError::Nowhere)?,
        };
        Ok(self
            .limited(channel.send_message(&self.http, message))
            .await?
            .id)
    }

    /// Archives `thread`, a game's, once its end is told; on failure Discord archives it itself
    /// after a week without posts.
    async fn archive(&self, thread: u64) {
        let Some(thread) = NonZeroU64::new(thread).map(serenity::ChannelId::from) else {
            return;
        };
        let archived = self
            .limited(thread.edit_thread(&self.http, serenity::EditThread::new().archived(true)))
            .await;
        if let Err(why) = archived {
            warn!(thread = thread.get(), %why, "could not archive a game's thread");
        }
    }

    /// Waits for `request` for at most the time limit, and counts how it went.
    async fn limited<T>(
        &self,
        request: impl std::future::Future<Output = serenity::Result<T>>,
    ) -> Result<T, PostError> {
        let done = match tokio::time::timeout(self.timeout, request).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(PostError::from(e)),
            Err(_) => Err(PostError::TimedOut),
        };
        let outcome = match &done {
            Ok(_) => "2xx",
            Err(e) => e.status_class(),
        };
        metrics::counter!(crate::telemetry::POSTS, "outcome" => outcome).increment(1);
        done
    }
}
