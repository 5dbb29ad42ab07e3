//! What a `/challenge` means, decided once for every front end: a game against the AI starts at
//! once and is never rated, a level only fits the AI, and a challenge between members is rated
//! unless the challenger says otherwise.

use crate::rules::{BoardSize, Color};

use super::error::ChallengeRefusal;
use super::types::{AiLevel, AiRequest, ChallengeRequest, Member, Place, Reach, TimeControl};

/// Whom a member challenges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The built-in AI, as the member it plays as: on Discord the bot's own user, in the console
    /// `@bot`.
    Ai(Member),
    /// Another member.
    Member(Member),
    /// Nobody in particular: anyone in the channel may take it.
    Open,
}

/// A `/challenge` as the member typed it: options left out are `None`.
#[derive(Clone, Debug)]
pub struct ChallengeAsk {
    pub place: Place,
    pub challenger: Member,
    pub opponent: Opponent,
    pub size: BoardSize,
    /// The challenger's side; `None` (or "random") draws it.
    pub color: Option<Color>,
    pub time: TimeControl,
    pub rated: Option<bool>,
    /// The AI's level, when the member names one or asks for `auto` (the default).
    pub level: Option<AiLevel>,
    /// Whether the bot can post where it is asked.
    pub reach: Reach,
}

/// What a `/challenge` turns out to be.
#[derive(Clone, Debug)]
pub enum Decision {
    /// A game against the AI, to start at once with [`Challenges::challenge_ai`](crate::game::Challenges::challenge_ai).
    PlayAi(AiRequest),
    /// A challenge to a member, or an open one, for [`Challenges::challenge`](crate::game::Challenges::challenge).
    Challenge(ChallengeRequest),
}

impl ChallengeAsk {
    /// Decides what the member asked for, or refuses it with the words the member sees: a rated
    /// game against the AI ([`ChallengeRefusal::RatedAi`](crate::game::ChallengeRefusal::RatedAi)), or a level for anyone but the AI
    /// ([`ChallengeRefusal::LevelWithoutAi`](crate::game::ChallengeRefusal::LevelWithoutAi)). The AI plays at the level that meets its
    /// member ([`AiLevel::Auto`]) unless told otherwise; a game between members is rated unless
    /// `rated` is `Some(false)`.
    ///
    /// ```
    /// use breakthrough_bot::engine::Level;
    /// use breakthrough_bot::game::{
    ///     AiLevel, ChallengeAsk, Decision, Member, Opponent, Place, Reach, TimeControl,
    /// };
    /// use breakthrough_bot::rules::BoardSize;
    ///
    /// let ask = ChallengeAsk {
    ///     place: Place::new(1, 1),
    ///     challenger: Member::new(10, "alice"),
    ///     opponent: Opponent::Member(Member::new(11, "bob")),
    ///     size: BoardSize::DEFAULT,
    ///     color: None,
    ///     time: TimeControl::default(),
    ///     rated: None,
    ///     level: None,
    ///     reach: Reach::Posts,
    /// };
    /// let Ok(Decision::Challenge(request)) = ask.clone().decide() else { panic!() };
    /// assert!(request.rated);
    ///
    /// let with_level = ChallengeAsk { level: Level::new(2).map(AiLevel::Fixed), ..ask };
    /// assert_eq!(
    ///     with_level.decide().unwrap_err().to_string(),
    ///     "level is for games against the AI: choose the bot as opponent, or leave level out"
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// [`ChallengeRefusal::RatedAi`](crate::game::ChallengeRefusal::RatedAi) for a rated game against the AI, [`ChallengeRefusal::LevelWithoutAi`](crate::game::ChallengeRefusal::LevelWithoutAi) for a
    /// level with a member as opponent.
    pub fn decide(self) -> Result<Decision, ChallengeRefusal> {
        let opponent = match self.opponent {
            Opponent::Ai(ai) => {
                if self.rated == Some(true) {
                    return Err(ChallengeRefusal::RatedAi);
                }
                return Ok(Decision::PlayAi(AiRequest {
                    place: self.place,
                    challenger: self.challenger,
                    ai,
                    level: self.level.unwrap_or(AiLevel::Auto),
                    size: self.size,
                    color: self.color,
                    time: self.time,
                    reach: self.reach,
                }));
            }
            Opponent::Member(member) => Some(member),
            Opponent::Open => None,
        };
        // A challenge between members needs posts: its Accept button, each move's board for
        // both players.
        if self.reach == Reach::AnswersOnly {
            return Err(ChallengeRefusal::AnswersOnly);
        }
        if self.level.is_some() {
            return Err(ChallengeRefusal::LevelWithoutAi);
        }
        Ok(Decision::Challenge(ChallengeRequest {
            place: self.place,
            challenger: self.challenger,
            opponent,
            size: self.size,
            color: self.color,
            time: self.time,
            rated: self.rated.unwrap_or(true),
        }))
    }
}

