//! The language spoken in each channel, for the posts that answer no command.

use std::sync::PoisonError;

use crate::i18n::Lang;

use super::{Place, Result, Settings};

impl Settings {
    /// Records that public messages in `place` are to be in `lang`, as a command there just
    /// showed. Writes only when that is news to this process: once per channel, and again when
    /// the language changes.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn spoken_in(&self, place: Place, lang: Lang) -> Result<()> {
        if self.spoken().get(&place.channel) == Some(&lang) {
            return Ok(());
        }
        self.store
            .set_channel_lang(place.channel, lang.code())
            .await?;
        self.spoken().insert(place.channel, lang);
        Ok(())
    }

    /// The language of public messages in `place` as last recorded, if it ever was (a language
    /// no longer in the catalogues counts as never recorded).
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn lang_in(&self, place: Place) -> Result<Option<Lang>> {
        if let Some(&lang) = self.spoken().get(&place.channel) {
            return Ok(Some(lang));
        }
        let stored = self.store.channel_lang(place.channel).await?;
        Ok(stored.and_then(|code| code.parse().ok()))
    }

    fn spoken(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<super::ChannelId, Lang>> {
        self.spoken.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
