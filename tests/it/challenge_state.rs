//! A challenge's state as stored: an accepted challenge is read back with its game, and a row
//! that says accepted without one (put there past the schema's check) is refused as broken, on
//! both backends: the member is told something went wrong, and no game starts from it.

use std::sync::Arc;

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRefusal, ChallengeRequest, ChallengeState, Limits, ManualClock, Member,
    Place, Services, TimeControl, Timestamp,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;
use breakthrough_bot::text;

use crate::common::db::{execute_unchecked, on_both_backends, Backend, TestDb};

const PLACE: Place = Place::new(10, 20);

fn alice() -> Member {
    Member::new(1001, "alice")
}

fn bob() -> Member {
    Member::new(1002, "bob")
}

async fn games(db: &TestDb) -> Services {
    let store = Store::open(&db.url).await.expect("open store");
    Services::new(
        store,
        Arc::new(ManualClock::new(Timestamp::from_unix_seconds(
            1_800_000_000,
        ))),
        Limits::default(),
    )
}

fn alice_challenges_bob() -> ChallengeRequest {
    ChallengeRequest {
        place: PLACE,
        challenger: alice(),
        opponent: Some(bob()),
        size: "6x6".parse().expect("size"),
        color: Some(Color::Black),
        time: TimeControl::OneHour,
        rated: false,
    }
}

async fn an_accepted_challenge_reads_back_with_its_game(b: Backend) {
    let db = TestDb::new(b).await;
    let games = games(&db).await;
    let c = games
        .challenges
        .challenge(alice_challenges_bob())
        .await
        .unwrap();
    let game = games
        .challenges
        .accept(&bob(), ChallengeRef::Id(PLACE, c.id))
        .await
        .unwrap()
        .game;
    let read = games.challenges.challenge_view(c.id).await.unwrap();
    assert_eq!(read.state, ChallengeState::Accepted(game.id));
}

/// Two members take one open challenge at once: one game starts, and the other member is told
/// the challenge was accepted, for that game, whichever check finds it closed.
async fn two_members_accepting_at_once_start_one_game(b: Backend) {
    let db = TestDb::new(b).await;
    let games = games(&db).await;
    let open = ChallengeRequest {
        opponent: None,
        ..alice_challenges_bob()
    };
    let c = games.challenges.challenge(open).await.unwrap();
    let (bob, carol) = (bob(), Member::new(1003, "carol"));
    let (by_bob, by_carol) = tokio::join!(
        games.challenges.accept(&bob, ChallengeRef::Id(PLACE, c.id)),
        games
            .challenges
            .accept(&carol, ChallengeRef::Id(PLACE, c.id)),
    );
    let (game, refused) = match (by_bob, by_carol) {
        (Ok(started), Err(refused)) | (Err(refused), Ok(started)) => (started.game, refused),
        other => panic!("not one game and one refusal: {other:?}"),
    };
    assert!(
        crate::is_refusal!(refused, ChallengeRefusal::ChallengeClosed(ChallengeState::Accepted(id)) if id == game.id),
        "{refused:?}"
    );
    let read = games.challenges.challenge_view(c.id).await.unwrap();
    assert_eq!(read.state, ChallengeState::Accepted(game.id));
}

async fn an_accepted_challenge_stored_without_its_game_is_refused_as_broken(b: Backend) {
    let db = TestDb::new(b).await;
    let games = games(&db).await;
    let c = games
        .challenges
        .challenge(alice_challenges_bob())
        .await
        .unwrap();
    execute_unchecked(
        &db.url,
        "challenges",
        "UPDATE challenges SET state = 'accepted' WHERE id = $1",
        &[c.id.get()],
    )
    .await;
    let e = games.challenges.challenge_view(c.id).await.unwrap_err();
    assert!(e.is_internal(), "{e:?}");
    assert!(
        format!("{e:?}").contains("`accepted` with no game"),
        "{e:?}"
    );
    assert_eq!(e.localized(Lang::En, &text::Plain), text::apology(Lang::En));
    // Answering it fails the same way, and starts nothing.
    let e = games
        .challenges
        .accept(&bob(), ChallengeRef::Id(PLACE, c.id))
        .await
        .unwrap_err();
    assert!(e.is_internal(), "{e:?}");
    assert!(games
        .standings
        .games_of(bob().id, None)
        .await
        .unwrap()
        .is_empty());
}

on_both_backends! {
    #[tokio::test] an_accepted_challenge_reads_back_with_its_game,
    #[tokio::test] two_members_accepting_at_once_start_one_game,
    #[tokio::test] an_accepted_challenge_stored_without_its_game_is_refused_as_broken,
}
