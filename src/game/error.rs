//! What the services refuse, and what fails on our side. Each service's operations give an
//! [`Error`] of that service's refusals: [`ChallengeError`], [`PlayError`], [`StandingsError`],
//! [`SettingsError`], [`TournamentError`], [`PuzzleError`], and [`AccessError`] for "which game"
//! alone. An operation that can only fail (a read, the outbox) gives a bare [`Failure`]. What a
//! member is told of each is in [`crate::text`].

use std::time::Duration;

use crate::rules::{BoardSize, MoveError};
use crate::store::StoreError;

use super::types::{
    Action, ChallengeId, ChallengeState, ChannelId, GameId, Name, Place, RoundNumber, Timestamp,
    TournamentFormat, TournamentId,
};

/// Why an operation of a service did not do what was asked: `R`, one of the refusals that
/// service gives (the member's doing: they are told why, and nothing changed), or a failure on
/// our side. `Display` (in [`crate::text`]) says it in English plain text, for logs and tests.
#[derive(Debug)]
pub enum Error<R> {
    Refused(R),
    Failed(Failure),
}

/// What fails on our side, never the member's doing.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The database could not grow (a full disk): nothing was changed. Logged for the admin.
    #[error("the database is full")]
    StorageFull,
    /// The database could not be reached (a restart, a fail-over, a network fault): nothing
    /// was changed, and the same request passes once it is back. Logged for the admin.
    #[error("the database cannot be reached: {0}")]
    Unavailable(#[source] StoreError),
    /// Something broke. Logged in full; members see a short apology.
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// A failure that is neither the member's doing nor a full disk.
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    #[error(transparent)]
    Store(StoreError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The AI failed to give a legal move (or its thread panicked).
    #[error("the AI failed: {0}")]
    Engine(String),
    /// A write kept finding what it had read changed under it.
    #[error("gave up after repeated conflicts: {0}")]
    Contention(&'static str),
}

impl<R> Error<R> {
    /// Whether this is a fault on our side to log (not a refusal, nor a full disk, which is
    /// logged where it is found).
    pub fn is_internal(&self) -> bool {
        matches!(self, Error::Failed(Failure::Internal(_)))
    }

    /// The refusal, if this is one.
    pub fn refusal(&self) -> Option<&R> {
        match self {
            Error::Refused(r) => Some(r),
            Error::Failed(_) => None,
        }
    }
}

impl<R> From<Failure> for Error<R> {
    fn from(f: Failure) -> Self {
        Error::Failed(f)
    }
}

impl<R> From<InternalError> for Error<R> {
    fn from(e: InternalError) -> Self {
        Error::Failed(Failure::Internal(e))
    }
}

impl<R> From<StoreError> for Error<R> {
    fn from(e: StoreError) -> Self {
        Error::Failed(Failure::from(e))
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        if e.is_full() {
            tracing::error!(error = %e, "the database is full: free disk space");
            return Failure::StorageFull;
        }
        if e.is_unavailable() {
            tracing::warn!(error = %e, "the database cannot be reached; the request was refused");
            return Failure::Unavailable(e);
        }
        Failure::Internal(InternalError::Store(e))
    }
}

/// Stored data that cannot be read back: a failure on our side.
pub(crate) fn corrupt(what: impl Into<String>) -> Failure {
    Failure::Internal(InternalError::Corrupt(what.into()))
}

/// The AI's search failed, or its thread did.
pub(crate) fn engine(why: impl Into<String>) -> Failure {
    Failure::Internal(InternalError::Engine(why.into()))
}

/// Which game a command means, refused: shared by every service that acts on or shows one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessRefusal {
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
    /// Acting on a game the member does not play.
    NotAPlayer(GameId),
    /// A command about one game, without its number, outside a game's thread.
    WhichGame,
}

/// The AI's queue refused a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueRefusal {
    /// The member's place in the queue is taken by the AI's reply in this game.
    AiBusyForYou(GameId),
    /// The member's place in the queue is taken by their analysis of this game.
    AnalysisBusyForYou(GameId),
    /// Every place in the queue is taken.
    Full,
}

