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
use super::{AccessError, AccessRefusal, Announcement, Core, Error, GameRef, Result, Threads};

/// Why a thread could not be opened for a game, as far as a server's admins can help it: what
/// the front end heard, in the service's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadRefusal {
    /// The bot may not open threads (or post in them) in the channel.
    MissingPermissions,
    /// The server has as many active threads as it may.
    TooManyThreads,
    /// Anything else, by the front end's error code, for the admins to look up.
    Other(i64),
}

impl ThreadRefusal {
    /// As the store keeps it: the reason's name, and the code of an other one.
    fn stored(self) -> (&'static str, i64) {
        match self {
            ThreadRefusal::MissingPermissions => ("missing_permissions", 0),
            ThreadRefusal::TooManyThreads => ("too_many_threads", 0),
            ThreadRefusal::Other(code) => ("other", code),
        }
    }

    fn from_stored(reason: &str, code: i64) -> ThreadRefusal {
        match reason {
            "missing_permissions" => ThreadRefusal::MissingPermissions,
            "too_many_threads" => ThreadRefusal::TooManyThreads,
            _ => ThreadRefusal::Other(code),
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
    /// [`AccessRefusal::WhichGame`](crate::game::AccessRefusal::WhichGame) without `which` where `who` has no game,
    /// [`AccessRefusal::AmbiguousGame`](crate::game::AccessRefusal::AmbiguousGame) where they have several in progress,
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn game_meant(
        &self,
        who: MemberId,
        at: Place,
        which: Option<GameId>,
    ) -> Result<GameId, AccessError> {
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
            Err(Error::Refused(AccessRefusal::NoActiveGame)) => Ok(self
                .store
                .last_ended_game(who, at.channel)
                .await?
                .ok_or(AccessRefusal::WhichGame)?),
            Err(e) => Err(e),
        }
    }

    /// Moves `game` into `thread`, a thread just opened for it in its channel: its later posts
    /// go there. False when it has meanwhile ended or moved.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
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
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn thread_refused(&self, place: Place, why: ThreadRefusal) -> Result<()> {
        Ok(self
            .store
            .record_thread_trouble(place.guild, place.channel, why.stored(), self.now())
            .await?)
    }

    /// The thread `place` is gone (a moderator deleted it): the games that lived there move back
    /// to the channel they started in, and so does what was still owed to the thread. That
    /// channel, if `place` was a game's thread.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
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
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn thread_trouble(&self, guild: GuildId) -> Result<Option<ThreadTrouble>> {
        Ok(self
            .store
            .thread_trouble(guild)
            .await?
            .map(|row| ThreadTrouble {
                channel: row.channel_id,
                why: ThreadRefusal::from_stored(&row.reason, row.code),
                at: row.at,
            }))
    }
}