/// The colour a challenger asked for, or one drawn at random when they left it open: for a
/// challenge when it is accepted, and for a game against the AI when it starts.
pub(super) fn color_or_drawn(asked: Option<Color>) -> Color {
    asked.unwrap_or_else(|| {
        if rand::random::<bool>() {
            Color::Black
        } else {
            Color::White
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;

    fn ask(opponent: Opponent, rated: Option<bool>, level: Option<u8>) -> ChallengeAsk {
        ChallengeAsk {
            place: Place::new(5, 6),
            challenger: Member::new(1, "alice"),
            opponent,
            size: BoardSize::new(6, 7).unwrap(),
            color: Some(Color::White),
            time: TimeControl::OneHour,
            rated,
            level: level.map(|n| AiLevel::Fixed(Level::new(n).unwrap())),
            reach: Reach::Posts,
        }
    }

    fn ai() -> Opponent {
        Opponent::Ai(Member::new(99, "the bot"))
    }

    fn bob() -> Opponent {
        Opponent::Member(Member::new(2, "bob"))
    }

    fn play_ai(ask: ChallengeAsk) -> AiRequest {
        match ask.decide() {
            Ok(Decision::PlayAi(request)) => request,
            other => panic!("expected a game against the AI, got {other:?}"),
        }
    }

    fn challenge(ask: ChallengeAsk) -> ChallengeRequest {
        match ask.decide() {
            Ok(Decision::Challenge(request)) => request,
            other => panic!("expected a challenge, got {other:?}"),
        }
    }

    #[test]
    fn the_ai_plays_at_once_at_the_level_that_meets_its_member_or_the_one_asked() {
        let request = play_ai(ask(ai(), None, None));
        assert_eq!(request.level, AiLevel::Auto);
        assert_eq!(request.ai, Member::new(99, "the bot"));
        assert_eq!(request.challenger, Member::new(1, "alice"));
        assert_eq!(request.place, Place::new(5, 6));
        assert_eq!(request.size, BoardSize::new(6, 7).unwrap());
        assert_eq!(request.color, Some(Color::White));
        assert_eq!(request.time, TimeControl::OneHour);
        assert_eq!(
            play_ai(ask(ai(), None, Some(5))).level,
            AiLevel::Fixed(Level::MAX)
        );
        assert_eq!(
            play_ai(ask(ai(), Some(false), Some(1))).level,
            AiLevel::Fixed(Level::MIN)
        );
    }

    #[test]
    fn a_rated_game_against_the_ai_is_refused_in_the_members_words() {
        let refused = ask(ai(), Some(true), Some(2)).decide().unwrap_err();
        assert!(matches!(refused, ChallengeRefusal::RatedAi));
        assert_eq!(
            refused.to_string(),
            "games against the AI are never rated: leave rated out, or set it to no"
        );
    }

    #[test]
    fn a_level_without_the_ai_is_refused_in_the_members_words() {
        for opponent in [bob(), Opponent::Open] {
            for rated in [None, Some(true), Some(false)] {
                let refused = ask(opponent.clone(), rated, Some(3)).decide().unwrap_err();
                assert!(matches!(refused, ChallengeRefusal::LevelWithoutAi));
                assert_eq!(
                    refused.to_string(),
                    "level is for games against the AI: choose the bot as opponent, or leave \
                     level out"
                );
            }
        }
    }

    #[test]
    fn challenges_between_members_are_rated_unless_asked_otherwise() {
        let request = challenge(ask(bob(), None, None));
        assert!(request.rated);
        assert_eq!(request.opponent, Some(Member::new(2, "bob")));
        assert_eq!(request.challenger, Member::new(1, "alice"));
        assert_eq!(request.place, Place::new(5, 6));
        assert_eq!(request.size, BoardSize::new(6, 7).unwrap());
        assert_eq!(request.color, Some(Color::White));
        assert_eq!(request.time, TimeControl::OneHour);
        assert!(challenge(ask(bob(), Some(true), None)).rated);
        assert!(!challenge(ask(bob(), Some(false), None)).rated);
    }

    #[test]
    fn an_open_challenge_has_no_opponent_and_the_same_rating_rule() {
        let request = challenge(ask(Opponent::Open, None, None));
        assert_eq!(request.opponent, None);
        assert!(request.rated);
        assert!(!challenge(ask(Opponent::Open, Some(false), None)).rated);
    }
}
