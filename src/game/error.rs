//! Everything the game service refuses, with messages that speak to the member.

use std::fmt;
use std::time::Duration;

use crate::engine::LevelError;
use crate::i18n::Lang;
use crate::rules::{IllegalMove, MoveError, SizeError, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};
use crate::store::StoreError;
use crate::tr;

use super::text::{self, Markup, Plain};
use super::types::{
    Action, ChallengeId, ChallengeState, ChannelId, GameId, Name, Place, TimeControlError,
    Timestamp,
};

/// A refusal, or a fault on our side. [`GameError::localized`] says it to a member in their
/// language and their front end's markup; `Display` says it in English plain text, for logs and
/// tests. A member's name is a [`Name`], so it reaches the words only through the markup.
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

    /// What the member is told, in `lang`, written with `m`.
    pub fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        use GameError as E;
        match self {
            E::SelfChallenge => tr!(lang, "error-self-challenge"),
            E::Declined { name, wait } => tr!(
                lang,
                "error-declined",
                name = m.name(name),
                wait = text::duration(lang, *wait)
            ),
            E::TooManyChallengesTo { name, limit, wait } => tr!(
                lang,
                "error-too-many-challenges-to",
                name = m.name(name),
                limit = *limit,
                wait = text::duration(lang, *wait)
            ),
            E::BotOpponent(name) => tr!(lang, "error-bot-opponent", name = m.name(name)),
            E::DuplicateChallenge(name) => {
                tr!(lang, "error-duplicate-challenge", name = m.name(name))
            }
            E::DuplicateOpenChallenge => tr!(lang, "error-duplicate-open-challenge"),
            E::TooManyChallenges(count) => tr!(lang, "error-too-many-challenges", count = *count),
            E::TooManyGames { limit } => tr!(lang, "error-too-many-games", limit = *limit),
            E::OpponentTooManyGames { name, limit } => tr!(
                lang,
                "error-opponent-too-many-games",
                name = m.name(name),
                limit = *limit
            ),
            E::NotInServer => tr!(lang, "error-not-in-server"),
            E::LevelWithoutAi => tr!(lang, "error-level-without-ai"),
            E::RatedAi => tr!(lang, "error-rated-ai"),
            E::NoSuchChallenge(id) => tr!(lang, "error-no-such-challenge", id = id.to_string()),
            E::NoChallengeForYou => tr!(lang, "error-no-challenge-for-you"),
            E::NoChallengeFrom(name) => tr!(lang, "error-no-challenge-from", name = m.name(name)),
            E::NoChallengeToCancel => tr!(lang, "error-no-challenge-to-cancel"),
            E::AmbiguousChallenge(names) => {
                let names: Vec<String> = names.iter().map(|n| m.name(n)).collect();
                tr!(lang, "error-ambiguous-challenge", names = names.join(", "))
            }
            E::ChallengeClosed(state) => tr!(
                lang,
                "error-challenge-closed",
                state = text::challenge_state(lang, *state)
            ),
            E::NotYourChallenge(name) => {
                tr!(lang, "error-not-your-challenge", name = m.name(name))
            }
            E::DeclineOwnOpen => tr!(lang, "error-decline-own-open"),
            E::NotYourCancel(name) => tr!(lang, "error-not-your-cancel", name = m.name(name)),
            E::DeclineOpen => tr!(lang, "error-decline-open"),
            E::NoSuchGame(id) => tr!(lang, "error-no-such-game", id = id.to_string()),
            E::PlayedElsewhere {
                game,
                place,
                action,
            } => tr!(
                lang,
                "error-played-elsewhere",
                id = game.to_string(),
                place = text::place(lang, m, *place),
                action = match action {
                    Action::Move => "move",
                    Action::Resign => "resign",
                    Action::Abort => "abort",
                }
            ),
            E::NoActiveGame => tr!(lang, "error-no-active-game"),
            E::GamesElsewhere { count, channels } => {
                let channels: Vec<String> = channels.iter().map(|c| m.channel(lang, *c)).collect();
                tr!(
                    lang,
                    "error-games-elsewhere",
                    count = *count,
                    channels = channels.join(", ")
                )
            }
            E::AmbiguousGame(games) => {
                let games: Vec<String> = games
                    .iter()
                    .map(|(id, opponent)| text::game_against(lang, m, *id, opponent))
                    .collect();
                tr!(lang, "error-ambiguous-game", games = games.join(", "))
            }
            E::NotAPlayer(id) => tr!(lang, "error-not-a-player", id = id.to_string()),
            E::RematchTooEarly(id) => tr!(lang, "error-rematch-too-early", id = id.to_string()),
            E::RematchTaken(id) => tr!(lang, "error-rematch-taken", id = id.to_string()),
            E::NothingToRematch => tr!(lang, "error-nothing-to-rematch"),
            E::WhichGame => tr!(lang, "error-which-game"),
            E::VacationDays { asked, left } => {
                tr!(lang, "error-vacation-days", asked = *asked, left = *left)
            }
            E::AlreadyOnVacation(until) => tr!(
                lang,
                "error-already-on-vacation",
                until = text::utc_time(*until)
            ),
            E::NotOnVacation => tr!(lang, "error-not-on-vacation"),
            E::ServerSettingsInDirect => tr!(lang, "error-server-settings-in-direct"),
            E::Tournament(why) => text::tournament_refusal(lang, m, why),
            E::Puzzle(why) => text::puzzle_refusal(lang, why),
            E::NotYourTurn(name) => tr!(lang, "error-not-your-turn", name = m.name(name)),
            E::GameOver(id) => tr!(lang, "error-game-over", id = id.to_string()),
            E::AbortTooLate => tr!(lang, "error-abort-too-late"),
            E::OutOfTime => tr!(lang, "error-out-of-time"),
            E::PositionChanged => tr!(lang, "error-position-changed"),
            E::TooManyAiGames(count) => tr!(lang, "error-too-many-ai-games", count = *count),
            E::AiBusyForYou(id) => tr!(lang, "error-ai-busy-for-you", id = id.to_string()),
            E::AiQueueFull => tr!(lang, "error-ai-queue-full"),
            E::AnalysisInProgress(id) => {
                tr!(lang, "error-analysis-in-progress", id = id.to_string())
            }
            E::AnalysisBusyForYou(id) => {
                tr!(lang, "error-analysis-busy-for-you", id = id.to_string())
            }
            E::Move(e) => move_error(lang, e),
            E::Size(e) => size_error(lang, e),
            E::Time(TimeControlError(given)) => tr!(lang, "error-time-control", text = given),
            E::Level(LevelError) => tr!(lang, "error-level"),
            E::StorageFull => tr!(lang, "error-storage-full"),
            E::Internal(_) => text::apology(lang),
        }
    }
}

