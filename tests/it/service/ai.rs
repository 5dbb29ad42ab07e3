//! Games against the AI: a whole game, its first move and restarts, direct messages, and one
//! reply applied of two racing (its limits and queue: `ai_queue`).

use std::sync::Arc;

use breakthrough_bot::game::{
    AiLevel, AiRequest, ChallengeRefusal, GameRef, GameState, Limits, ManualClock, Place,
    PlayRefusal, RatingValue, Reach, Services,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Color};
use breakthrough_bot::store::Store;

use super::{
    ai_request, alice, bob, carol, refused, request, result, the_ai, world, world_with, PLACE, T0,
};
use crate::common::db::{Backend, TestDb};
use crate::common::secs;

pub(super) async fn a_game_against_the_ai_from_start_to_result_is_legal_and_unrated(b: Backend) {
    use rand::{rngs::SmallRng, RngExt, SeedableRng};
    let w = world(b).await;
    let game = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::White), "5x5"))
        .await
        .unwrap();
    assert!(game.is_active());
    assert!(!game.rated);
    assert_eq!(
        (game.players.black.id, game.players.white.id),
        (the_ai().id, alice().id)
    );
    let ai = game.ai.expect("an AI game");
    assert_eq!((ai.color, ai.level.number()), (Color::Black, 1));
    let title = breakthrough_bot::text::title(Lang::En, &game);
    assert!(title.contains("vs AI (level 1)"), "{title}");
    assert!(title.contains("casual"), "{title}");

    let mut rng = SmallRng::seed_from_u64(7);
    let mut position = game.position;
    let mut ai_moves = 0;
    let mut last = game;
    for _ in 0..200 {
        if !last.is_active() {
            break;
        }
        if last.ai_to_move() {
            let played = w
                .games
                .play
                .ai_reply(last.id)
                .await
                .unwrap()
                .expect("the AI replies on its turn");
            assert!(
                position.legal_moves().contains(&played.mv),
                "the AI played {} which is not legal",
                played.mv
            );
            ai_moves += 1;
            last = played.game;
        } else {
            // Nothing to answer on the member's turn.
            assert_eq!(w.games.play.ai_reply(last.id).await.unwrap(), None);
            let moves = position.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            last = w
                .games
                .play
                .play(&alice(), PLACE, GameRef::Id(last.id), &mv.to_string())
                .await
                .unwrap()
                .game;
        }
        position = last.position;
    }
    assert!(ai_moves > 0);
    let game = w.games.play.game(last.id).await.unwrap();
    assert_eq!(game.status.state(), GameState::Finished);
    assert!(result(&game).is_some_and(|(winner, _)| winner.is_some()));
    assert_eq!(game.status.rating_change(), None);
    assert_eq!(w.store.rating_change(game.id).await.unwrap(), None);
    let size: BoardSize = "5x5".parse().unwrap();
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &alice(), size)
        .await
        .unwrap();
    assert_eq!(card.value, RatingValue::START);
    assert_eq!(card.games, 0);
    assert!(w
        .store
        .rating(PLACE.guild, alice().id, BoardSize::new(5, 5).unwrap())
        .await
        .unwrap()
        .is_none());
    // The stored moves replay to the final position; nothing to answer once it is over.
    let history = w.games.standings.history(PLACE, game.id).await.unwrap();
    let (replayed, _) =
        breakthrough_bot::rules::replay(size, history.moves.iter().map(String::as_str)).unwrap();
    assert_eq!(replayed, game.position);
    assert_eq!(w.games.play.ai_reply(game.id).await.unwrap(), None);
    assert!(w
        .games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
}

pub(super) async fn the_ai_with_black_moves_first_and_a_restart_leaves_no_game_waiting(b: Backend) {
    let db = TestDb::new(b).await;
    let url = db.url.clone();
    let clock = Arc::new(ManualClock::new(T0));
    let id = {
        let store = Store::open(&url).await.unwrap();
        let games = Services::new(store.clone(), clock.clone(), Limits::default());
        let game = games
            .challenges
            .challenge_ai(ai_request(PLACE, Some(Color::White), "6x6"))
            .await
            .unwrap();
        assert!(game.ai_to_move());
        assert_eq!(game.to_move().id, the_ai().id);
        // The member cannot move for the AI.
        refused!(
            games
                .play
                .play(&alice(), PLACE, GameRef::Id(game.id), "a2-a3")
                .await,
            PlayRefusal::NotYourTurn(_)
        );
        // Stopped before the AI answered.
        store.close().await;
        game.id
    };
    let store = Store::open(&url).await.unwrap();
    let games = Services::new(store, clock.clone(), Limits::default());
    // Waiting for the AI since T0: listed once it has waited long enough.
    assert!(games
        .play
        .ai_games_to_move(secs(10))
        .await
        .unwrap()
        .is_empty());
    clock.advance(secs(10));
    assert_eq!(games.play.ai_games_to_move(secs(10)).await.unwrap(), [id]);
    let played = games
        .play
        .ai_reply(id)
        .await
        .unwrap()
        .expect("the AI moves");
    assert_eq!(played.game.ply, 1);
    assert_eq!(played.game.to_move().id, alice().id);
    assert!(games
        .play
        .game(id)
        .await
        .unwrap()
        .position
        .turn()
        .eq(&Color::White));
    assert!(games
        .play
        .ai_games_to_move(secs(0))
        .await
        .unwrap()
        .is_empty());
    let h = games.standings.history(PLACE, id).await.unwrap();
    assert_eq!(h.moves, [played.mv.to_string()]);
}

