//! The game service's domain types: members, places, time controls, challenges, games.

use crate::engine::Level;
use crate::rules::{BoardSize, ByColor, Color, Move, Position};

#[cfg(feature = "test-support")]
pub use crate::domain::PROVISIONAL_DEVIATION;
pub use crate::domain::{
    ChallengeId, ChallengeState, ChannelId, EndReason, GameId, GameState, GuildId, MemberId,
    MessageId, OutboxId, PuzzleId, RatingChange, RatingValue, RoundNumber, Shards, ShardsError,
    TimeControl, TimeControlError, Timestamp, TournamentFormat, TournamentId, TournamentState,
};

/// A member of a server (or the bot itself), by Discord id, with a display name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub id: MemberId,
    pub name: Name,
}

impl Member {
    pub fn new(id: impl Into<MemberId>, name: impl Into<Name>) -> Member {
        Member {
            id: id.into(),
            name: name.into(),
        }
    }
}

/// A member's display name, as they chose it: any text at all, markdown and line breaks
/// included. It has no `Display`, and the catalogues do not take it: the words for members write
/// it through a front end's [`Markup`](crate::text::Markup), which shows it as text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name(String);

impl Name {
    /// The name as it is stored and compared; not for words to members (see [`Name`]).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for Name {
    fn from(name: String) -> Name {
        Name(name)
    }
}

impl From<&str> for Name {
    fn from(name: &str) -> Name {
        Name(name.to_string())
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// Where something happens: a server (guild) and a channel in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub guild: GuildId,
    pub channel: ChannelId,
}

impl Place {
    /// The place of `channel` in server `guild`.
    pub const fn new(guild: u64, channel: u64) -> Place {
        Place {
            guild: GuildId::new(guild),
            channel: ChannelId::new(channel),
        }
    }

    /// Whether this is a direct message ([`GuildId::DIRECT`]) rather than a server's channel.
    pub const fn is_direct(self) -> bool {
        self.guild.get() == GuildId::DIRECT.get()
    }

    /// Whether what happens at `other` may be shown here: anything in the same server, and in a
    /// direct message only what happens in that same conversation.
    pub fn sees(self, other: Place) -> bool {
        if other.is_direct() {
            self == other
        } else {
            self.guild == other.guild
        }
    }
}

/// What a member tries to do to a game, for a refusal that says where to do it instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Move,
    Resign,
    Abort,
}

/// A game against the built-in AI, as a member asks for it with `/challenge` and the bot as
/// opponent. It starts at once, and is never rated.
#[derive(Clone, Debug)]
pub struct AiRequest {
    pub place: Place,
    pub challenger: Member,
    /// The AI as a member: on Discord the bot's own user, in the console `@bot`.
    pub ai: Member,
    pub level: AiLevel,
    /// Whether the bot can post where the game is played.
    pub reach: Reach,
    pub size: BoardSize,
    /// The challenger's side; `None` draws it.
    pub color: Option<Color>,
    pub time: TimeControl,
}

/// What the bot can do where a command comes from: post there (a server that added it, or its
/// own direct messages), or only answer the commands and taps of a member who installed it to
/// their account (a group DM, a server that has not added it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    #[default]
    Posts,
    AnswersOnly,
}

/// The AI's level as a member asks for it: one they name, or the one that meets them
/// (`level:auto`, the default), read from their results against it on the board: level 2 to
/// start with, one up after two wins in a row, one down after a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiLevel {
    Auto,
    Fixed(Level),
}

impl From<Level> for AiLevel {
    fn from(level: Level) -> Self {
        AiLevel::Fixed(level)
    }
}

/// The AI's side and strength in a game against it, and whether that level was chosen for its
/// member (`level:auto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiPlayer {
    pub color: Color,
    pub level: Level,
    pub auto: bool,
}

/// What a member asks for with `/challenge`.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    pub place: Place,
    pub challenger: Member,
    /// `None` for an open challenge anyone in the channel may take.
    pub opponent: Option<Member>,
    pub size: BoardSize,
    /// The challenger's side; `None` draws it at acceptance.
    pub color: Option<Color>,
    pub time: TimeControl,
    pub rated: bool,
}

