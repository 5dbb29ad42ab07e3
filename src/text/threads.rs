//! Words for games in threads: a thread's name, the news of a game that ended in its thread,
//! and why a server's games could not get threads.

use crate::game::{Game, ThreadRefusal, ThreadTrouble, Timestamp};
use crate::i18n::tr;
use crate::i18n::Lang;

use super::{status, Markup};

/// The longest name Discord gives a thread, in characters.
const THREAD_NAME_MAX: usize = 100;

/// The name of a game's thread: `#12 alice vs bob · 8x8`, cut to what Discord allows. Thread
/// names show no markdown, so the players' names are written as they are.
pub fn thread_name(game: &Game) -> String {
    let [black, white] = [&game.players.black.name, &game.players.white.name];
    let name = format!(
        "#{} {} vs {} · {}",
        game.id,
        black.as_str(),
        white.as_str(),
        game.size
    );
    // Line breaks in a name would be refused.
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if name.chars().count() <= THREAD_NAME_MAX {
        name
    } else {
        let mut cut: String = name.chars().take(THREAD_NAME_MAX - 1).collect();
        cut.push('…');
        cut
    }
}

/// For the channel a game started in, once it has ended in its thread: `Game #12, alice vs bob:
/// White (bob) wins: … · #thread`.
pub fn thread_ended(lang: Lang, m: &dyn Markup, game: &Game, now: Timestamp) -> String {
    tr!(
        lang,
        "thread-ended",
        id = game.id.to_string(),
        black = m.name(&game.players.black.name),
        white = m.name(&game.players.white.name),
        result = status(lang, m, game, now),
        thread = m.channel(lang, game.place.channel)
    )
}

/// Why the latest game of a server could not get a thread, for its admins.
pub fn thread_trouble(lang: Lang, m: &dyn Markup, trouble: &ThreadTrouble) -> String {
    let channel = m.channel(lang, trouble.channel);
    let at = m.moment(trouble.at);
    match trouble.why {
        ThreadRefusal::MissingPermissions => {
            tr!(
                lang,
                "thread-trouble-permissions",
                channel = channel,
                at = at
            )
        }
        ThreadRefusal::TooManyThreads => {
            tr!(lang, "thread-trouble-full", channel = channel, at = at)
        }
        ThreadRefusal::Other(code) => tr!(
            lang,
            "thread-trouble-other",
            channel = channel,
            at = at,
            code = code.to_string()
        ),
    }
}