pub(super) async fn in_a_direct_message_the_ai_plays_but_members_cannot_be_challenged(b: Backend) {
    let w = world(b).await;
    let dm = Place::new(0, 77);
    let mut member_request = request(&alice(), Some(&bob()), "8x8");
    member_request.place = dm;
    refused!(
        w.games.challenges.challenge(member_request).await,
        ChallengeRefusal::NotInServer
    );
    let game = w
        .games
        .challenges
        .challenge_ai(ai_request(dm, Some(Color::Black), "8x8"))
        .await
        .unwrap();
    assert_eq!(game.place, dm);
    assert!(!game.ai_to_move());
    let played = w
        .games
        .play
        .play(&alice(), dm, GameRef::Only, "e7-e6")
        .await
        .unwrap();
    assert!(played.game.ai_to_move());
    let reply = w
        .games
        .play
        .ai_reply(game.id)
        .await
        .unwrap()
        .expect("a reply");
    assert_eq!(reply.game.ply, 2);
    // The AI is not a member one can challenge like others.
    refused!(
        w.games
            .challenges
            .challenge(request(&carol(), Some(&the_ai()), "8x8"))
            .await,
        ChallengeRefusal::BotOpponent(_)
    );
    refused!(
        w.games
            .challenges
            .challenge_ai(AiRequest {
                challenger: the_ai(),
                ..ai_request(PLACE, None, "8x8")
            })
            .await,
        ChallengeRefusal::SelfChallenge
    );
}

pub(super) async fn games_against_the_ai_count_for_the_member_not_for_the_ai(b: Backend) {
    let w = world_with(
        b,
        Limits {
            active_games: 2,
            ..Limits::default()
        },
    )
    .await;
    for _ in 0..2 {
        w.games
            .challenges
            .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
            .await
            .unwrap();
    }
    refused!(
        w.games
            .challenges
            .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
            .await,
        ChallengeRefusal::TooManyGames { .. }
    );
    // The AI already has two games, and bob can still play it.
    w.games
        .challenges
        .challenge_ai(AiRequest {
            challenger: bob(),
            ..ai_request(PLACE, Some(Color::Black), "5x5")
        })
        .await
        .unwrap();
}

pub(super) async fn concurrent_ai_replies_apply_one_move(b: Backend) {
    let w = world(b).await;
    let game = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::White), "8x8"))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let games = w.games.clone();
        tasks.push(tokio::spawn(
            async move { games.play.ai_reply(game.id).await },
        ));
    }
    let mut applied = 0;
    for t in tasks {
        if t.await.unwrap().unwrap().is_some() {
            applied += 1;
        }
    }
    assert_eq!(applied, 1);
    let h = w.games.standings.history(PLACE, game.id).await.unwrap();
    assert_eq!(h.moves.len(), 1);
    assert_eq!(h.game.ply, 1);
    assert_eq!(h.game.to_move().id, alice().id);
}

