//! The outbox's bookkeeping: which announcements are due, and what became of each (posted, put
//! off, or owed again as a board), the bot's keep-alive that moves clocks on after a silence, and
//! the board messages and refused direct messages recorded for later posts. What an announcement
//! says is in `announce`.

use std::time::Duration;

use super::types::{Game, GameId, MemberId, MessageId, OutboxId, Timestamp};
use super::{Announcement, Outbox, Owed, Result};

impl Outbox {
    /// Waits until an operation of this process queued an announcement since the last wait:
    /// every write that queues one tells the outbox as it commits, so a front end's poster waits
    /// on this (and on [`Outbox::next_announcement_at`] for the ones due later), never on a
    /// signal of its own.
    pub async fn queued(&self) {
        self.store.outbox_bell().rung().await;
    }

    /// Announcements of this service's servers that are due at `now`, oldest first, at most
    /// `limit`.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn due_announcements(&self, now: Timestamp, limit: i64) -> Result<Vec<Owed>> {
        Ok(self
            .store
            .due_outbox(now, self.servers, limit)
            .await?
            .into_iter()
            .map(Owed::from_row)
            .collect())
    }

    /// When the next announcement of this service's servers is due.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn next_announcement_at(&self) -> Result<Option<Timestamp>> {
        Ok(self.store.next_outbox_at(self.servers).await?)
    }

    /// Removes an announcement from the outbox: posted, or never to be.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn announced(&self, id: OutboxId) -> Result<()> {
        Ok(self.store.delete_outbox(id).await?)
    }

    /// Keeps an announcement whose post failed, for another try at `at`, counting the failure.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn announce_later(&self, owed: &Owed, at: Timestamp) -> Result<()> {
        Ok(self
            .store
            .postpone_outbox(owed.id, owed.attempts + 1, at)
            .await?)
    }

    /// Queues the board of `game` as it stands for its channel: the public post of a change
    /// (a game begun, a move, a resignation) that the front end could not deliver as the reply
    /// to its command. It is posted unless the game has moved on by then, when a later board
    /// shows it.
    ///
    /// # Errors
    ///
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full,
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn board_owed(&self, game: &Game) -> Result<()> {
        let owed = Announcement::Board {
            game: game.id,
            ply: game.ply,
        };
        let mut tx = self.store.begin().await?;
        tx.insert_outbox(&owed.row(game.place, self.now())?).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records that this service is alive at `now`, and if it was last seen more than `grace`
    /// before, first moves every running game's deadline and every pending challenge's
    /// expiry in its servers on by the time it was away, so that no one loses on time, and no
    /// challenge expires, for a time in which they could not play. One transaction. Returns how
    /// far the clocks moved (zero when they did not).
    ///
    /// # Errors
    ///
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database
    /// fails.
    pub async fn keep_alive(&self, now: Timestamp, grace: Duration) -> Result<Duration> {
        let mut tx = self.store.begin().await?;
        let away = match tx.last_seen(self.servers).await? {
            Some(seen) if now - seen > grace => now - seen,
            _ => Duration::ZERO,
        };
        if !away.is_zero() {
            let (games, challenges) = tx.shift_clocks(away, self.servers).await?;
            tracing::info!(
                seconds = away.as_secs(),
                games,
                challenges,
                "clocks moved on by the time the bot was away"
            );
        }
        tx.set_last_seen(self.servers, now).await?;
        tx.commit().await?;
        Ok(away)
    }

    /// Turns `member`'s turn notifications off because their direct messages are closed, for
    /// them to be told once at their next command ([`Outbox::take_dm_refusal`]).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn turn_dms_refused(&self, member: MemberId) -> Result<()> {
        Ok(self.store.refuse_dms(member).await?)
    }

    /// Whether `member` is still to be told their turn notifications were turned off: `true`
    /// once.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn take_dm_refusal(&self, member: MemberId) -> Result<bool> {
        Ok(self.store.take_dm_refusal(member).await?)
    }

    /// Records `message` as the latest message showing game `game`'s board, for the links in
    /// turn notifications and a new game's thread; what waited for it is due at once.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn board_posted(&self, game: GameId, message: MessageId) -> Result<()> {
        Ok(self
            .store
            .set_game_message(game, message, self.now())
            .await?)
    }
}
