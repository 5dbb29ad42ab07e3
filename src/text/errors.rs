//! What the services refuse, said to a member: each service's refusals in their language and
//! their front end's markup, a failure on our side as a short apology, and the rules' own
//! refusals of a move or a board size.

use std::fmt;

use crate::engine::LevelError;
use crate::game::{
    AccessRefusal, Action, ChallengeRefusal, Error, Failure, PlayRefusal, PuzzleRefusal,
    QueueRefusal, SettingsRefusal, StandingsRefusal, TeamRefusal, TimeControlError,
    TournamentRefusal,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::{IllegalMove, MoveError, SizeError, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};

use super::{self as text, Markup, Plain};

/// A refusal a member can be told: the member's doing, in their language.
pub trait Refusal: fmt::Debug + Send + Sync + 'static {
    /// What the member is told, in `lang`, written with `m`.
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String;
}

impl<R: Refusal> Error<R> {
    /// What the member is told, in `lang`, written with `m`: the refusal, or for a failure on
    /// our side a short apology (a full disk said as such).
    pub fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        match self {
            Error::Refused(r) => r.localized(lang, m),
            Error::Failed(f) => failure(lang, f),
        }
    }
}

impl<R: Refusal> fmt::Display for Error<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.localized(Lang::En, &Plain))
    }
}

impl<R: Refusal> std::error::Error for Error<R> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Failed(f) => Some(f),
            Error::Refused(_) => None,
        }
    }
}

/// A failure on our side, in `lang`.
fn failure(lang: Lang, f: &Failure) -> String {
    match f {
        Failure::StorageFull => tr!(lang, "error-storage-full"),
        Failure::Unavailable(_) => tr!(lang, "error-unavailable"),
        Failure::Internal(_) => text::apology(lang),
    }
}

/// Any service's error, as a front end that only tells it keeps it: the refusal (whichever
/// service's), or the failure.
#[derive(Debug)]
pub enum AnyError {
    Refused(Box<dyn Refusal>),
    Failed(Failure),
}

impl AnyError {
    /// A refusal of the front end's own, or of the rules: a board size, a time control.
    pub fn refused(r: impl Refusal) -> AnyError {
        AnyError::Refused(Box::new(r))
    }

    /// Whether this is a fault on our side to log, rather than a refusal or a full disk.
    pub fn is_internal(&self) -> bool {
        matches!(self, AnyError::Failed(Failure::Internal(_)))
    }

    /// What the member is told, in `lang`, written with `m`.
    pub fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        match self {
            AnyError::Refused(r) => r.localized(lang, m),
            AnyError::Failed(f) => failure(lang, f),
        }
    }
}

impl<R: Refusal> From<Error<R>> for AnyError {
    fn from(e: Error<R>) -> Self {
        match e {
            Error::Refused(r) => AnyError::Refused(Box::new(r)),
            Error::Failed(f) => AnyError::Failed(f),
        }
    }
}

impl From<Failure> for AnyError {
    fn from(f: Failure) -> Self {
        AnyError::Failed(f)
    }
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.localized(Lang::En, &Plain))
    }
}

impl std::error::Error for AnyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnyError::Failed(f) => Some(f),
            AnyError::Refused(_) => None,
        }
    }
}

impl Refusal for AccessRefusal {
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        use AccessRefusal as A;
        match self {
            A::NoSuchGame(id) => tr!(lang, "error-no-such-game", id = id.to_string()),
            A::PlayedElsewhere {
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
            A::NoActiveGame => tr!(lang, "error-no-active-game"),
            A::GamesElsewhere { count, channels } => {
                let channels: Vec<String> = channels.iter().map(|c| m.channel(lang, *c)).collect();
                tr!(
                    lang,
                    "error-games-elsewhere",
                    count = *count,
                    channels = channels.join(", ")
                )
            }
            A::AmbiguousGame(games) => {
                let games: Vec<String> = games
                    .iter()
                    .map(|(id, opponent)| text::game_against(lang, m, *id, opponent))
                    .collect();
                tr!(lang, "error-ambiguous-game", games = games.join(", "))
            }
            A::NotAPlayer(id) => tr!(lang, "error-not-a-player", id = id.to_string()),
            A::WhichGame => tr!(lang, "error-which-game"),
        }
    }
}

