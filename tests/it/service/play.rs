//! Playing a game: refused moves, aborts, concurrent and stale moves, the ply check between
//! processes, and a refused ending.

use breakthrough_bot::game::{
    AccessRefusal, EndReason, Error, GameId, GameRef, GameState, Limits, PlayRefusal, RatingValue,
    Services,
};
use breakthrough_bot::rules::{Color, MoveError};
use breakthrough_bot::store::Store;

use super::{
    alice, bob, carol, play_all, refused, result, started, started_between, world, World, PLACE, T0,
};
use crate::common::db::Backend;
use crate::common::secs;
use crate::common::swept::swept;

pub(super) async fn moves_are_refused_with_reasons_and_change_nothing(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let ply = |w: &World| {
        let games = w.games.clone();
        async move { games.play.game(id).await.unwrap().ply }
    };
    let err = w
        .games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "a2-a3")
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "it is not your turn: alice is to move");
    refused!(
        w.games
            .play
            .play(&carol(), PLACE, GameRef::Id(id), "a4-a3")
            .await,
        AccessRefusal::NotAPlayer(_)
    );
    refused!(
        w.games
            .play
            .play(&carol(), PLACE, GameRef::Only, "a4-a3")
            .await,
        AccessRefusal::NoActiveGame
    );
    refused!(
        w.games.play.play(&alice(), PLACE, GameRef::Id(GameId::new(77)), "a4-a3")
            .await,
        AccessRefusal::NoSuchGame(id) if id == GameId::new(77)
    );
    let err = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a2")
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "a piece moves one square at a time");
    let err = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4xa3")
        .await
        .unwrap_err();
    assert!(
        crate::is_refusal!(err, PlayRefusal::Move(MoveError::Illegal(_))),
        "{err:?}"
    );
    let err = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "hello")
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("cannot read `hello`"), "{err}");
    assert_eq!(ply(&w).await, 0);

    // After both have moved, abort is refused; resign ends it; then everything is refused.
    play_all(&w, id, &["a4-a3", "c2-c3"]).await;
    refused!(
        w.games.play.abort(&alice(), PLACE, GameRef::Id(id)).await,
        PlayRefusal::AbortTooLate
    );
    let over = w
        .games
        .play
        .resign(&bob(), PLACE, GameRef::Only)
        .await
        .unwrap();
    assert_eq!(
        result(&over),
        Some((Some(Color::Black), EndReason::Resignation))
    );
    assert!(over.status.rating_change().is_some());
    refused!(
        w.games
            .play
            .play(&alice(), PLACE, GameRef::Id(id), "a3-a2")
            .await,
        PlayRefusal::GameOver(_)
    );
    refused!(
        w.games.play.resign(&alice(), PLACE, GameRef::Id(id)).await,
        PlayRefusal::GameOver(_)
    );
    assert_eq!(ply(&w).await, 2);
}

