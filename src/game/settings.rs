//! What members and servers choose about how the bot shows them games: the board as emoji or as
//! a picture, and (a server) a thread for each game. The front ends read them when they post.

use super::{GameError, GuildId, MemberId, Place, Result, Settings};

pub use crate::domain::{
    BoardStyle, MemberSettings, MemberSettingsChange, ServerSettings, ServerSettingsChange,
};

impl Settings {
    /// How to draw a board posted in `place`: for what only `only_for` sees (a private board, a
    /// direct message), that member's choice; for a public post, the server's. Emoji in a direct
    /// message no member is named for, and whenever the choice cannot be read (logged): a board
    /// is never held up by its looks.
    pub async fn board_style(&self, place: Place, only_for: Option<MemberId>) -> BoardStyle {
        let chosen = match only_for {
            Some(member) => self.member_settings(member).await.map(|s| s.board),
            None if place.is_direct() => Ok(BoardStyle::Emoji),
            None => self.server_settings(place.guild).await.map(|s| s.board),
        };
        chosen.unwrap_or_else(|e| {
            tracing::warn!(error = ?e, "could not read a board style; drawing emoji");
            BoardStyle::Emoji
        })
    }

    /// `member`'s own choices, the same in every server: they apply to what only that member
    /// sees (private boards, direct messages). The defaults for a member who made none.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`] when the database fails.
    pub async fn member_settings(&self, member: MemberId) -> Result<MemberSettings> {
        Ok(self.store.member_settings(member).await?)
    }

    /// Makes `change` to `member`'s own choices (what it leaves out stays as it was), and returns
    /// them all as they are now.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`] when the database fails.
    pub async fn set_member_settings(
        &self,
        member: MemberId,
        change: MemberSettingsChange,
    ) -> Result<MemberSettings> {
        if change.is_empty() {
            return self.member_settings(member).await;
        }
        Ok(self
            .store
            .set_member_settings(member, change, self.now())
            .await?)
    }

    /// Server `guild`'s choices, for what its channels see. The defaults for a server that made
    /// none, and for direct messages ([`GuildId::DIRECT`]), which are in no server: what only a
    /// member sees follows [`Settings::member_settings`].
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`] when the database fails.
    pub async fn server_settings(&self, guild: GuildId) -> Result<ServerSettings> {
        if guild == GuildId::DIRECT {
            return Ok(ServerSettings::default());
        }
        Ok(self.store.server_settings(guild).await?)
    }

    /// Makes `change` to server `guild`'s choices (what it leaves out stays as it was), and
    /// returns them all as they are now. Who may do so is the front end's business (on Discord,
    /// the server's own permissions).
    ///
    /// # Errors
    ///
    /// [`GameError::ServerSettingsInDirect`] for [`GuildId::DIRECT`], which is no server;
    /// [`GameError::Internal`] when the database fails.
    pub async fn set_server_settings(
        &self,
        guild: GuildId,
        change: ServerSettingsChange,
    ) -> Result<ServerSettings> {
        if guild == GuildId::DIRECT {
            return Err(GameError::ServerSettingsInDirect);
        }
        if change.is_empty() {
            return self.server_settings(guild).await;
        }
        Ok(self.store.set_server_settings(guild, change).await?)
    }

    /// Turns `member`'s turn notifications by direct message on or off, the messages to be in
    /// `lang`.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn set_turn_dms(
        &self,
        member: MemberId,
        on: bool,
        lang: crate::i18n::Lang,
    ) -> Result<()> {
        Ok(self
            .store
            .set_dm_setting(member, on, lang.code(), self.now())
            .await?)
    }

    /// Whether `member` gets a direct message on their turn.
    ///
    /// # Errors
    ///
    /// [`GameError::Internal`](super::GameError::Internal) when the database fails.
    pub async fn turn_dms(&self, member: MemberId) -> Result<bool> {
        Ok(self.store.dm_setting(member).await?.0)
    }
}
