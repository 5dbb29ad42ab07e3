//! Games in threads of their own: in a server that turned threads on, a game that starts in a
//! channel moves into a public thread opened for it on the message that shows its board
//! ([`Announcement::OpenThread`](super::Announcement::OpenThread), queued when it starts). Every
//! later post of the game goes there, being the game's place, and commands in the thread need no
//! game number. When it ends, the channel it started in is told
//! ([`Announcement::ThreadEnded`](super::Announcement::ThreadEnded)). A thread that cannot be
//! opened leaves the game in its channel, and the server's admins are told why in its settings; a
//! game whose thread is deleted moves back to its channel.

use crate::store::NewOutbox;

use super::types::{ChannelId, Game, GameId, GuildId, MemberId, Place, Timestamp};
use super::{Announcement, Core, GameError, GameRef, Result, Threads};

/// Why Discord would not open a thread for a game, as far as a server's admins can help it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadRefusal {
    /// The bot lacks Create Public Threads (or Send Messages in Threads) in the channel (50013).
    MissingPermissions,
    /// The server has as many active threads as Discord allows (160006).
    TooManyThreads,
    /// Anything else, by Discord's error code.
    Other(i64),
}

impl ThreadRefusal {
    /// Discord's JSON error code for missing permissions.
    pub const MISSING_PERMISSIONS: i64 = 50013;
    /// Discord's JSON error code for a server at its cap of active threads.
    pub const TOO_MANY_THREADS: i64 = 160_006;

    /// The refusal Discord's JSON error `code` stands for.
    pub fn from_code(code: i64) -> ThreadRefusal {
        match code {
            Self::MISSING_PERMISSIONS => ThreadRefusal::MissingPermissions,
            Self::TOO_MANY_THREADS => ThreadRefusal::TooManyThreads,
            other => ThreadRefusal::Other(other),
        }
    }

    fn code(self) -> i64 {
        match self {
            ThreadRefusal::MissingPermissions => Self::MISSING_PERMISSIONS,
            ThreadRefusal::TooManyThreads => Self::TOO_MANY_THREADS,
            ThreadRefusal::Other(code) => code,
        }
    }
}

/// Why the latest game of a server could not get a thread, until one does: in which channel,
/// and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadTrouble {
    pub channel: ChannelId,
    pub why: ThreadRefusal,
    pub at: Timestamp,
}

impl Core {
    /// The thread to open for game `game`, just started in `place` at `now`, if its server has
    /// threads on: the outbox row to queue with the game.
    pub(super) async fn thread_for(
        &self,
        game: GameId,
        place: Place,
        now: Timestamp,
    ) -> Result<Option<NewOutbox>> {
        if place.is_direct() || !self.store.server_settings(place.guild).await?.threads {
            return Ok(None);
        }
        Ok(Some(Announcement::OpenThread { game }.row(place, now)?))
    }
}

impl Threads {
    /// The game a command about one game (`/history`, `/analyze`) from `who` means from `at`:
    /// `which` if given; else the game that lives in the thread `at`; else `who`'s game in
    /// progress there, or when they have none, their game there that ended last.
    ///
    /// # Errors
    ///
    /// [`GameError::WhichGame`] without `which` where `who` has no game,
    /// [`GameError::AmbiguousGame`] where they have several in progress,
    /// [`GameError::Internal`] when the database fails.
    pub async fn game_meant(
        &self,
        who: MemberId,
        at: Place,
        which: Option<GameId>,
    ) -> Result<GameId> {
        if let Some(id) = which {
            return Ok(id);
        }
        if !at.is_direct() {
            if let Some(id) = self.store.game_in_thread(at.channel).await? {
                return Ok(id);
            }
        }
        match self.game_row(who, at, GameRef::Only).await {
            Ok(row) => Ok(row.id),
            Err(GameError::NoActiveGame) => self
                .store
                .last_ended_game(who, at.channel)
                .await?
                .ok_or(GameError::WhichGame),
            Err(e) => Err(e),
        }
    }

    /// Moves `game` into `thread`, a thread just opened for it in its channel: its later posts
    /// go there. False when it has meanwhile ended or moved.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn thread_opened(&self, game: &Game, thread: ChannelId) -> Result<bool> {
        Ok(self
            .store
            .move_game_to_thread(game.id, game.place.guild, game.place.channel, thread)
            .await?)
    }

    /// Records that Discord would not open a thread for a game in `place`, for the server's
    /// admins to see in its settings; the game stays in its channel.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn thread_refused(&self, place: Place, why: ThreadRefusal) -> Result<()> {
        Ok(self
            .store
            .record_thread_trouble(place.guild, place.channel, why.code(), self.now())
            .await?)
    }

    /// The thread `place` is gone (a moderator deleted it): the games that lived there move back
    /// to the channel they started in, and so does what was still owed to the thread. That
    /// channel, if `place` was a game's thread.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn thread_deleted(&self, place: Place) -> Result<Option<Place>> {
        Ok(self
            .store
            .thread_deleted(place.channel)
            .await?
            .map(|channel| Place {
                guild: place.guild,
                channel,
            }))
    }

    /// Why the latest game of `guild` could not get a thread, if none has since.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn thread_trouble(&self, guild: GuildId) -> Result<Option<ThreadTrouble>> {
        Ok(self
            .store
            .thread_trouble(guild)
            .await?
            .map(|row| ThreadTrouble {
                channel: row.channel_id,
                why: ThreadRefusal::from_code(row.code),
                at: row.at,
            }))
    }
}