pub(super) async fn abort_before_both_have_moved_leaves_no_result_and_no_rating(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    let g = w
        .games
        .play
        .abort(&bob(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    assert_eq!(g.status.state(), GameState::Aborted);
    assert_eq!(result(&g), Some((None, EndReason::Aborted)));
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &alice(), "3x5".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(card.games, 0);
}

pub(super) async fn fifty_concurrent_copies_of_a_move_apply_exactly_once(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let games = w.games.clone();
        tasks.push(tokio::spawn(async move {
            games
                .play
                .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
                .await
        }));
    }
    let mut applied = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => applied += 1,
            Err(Error::Refused(PlayRefusal::PositionChanged | PlayRefusal::NotYourTurn(_))) => {}
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
    assert_eq!(applied, 1);
    let h = w.games.standings.history(PLACE, id).await.unwrap();
    assert_eq!(h.moves, ["a4-a3"]);
    assert_eq!(h.game.ply, 1);

    // Different moves racing for the same ply: still exactly one.
    let mut tasks = Vec::new();
    for mv in ["b2-b3", "c2-c3", "b2xa3", "c2-b3"]
        .into_iter()
        .cycle()
        .take(40)
    {
        let games = w.games.clone();
        tasks.push(tokio::spawn(async move {
            games.play.play(&bob(), PLACE, GameRef::Id(id), mv).await
        }));
    }
    let mut applied = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => applied += 1,
            Err(Error::Refused(PlayRefusal::PositionChanged | PlayRefusal::NotYourTurn(_))) => {}
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
    assert_eq!(applied, 1);
    assert_eq!(
        w.games
            .standings
            .history(PLACE, id)
            .await
            .unwrap()
            .moves
            .len(),
        2
    );
}

pub(super) async fn a_stale_move_written_together_with_others_is_turned_away_alone(b: Backend) {
    let w = world(b).await;
    let stale = started(&w).await;
    let fresh = started_between(&w, &carol(), &alice()).await;
    play_all(&w, stale, &["a4-a3"]).await;
    // A second process moves for bob; this process has not seen it yet.
    let other = Store::open(&w.url).await.unwrap();
    Services::new(other.clone(), w.clock.clone(), Limits::default())
        .play
        .play(&bob(), PLACE, GameRef::Id(stale), "c2-c3")
        .await
        .unwrap();
    other.close().await;

    // Submitted at the same moment, the two moves go to the database in one statement.
    let (bob, carol) = (bob(), carol());
    let (late, on_time) = tokio::join!(
        w.games.play.play(&bob, PLACE, GameRef::Id(stale), "b2-b3"),
        w.games
            .play
            .play(&carol, PLACE, GameRef::Id(fresh), "a4-a3"),
    );
    refused!(late, PlayRefusal::PositionChanged);
    assert_eq!(on_time.unwrap().game.ply, 1);
    assert_eq!(
        w.games.standings.history(PLACE, fresh).await.unwrap().moves,
        ["a4-a3"]
    );
    let h = w.games.standings.history(PLACE, stale).await.unwrap();
    assert_eq!(h.moves, ["a4-a3", "c2-c3"]);
    assert_eq!(
        h.game.position,
        breakthrough_bot::rules::replay(h.game.size, ["a4-a3", "c2-c3"])
            .unwrap()
            .0
    );
}

pub(super) async fn a_game_shows_every_change_at_once_and_a_second_process_is_caught_by_the_ply_check(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    assert_eq!(w.games.play.game(id).await.unwrap().ply, 1);

    // A second process on the same file moves for bob.
    let other = Store::open(&w.url).await.unwrap();
    let elsewhere = Services::new(other.clone(), w.clock.clone(), Limits::default());
    elsewhere
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    // bob's second copy of that move, here, is refused without writing anything, and from
    // then on this process sees the move.
    refused!(
        w.games
            .play
            .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
            .await,
        PlayRefusal::PositionChanged
    );
    let seen = w.games.play.game(id).await.unwrap();
    assert_eq!(seen.ply, 2);
    assert_eq!(
        seen.last_move.map(|m| m.to_string()).as_deref(),
        Some("c2-c3")
    );
    play_all(&w, id, &["b4-b3"]).await;
    // And the same the other way round.
    refused!(
        elsewhere
            .play
            .play(&alice(), PLACE, GameRef::Id(id), "b4-b3")
            .await,
        PlayRefusal::PositionChanged
    );
    assert_eq!(elsewhere.play.game(id).await.unwrap().ply, 3);
    other.close().await;

    // The reminder, the resignation and the time-out of this process show at once.
    w.games.play.sweep(T0 + secs(49 * 60)).await.unwrap();
    w.games
        .play
        .resign(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let over = w.games.play.game(id).await.unwrap();
    assert_eq!(over.status.state(), GameState::Finished);
    assert_eq!(
        result(&over),
        Some((Some(Color::White), EndReason::Resignation))
    );
    refused!(
        w.games
            .play
            .play(&bob(), PLACE, GameRef::Id(id), "c3-c4")
            .await,
        PlayRefusal::GameOver(_)
    );

    let timed = started(&w).await;
    play_all(&w, timed, &["a4-a3", "c2-c3"]).await;
    assert!(w.games.play.game(timed).await.unwrap().status.state() == GameState::Active);
    let r = swept(&w.games, T0 + secs(3600)).await.unwrap();
    assert_eq!(r.timed_out.len(), 1);
    assert_eq!(
        w.games.play.game(timed).await.unwrap().status.state(),
        GameState::Finished
    );
    refused!(
        w.games
            .play
            .play(&alice(), PLACE, GameRef::Id(timed), "b4-b3")
            .await,
        PlayRefusal::GameOver(_)
    );
}

pub(super) async fn a_refused_ending_says_whether_the_game_or_the_ratings_moved_on(b: Backend) {
    use breakthrough_bot::game::RatingChange;
    use breakthrough_bot::rules::ByColor;
    use breakthrough_bot::store::{Ended, GameEnding, RatedEnding, RatingChangeRow};
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3", "c2-c3"]).await;
    let start = ByColor::new(RatingValue::START, RatingValue::START);
    let change = RatingChangeRow {
        game_id: id,
        change: RatingChange {
            before: start,
            after: start,
        },
        created_at: T0,
    };
    let ending = |ply: Option<u32>, black_games: Option<i64>| GameEnding {
        game: id,
        ply,
        last_move: None,
        now: T0,
        winner: Some(Color::Black),
        reason: EndReason::Resignation,
        rated: Some(RatedEnding {
            games: ByColor::new(black_games, None),
            change: change.clone(),
        }),
        announce: Vec::new(),
    };
    // Neither player is rated yet: a count of rated games that is not theirs is refused by the
    // ratings' check, the game being as read.
    assert_eq!(
        w.store.end_game(&ending(Some(2), Some(7))).await.unwrap(),
        Ended::RatingsMovedOn
    );
    // At another ply, the game's check refuses it, whatever the ratings say.
    assert_eq!(
        w.store.end_game(&ending(Some(1), Some(7))).await.unwrap(),
        Ended::GameMovedOn
    );
    assert_eq!(
        w.store.end_game(&ending(Some(1), None)).await.unwrap(),
        Ended::GameMovedOn
    );
    // Nothing was written by the refusals; as read, it ends, and then it has moved on.
    assert!(w.games.play.game(id).await.unwrap().is_active());
    assert_eq!(
        w.store.end_game(&ending(Some(2), None)).await.unwrap(),
        Ended::Done
    );
    assert_eq!(
        w.store.end_game(&ending(None, None)).await.unwrap(),
        Ended::GameMovedOn
    );
    assert_eq!(
        w.games.play.game(id).await.unwrap().status.winner(),
        Some(Color::Black)
    );
}
