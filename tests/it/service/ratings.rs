//! Ratings: Glicko-2 results, two results rated at once, the daily limit of rated games per pair
//! and the endings that stay unrated.

use breakthrough_bot::game::{
    ChallengeRef, ChallengeState, EndReason, GameRef, GameState, Limits, RatingValue,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Color};
use breakthrough_bot::text::Plain;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::{
    alice, bob, carol, play_all, request, result, started, started_between, world, world_with,
    BLACK_WINS, PLACE, T0,
};
use crate::common::db::Backend;
use crate::common::secs;
use crate::common::swept::swept;

fn g2(v: RatingValue) -> Glicko2Rating {
    Glicko2Rating {
        rating: v.rating,
        deviation: v.deviation,
        volatility: v.volatility,
    }
}

pub(super) async fn a_rated_game_from_challenge_to_result_updates_ratings_as_glicko2_says(
    b: Backend,
) {
    let w = world(b).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    assert_eq!(c.state, ChallengeState::Pending);
    assert!(c.rated);
    let game = w
        .games
        .challenges
        .accept(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap()
        .game;
    assert_eq!(
        (game.players.black.id, game.players.white.id),
        (alice().id, bob().id)
    );
    assert_eq!(game.status.deadline(), Some(T0 + secs(3600)));
    assert_eq!(
        w.games.challenges.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Accepted(game.id)
    );

    for (i, mv) in BLACK_WINS.iter().enumerate() {
        w.clock.advance(secs(60));
        let who = if i % 2 == 0 { alice() } else { bob() };
        let played = w
            .games
            .play
            .play(&who, PLACE, GameRef::Only, mv)
            .await
            .unwrap();
        assert_eq!(played.mv.to_string(), *mv);
        assert_eq!(played.game.ply as usize, i + 1);
    }
    let game = w.games.play.game(game.id).await.unwrap();
    assert_eq!(game.status.state(), GameState::Finished);
    assert_eq!(
        result(&game),
        Some((Some(Color::Black), EndReason::Breakthrough))
    );

    let (want_b, want_w) = glicko2(
        &g2(RatingValue::START),
        &g2(RatingValue::START),
        &Outcomes::WIN,
        &Glicko2Config::new(),
    );
    let change = game.status.rating_change().expect("rated result stored");
    assert_eq!(change.before.black, RatingValue::START);
    assert_eq!(change.after.black.rating, want_b.rating);
    assert_eq!(change.after.white.rating, want_w.rating);
    let size: BoardSize = "3x5".parse().unwrap();
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &alice(), size)
        .await
        .unwrap();
    assert_eq!(card.value.rating, want_b.rating);
    assert_eq!(card.value.deviation, want_b.deviation);
    assert_eq!((card.games, card.wins, card.losses), (1, 1, 0));
    assert_eq!(card.recent.len(), 1);
    assert!(card.recent[0].won);
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &bob(), size)
        .await
        .unwrap();
    assert_eq!(card.value.rating, want_w.rating);
    assert_eq!((card.games, card.wins, card.losses), (1, 0, 1));

    // The stored moves replay to the stored position.
    let history = w.games.standings.history(PLACE, game.id).await.unwrap();
    assert_eq!(history.moves, BLACK_WINS);
    let (replayed, _) =
        breakthrough_bot::rules::replay(size, history.moves.iter().map(String::as_str)).unwrap();
    assert_eq!(replayed, game.position);
    // Each row is kept at the ply it was played from: 0 is Black's first move.
    let rows = w.store.moves(game.id).await.unwrap();
    assert_eq!(
        rows.iter()
            .map(|m| (m.ply, m.notation.as_str()))
            .collect::<Vec<_>>(),
        BLACK_WINS
            .iter()
            .enumerate()
            .map(|(ply, mv)| (ply as u32, *mv))
            .collect::<Vec<_>>()
    );
    let export = breakthrough_bot::text::export(Lang::En, &history);
    assert!(
        export.contains("1. a4-a3 c2-c3\n2. a3xb2 c3xb4\n3. b2xa1"),
        "{export}"
    );
    assert!(export.contains("[Result \"black wins"), "{export}");

    // A second rated game starts from the updated ratings.
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;
    let (want_b2, _) = glicko2(&want_b, &want_w, &Outcomes::WIN, &Glicko2Config::new());
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &alice(), size)
        .await
        .unwrap();
    assert!((card.value.rating - want_b2.rating).abs() < 1e-9);
    assert_eq!(card.games, 2);
}

