//! A database where games were left two days ago: by now every clock in it has run out.

use std::sync::Arc;

use crate::common::secs;
use breakthrough_bot::engine::Level;
use breakthrough_bot::game::{
    AiRequest, ChallengeId, ChallengeRef, ChallengeRequest, GameId, Limits, ManualClock, Member,
    Place, Services, TimeControl, Timestamp,
};
use breakthrough_bot::rules::{BoardSize, Color};
use breakthrough_bot::store::Store;

/// Two days ago.
pub fn two_days_ago() -> Timestamp {
    Timestamp::from(std::time::SystemTime::now()) - secs(2 * 86_400)
}

/// The game service on `store`, at [`two_days_ago`].
pub fn games_back_then(store: &Store) -> Services {
    Services::new(
        store.clone(),
        Arc::new(ManualClock::new(two_days_ago())),
        Limits::default(),
    )
}

/// A one-hour challenge from `from` to `to` in `place`, `from` playing Black.
pub fn request(place: Place, from: &Member, to: &Member) -> ChallengeRequest {
    ChallengeRequest {
        place,
        challenger: from.clone(),
        opponent: Some(to.clone()),
        size: BoardSize::DEFAULT,
        color: Some(Color::Black),
        time: TimeControl::OneHour,
        rated: true,
    }
}

/// What [`seed`] left: ids of a game, a challenge and a game against the AI.
pub struct Overdue {
    pub game: GameId,
    pub challenge: ChallengeId,
    pub ai_game: GameId,
}

/// In `place` of the database at `db`, two days ago, with one-hour clocks: a game nobody moved
/// in, a pending challenge, and a game waiting for the AI (`ai`). By now all are overdue.
pub async fn seed(db: &str, place: Place, ai: Member) -> Overdue {
    let (zelda, yusuf, xenia) = (
        Member::new(9001, "zelda"),
        Member::new(9002, "yusuf"),
        Member::new(9003, "xenia"),
    );
    let store = Store::open(db).await.expect("open store");
    let games = games_back_then(&store);
    let c = games
        .challenges
        .challenge(request(place, &zelda, &yusuf))
        .await
        .expect("challenge");
    let game = games
        .challenges
        .accept(&yusuf, ChallengeRef::Id(c.place, c.id))
        .await
        .expect("accept")
        .game;
    let pending = games
        .challenges
        .challenge(request(place, &zelda, &xenia))
        .await
        .expect("challenge");
    let ai_game = games
        .challenges
        .challenge_ai(AiRequest {
            place,
            challenger: xenia,
            ai,
            level: Level::DEFAULT.into(),
            size: BoardSize::DEFAULT,
            color: Some(Color::White),
            time: TimeControl::OneHour,
            reach: breakthrough_bot::game::Reach::Posts,
        })
        .await
        .expect("AI game");
    assert!(ai_game.ai_to_move());
    store.close().await;
    Overdue {
        game: game.id,
        challenge: pending.id,
        ai_game: ai_game.id,
    }
}

/// Asserts that nothing touched what [`seed`] left: both games still at ply 0, the challenge
/// still pending.
pub async fn assert_untouched(db: &str, seeded: &Overdue) {
    let store = Store::open(db).await.expect("open store");
    let game = store.game(seeded.game).await.unwrap().unwrap();
    assert_eq!((game.state.as_str(), game.ply), ("active", 0));
    let ai_game = store.game(seeded.ai_game).await.unwrap().unwrap();
    assert_eq!((ai_game.state.as_str(), ai_game.ply), ("active", 0));
    let challenge = store.challenge(seeded.challenge).await.unwrap().unwrap();
    assert_eq!(challenge.state.as_str(), "pending");
    store.close().await;
}
