//! What the store knows of a channel beyond its games: the language spoken there.

use crate::domain::ChannelId;

use super::statements::statement;
use super::{Result, Store};

impl Store {
    /// The language code last recorded for `channel`'s public messages, if any.
    pub async fn channel_lang(&self, channel: ChannelId) -> Result<Option<String>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT lang FROM channel_languages WHERE channel_id = $1"
        ))
        .bind(channel)
        .fetch_optional(&self.read)
        .await?)
    }

    /// Records the language code of `channel`'s public messages.
    pub async fn set_channel_lang(&self, channel: ChannelId, lang: &str) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            "INSERT INTO channel_languages (channel_id, lang) VALUES ($1, $2)
             ON CONFLICT (channel_id) DO UPDATE SET lang = excluded.lang"
        ))
        .bind(channel)
        .bind(lang)
        .execute(held.conn())
        .await?;
        Ok(())
    }
}
