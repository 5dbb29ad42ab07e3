//! Games against the AI: its limits per member and the bounded queue of its replies.

use std::sync::Arc;

use breakthrough_bot::game::{
    AiRequest, ChallengeRefusal, Error, GameId, GameRef, Limits, Member, PlayRefusal, QueueRefusal,
};
use breakthrough_bot::rules::Color;

use super::{
    ai_request, alice, bob, carol, dave, refused, started, world, world_with, World, PLACE,
};
use crate::common::db::Backend;
use crate::common::secs;

/// A game of `who` (Black, to move first) against the AI on 5x5.
async fn ai_game_of(w: &World, who: &Member) -> GameId {
    w.games
        .challenges
        .challenge_ai(AiRequest {
            challenger: who.clone(),
            ..ai_request(PLACE, Some(Color::Black), "5x5")
        })
        .await
        .expect("a game against the AI")
        .id
}

pub(super) async fn a_fourth_game_against_the_ai_is_refused_and_says_the_limit(b: Backend) {
    let w = world(b).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(ai_game_of(&w, &alice()).await);
    }
    let refusal = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
        .await
        .unwrap_err();
    assert!(
        crate::is_refusal!(refusal, ChallengeRefusal::TooManyAiGames(3)),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        "you already have 3 games against the AI in progress, the most allowed: finish or resign one first"
    );
    // Nothing was started.
    let games = w.games.standings.games_of(alice().id, None).await.unwrap();
    assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), ids);
    // A game against a member is still allowed, and the AI still plays others.
    started(&w).await;
    ai_game_of(&w, &bob()).await;
    // Once one of the three is over, there is room for a new one.
    w.games
        .play
        .resign(&alice(), PLACE, GameRef::Id(ids[0]))
        .await
        .unwrap();
    ai_game_of(&w, &alice()).await;
}

pub(super) async fn a_member_has_one_ai_reply_on_the_way_and_a_move_elsewhere_meanwhile_changes_nothing(
    b: Backend,
) {
    let w = world(b).await;
    let first = ai_game_of(&w, &alice()).await;
    let second = ai_game_of(&w, &alice()).await;
    let (played, slot) = w
        .games
        .play
        .play_with_slot(&alice(), PLACE, GameRef::Id(first), "a4-a3")
        .await
        .unwrap();
    assert!(played.game.ai_to_move());
    let slot = slot.expect("the AI's reply has its place in the queue");
    assert_eq!(slot.game(), first);

    // While that reply is on its way, her move in her other game is refused and not played.
    let refusal = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(second), "b4-b3")
        .await
        .unwrap_err();
    assert!(
        crate::is_refusal!(refusal, QueueRefusal::AiBusyForYou(id) if id == first),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        format!("the AI is still answering your move in game #{first}: wait for its reply, then try again")
    );
    let untouched = w.games.standings.history(PLACE, second).await.unwrap();
    assert!(untouched.moves.is_empty());
    assert_eq!(untouched.game.to_move().id, alice().id);
    // Nor can she start a game the AI would open.
    refused!(
        w.games
            .challenges
            .challenge_ai(ai_request(PLACE, Some(Color::White), "5x5"))
            .await,
        QueueRefusal::AiBusyForYou(_)
    );
    assert_eq!(
        w.games
            .standings
            .games_of(alice().id, None)
            .await
            .unwrap()
            .len(),
        2
    );
    // A second reply to the same game (the sweeper's) leaves it to the one on its way.
    assert_eq!(w.games.play.ai_reply(first).await.unwrap(), None);
    assert_eq!(w.games.play.game(first).await.unwrap().ply, 1);
    // Others are not held up by her.
    let bobs = ai_game_of(&w, &bob()).await;
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(bobs), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .ai_reply(bobs)
        .await
        .unwrap()
        .expect("the AI answers bob");

    // The reply comes, and her other game is hers to play again.
    let reply = w
        .games
        .play
        .ai_reply_with(slot)
        .await
        .unwrap()
        .expect("the AI replies");
    assert_eq!(reply.game.ply, 2);
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(second), "b4-b3")
        .await
        .unwrap();
    let reply = w
        .games
        .play
        .ai_reply(second)
        .await
        .unwrap()
        .expect("a reply");
    assert_eq!(reply.game.ply, 2);
    assert!(w
        .games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
}