/// A challenge as the front ends show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub place: Place,
    pub challenger: Member,
    pub opponent: Option<Member>,
    pub size: BoardSize,
    pub color: Option<Color>,
    pub time: TimeControl,
    pub rated: bool,
    /// Asked rated, but the pair has had its rated games for the day (this many, the limit in
    /// force): played casual.
    pub casual_by_limit: Option<i64>,
    /// When the opponent is back, if they are on vacation as the challenge is made.
    pub opponent_away_until: Option<Timestamp>,
    /// Where it stands; an accepted one names the game it started.
    pub state: ChallengeState,
    pub expires_at: Timestamp,
}

/// Plies after which both sides have moved. A game that ends sooner (an abort, a time-out, a
/// resignation at the first move) changes no rating; until then it may be aborted.
pub const BOTH_SIDES_MOVED: u32 = 2;

/// Where a game stands, with what is true only there: a deadline while it is played, a winner
/// and maybe a rating change once won, a reason once over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameStatus {
    /// Being played: the side to move runs out of time at `deadline`.
    Active { deadline: Timestamp },
    /// Won by `winner`; `rating_change` when the result was rated.
    Finished {
        winner: Color,
        reason: EndReason,
        rating_change: Option<RatingChange>,
    },
    /// Over without a result: aborted, by a player or on time, before both sides had moved.
    Aborted { reason: EndReason },
}

impl GameStatus {
    pub const fn is_active(&self) -> bool {
        matches!(self, GameStatus::Active { .. })
    }

    /// As stored: active, finished or aborted.
    pub const fn state(&self) -> GameState {
        match self {
            GameStatus::Active { .. } => GameState::Active,
            GameStatus::Finished { .. } => GameState::Finished,
            GameStatus::Aborted { .. } => GameState::Aborted,
        }
    }

    /// When the side to move runs out of time, while the game is played.
    pub const fn deadline(&self) -> Option<Timestamp> {
        match self {
            GameStatus::Active { deadline } => Some(*deadline),
            _ => None,
        }
    }

    /// Who won, once the game is won.
    pub const fn winner(&self) -> Option<Color> {
        match self {
            GameStatus::Finished { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    /// Why the game ended, once it is over.
    pub const fn reason(&self) -> Option<EndReason> {
        match self {
            GameStatus::Active { .. } => None,
            GameStatus::Finished { reason, .. } | GameStatus::Aborted { reason } => Some(*reason),
        }
    }

    /// Both players' ratings before and after, for a rated result.
    pub const fn rating_change(&self) -> Option<RatingChange> {
        match self {
            GameStatus::Finished { rating_change, .. } => *rating_change,
            _ => None,
        }
    }
}

/// A game as the front ends show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub id: GameId,
    pub place: Place,
    pub players: ByColor<Member>,
    pub size: BoardSize,
    pub time: TimeControl,
    pub rated: bool,
    pub status: GameStatus,
    pub position: Position,
    /// Plies played so far.
    pub ply: u32,
    pub last_move: Option<Move>,
    /// The AI's side and level in a game against it; `None` between members.
    pub ai: Option<AiPlayer>,
    /// When each player's latest vacation ends or ended, if they took one: see
    /// [`Game::away_until`].
    pub away_until: ByColor<Option<Timestamp>>,
    /// Which sides are channels, in a vote game (see [`Teams`](super::Teams)): their player is
    /// the channel, by the channel's id.
    pub teams: ByColor<bool>,
    /// While the game lives in a thread of its own (`place.channel`): the channel it started
    /// in, where its result is told.
    pub thread_of: Option<ChannelId>,
    /// Played where the bot can only answer its players' commands and taps (see [`Reach`]):
    /// nothing is posted in its channel.
    pub answers_only: bool,
    /// The tournament the game is played in, if any.
    pub tournament: Option<TournamentTag>,
}

/// Which tournament a game belongs to, and in which round: what its board and result say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentTag {
    pub id: TournamentId,
    pub name: String,
    pub round: RoundNumber,
}

/// How a board is shown to the one who asked for it. A player sees it from their own side, their
/// pieces at the bottom, and only they see it; anyone else sees it as the channel does, White at
/// the bottom. Asking to flip turns it round, and a board turned round from the channel's is only
/// ever shown to the one who asked, so every board the channel sees looks the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSight {
    /// The side drawn at the bottom.
    pub bottom: Color,
    /// Whether only the one who asked sees it.
    pub private: bool,
}

