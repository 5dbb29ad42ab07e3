//! Everything the game service refuses. What a member is told of each is in
//! [`crate::text`].

use std::time::Duration;

use crate::engine::LevelError;
use crate::rules::{MoveError, SizeError};
use crate::store::StoreError;

use super::types::{
    Action, ChallengeId, ChallengeState, ChannelId, GameId, Name, Place, TimeControlError,
    Timestamp,
};

/// A refusal, or a fault on our side. [`GameError::localized`] (in [`crate::text`]) says it to
/// a member in their language and their front end's markup; `Display` says it in English plain
/// text, for logs and tests. A member's name is a [`Name`], so it reaches the words only through the markup.
#[derive(Debug)]
pub enum GameError {
    SelfChallenge,
    Declined {
        name: Name,
        wait: Duration,
    },
    TooManyChallengesTo {
        name: Name,
        limit: i64,
        wait: Duration,
    },
    BotOpponent(Name),
    DuplicateChallenge(Name),
    DuplicateOpenChallenge,
    TooManyChallenges(i64),
    /// The member asking has as many games in progress as allowed.
    TooManyGames {
        limit: i64,
    },
    /// The other member of a challenge has as many games in progress as allowed.
    OpponentTooManyGames {
        name: Name,
        limit: i64,
    },
    NotInServer,
    LevelWithoutAi,
    RatedAi,
    NoSuchChallenge(ChallengeId),
    NoChallengeForYou,
    NoChallengeFrom(Name),
    NoChallengeToCancel,
    /// The challengers of the challenges the member could mean.
    AmbiguousChallenge(Vec<Name>),
    ChallengeClosed(ChallengeState),
    NotYourChallenge(Name),
    /// A challenger answering their own open challenge, which is for someone else.
    DeclineOwnOpen,
    NotYourCancel(Name),
    DeclineOpen,
    /// Also the answer for a game that exists but may not be shown where the member asks.
    NoSuchGame(GameId),
    PlayedElsewhere {
        game: GameId,
        place: Place,
        action: Action,
    },
    NoActiveGame,
    /// No game of the member's in progress in this channel, but `count` in these other channels
    /// of the same server.
    GamesElsewhere {
        count: usize,
        channels: Vec<ChannelId>,
    },
    /// The caller's games in the channel, each with its opponent's name.
    AmbiguousGame(Vec<(GameId, Name)>),
    NotAPlayer(GameId),
    /// A rematch asked for while the game is still in progress.
    RematchTooEarly(GameId),
    /// The game's rematch was already offered.
    RematchTaken(GameId),
    /// A rematch asked for with no game over to play again.
    NothingToRematch,
    /// A command about one game, without its number, outside a game's thread.
    WhichGame,
    /// A vacation longer than the days left of the year's allowance (or negative).
    VacationDays {
        asked: i64,
        left: i64,
    },
    /// A vacation asked for while on one, which ends at the given moment.
    AlreadyOnVacation(Timestamp),
    /// A vacation ended by someone not on one.
    NotOnVacation,
    /// A server's settings changed from a direct message, which is in no server.
    ServerSettingsInDirect,
    /// A tournament command refused, with why.
    Tournament(super::TournamentRefusal),
    /// A puzzle command refused, with why.
    Puzzle(super::PuzzleRefusal),
    NotYourTurn(Name),
    GameOver(GameId),
    AbortTooLate,
    OutOfTime,
    PositionChanged,
    TooManyAiGames(i64),
    AiBusyForYou(GameId),
    AiQueueFull,
    /// A game between members still being played: the engine would help a player during play.
    AnalysisInProgress(GameId),
    /// The member's place in the AI's queue is taken by their analysis of this game.
    AnalysisBusyForYou(GameId),
    Move(MoveError),
    Size(SizeError),
    Time(TimeControlError),
    Level(LevelError),
    /// The database could not grow (a full disk): nothing was changed. Logged for the admin.
    StorageFull,
    /// Something broke on our side. Logged in full; members see a short apology.
    Internal(InternalError),
}

/// A failure that is not the member's doing.
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The AI failed to give a legal move (or its thread panicked).
    #[error("the AI failed: {0}")]
    Engine(String),
    /// A write kept finding what it had read changed under it.
    #[error("gave up after repeated conflicts: {0}")]
    Contention(&'static str),
}

impl GameError {
    /// Whether this error is a fault on our side (to log), rather than a refusal.
    pub fn is_internal(&self) -> bool {
        matches!(self, GameError::Internal(_))
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameError::Move(e) => Some(e),
            GameError::Size(e) => Some(e),
            GameError::Time(e) => Some(e),
            GameError::Level(e) => Some(e),
            GameError::Internal(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MoveError> for GameError {
    fn from(e: MoveError) -> Self {
        GameError::Move(e)
    }
}

impl From<SizeError> for GameError {
    fn from(e: SizeError) -> Self {
        GameError::Size(e)
    }
}

impl From<TimeControlError> for GameError {
    fn from(e: TimeControlError) -> Self {
        GameError::Time(e)
    }
}

impl From<LevelError> for GameError {
    fn from(e: LevelError) -> Self {
        GameError::Level(e)
    }
}

impl From<StoreError> for GameError {
    fn from(e: StoreError) -> Self {
        if e.is_full() {
            tracing::error!(error = %e, "the database is full: free disk space");
            return GameError::StorageFull;
        }
        GameError::Internal(InternalError::Store(e))
    }
}

pub(crate) fn corrupt(what: impl Into<String>) -> GameError {
    GameError::Internal(InternalError::Corrupt(what.into()))
}