impl Refusal for QueueRefusal {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        match self {
            QueueRefusal::AiBusyForYou(id) => {
                tr!(lang, "error-ai-busy-for-you", id = id.to_string())
            }
            QueueRefusal::AnalysisBusyForYou(id) => {
                tr!(lang, "error-analysis-busy-for-you", id = id.to_string())
            }
            QueueRefusal::Full => tr!(lang, "error-ai-queue-full"),
        }
    }
}

impl Refusal for ChallengeRefusal {
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        use ChallengeRefusal as C;
        match self {
            C::SelfChallenge => tr!(lang, "error-self-challenge"),
            C::Declined { name, wait } => tr!(
                lang,
                "error-declined",
                name = m.name(name),
                wait = text::duration(lang, *wait)
            ),
            C::TooManyChallengesTo { name, limit, wait } => tr!(
                lang,
                "error-too-many-challenges-to",
                name = m.name(name),
                limit = *limit,
                wait = text::duration(lang, *wait)
            ),
            C::BotOpponent(name) => tr!(lang, "error-bot-opponent", name = m.name(name)),
            C::DuplicateChallenge(name) => {
                tr!(lang, "error-duplicate-challenge", name = m.name(name))
            }
            C::DuplicateOpenChallenge => tr!(lang, "error-duplicate-open-challenge"),
            C::TooManyChallenges(count) => tr!(lang, "error-too-many-challenges", count = *count),
            C::TooManyGames { limit } => tr!(lang, "error-too-many-games", limit = *limit),
            C::OpponentTooManyGames { name, limit } => tr!(
                lang,
                "error-opponent-too-many-games",
                name = m.name(name),
                limit = *limit
            ),
            C::TooManyAiGames(count) => tr!(lang, "error-too-many-ai-games", count = *count),
            C::NotInServer => tr!(lang, "error-not-in-server"),
            C::LevelWithoutAi => tr!(lang, "error-level-without-ai"),
            C::RatedAi => tr!(lang, "error-rated-ai"),
            C::NoSuchChallenge(id) => tr!(lang, "error-no-such-challenge", id = id.to_string()),
            C::NoChallengeForYou => tr!(lang, "error-no-challenge-for-you"),
            C::NoChallengeFrom(name) => tr!(lang, "error-no-challenge-from", name = m.name(name)),
            C::NoChallengeToCancel => tr!(lang, "error-no-challenge-to-cancel"),
            C::AmbiguousChallenge(names) => {
                let names: Vec<String> = names.iter().map(|n| m.name(n)).collect();
                tr!(lang, "error-ambiguous-challenge", names = names.join(", "))
            }
            C::ChallengeClosed(state) => tr!(
                lang,
                "error-challenge-closed",
                state = text::challenge_state(lang, *state)
            ),
            C::NotYourChallenge(name) => {
                tr!(lang, "error-not-your-challenge", name = m.name(name))
            }
            C::DeclineOwnOpen => tr!(lang, "error-decline-own-open"),
            C::NotYourCancel(name) => tr!(lang, "error-not-your-cancel", name = m.name(name)),
            C::DeclineOpen => tr!(lang, "error-decline-open"),
            C::RematchTooEarly(id) => tr!(lang, "error-rematch-too-early", id = id.to_string()),
            C::RematchTaken(id) => tr!(lang, "error-rematch-taken", id = id.to_string()),
            C::NothingToRematch => tr!(lang, "error-nothing-to-rematch"),
            C::Access(why) => why.localized(lang, m),
            C::Queue(why) => why.localized(lang, m),
            C::AnswersOnly => tr!(lang, "error-answers-only"),
        }
    }
}