impl Game {
    pub fn player(&self, color: Color) -> &Member {
        &self.players[color]
    }

    /// The side `member` plays, if they play in this game.
    pub fn color_of(&self, member: MemberId) -> Option<Color> {
        self.players.find(|p| p.id == member)
    }

    /// How this game's board is shown to `viewer`, who asked for it (see [`BoardSight`]).
    pub fn sight(&self, viewer: MemberId, flip: bool) -> BoardSight {
        let own = self.color_of(viewer);
        let bottom = own.unwrap_or(Color::White);
        let bottom = if flip { bottom.opposite() } else { bottom };
        BoardSight {
            bottom,
            private: own.is_some() || bottom != Color::White,
        }
    }

    /// When `color`'s player is back, if they are on vacation at `now`.
    pub fn away_until(&self, color: Color, now: Timestamp) -> Option<Timestamp> {
        self.away_until[color].filter(|&t| t > now)
    }

    /// Who is to move (meaningful while active).
    pub fn to_move(&self) -> &Member {
        self.player(self.position.turn())
    }

    /// The move number shown to players: Black's and White's moves share a number.
    pub fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }

    pub fn is_active(&self) -> bool {
        self.status.is_active()
    }

    /// Whether the game is over and ended before both sides had moved: unrated, whatever was
    /// agreed.
    pub fn ended_early(&self) -> bool {
        !self.is_active() && self.ply < BOTH_SIDES_MOVED
    }

    /// Whether the game is active, against the AI, and the AI is to move.
    /// The member (not the AI) who plays this game, Black when both are members.
    pub fn member(&self) -> MemberId {
        match self.ai {
            Some(ai) => self.player(ai.color.opposite()).id,
            None => self.players.black.id,
        }
    }

    pub fn ai_to_move(&self) -> bool {
        self.is_active() && self.ai.is_some_and(|ai| ai.color == self.position.turn())
    }

    /// Whether a channel's members are voting on the move now, in a vote game.
    pub fn team_to_move(&self) -> bool {
        self.is_active() && self.teams[self.position.turn()]
    }

    /// The channel playing `color`, in a vote game.
    pub fn team(&self, color: Color) -> Option<ChannelId> {
        self.teams[color].then(|| ChannelId::new(self.players[color].id.get()))
    }
}

/// A move that was played, and the game after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub mv: Move,
    pub game: Game,
    /// The member the game told, by a direct message queued with the move, that it is now their
    /// turn. The notification links to the board the front end posts for this move, so the
    /// front end records that post's message ([`Outbox::board_posted`](crate::game::Outbox::board_posted)).
    pub notified: Option<MemberId>,
}

/// A game just begun by an accepted challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Started {
    pub game: Game,
    /// The member to move first, when the game told them by a direct message (queued with the
    /// game) that it is their turn: as [`Played::notified`].
    pub notified: Option<MemberId>,
}

/// A member's standing on one board of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingCard {
    pub member: Member,
    pub size: BoardSize,
    pub value: RatingValue,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub recent: Vec<RecentResult>,
}

/// A member's rating cards in a server, as `/rating` shows them: one size asked for, or the
/// sizes they have a rating on, the most played first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// At most [`RATING_CARDS`]: the size asked for, the most played ones, or the default size
    /// for a member with no rating yet.
    pub cards: Vec<RatingCard>,
    /// The other sizes they have a rating on, for a card of their own.
    pub more: Vec<BoardSize>,
}

/// The rating cards `/rating` shows at once without a size.
pub const RATING_CARDS: usize = 3;

/// One of a member's recent rated results.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentResult {
    pub game: GameId,
    pub opponent: Member,
    pub won: bool,
    pub reason: EndReason,
    pub change: f64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Place among the established ratings; `None` while the rating is provisional, listed
    /// after the ranked ones.
    pub rank: Option<usize>,
    pub member: Member,
    pub value: RatingValue,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
}

/// One page of a server's leaderboard on one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    pub size: BoardSize,
    /// One-based page number, and how many there are (at least 1).
    pub page: usize,
    pub pages: usize,
    /// Established ratings first, then provisional ones.
    pub standings: Vec<Standing>,
}

/// A game's move list, as shown by `/history`.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub game: Game,
    /// Canonical notation, by ply.
    pub moves: Vec<String>,
}