pub(super) async fn a_full_ai_queue_refuses_at_once_and_leaves_no_game_waiting(b: Backend) {
    let at_once = std::time::Duration::from_secs(2);
    let w = world_with(
        b,
        Limits {
            ai_queue: 2,
            ..Limits::default()
        },
    )
    .await;
    let (a, b, c) = (
        ai_game_of(&w, &alice()).await,
        ai_game_of(&w, &bob()).await,
        ai_game_of(&w, &carol()).await,
    );
    let take = |who: Member, id: GameId| {
        let games = w.games.clone();
        async move {
            let (_, slot) = games
                .play
                .play_with_slot(&who, PLACE, GameRef::Id(id), "a4-a3")
                .await
                .unwrap();
            slot.expect("a place in the queue")
        }
    };
    let alices = take(alice(), a).await;
    let bobs = take(bob(), b).await;

    // The queue is full: carol is answered at once, and her move is not played.
    let refusal = tokio::time::timeout(
        at_once,
        w.games.play.play(&carol(), PLACE, GameRef::Id(c), "a4-a3"),
    )
    .await
    .expect("refused without waiting")
    .unwrap_err();
    assert!(
        crate::is_refusal!(refusal, QueueRefusal::Full),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        "the AI is busy answering other players: try again in a moment"
    );
    let untouched = w.games.standings.history(PLACE, c).await.unwrap();
    assert!(untouched.moves.is_empty());
    assert_eq!(untouched.game.to_move().id, carol().id);
    // A game the AI would open is not started either.
    let refusal = tokio::time::timeout(
        at_once,
        w.games.challenges.challenge_ai(AiRequest {
            challenger: dave(),
            ..ai_request(PLACE, Some(Color::White), "5x5")
        }),
    )
    .await
    .expect("refused without waiting");
    refused!(refusal, QueueRefusal::Full);
    assert!(w
        .games
        .standings
        .games_of(dave().id, None)
        .await
        .unwrap()
        .is_empty());
    // A game where the member opens still starts: it needs no reply yet.
    let daves = ai_game_of(&w, &dave()).await;

    // One reply is lost on the way (the front end failed before answering): its place is
    // given back, and the game is left to the pickup of games waiting for the AI.
    drop(alices);
    let carols = take(carol(), c).await;
    // Full again: the pickup is refused at once too, and the game still waits.
    let refusal = tokio::time::timeout(at_once, w.games.play.ai_reply(a))
        .await
        .expect("refused without waiting");
    refused!(refusal, QueueRefusal::Full);
    assert_eq!(w.games.play.game(a).await.unwrap().ply, 1);
    let mut waiting = w.games.play.ai_games_to_move(secs(0)).await.unwrap();
    waiting.sort();
    assert_eq!(waiting, [a, b, c]);

    // The replies on their way come in; then the pickup answers the rest, and nothing is left.
    for slot in [bobs, carols] {
        w.games
            .play
            .ai_reply_with(slot)
            .await
            .unwrap()
            .expect("the AI replies");
    }
    assert_eq!(w.games.play.ai_games_to_move(secs(0)).await.unwrap(), [a]);
    for id in w.games.play.ai_games_to_move(secs(0)).await.unwrap() {
        w.games
            .play
            .ai_reply(id)
            .await
            .unwrap()
            .expect("the AI replies");
    }
    assert!(w
        .games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
    for (id, who) in [(a, alice()), (b, bob()), (c, carol())] {
        let g = w.games.play.game(id).await.unwrap();
        assert_eq!((g.ply, g.to_move().id), (2, who.id));
    }
    // And the queue has room again.
    w.games
        .play
        .play(&dave(), PLACE, GameRef::Id(daves), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .ai_reply(daves)
        .await
        .unwrap()
        .expect("a reply");
}

pub(super) async fn many_members_at_once_against_a_small_ai_queue_are_played_or_refused_never_stuck(
    b: Backend,
) {
    let w = world_with(
        b,
        Limits {
            ai_queue: 3,
            ..Limits::default()
        },
    )
    .await;
    let members: Vec<Member> = (0..8)
        .map(|i| Member::new(2000 + i, format!("m{i}")))
        .collect();
    let mut ids = Vec::new();
    for m in &members {
        ids.push(ai_game_of(&w, m).await);
    }
    // All eight move at once; the replies wait until every move has been tried, so the queue is
    // full for the last five, whichever they are.
    let all_tried = Arc::new(tokio::sync::Barrier::new(members.len()));
    let mut tasks = Vec::new();
    for (m, &id) in members.iter().zip(&ids) {
        let games = w.games.clone();
        let m = m.clone();
        let all_tried = all_tried.clone();
        tasks.push(tokio::spawn(async move {
            let tried = games
                .play
                .play_with_slot(&m, PLACE, GameRef::Id(id), "a4-a3")
                .await;
            all_tried.wait().await;
            match tried {
                Ok((_, Some(slot))) => games.play.ai_reply_with(slot).await.map(|r| r.is_some()),
                Ok((_, None)) => panic!("a move the AI must answer, taken without a place"),
                Err(e) => Err(e),
            }
        }));
    }
    let mut refused = Vec::new();
    for (t, (m, &id)) in tasks.into_iter().zip(members.iter().zip(&ids)) {
        let result = tokio::time::timeout(std::time::Duration::from_secs(20), t)
            .await
            .expect("no one waits without end")
            .unwrap();
        let ply = w.games.play.game(id).await.unwrap().ply;
        match result {
            Ok(replied) => assert!(replied && ply == 2, "game {id}: ply {ply}"),
            Err(Error::Refused(PlayRefusal::Queue(QueueRefusal::Full))) => {
                assert_eq!(ply, 0, "a refused move was played");
                refused.push((m.clone(), id));
            }
            Err(e) => panic!("unexpected refusal: {e:?}"),
        }
    }
    assert_eq!(refused.len(), 5);
    assert!(w
        .games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
    // Trying again later, each is played and answered.
    for (m, id) in refused {
        w.games
            .play
            .play(&m, PLACE, GameRef::Id(id), "a4-a3")
            .await
            .unwrap();
        w.games.play.ai_reply(id).await.unwrap().expect("a reply");
    }
    assert!(w
        .games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
}
