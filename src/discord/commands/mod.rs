//! The handlers of the slash commands and of the clicks on their buttons: each reads what
//! Discord sent, calls the game service, and answers with a view (`views`) through the replies
//! every handler shares (`reply`). No handler imports another.

pub(super) mod analyze;
pub(super) mod challenge;
pub(super) mod info;
pub(super) mod play;
pub(super) mod puzzle;
pub(super) mod settings;
pub(super) mod taps;
pub(super) mod teams;
pub(super) mod tournament;
