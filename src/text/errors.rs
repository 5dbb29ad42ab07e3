//! What the game service refuses, said to a member: every [`GameError`] in their language and
//! their front end's markup, and the rules' own refusals of a move or a board size.

use std::fmt;

use crate::engine::LevelError;
use crate::game::{Action, GameError, TimeControlError};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::{IllegalMove, MoveError, SizeError, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};

use super::{self as text, Markup, Plain};

impl GameError {
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
fn move_error(lang: Lang, e: &MoveError) -> String {
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

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.localized(Lang::En, &Plain))
    }
}
