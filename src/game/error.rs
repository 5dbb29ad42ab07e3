//! Everything the game service refuses, with messages that speak to the member.

use crate::rules::{MoveError, SizeError};
use crate::store::StoreError;

use super::types::{Action, ChallengeId, ChallengeState, GameId, Place, TimeControlError};

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    #[error("{name} declined your challenge: you can challenge them again in {}", super::text::duration(*.wait))]
    Declined { name: String, wait: i64 },
    #[error("you have challenged {name} {limit} times in the last hour, the most allowed: you can challenge them again in {}", super::text::duration(*.wait))]
    TooManyChallengesTo { name: String, limit: i64, wait: i64 },
    #[error("{0} is a bot: bots cannot play here")]
    BotOpponent(String),
    #[error("there is already a pending challenge between you and {0}")]
    DuplicateChallenge(String),
    #[error("you already have an open challenge in this channel")]
    DuplicateOpenChallenge,
    #[error("you have {0} pending challenges, the most allowed: cancel one or wait for an answer")]
    TooManyChallenges(i64),
    /// The member asking has as many games in progress as allowed.
    #[error("you already have {limit} games in progress, the most allowed")]
    TooManyGames { limit: i64 },
    /// The other member of a challenge has as many games in progress as allowed.
    #[error("{name} already has {limit} games in progress, the most allowed")]
    OpponentTooManyGames { name: String, limit: i64 },
    #[error("challenges between members are made in a server channel; in a direct message you can play the AI (choose me as opponent) and view games and ratings")]
    NotInServer,
    #[error("level is for games against the AI: choose the bot as opponent, or leave level out")]
    LevelWithoutAi,
    #[error("games against the AI are never rated: leave rated out, or set it to no")]
    RatedAi,
    #[error("there is no challenge #{0}")]
    NoSuchChallenge(ChallengeId),
    #[error("there is no pending challenge for you here")]
    NoChallengeForYou,
    #[error("{0} has no pending challenge for you here")]
    NoChallengeFrom(String),
    #[error("you have no pending challenge here")]
    NoChallengeToCancel,
    #[error("you have several pending challenges here; say whose: {0}")]
    AmbiguousChallenge(String),
    #[error("this challenge is {}", .0.as_str())]
    ChallengeClosed(ChallengeState),
    #[error("this challenge is for {0}: only they can answer it")]
    NotYourChallenge(String),
    #[error("only {0} can cancel this challenge")]
    NotYourCancel(String),
    #[error("open challenges cannot be declined: leave it, or let it expire")]
    DeclineOpen,
    /// Also the answer for a game that exists but may not be shown where the member asks.
    #[error("there is no game #{0} here")]
    NoSuchGame(GameId),
    #[error("game #{game} is played in {}; {}", super::text::place(*.place), .action.there())]
    PlayedElsewhere {
        game: GameId,
        place: Place,
        action: Action,
    },
    #[error("you have no game in progress in this channel")]
    NoActiveGame,
    #[error("you have several games in this channel; say which with game: {0}")]
    AmbiguousGame(String),
    #[error("you are not playing in game #{0}")]
    NotAPlayer(GameId),
    #[error("it is not your turn: {0} is to move")]
    NotYourTurn(String),
    #[error("game #{0} is over")]
    GameOver(GameId),
    #[error("a game can only be aborted before both players have moved: resign instead")]
    AbortTooLate,
    #[error("your time for this move ran out; the game ends at the next clock check")]
    OutOfTime,
    #[error(
        "the position changed while your move was on its way: look at the board and try again"
    )]
    PositionChanged,
    #[error("you already have {0} {noun} against the AI in progress, the most allowed: finish or resign one first", noun = if *.0 == 1 { "game" } else { "games" })]
    TooManyAiGames(i64),
    #[error(
        "the AI is still answering your move in game #{0}: wait for its reply, then try again"
    )]
    AiBusyForYou(GameId),
    #[error("the AI is busy answering other players: try again in a moment")]
    AiQueueFull,
    #[error("{0}")]
    Move(#[from] MoveError),
    #[error("{0}")]
    Size(#[from] SizeError),
    #[error("{0}")]
    Time(#[from] TimeControlError),
    #[error("{0}")]
    Level(#[from] crate::engine::LevelError),
    /// The database could not grow (a full disk): nothing was changed. Logged for the admin.
    #[error(
        "the bot's storage is full, so nothing was changed: please tell the server's admin, and \
         try again later"
    )]
    StorageFull,
    /// Something broke on our side. Logged in full; members see a short apology.
    #[error("something went wrong on our side; please try again")]
    Internal(#[source] InternalError),
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
