//! Glicko-2 through `skillratings`: results, and deviation that grows back with inactivity.

use std::time::Duration;

use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::rules::{ByColor, Color};

use super::types::RatingValue;

/// One Glicko-2 rating period: a week.
pub const RATING_PERIOD: Duration = Duration::from_secs(7 * 86_400);

fn to_glicko(v: RatingValue) -> Glicko2Rating {
    Glicko2Rating {
        rating: v.rating,
        deviation: v.deviation,
        volatility: v.volatility,
    }
}

fn from_glicko(g: Glicko2Rating) -> RatingValue {
    RatingValue {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

/// The rating after `idle` without a rated game: one `decay_deviation` per whole week.
pub fn decayed(value: RatingValue, idle: Duration) -> RatingValue {
    // Deviation is capped at 350; after a few hundred periods nothing changes any more.
    let periods = (idle.as_secs() / RATING_PERIOD.as_secs()).min(520);
    let mut g = to_glicko(value);
    for _ in 0..periods {
        let next = decay_deviation(&g);
        if next.deviation == g.deviation {
            break;
        }
        g = next;
    }
    from_glicko(g)
}

/// Both players' new ratings after a game `winner` won.
pub fn rate(before: ByColor<RatingValue>, winner: Color) -> ByColor<RatingValue> {
    let outcome = match winner {
        Color::Black => Outcomes::WIN,
        Color::White => Outcomes::LOSS,
    };
    let (b, w) = glicko2(
        &to_glicko(before.black),
        &to_glicko(before.white),
        &outcome,
        &Glicko2Config::new(),
    );
    ByColor::new(from_glicko(b), from_glicko(w))
}

/// A member's and a puzzle's new ratings after the member's attempt at it, the member winning
/// when they `solved` it.
pub fn rate_against(
    member: RatingValue,
    puzzle: RatingValue,
    solved: bool,
) -> (RatingValue, RatingValue) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (m, p) = glicko2(
        &to_glicko(member),
        &to_glicko(puzzle),
        &outcome,
        &Glicko2Config::new(),
    );
    (from_glicko(m), from_glicko(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_win_between_newcomers_moves_both_by_162() {
        let after = rate(
            ByColor::new(RatingValue::START, RatingValue::START),
            Color::Black,
        );
        assert_eq!(after.black.rating.round(), 1662.0);
        assert_eq!(after.white.rating.round(), 1338.0);
        assert_eq!(after.black.deviation.round(), 290.0);
    }

    #[test]
    fn deviation_grows_back_by_whole_weeks_only() {
        let settled = RatingValue {
            rating: 1700.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let second = Duration::from_secs(1);
        assert_eq!(decayed(settled, RATING_PERIOD - second), settled);
        let one = decayed(settled, RATING_PERIOD);
        let ten = decayed(settled, 10 * RATING_PERIOD);
        assert!(one.deviation > 60.0 && ten.deviation > one.deviation);
        assert_eq!(ten.rating, 1700.0);
        assert!(decayed(settled, Duration::MAX).deviation <= 350.0);
    }
}