/// `level:auto`, the default: a member starts at level 2 on each board, goes up one after two
/// wins in a row there and down one after a loss, from their results in such games alone (a
/// game at a level they named does not count), and a rematch of an auto game is auto again.
pub(super) async fn the_auto_level_meets_its_member_on_each_board(b: Backend) {
    let w = world(b).await;
    let auto = |size: &str| AiRequest {
        level: AiLevel::Auto,
        ..ai_request(PLACE, Some(Color::Black), size)
    };
    // A game at auto on `size`: its level, then won (the AI's clock runs out after alice's
    // move) or lost (alice resigns).
    let play = |size: &'static str, win: bool| {
        let w = &w;
        async move {
            let game = w.games.challenges.challenge_ai(auto(size)).await.unwrap();
            let ai = game.ai.expect("an AI game");
            assert!(ai.auto);
            if win {
                // Both sides move (a game timed out before that has no result), then the AI's
                // clock runs out.
                let mut position = game.position;
                loop {
                    let mv = position.legal_moves()[0].to_string();
                    let played = w
                        .games
                        .play
                        .play(&alice(), PLACE, GameRef::Id(game.id), &mv)
                        .await
                        .unwrap();
                    if played.game.ply >= 3 {
                        break;
                    }
                    let reply = w.games.play.ai_reply(game.id).await.unwrap();
                    position = reply.expect("the AI replies").game.position;
                }
                w.clock.advance(secs(3_601));
                w.games.play.sweep(w.games.now()).await.unwrap();
            } else {
                w.games
                    .play
                    .resign(&alice(), PLACE, GameRef::Id(game.id))
                    .await
                    .unwrap();
            }
            let over = w.games.play.game(game.id).await.unwrap();
            let alice_won = over.status.winner() == Some(Color::Black);
            assert_eq!(alice_won, win, "{:?}", over.status);
            (ai.level.number(), game.id)
        }
    };
    assert_eq!(play("5x5", true).await.0, 2);
    assert_eq!(play("5x5", true).await.0, 2);
    // Two wins in a row: one up.
    assert_eq!(play("5x5", true).await.0, 3);
    // A loss: one down; another, and another: not below 1.
    assert_eq!(play("5x5", false).await.0, 3);
    assert_eq!(play("5x5", false).await.0, 2);
    assert_eq!(play("5x5", false).await.0, 1);
    assert_eq!(play("5x5", true).await.0, 1);
    // Another board keeps its own level.
    assert_eq!(play("6x6", true).await.0, 2);
    // A game at a level alice names counts for nothing.
    let named = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
        .await
        .unwrap();
    assert!(!named.ai.expect("an AI game").auto);
    w.games
        .play
        .resign(&alice(), PLACE, GameRef::Id(named.id))
        .await
        .unwrap();
    // One win on 5x5 since the last loss: the next makes two.
    let rematched = match w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Only)
        .await
        .unwrap()
    {
        breakthrough_bot::game::Rematch::AiGame(game, _) => game,
        other => panic!("{other:?}"),
    };
    // The rematch of a named level keeps it.
    assert_eq!(
        rematched.ai.map(|ai| (ai.level.number(), ai.auto)),
        Some((1, false))
    );
    w.games
        .play
        .resign(&alice(), PLACE, GameRef::Id(rematched.id))
        .await
        .unwrap();
    assert_eq!(play("5x5", true).await.0, 1);
    let (level, last) = play("5x5", false).await;
    assert_eq!(level, 2);
    let again = match w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Id(last))
        .await
        .unwrap()
    {
        breakthrough_bot::game::Rematch::AiGame(game, _) => game,
        other => panic!("{other:?}"),
    };
    // A rematch of an auto game is auto: after that loss, level 1.
    assert_eq!(
        again.ai.map(|ai| (ai.level.number(), ai.auto)),
        Some((1, true))
    );
}

/// A game where the bot only answers (a member's own install, in a group DM): what would be
/// posted in its channel goes to its player by direct message, and no thread is opened for it.
pub(super) async fn where_the_bot_only_answers_its_news_goes_to_the_player(b: Backend) {
    let w = world(b).await;
    let game = w
        .games
        .challenges
        .challenge_ai(AiRequest {
            reach: Reach::AnswersOnly,
            ..ai_request(PLACE, Some(Color::Black), "5x5")
        })
        .await
        .unwrap();
    assert!(game.answers_only);
    // Both sides move, then the AI's clock runs out: the time-out is told to alice alone.
    let mv = game.position.legal_moves()[0].to_string();
    let played = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(game.id), &mv)
        .await
        .unwrap();
    let reply = w.games.play.ai_reply(game.id).await.unwrap().unwrap();
    let mv = reply.game.position.legal_moves()[0].to_string();
    assert!(played.game.answers_only);
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(game.id), &mv)
        .await
        .unwrap();
    w.clock.advance(secs(3_601));
    w.games.play.sweep(w.games.now()).await.unwrap();
    let owed = w
        .games
        .outbox
        .due_announcements(w.games.now(), 100)
        .await
        .unwrap();
    let mut told = Vec::new();
    for o in &owed {
        if let Some(said) = w.games.outbox.to_say(o).await.unwrap() {
            told.push((said.direct_to(), format!("{said:?}")));
        }
    }
    assert!(!told.is_empty());
    assert!(
        told.iter().all(|(to, _)| *to == Some(alice().id)),
        "{told:?}"
    );
    assert!(
        told.iter().any(|(_, said)| said.starts_with("TimedOut")),
        "{told:?}"
    );
}