pub(super) async fn a_member_winning_two_games_at_the_same_moment_gets_both_results_rated(
    b: Backend,
) {
    let w = world(b).await;
    let size: BoardSize = "3x5".parse().unwrap();
    for round in 0..5 {
        // A day apart, so the limit of rated games a day between two members stays out of it.
        w.clock.advance(secs(86_400));
        // alice (Black) against bob and against carol, each a move from her win.
        let mut ids = Vec::new();
        for opponent in [bob(), carol()] {
            let id = started_between(&w, &alice(), &opponent).await;
            for (i, mv) in BLACK_WINS[..4].iter().enumerate() {
                let who = if i % 2 == 0 {
                    alice()
                } else {
                    opponent.clone()
                };
                w.games
                    .play
                    .play(&who, PLACE, GameRef::Id(id), mv)
                    .await
                    .unwrap();
            }
            ids.push(id);
        }
        let finals = ids.iter().map(|&id| {
            let games = w.games.clone();
            tokio::spawn(async move {
                games
                    .play
                    .play(&alice(), PLACE, GameRef::Id(id), BLACK_WINS[4])
                    .await
            })
        });
        for f in finals.collect::<Vec<_>>() {
            let played = f.await.unwrap().unwrap();
            assert_eq!(played.game.status.state(), GameState::Finished);
            assert!(played.game.status.rating_change().is_some());
        }

        // Both count, one after the other: the later one starts from where the earlier left her.
        let card = w
            .games
            .standings
            .rating(PLACE.guild, &alice(), size)
            .await
            .unwrap();
        assert_eq!((card.games, card.wins), (2 * round + 2, 2 * round + 2));
        let mut changes = Vec::new();
        for id in ids {
            changes.push(
                w.games
                    .play
                    .game(id)
                    .await
                    .unwrap()
                    .status
                    .rating_change()
                    .unwrap(),
            );
        }
        let (first, second) = if changes[1].before.black == changes[0].after.black {
            (&changes[0], &changes[1])
        } else {
            (&changes[1], &changes[0])
        };
        assert_eq!(second.before.black, first.after.black, "round {round}");
        assert_eq!(card.value.rating, second.after.black.rating);
        let (want, _) = glicko2(
            &g2(second.before.black),
            &g2(second.before.white),
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        assert_eq!(second.after.black.rating, want.rating);
    }
}

pub(super) async fn the_casual_note_says_the_daily_limit_in_force(b: Backend) {
    let w = world_with(
        b,
        Limits {
            rated_per_pair_per_day: 1,
            ..Limits::default()
        },
    )
    .await;
    let id = started(&w).await;
    w.games
        .play
        .abort(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let c = w
        .games
        .challenges
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert_eq!((c.rated, c.casual_by_limit), (false, Some(1)));
    let text = breakthrough_bot::text::challenge(Lang::En, &Plain, &c, T0);
    assert!(
        text.contains("casual (you have played your rated game against each other today)"),
        "{text}"
    );
}

pub(super) async fn three_rated_games_a_day_per_pair_then_casual(b: Backend) {
    let w = world(b).await;
    for _ in 0..3 {
        let id = started(&w).await;
        let g = w.games.play.game(id).await.unwrap();
        assert!(g.rated);
        w.games
            .play
            .abort(&alice(), PLACE, GameRef::Id(id))
            .await
            .unwrap();
    }
    let c = w
        .games
        .challenges
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert!(!c.rated);
    assert_eq!(c.casual_by_limit, Some(3));
    let text = breakthrough_bot::text::challenge(Lang::En, &Plain, &c, T0);
    assert!(
        text.contains("casual (you have played your 3 rated games"),
        "{text}"
    );
    let g = w
        .games
        .challenges
        .accept(&alice(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game;
    assert!(!g.rated);
    w.games
        .play
        .abort(&alice(), PLACE, GameRef::Id(g.id))
        .await
        .unwrap();
    // A day later the pair is rated again.
    w.clock.advance(secs(86_400));
    let c = w
        .games
        .challenges
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert!(c.rated);
}

pub(super) async fn a_resignation_before_both_sides_have_moved_is_unrated(b: Backend) {
    let w = world(b).await;
    // At the first move (ply 0), and after Black's first move (ply 1): a win, but unrated.
    for (opening, resigner) in [(&[][..], alice()), (&["a4-a3"][..], bob())] {
        let id = started(&w).await;
        play_all(&w, id, opening).await;
        let game = w
            .games
            .play
            .resign(&resigner, PLACE, GameRef::Id(id))
            .await
            .unwrap();
        assert_eq!(game.status.state(), GameState::Finished);
        assert_eq!(result(&game).map(|r| r.1), Some(EndReason::Resignation));
        assert_eq!(game.status.rating_change(), None);
        let status = breakthrough_bot::text::status(Lang::En, &Plain, &game, T0);
        assert!(
            status.ends_with("resigned · unrated: it ended before both sides had moved"),
            "{status}"
        );
        assert!(
            breakthrough_bot::text::title(Lang::En, &game).contains(" · unrated · "),
            "{}",
            breakthrough_bot::text::title(Lang::En, &game)
        );
        assert_eq!(w.store.rating_change(id).await.unwrap(), None);
    }
    for who in [alice(), bob()] {
        assert_eq!(
            w.store
                .rating(PLACE.guild, who.id, BoardSize::new(3, 5).unwrap())
                .await
                .unwrap(),
            None
        );
    }
    // Once both have moved, a resignation is rated as before.
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3", "c2-c3"]).await;
    let game = w
        .games
        .play
        .resign(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    assert!(game.status.rating_change().is_some());
    assert!(!breakthrough_bot::text::status(Lang::En, &Plain, &game, T0).contains("unrated"));
    let card = w
        .games
        .standings
        .rating(PLACE.guild, &bob(), "3x5".parse().unwrap())
        .await
        .unwrap();
    assert_eq!((card.games, card.wins), (1, 1));
}

pub(super) async fn aborts_and_early_time_outs_say_unrated(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let game = w
        .games
        .play
        .abort(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    assert_eq!(
        breakthrough_bot::text::status(Lang::En, &Plain, &game, T0),
        "Aborted: no result · unrated: it ended before both sides had moved"
    );
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    w.clock.advance(secs(3_600));
    let report = swept(&w.games, w.games.now()).await.unwrap();
    assert_eq!(report.aborted.len(), 1);
    assert!(
        breakthrough_bot::text::status(Lang::En, &Plain, &report.aborted[0], T0)
            .contains("unrated")
    );
    for who in [alice(), bob()] {
        assert_eq!(
            w.store
                .rating(PLACE.guild, who.id, BoardSize::new(3, 5).unwrap())
                .await
                .unwrap(),
            None
        );
    }
}