/// A move refused by the rules, in `lang`. The rules say it in English themselves (their
/// `Display`, for the command line and logs); the words for players are here, so the rules core
/// stays free of catalogues.
pub fn move_error(lang: Lang, e: &MoveError) -> String {
    use IllegalMove as I;
    let illegal = match e {
        MoveError::Parse(p) => return tr!(lang, "move-unreadable", text = &p.0),
        MoveError::Illegal(i) => i,
    };
    match illegal {
        I::GameOver => tr!(lang, "move-game-over"),
        I::OffBoard { square, size } => tr!(
            lang,
            "move-off-board",
            square = square,
            size = size.to_string(),
            last_column = char::from(b'a' + size.cols() - 1).to_string(),
            rows = size.rows()
        ),
        I::NoPiece(s) => tr!(lang, "move-no-piece", square = s.to_string()),
        I::NotYourPiece { square: s, turn } => tr!(
            lang,
            "move-not-your-piece",
            square = s.to_string(),
            side = turn.name()
        ),
        I::NotForward => tr!(lang, "move-not-forward"),
        I::TooFar => tr!(lang, "move-too-far"),
        I::OwnPiece(s) => tr!(lang, "move-own-piece", square = s.to_string()),
        I::StraightCapture(s) => tr!(lang, "move-straight-capture", square = s.to_string()),
        I::NothingToCapture { from, to } => tr!(
            lang,
            "move-nothing-to-capture",
            from = from.to_string(),
            to = to.to_string()
        ),
        I::NoMoveTo(s) => tr!(lang, "move-no-move-to", square = s.to_string()),
        I::Ambiguous { square: s, options } => {
            let options = options
                .iter()
                .map(ToString::to_string)
                .reduce(|first, second| tr!(lang, "move-or", first = first, second = second))
                .unwrap_or_default();
            tr!(
                lang,
                "move-ambiguous",
                square = s.to_string(),
                options = options
            )
        }
    }
}

/// A board size refused by the rules, in `lang`.
pub fn size_error(lang: Lang, e: &SizeError) -> String {
    match e {
        SizeError::Unreadable(given) => tr!(lang, "size-unreadable", text = given),
        SizeError::Unsupported { cols, rows } => tr!(
            lang,
            "size-unsupported",
            columns = *cols,
            rows = *rows,
            min_columns = MIN_COLS,
            max_columns = MAX_COLS,
            min_rows = MIN_ROWS,
            max_rows = MAX_ROWS
        ),
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.localized(Lang::En, &Plain))
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
