//! What a member and a server choose about how the bot shows them games: the board as emoji or
//! as a picture, and (a server) a thread for each game.

/// How a board is shown: the emoji grid (the default, readable everywhere) or a picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardStyle {
    #[default]
    Emoji,
    Image,
}

impl BoardStyle {
    pub const ALL: [BoardStyle; 2] = [BoardStyle::Emoji, BoardStyle::Image];

    /// `emoji` or `image`, as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            BoardStyle::Emoji => "emoji",
            BoardStyle::Image => "image",
        }
    }
}

/// A member's own choices, the same in every server: they apply to what only they see (private
/// boards, direct messages).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemberSettings {
    pub board: BoardStyle,
}

/// A server's choices, for what its channels see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerSettings {
    /// How public posts show a board.
    pub board: BoardStyle,
    /// Whether each game started in a channel gets a thread of its own.
    pub threads: bool,
}

/// A change to a member's choices: what is `None` stays as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemberSettingsChange {
    pub board: Option<BoardStyle>,
}

/// A change to a server's choices: what is `None` stays as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerSettingsChange {
    pub board: Option<BoardStyle>,
    pub threads: Option<bool>,
}

impl MemberSettingsChange {
    /// Whether this changes nothing.
    pub fn is_empty(&self) -> bool {
        self.board.is_none()
    }
}

impl ServerSettingsChange {
    /// Whether this changes nothing.
    pub fn is_empty(&self) -> bool {
        self.board.is_none() && self.threads.is_none()
    }
}
