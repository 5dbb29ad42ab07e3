//! Where a game lives: several games in a channel, a game acted on only in its channel and seen
//! only in its server, and a game against the AI in a direct message.

use breakthrough_bot::game::{AccessRefusal, ChallengeRef, GameRef, Place};
use breakthrough_bot::rules::Color;

use super::{
    ai_request, alice, bob, carol, refused, request, started, world, A_DM, NEXT_CHANNEL,
    OTHER_SERVER, PLACE,
};
use crate::common::db::Backend;

pub(super) async fn several_games_in_a_channel_need_a_game_number(b: Backend) {
    let w = world(b).await;
    started(&w).await;
    let c = w
        .games
        .challenges
        .challenge(request(&carol(), Some(&alice()), "5x5"))
        .await
        .unwrap();
    w.games
        .challenges
        .accept(&alice(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    let err = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Only, "a4-a3")
        .await
        .unwrap_err();
    assert!(
        crate::is_refusal!(err, AccessRefusal::AmbiguousGame(_)),
        "{err:?}"
    );
    assert!(err.to_string().contains("#1 against bob"), "{err}");
    assert!(err.to_string().contains("#2 against carol"), "{err}");
    assert_eq!(
        w.games
            .standings
            .games_of(alice().id, Some(PLACE.guild))
            .await
            .unwrap()
            .len(),
        2
    );
}

pub(super) async fn a_game_is_played_in_its_own_channel_and_seen_only_in_its_server(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    // Moves, resignations and aborts from anywhere else point to the game's channel.
    for at in [NEXT_CHANNEL, OTHER_SERVER, A_DM] {
        let refusal = w
            .games
            .play
            .play(&alice(), at, GameRef::Id(id), "a4-a3")
            .await
            .expect_err("a move from elsewhere");
        assert_eq!(
            refusal.to_string(),
            format!("game #{id} is played in channel 20; make your move there")
        );
        refused!(
            w.games.play.resign(&alice(), at, GameRef::Id(id)).await,
            AccessRefusal::PlayedElsewhere { .. }
        );
        refused!(
            w.games
                .play
                .resignable(alice().id, at, GameRef::Id(id))
                .await,
            AccessRefusal::PlayedElsewhere { .. }
        );
        let refusal = w
            .games
            .play
            .abort(&bob(), at, GameRef::Id(id))
            .await
            .expect_err("an abort from elsewhere");
        assert_eq!(
            refusal.to_string(),
            format!("game #{id} is played in channel 20; abort it there")
        );
        assert!(w
            .games
            .play
            .move_suggestions(alice().id, at, GameRef::Id(id), "", 25)
            .await
            .unwrap()
            .is_empty());
    }
    let game = w.games.play.game(id).await.unwrap();
    assert!(game.is_active());
    assert_eq!(game.ply, 0);
    assert!(!w
        .games
        .play
        .move_suggestions(alice().id, PLACE, GameRef::Id(id), "", 25)
        .await
        .unwrap()
        .is_empty());

    // Anyone in the server may look at it from any channel; from elsewhere it is not there, for
    // its own players too.
    let seen = w
        .games
        .play
        .find_game(carol().id, NEXT_CHANNEL, GameRef::Id(id))
        .await
        .unwrap();
    assert_eq!(seen.id, id);
    assert_eq!(
        w.games
            .standings
            .history(NEXT_CHANNEL, id)
            .await
            .unwrap()
            .game
            .id,
        id
    );
    for at in [OTHER_SERVER, A_DM] {
        for who in [alice(), carol()] {
            let refusal = w
                .games
                .play
                .find_game(who.id, at, GameRef::Id(id))
                .await
                .expect_err("a look from elsewhere");
            assert_eq!(refusal.to_string(), format!("there is no game #{id} here"));
        }
        let refusal = w
            .games
            .standings
            .history(at, id)
            .await
            .expect_err("history");
        assert_eq!(refusal.to_string(), format!("there is no game #{id} here"));
    }
    // Someone from another server acting on it learns nothing either.
    refused!(
        w.games
            .play
            .play(&carol(), OTHER_SERVER, GameRef::Id(id), "a4-a3")
            .await,
        AccessRefusal::NoSuchGame(_)
    );

    // In its own channel all of it works.
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    assert_eq!(w.games.play.game(id).await.unwrap().ply, 1);
}

pub(super) async fn a_game_against_the_ai_in_a_direct_message_stays_in_that_message(b: Backend) {
    let w = world(b).await;
    let game = w
        .games
        .challenges
        .challenge_ai(ai_request(A_DM, Some(Color::Black), "8x8"))
        .await
        .unwrap();
    let another_dm = Place::new(0, 41);
    for at in [PLACE, another_dm] {
        let refusal = w
            .games
            .play
            .play(&alice(), at, GameRef::Id(game.id), "e7-e6")
            .await
            .expect_err("a move from elsewhere");
        assert_eq!(
            refusal.to_string(),
            format!(
                "game #{} is played in our direct messages; make your move there",
                game.id
            )
        );
        refused!(
            w.games
                .play
                .find_game(carol().id, at, GameRef::Id(game.id))
                .await,
            AccessRefusal::NoSuchGame(_)
        );
        refused!(
            w.games.standings.history(at, game.id).await,
            AccessRefusal::NoSuchGame(_)
        );
    }
    assert_eq!(w.games.play.game(game.id).await.unwrap().ply, 0);
    w.games
        .play
        .find_game(alice().id, A_DM, GameRef::Id(game.id))
        .await
        .unwrap();
    w.games
        .play
        .play(&alice(), A_DM, GameRef::Id(game.id), "e7-e6")
        .await
        .unwrap();
}