/// What [`Challenges`](super::Challenges) refuses: challenges, their answers, rematches and
/// games against the AI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeRefusal {
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
    /// As many games against the AI in progress as allowed.
    TooManyAiGames(i64),
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
    /// A rematch asked for while the game is still in progress.
    RematchTooEarly(GameId),
    /// The game's rematch was already offered.
    RematchTaken(GameId),
    /// A rematch asked for with no game over to play again.
    NothingToRematch,
    /// The game a rematch means.
    Access(AccessRefusal),
    /// The AI, to move first, found no place in its queue.
    Queue(QueueRefusal),
    /// A challenge between members where the bot can only answer commands.
    AnswersOnly,
}

/// What [`Play`](super::Play) refuses: moves, resigning, aborting, the AI's turns, vacations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayRefusal {
    /// The game meant, or the member's right to act on it there.
    Access(AccessRefusal),
    NotYourTurn(Name),
    GameOver(GameId),
    AbortTooLate,
    /// A tournament game cannot be aborted.
    NoAbortInTournament,
    OutOfTime,
    /// Another move got to the game first.
    PositionChanged,
    /// The AI could not take the reply into its queue.
    Queue(QueueRefusal),
    Move(MoveError),
    /// A vacation longer than the days left of the year's allowance (or negative).
    VacationDays {
        asked: i64,
        left: i64,
    },
    /// A vacation asked for while on one, which ends at the given moment.
    AlreadyOnVacation(Timestamp),
    /// A vacation ended by someone not on one.
    NotOnVacation,
    /// A move that went to the member's puzzle, refused there.
    Puzzle(PuzzleRefusal),
    /// A move that went to the vote game of the channel, refused there.
    Team(TeamRefusal),
}

/// What [`Standings`](super::Standings) refuses: a game's history and the engine's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingsRefusal {
    Access(AccessRefusal),
    /// A game between members still being played: the engine would help a player during play.
    AnalysisInProgress(GameId),
    Queue(QueueRefusal),
}

/// What [`Teams`](super::Teams) refuses: vote games, and votes in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamRefusal {
    /// Vote games are played in a server's channel, not in direct messages.
    InDirect,
    /// A window other than 10 minutes, an hour or a day.
    Window,
    /// The server has this many vote games running already.
    Limit(usize),
    /// This channel (or the one it would play) plays a vote game already.
    ChannelBusy,
    /// A channel cannot play itself.
    SameChannel,
    /// No vote game is played in this channel.
    NoTeamGame,
    /// The other side of the vote game is to move.
    NotYourTurn(GameId),
    /// The window closed (or the game moved on) before the vote arrived: it counts for nothing.
    WindowClosed(GameId),
    /// The member voted for the other side of this game.
    OtherSide(GameId),
    /// A move the rules refuse.
    Move(MoveError),
}

/// What [`Settings`](super::Settings) refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsRefusal {
    /// A server's settings changed from a direct message, which is in no server.
    ServerSettingsInDirect,
}

/// Why a tournament command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentRefusal {
    /// Tournaments are held in a server, not in direct messages.
    InDirect,
    /// Creating one takes Manage Server.
    NeedsManageServer,
    /// Starting or cancelling one takes its organizer or Manage Server.
    NotOrganizer,
    /// The server has this many tournaments open or running already.
    Limit(usize),
    /// More players asked for than the format takes (its cap), or fewer than 3.
    Players {
        format: TournamentFormat,
        max: u32,
    },
    /// Rounds asked for a round robin.
    RoundsOnlySwiss,
    /// Rounds outside 1 to [`MAX_ROUNDS`](super::MAX_ROUNDS).
    Rounds,
    /// A name empty or longer than [`NAME_LENGTH`](super::NAME_LENGTH).
    Name,
    /// A start further off than [`MAX_STARTS_IN`](super::MAX_STARTS_IN).
    StartsIn,
    NotFound(TournamentId),
    /// No tournament open or running in the server.
    NoneHere,
    /// Several open or running: which one (their numbers and names).
    Which(Vec<(TournamentId, String)>),
    /// The tournament has as many entrants as it takes.
    Full(u32),
    AlreadyIn,
    NotIn,
    /// Joining or leaving after the start (leaving a running one is withdrawing).
    AlreadyStarted,
    /// Withdrawing from (or asking the pairings of) a tournament not started.
    NotStarted,
    /// Finished or cancelled.
    Over,
    /// A start with fewer than 3 entrants: how many there are.
    TooFew(usize),
    AlreadyWithdrawn,
    /// A round not played (yet).
    NoSuchRound(RoundNumber),
    /// Another command changed the tournament first.
    Changed,
}

