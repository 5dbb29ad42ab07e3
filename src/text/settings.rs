//! Members' and servers' settings in words: what `/settings` and `/server-settings` show.

use crate::game::{BoardStyle, MemberSettings, ServerSettings, ThreadTrouble};
use crate::i18n::tr;
use crate::i18n::Lang;

use super::{thread_trouble, Markup};

/// A member's own settings, a line each, with how to change them.
pub fn member_settings(lang: Lang, settings: &MemberSettings) -> String {
    [
        tr!(lang, "settings-member-title"),
        board_line(lang, settings.board),
        tr!(lang, "settings-member-how"),
    ]
    .join("\n")
}

/// A server's settings, a line each, with how to change them; with threads on, why the latest
/// game could not get one, if it could not.
pub fn server_settings(
    lang: Lang,
    m: &dyn Markup,
    settings: &ServerSettings,
    trouble: Option<&ThreadTrouble>,
) -> String {
    let mut lines = vec![
        tr!(lang, "settings-server-title"),
        board_line(lang, settings.board),
        tr!(
            lang,
            "settings-threads",
            threads = if settings.threads { "on" } else { "off" }
        ),
    ];
    if let Some(trouble) = trouble.filter(|_| settings.threads) {
        lines.push(thread_trouble(lang, m, trouble));
    }
    lines.push(tr!(lang, "settings-server-how"));
    lines.join("\n")
}

/// The answer to a settings command: the settings as they are now (`shown`), after "Saved." when
/// the command changed them (`saved`).
pub fn settings_answer(lang: Lang, shown: String, saved: bool) -> String {
    if saved {
        format!("{}\n{shown}", tr!(lang, "settings-saved"))
    } else {
        shown
    }
}

fn board_line(lang: Lang, board: BoardStyle) -> String {
    tr!(lang, "settings-board", board = board.as_str())
}
