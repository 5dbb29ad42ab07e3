//! A service's refusal found where it sits: an operation's error holds its own service's
//! refusal, which may hold a shared one (which game, the AI's queue, a move the rules refuse).
//! `refused!` asserts a refusal at the level a test names it.

use breakthrough_bot::game::{
    AccessRefusal, ChallengeRefusal, Error, PlayRefusal, PuzzleRefusal, QueueRefusal,
    StandingsRefusal, TeamRefusal,
};
use breakthrough_bot::rules::MoveError;

/// The refusal `T` inside an error, if that is what it is.
pub trait Within<T> {
    fn within(&self) -> Option<&T>;
}

impl<R> Within<R> for Error<R> {
    fn within(&self) -> Option<&R> {
        self.refusal()
    }
}

macro_rules! nested {
    ($($outer:ident :: $variant:ident ( $inner:ty )),* $(,)?) => {$(
        impl Within<$inner> for Error<$outer> {
            fn within(&self) -> Option<&$inner> {
                match self.refusal() {
                    Some($outer::$variant(inner)) => Some(inner),
                    _ => None,
                }
            }
        }
    )*};
}

nested!(
    ChallengeRefusal::Access(AccessRefusal),
    ChallengeRefusal::Queue(QueueRefusal),
    PlayRefusal::Access(AccessRefusal),
    PlayRefusal::Queue(QueueRefusal),
    PlayRefusal::Move(MoveError),
    PlayRefusal::Puzzle(PuzzleRefusal),
    StandingsRefusal::Access(AccessRefusal),
    StandingsRefusal::Queue(QueueRefusal),
    PuzzleRefusal::Move(MoveError),
    TeamRefusal::Move(MoveError),
    PlayRefusal::Team(TeamRefusal),
);

impl<T, E: Within<T>> Within<T> for &E {
    fn within(&self) -> Option<&T> {
        (*self).within()
    }
}

/// The refusal `T` inside `e`, if that is what it is.
pub fn within<T, E: Within<T>>(e: &E) -> Option<&T> {
    e.within()
}

/// Asserts `result` is refused with the refusal `pattern` names, as [`is_refusal!`] reads it,
/// showing the error otherwise.
#[macro_export]
macro_rules! refused {
    ($result:expr, $($pattern:tt)+) => {
        match $result {
            Err(e) => assert!($crate::is_refusal!(e, $($pattern)+), "wrong refusal: {e:?}"),
            Ok(v) => panic!("accepted: {v:?}"),
        }
    };
}

/// Whether the error `e` is the refusal `pattern` names, of the type it names (the operation's
/// own, or a shared one inside it).
#[macro_export]
macro_rules! is_refusal {
    (
        $e:expr,
        $refusal:ident :: $variant:ident
        $( ( $($tuple:tt)* ) )?
        $( { $($fields:tt)* } )?
        $( if $guard:expr )?
    ) => {{
        let found: Option<$refusal> = $crate::common::refusals::within(&$e).cloned();
        matches!(
            found,
            Some($refusal::$variant $( ( $($tuple)* ) )? $( { $($fields)* } )?)
            $( if $guard )?
        )
    }};
}
