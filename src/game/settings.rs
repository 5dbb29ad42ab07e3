//! What members and servers choose about how the bot shows them games: the board as emoji or as
//! a picture, and (a server) a thread for each game. The front ends read them when they post.

use super::{GuildId, MemberId, Place, Result, Settings, SettingsError, SettingsRefusal};

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
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn member_settings(&self, member: MemberId) -> Result<MemberSettings> {
        Ok(self.store.member_settings(member).await?)
    }

    /// Makes `change` to `member`'s own choices (what it leaves out stays as it was), and returns
    /// them all as they are now.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
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
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
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
    /// [`SettingsRefusal::ServerSettingsInDirect`](crate::game::SettingsRefusal::ServerSettingsInDirect) for [`GuildId::DIRECT`], which is no server;
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn set_server_settings(
        &self,
        guild: GuildId,
        change: ServerSettingsChange,
    ) -> Result<ServerSettings, SettingsError> {
        if guild == GuildId::DIRECT {
            return Err(SettingsRefusal::ServerSettingsInDirect.into());
        }
        if change.is_empty() {
            return Ok(self.server_settings(guild).await?);
        }
        Ok(self.store.set_server_settings(guild, change).await?)
    }

    /// Turns `member`'s turn notifications by direct message on or off, the messages to be in
    /// `lang`.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
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
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn turn_dms(&self, member: MemberId) -> Result<bool> {
        Ok(self.store.dm_setting(member).await?.0)
    }
}