impl Refusal for PlayRefusal {
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        use PlayRefusal as P;
        match self {
            P::Access(why) => why.localized(lang, m),
            P::NotYourTurn(name) => tr!(lang, "error-not-your-turn", name = m.name(name)),
            P::GameOver(id) => tr!(lang, "error-game-over", id = id.to_string()),
            P::AbortTooLate => tr!(lang, "error-abort-too-late"),
            P::NoAbortInTournament => tr!(lang, "tournament-error-abort"),
            P::OutOfTime => tr!(lang, "error-out-of-time"),
            P::PositionChanged => tr!(lang, "error-position-changed"),
            P::Queue(why) => why.localized(lang, m),
            P::Move(e) => move_error(lang, e),
            P::VacationDays { asked, left } => {
                tr!(lang, "error-vacation-days", asked = *asked, left = *left)
            }
            P::AlreadyOnVacation(until) => {
                tr!(lang, "error-already-on-vacation", until = m.moment(*until))
            }
            P::NotOnVacation => tr!(lang, "error-not-on-vacation"),
            P::Puzzle(why) => why.localized(lang, m),
            P::Team(why) => why.localized(lang, m),
        }
    }
}

impl Refusal for TeamRefusal {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        match self {
            TeamRefusal::InDirect => tr!(lang, "team-error-direct"),
            TeamRefusal::Window => tr!(lang, "team-error-window"),
            TeamRefusal::Limit(n) => tr!(lang, "team-error-limit", count = *n),
            TeamRefusal::ChannelBusy => tr!(lang, "team-error-channel-busy"),
            TeamRefusal::SameChannel => tr!(lang, "team-error-same-channel"),
            TeamRefusal::NoTeamGame => tr!(lang, "team-error-no-game"),
            TeamRefusal::NotYourTurn(id) => {
                tr!(lang, "team-error-not-your-turn", id = id.to_string())
            }
            TeamRefusal::WindowClosed(id) => {
                tr!(lang, "team-error-window-closed", id = id.to_string())
            }
            TeamRefusal::OtherSide(id) => tr!(lang, "team-error-other-side", id = id.to_string()),
            TeamRefusal::Move(e) => move_error(lang, e),
        }
    }
}

impl Refusal for StandingsRefusal {
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        match self {
            StandingsRefusal::Access(why) => why.localized(lang, m),
            StandingsRefusal::AnalysisInProgress(id) => {
                tr!(lang, "error-analysis-in-progress", id = id.to_string())
            }
            StandingsRefusal::Queue(why) => why.localized(lang, m),
        }
    }
}

impl Refusal for SettingsRefusal {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        match self {
            SettingsRefusal::ServerSettingsInDirect => tr!(lang, "error-server-settings-in-direct"),
        }
    }
}

impl Refusal for TournamentRefusal {
    fn localized(&self, lang: Lang, m: &dyn Markup) -> String {
        text::tournament_refusal(lang, m, self)
    }
}

impl Refusal for PuzzleRefusal {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        text::puzzle_refusal(lang, self)
    }
}

/// The rules' refusal of a move, as a front end's own (a move typed where no service reads it).
impl Refusal for MoveError {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        move_error(lang, self)
    }
}

impl Refusal for SizeError {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        size_error(lang, self)
    }
}

impl Refusal for TimeControlError {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        tr!(lang, "error-time-control", text = &self.0)
    }
}

impl Refusal for LevelError {
    fn localized(&self, lang: Lang, _: &dyn Markup) -> String {
        tr!(lang, "error-level")
    }
}

/// A move refused by the rules, in `lang`. The rules say it in English themselves (their
/// `Display`, for the command line and logs); the words for players are here, so the rules core
/// stays free of catalogues.
pub(super) fn move_error(lang: Lang, e: &MoveError) -> String {
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
fn size_error(lang: Lang, e: &SizeError) -> String {
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

/// Each service's refusal said in English plain text, as its error is: for logs and tests.
macro_rules! said_in_english {
    ($($refusal:ty),* $(,)?) => {$(
        impl fmt::Display for $refusal {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.localized(Lang::En, &Plain))
            }
        }
    )*};
}

said_in_english!(
    AccessRefusal,
    QueueRefusal,
    ChallengeRefusal,
    PlayRefusal,
    StandingsRefusal,
    SettingsRefusal,
    TournamentRefusal,
    PuzzleRefusal,
);