/// Why a puzzle command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleRefusal {
    /// No puzzles of this size; these sizes have some.
    NoPuzzles {
        size: BoardSize,
        sizes: Vec<BoardSize>,
    },
    /// A puzzle move from a member solving none.
    NoPuzzle,
    /// The daily puzzle is a server's, not a direct message's.
    DailyInDirect,
    /// Another move of the member's got to the puzzle first.
    Changed,
    /// A move the rules refuse.
    Move(MoveError),
}

pub type AccessError = Error<AccessRefusal>;
pub type ChallengeError = Error<ChallengeRefusal>;
pub type PlayError = Error<PlayRefusal>;
pub type StandingsError = Error<StandingsRefusal>;
pub type SettingsError = Error<SettingsRefusal>;
pub type TournamentError = Error<TournamentRefusal>;
pub type PuzzleError = Error<PuzzleRefusal>;
pub type TeamError = Error<TeamRefusal>;

/// Each refusal type as its own service's error: `Err(PlayRefusal::OutOfTime)?`.
macro_rules! refusals {
    ($($refusal:ty),* $(,)?) => {$(
        impl From<$refusal> for Error<$refusal> {
            fn from(r: $refusal) -> Self {
                Error::Refused(r)
            }
        }
    )*};
}

refusals!(
    AccessRefusal,
    ChallengeRefusal,
    PlayRefusal,
    StandingsRefusal,
    SettingsRefusal,
    TournamentRefusal,
    PuzzleRefusal,
    TeamRefusal,
);

/// A refusal that one service's operation passes on from what it called, as one of its own.
macro_rules! within {
    ($($inner:ty => $outer:ident :: $variant:ident),* $(,)?) => {$(
        impl From<$inner> for $outer {
            fn from(r: $inner) -> Self {
                $outer::$variant(r)
            }
        }

        impl From<$inner> for Error<$outer> {
            fn from(r: $inner) -> Self {
                Error::Refused($outer::$variant(r))
            }
        }

        impl From<Error<$inner>> for Error<$outer> {
            fn from(e: Error<$inner>) -> Self {
                match e {
                    Error::Refused(r) => Error::Refused($outer::$variant(r)),
                    Error::Failed(f) => Error::Failed(f),
                }
            }
        }
    )*};
}

within!(
    AccessRefusal => ChallengeRefusal::Access,
    QueueRefusal => ChallengeRefusal::Queue,
    AccessRefusal => PlayRefusal::Access,
    QueueRefusal => PlayRefusal::Queue,
    MoveError => PlayRefusal::Move,
    PuzzleRefusal => PlayRefusal::Puzzle,
    AccessRefusal => StandingsRefusal::Access,
    QueueRefusal => StandingsRefusal::Queue,
    MoveError => PuzzleRefusal::Move,
    MoveError => TeamRefusal::Move,
    TeamRefusal => PlayRefusal::Team,
);

/// A write that found the game no longer as it was read: another move or ending got there first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MovedOn;

impl From<MovedOn> for Error<MovedOn> {
    fn from(r: MovedOn) -> Self {
        Error::Refused(r)
    }
}

impl From<Error<MovedOn>> for Error<PlayRefusal> {
    fn from(e: Error<MovedOn>) -> Self {
        match e {
            Error::Refused(MovedOn) => Error::Refused(PlayRefusal::PositionChanged),
            Error::Failed(f) => Error::Failed(f),
        }
    }
}
