//! The game service on real databases: challenges, moves, refusals, clocks, ratings,
//! leaderboards and concurrency. Each test is written once, `async fn name(b: Backend)`, and runs
//! on a SQLite file and on a PostgreSQL database of its own: list it in `on_both_backends!` at the
//! end of the file.

use std::sync::Arc;

use breakthrough_bot::engine::Level;
use breakthrough_bot::game::text::Plain;
use breakthrough_bot::game::{
    AiRequest, ChallengeId, ChallengeRef, ChallengeRequest, ChallengeState, EndReason, Game,
    GameError, GameId, GameRef, GameState, Games, GuildId, Limits, ManualClock, Member, MemberId,
    Place, RatingValue, TimeControl,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Color, MoveError};
use breakthrough_bot::store::{RatingRow, Store};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::common::db::{execute, execute_unchecked, on_both_backends, Backend, TestDb};
use crate::common::swept::{swept, Swept};

const PLACE: Place = Place::new(10, 20);
const T0: i64 = 1_800_000_000;

struct World {
    games: Games,
    clock: Arc<ManualClock>,
    store: Store,
    url: String,
    _db: Arc<TestDb>,
}

async fn world_with(b: Backend, limits: Limits) -> World {
    let db = Arc::new(TestDb::new(b).await);
    let url = db.url.clone();
    let store = Store::open(&url).await.expect("open store");
    let clock = Arc::new(ManualClock::new(T0));
    World {
        games: Games::new(store.clone(), clock.clone(), limits),
        clock,
        store,
        url,
        _db: db,
    }
}

async fn world(b: Backend) -> World {
    world_with(b, Limits::default()).await
}

fn alice() -> Member {
    Member::new(1001, "alice")
}
fn bob() -> Member {
    Member::new(1002, "bob")
}
fn carol() -> Member {
    Member::new(1003, "carol")
}

fn request(from: &Member, to: Option<&Member>, size: &str) -> ChallengeRequest {
    ChallengeRequest {
        place: PLACE,
        challenger: from.clone(),
        opponent: to.cloned(),
        size: size.parse().expect("size"),
        color: Some(Color::Black),
        time: TimeControl::OneHour,
        rated: true,
    }
}

/// alice (Black) against bob (White) on 3x5, started.
async fn started(w: &World) -> GameId {
    started_between(w, &alice(), &bob()).await
}

/// `black` against `white` on 3x5, started.
async fn started_between(w: &World, black: &Member, white: &Member) -> GameId {
    let c = w
        .games
        .challenge(request(black, Some(white), "3x5"))
        .await
        .expect("challenge");
    w.games
        .accept(white, ChallengeRef::Id(c.place, c.id))
        .await
        .expect("accept")
        .game
        .id
}

/// Black wins on 3x5 down the a file in five plies.
const BLACK_WINS: [&str; 5] = ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"];

async fn play_all(w: &World, id: GameId, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        w.games
            .play(&who, PLACE, GameRef::Id(id), mv)
            .await
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// The winner (none for an abort) and why, once the game is over.
fn result(game: &Game) -> Option<(Option<Color>, EndReason)> {
    game.status
        .reason()
        .map(|reason| (game.status.winner(), reason))
}

fn g2(v: RatingValue) -> Glicko2Rating {
    Glicko2Rating {
        rating: v.rating,
        deviation: v.deviation,
        volatility: v.volatility,
    }
}

async fn a_rated_game_from_challenge_to_result_updates_ratings_as_glicko2_says(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    assert_eq!(c.state, ChallengeState::Pending);
    assert!(c.rated);
    let game = w
        .games
        .accept(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap()
        .game;
    assert_eq!((game.black.id, game.white.id), (alice().id, bob().id));
    assert_eq!(game.status.deadline(), Some(T0 + 3600));
    assert_eq!(
        w.games.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Accepted(game.id)
    );

    for (i, mv) in BLACK_WINS.iter().enumerate() {
        w.clock.advance(60);
        let who = if i % 2 == 0 { alice() } else { bob() };
        let played = w.games.play(&who, PLACE, GameRef::Only, mv).await.unwrap();
        assert_eq!(played.mv.to_string(), *mv);
        assert_eq!(played.game.ply as usize, i + 1);
    }
    let game = w.games.game(game.id).await.unwrap();
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
    assert_eq!(change.black_before, RatingValue::START);
    assert_eq!(change.black_after.rating, want_b.rating);
    assert_eq!(change.white_after.rating, want_w.rating);
    let size: BoardSize = "3x5".parse().unwrap();
    let card = w.games.rating(PLACE.guild, &alice(), size).await.unwrap();
    assert_eq!(card.value.rating, want_b.rating);
    assert_eq!(card.value.deviation, want_b.deviation);
    assert_eq!((card.games, card.wins, card.losses), (1, 1, 0));
    assert_eq!(card.recent.len(), 1);
    assert!(card.recent[0].won);
    let card = w.games.rating(PLACE.guild, &bob(), size).await.unwrap();
    assert_eq!(card.value.rating, want_w.rating);
    assert_eq!((card.games, card.wins, card.losses), (1, 0, 1));

    // The stored moves replay to the stored position.
    let history = w.games.history(PLACE, game.id).await.unwrap();
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
    let export = breakthrough_bot::game::text::export(Lang::En, &history);
    assert!(
        export.contains("1. a4-a3 c2-c3\n2. a3xb2 c3xb4\n3. b2xa1"),
        "{export}"
    );
    assert!(export.contains("[Result \"black wins"), "{export}");

    // A second rated game starts from the updated ratings.
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;
    let (want_b2, _) = glicko2(&want_b, &want_w, &Outcomes::WIN, &Glicko2Config::new());
    let card = w.games.rating(PLACE.guild, &alice(), size).await.unwrap();
    assert!((card.value.rating - want_b2.rating).abs() < 1e-9);
    assert_eq!(card.games, 2);
}

/// Asserts `result` is the error `pattern`, showing the message otherwise.
macro_rules! refused {
    ($result:expr, $pattern:pat $(if $guard:expr)?) => {
        match $result {
            Err(e) => assert!(matches!(e, $pattern $(if $guard)?), "wrong refusal: {e:?}"),
            Ok(v) => panic!("accepted: {v:?}"),
        }
    };
}

async fn challenges_are_refused_with_reasons_and_change_nothing(b: Backend) {
    let w = world(b).await;
    refused!(
        w.games
            .challenge(request(&alice(), Some(&alice()), "8x8"))
            .await,
        GameError::SelfChallenge
    );
    let mut dm = request(&alice(), Some(&bob()), "8x8");
    dm.place.guild = GuildId::DIRECT;
    refused!(w.games.challenge(dm).await, GameError::NotInServer);

    let c = w
        .games
        .challenge(request(&alice(), Some(&bob()), "8x8"))
        .await
        .unwrap();
    refused!(
        w.games
            .challenge(request(&alice(), Some(&bob()), "7x7"))
            .await,
        GameError::DuplicateChallenge(_)
    );
    refused!(
        w.games
            .challenge(request(&bob(), Some(&alice()), "7x7"))
            .await,
        GameError::DuplicateChallenge(_)
    );
    // Only bob may answer; carol cannot, nor can alice accept her own.
    refused!(
        w.games
            .accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::NotYourChallenge(_)
    );
    refused!(
        w.games
            .accept(&alice(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::NotYourChallenge(_)
    );
    refused!(
        w.games
            .accept(&carol(), ChallengeRef::Find(PLACE, None))
            .await,
        GameError::NoChallengeForYou
    );
    refused!(
        w.games
            .cancel(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::NotYourCancel(_)
    );
    // A button is answered only on the challenge's own message: a click that claims to come
    // from another channel, server or a DM finds no such challenge.
    for at in [NEXT_CHANNEL, OTHER_SERVER, A_DM] {
        let elsewhere = ChallengeRef::Id(at, c.id);
        refused!(
            w.games.accept(&bob(), elsewhere).await,
            GameError::NoSuchChallenge(_)
        );
        refused!(
            w.games.decline(&bob(), elsewhere).await,
            GameError::NoSuchChallenge(_)
        );
        refused!(
            w.games.cancel(&alice(), elsewhere).await,
            GameError::NoSuchChallenge(_)
        );
    }
    assert_eq!(
        w.games.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Pending
    );
    let declined = w
        .games
        .decline(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    assert_eq!(declined.state, ChallengeState::Declined);
    refused!(
        w.games
            .accept(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::ChallengeClosed(ChallengeState::Declined)
    );
    refused!(
        w.games.accept(&bob(), ChallengeRef::Id(PLACE, ChallengeId::new(999))).await,
        GameError::NoSuchChallenge(id) if id == ChallengeId::new(999)
    );

    // At most five pending challenges per member.
    for i in 0..5 {
        let op = Member::new(2000 + i, format!("m{i}"));
        w.games
            .challenge(request(&alice(), Some(&op), "8x8"))
            .await
            .unwrap();
    }
    refused!(
        w.games
            .challenge(request(&alice(), Some(&carol()), "8x8"))
            .await,
        GameError::TooManyChallenges(5)
    );
    let cancelled = w
        .games
        .cancel(&alice(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    assert_eq!(cancelled.len(), 5);
    assert!(cancelled
        .iter()
        .all(|c| c.state == ChallengeState::Cancelled));
    refused!(
        w.games
            .cancel(&alice(), ChallengeRef::Find(PLACE, None))
            .await,
        GameError::NoChallengeToCancel
    );
}

async fn moves_are_refused_with_reasons_and_change_nothing(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let ply = |w: &World| {
        let games = w.games.clone();
        async move { games.game(id).await.unwrap().ply }
    };
    let err = w
        .games
        .play(&bob(), PLACE, GameRef::Id(id), "a2-a3")
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "it is not your turn: alice is to move");
    refused!(
        w.games
            .play(&carol(), PLACE, GameRef::Id(id), "a4-a3")
            .await,
        GameError::NotAPlayer(_)
    );
    refused!(
        w.games.play(&carol(), PLACE, GameRef::Only, "a4-a3").await,
        GameError::NoActiveGame
    );
    refused!(
        w.games
            .play(&alice(), PLACE, GameRef::Id(GameId::new(77)), "a4-a3")
            .await,
        GameError::NoSuchGame(id) if id == GameId::new(77)
    );
    let err = w
        .games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a2")
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "a piece moves one square at a time");
    let err = w
        .games
        .play(&alice(), PLACE, GameRef::Id(id), "a4xa3")
        .await
        .unwrap_err();
    assert!(
        matches!(err, GameError::Move(MoveError::Illegal(_))),
        "{err:?}"
    );
    let err = w
        .games
        .play(&alice(), PLACE, GameRef::Id(id), "hello")
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("cannot read `hello`"), "{err}");
    assert_eq!(ply(&w).await, 0);

    // After both have moved, abort is refused; resign ends it; then everything is refused.
    play_all(&w, id, &["a4-a3", "c2-c3"]).await;
    refused!(
        w.games.abort(&alice(), PLACE, GameRef::Id(id)).await,
        GameError::AbortTooLate
    );
    let over = w.games.resign(&bob(), PLACE, GameRef::Only).await.unwrap();
    assert_eq!(
        result(&over),
        Some((Some(Color::Black), EndReason::Resignation))
    );
    assert!(over.status.rating_change().is_some());
    refused!(
        w.games
            .play(&alice(), PLACE, GameRef::Id(id), "a3-a2")
            .await,
        GameError::GameOver(_)
    );
    refused!(
        w.games.resign(&alice(), PLACE, GameRef::Id(id)).await,
        GameError::GameOver(_)
    );
    assert_eq!(ply(&w).await, 2);
}

async fn abort_before_both_have_moved_leaves_no_result_and_no_rating(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    let g = w.games.abort(&bob(), PLACE, GameRef::Id(id)).await.unwrap();
    assert_eq!(g.status.state(), GameState::Aborted);
    assert_eq!(result(&g), Some((None, EndReason::Aborted)));
    let card = w
        .games
        .rating(PLACE.guild, &alice(), "3x5".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(card.games, 0);
}

async fn several_games_in_a_channel_need_a_game_number(b: Backend) {
    let w = world(b).await;
    started(&w).await;
    let c = w
        .games
        .challenge(request(&carol(), Some(&alice()), "5x5"))
        .await
        .unwrap();
    w.games
        .accept(&alice(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    let err = w
        .games
        .play(&alice(), PLACE, GameRef::Only, "a4-a3")
        .await
        .unwrap_err();
    assert!(matches!(err, GameError::AmbiguousGame(_)), "{err:?}");
    assert!(err.to_string().contains("#1 against bob"), "{err}");
    assert!(err.to_string().contains("#2 against carol"), "{err}");
    assert_eq!(
        w.games
            .games_of(alice().id, Some(PLACE.guild))
            .await
            .unwrap()
            .len(),
        2
    );
}

async fn an_open_challenge_is_taken_by_the_first_member_who_accepts(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenge(request(&alice(), None, "6x5"))
        .await
        .unwrap();
    assert!(c.opponent.is_none());
    refused!(
        w.games.challenge(request(&alice(), None, "8x8")).await,
        GameError::DuplicateOpenChallenge
    );
    refused!(
        w.games
            .accept(&alice(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::SelfChallenge
    );
    refused!(
        w.games
            .decline(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::DeclineOpen
    );
    let game = w
        .games
        .accept(&bob(), ChallengeRef::Find(PLACE, Some(alice().id)))
        .await
        .unwrap()
        .game;
    assert_eq!(
        (game.black.name.as_str(), game.white.name.as_str()),
        ("alice", "bob")
    );
    assert_eq!(game.size, BoardSize::new(6, 5).unwrap());
    refused!(
        w.games
            .accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::ChallengeClosed(ChallengeState::Accepted(id)) if id == game.id
    );
}

async fn sweep_expires_challenges_ends_games_on_time_and_reminds_once(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    let early = started(&w).await; // nobody moves: aborted on time
    let c2 = w
        .games
        .challenge(request(&carol(), Some(&bob()), "5x5"))
        .await
        .unwrap();
    let late = w
        .games
        .accept(&bob(), ChallengeRef::Id(c2.place, c2.id))
        .await
        .unwrap()
        .game
        .id;
    // carol (Black) and bob both move; then carol runs out of time.
    w.games
        .play(&carol(), PLACE, GameRef::Id(late), "a4-a3")
        .await
        .unwrap();
    w.games
        .play(&bob(), PLACE, GameRef::Id(late), "e2-e3")
        .await
        .unwrap();

    assert!(swept(&w.games, T0 + 60).await.unwrap().is_empty());
    // 80% of the hour gone: one reminder for each game, then never again.
    let r = swept(&w.games, T0 + 49 * 60).await.unwrap();
    assert_eq!(r.reminders.len(), 2, "{r:?}");
    assert!(r.expired.is_empty() && r.timed_out.is_empty());
    assert!(swept(&w.games, T0 + 50 * 60)
        .await
        .unwrap()
        .reminders
        .is_empty());

    w.clock.set(T0 + 3600);
    refused!(
        w.games
            .play(&carol(), PLACE, GameRef::Id(late), "b4-b3")
            .await,
        GameError::OutOfTime
    );
    refused!(
        w.games
            .accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        GameError::ChallengeClosed(ChallengeState::Expired)
    );
    let r = swept(&w.games, T0 + 3600).await.unwrap();
    assert_eq!(r.expired.iter().map(|c| c.id).collect::<Vec<_>>(), [c.id]);
    assert_eq!(r.aborted.iter().map(|g| g.id).collect::<Vec<_>>(), [early]);
    assert_eq!(r.timed_out.iter().map(|g| g.id).collect::<Vec<_>>(), [late]);
    let lost = &r.timed_out[0];
    assert_eq!(result(lost), Some((Some(Color::White), EndReason::Timeout)));
    assert!(lost.status.rating_change().is_some(), "time-outs are rated");
    assert!(
        swept(&w.games, T0 + 3600).await.unwrap().is_empty(),
        "nothing twice"
    );
    assert_eq!(
        w.games.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Expired
    );
}

async fn deadlines_survive_a_restart(b: Backend) {
    let db = Arc::new(TestDb::new(b).await);
    let url = db.url.clone();
    let clock = Arc::new(ManualClock::new(T0));
    let id = {
        let store = Store::open(&url).await.unwrap();
        let w = World {
            games: Games::new(store.clone(), clock.clone(), Limits::default()),
            clock: clock.clone(),
            store: store.clone(),
            url: url.clone(),
            _db: db.clone(),
        };
        let id = started(&w).await;
        play_all(&w, id, &["a4-a3", "c2-c3"]).await;
        store.close().await;
        id
    };
    let store = Store::open(&url).await.unwrap();
    let games = Games::new(store, clock, Limits::default());
    let r = swept(&games, T0 + 3601).await.unwrap();
    assert_eq!(r.timed_out.len(), 1);
    assert_eq!(r.timed_out[0].id, id);
}

async fn fifty_concurrent_copies_of_a_move_apply_exactly_once(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let games = w.games.clone();
        tasks.push(tokio::spawn(async move {
            games.play(&alice(), PLACE, GameRef::Id(id), "a4-a3").await
        }));
    }
    let mut applied = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => applied += 1,
            Err(GameError::PositionChanged | GameError::NotYourTurn(_)) => {}
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
    assert_eq!(applied, 1);
    let h = w.games.history(PLACE, id).await.unwrap();
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
            games.play(&bob(), PLACE, GameRef::Id(id), mv).await
        }));
    }
    let mut applied = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => applied += 1,
            Err(GameError::PositionChanged | GameError::NotYourTurn(_)) => {}
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
    assert_eq!(applied, 1);
    assert_eq!(w.games.history(PLACE, id).await.unwrap().moves.len(), 2);
}

async fn a_member_winning_two_games_at_the_same_moment_gets_both_results_rated(b: Backend) {
    let w = world(b).await;
    let size: BoardSize = "3x5".parse().unwrap();
    for round in 0..5 {
        // A day apart, so the limit of rated games a day between two members stays out of it.
        w.clock.advance(86_400);
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
        let card = w.games.rating(PLACE.guild, &alice(), size).await.unwrap();
        assert_eq!((card.games, card.wins), (2 * round + 2, 2 * round + 2));
        let mut changes = Vec::new();
        for id in ids {
            changes.push(
                w.games
                    .game(id)
                    .await
                    .unwrap()
                    .status
                    .rating_change()
                    .unwrap(),
            );
        }
        let (first, second) = if changes[1].black_before == changes[0].black_after {
            (&changes[0], &changes[1])
        } else {
            (&changes[1], &changes[0])
        };
        assert_eq!(second.black_before, first.black_after, "round {round}");
        assert_eq!(card.value.rating, second.black_after.rating);
        let (want, _) = glicko2(
            &g2(second.black_before),
            &g2(second.white_before),
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        assert_eq!(second.black_after.rating, want.rating);
    }
}

async fn the_casual_note_says_the_daily_limit_in_force(b: Backend) {
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
        .abort(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let c = w
        .games
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert_eq!((c.rated, c.casual_by_limit), (false, Some(1)));
    let text = breakthrough_bot::game::text::challenge(Lang::En, &Plain, &c, T0);
    assert!(
        text.contains("casual (you have played your rated game against each other today)"),
        "{text}"
    );
}

async fn three_rated_games_a_day_per_pair_then_casual(b: Backend) {
    let w = world(b).await;
    for _ in 0..3 {
        let id = started(&w).await;
        let g = w.games.game(id).await.unwrap();
        assert!(g.rated);
        w.games
            .abort(&alice(), PLACE, GameRef::Id(id))
            .await
            .unwrap();
    }
    let c = w
        .games
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert!(!c.rated);
    assert_eq!(c.casual_by_limit, Some(3));
    let text = breakthrough_bot::game::text::challenge(Lang::En, &Plain, &c, T0);
    assert!(
        text.contains("casual (you have played your 3 rated games"),
        "{text}"
    );
    let g = w
        .games
        .accept(&alice(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game;
    assert!(!g.rated);
    w.games
        .abort(&alice(), PLACE, GameRef::Id(g.id))
        .await
        .unwrap();
    // A day later the pair is rated again.
    w.clock.advance(86_400);
    let c = w
        .games
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    assert!(c.rated);
}

async fn seed_rating(
    w: &World,
    id: u64,
    name: &str,
    rating: f64,
    deviation: f64,
    last_active: i64,
) {
    let mut tx = w.store.begin().await.unwrap();
    let id = MemberId::new(id);
    tx.upsert_member(PLACE.guild, id, name, false, T0)
        .await
        .unwrap();
    tx.upsert_rating(&RatingRow {
        guild_id: PLACE.guild,
        member_id: id,
        size: BoardSize::DEFAULT,
        value: RatingValue {
            rating,
            deviation,
            volatility: 0.06,
        },
        games: 20,
        wins: 10,
        losses: 10,
        last_active,
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

async fn leaderboard_orders_pages_and_leaves_out_provisional_ratings(b: Backend) {
    let w = world_with(
        b,
        Limits {
            page_size: 2,
            ..Limits::default()
        },
    )
    .await;
    seed_rating(&w, 1, "p1", 1600.0, 80.0, T0).await;
    seed_rating(&w, 2, "p2", 1800.0, 60.0, T0).await;
    seed_rating(&w, 3, "p3", 1700.0, 100.0, T0).await;
    seed_rating(&w, 4, "new", 1900.0, 200.0, T0).await; // provisional
                                                        // Settled once, but idle for two years: the deviation has grown back past 110.
    seed_rating(&w, 5, "idle", 2000.0, 60.0, T0 - 2 * 365 * 86_400).await;
    seed_rating(&w, 6, "p6", 1500.0, 90.0, T0).await;

    let size = BoardSize::DEFAULT;
    let page1 = w.games.leaderboard(PLACE.guild, size, 1).await.unwrap();
    let names = |b: &breakthrough_bot::game::Leaderboard| {
        b.standings
            .iter()
            .map(|s| (s.rank, s.member.name.as_str().to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&page1),
        [(1, "p2".to_string()), (2, "p3".to_string())]
    );
    assert_eq!((page1.page, page1.pages, page1.provisional), (1, 2, 2));
    let page2 = w.games.leaderboard(PLACE.guild, size, 2).await.unwrap();
    assert_eq!(
        names(&page2),
        [(3, "p1".to_string()), (4, "p6".to_string())]
    );
    // Past the end: the last page.
    assert_eq!(
        w.games
            .leaderboard(PLACE.guild, size, 9)
            .await
            .unwrap()
            .page,
        2
    );
    // Another board or server is empty.
    let other = w
        .games
        .leaderboard(GuildId::new(PLACE.guild.get() + 1), size, 1)
        .await
        .unwrap();
    assert!(other.standings.is_empty());
    assert_eq!(other.pages, 1);
    let text = breakthrough_bot::game::text::leaderboard(Lang::En, &Plain, &page1);
    assert!(text.contains("1. p2 1800"), "{text}");
    assert!(text.contains("2 provisional players not shown"), "{text}");
}

async fn a_stale_move_written_together_with_others_is_turned_away_alone(b: Backend) {
    let w = world(b).await;
    let stale = started(&w).await;
    let fresh = started_between(&w, &carol(), &alice()).await;
    play_all(&w, stale, &["a4-a3"]).await;
    // A second process moves for bob; this process has not seen it yet.
    let other = Store::open(&w.url).await.unwrap();
    Games::new(other.clone(), w.clock.clone(), Limits::default())
        .play(&bob(), PLACE, GameRef::Id(stale), "c2-c3")
        .await
        .unwrap();
    other.close().await;

    // Submitted at the same moment, the two moves go to the database in one statement.
    let (bob, carol) = (bob(), carol());
    let (late, on_time) = tokio::join!(
        w.games.play(&bob, PLACE, GameRef::Id(stale), "b2-b3"),
        w.games.play(&carol, PLACE, GameRef::Id(fresh), "a4-a3"),
    );
    refused!(late, GameError::PositionChanged);
    assert_eq!(on_time.unwrap().game.ply, 1);
    assert_eq!(
        w.games.history(PLACE, fresh).await.unwrap().moves,
        ["a4-a3"]
    );
    let h = w.games.history(PLACE, stale).await.unwrap();
    assert_eq!(h.moves, ["a4-a3", "c2-c3"]);
    assert_eq!(
        h.game.position,
        breakthrough_bot::rules::replay(h.game.size, ["a4-a3", "c2-c3"])
            .unwrap()
            .0
    );
}

async fn a_game_shows_every_change_at_once_and_a_second_process_is_caught_by_the_ply_check(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    assert_eq!(w.games.game(id).await.unwrap().ply, 1);

    // A second process on the same file moves for bob.
    let other = Store::open(&w.url).await.unwrap();
    let elsewhere = Games::new(other.clone(), w.clock.clone(), Limits::default());
    elsewhere
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    // bob's second copy of that move, here, is refused without writing anything, and from
    // then on this process sees the move.
    refused!(
        w.games.play(&bob(), PLACE, GameRef::Id(id), "c2-c3").await,
        GameError::PositionChanged
    );
    let seen = w.games.game(id).await.unwrap();
    assert_eq!(seen.ply, 2);
    assert_eq!(
        seen.last_move.map(|m| m.to_string()).as_deref(),
        Some("c2-c3")
    );
    play_all(&w, id, &["b4-b3"]).await;
    // And the same the other way round.
    refused!(
        elsewhere
            .play(&alice(), PLACE, GameRef::Id(id), "b4-b3")
            .await,
        GameError::PositionChanged
    );
    assert_eq!(elsewhere.game(id).await.unwrap().ply, 3);
    other.close().await;

    // The reminder, the resignation and the time-out of this process show at once.
    w.games.sweep(T0 + 49 * 60).await.unwrap();
    w.games
        .resign(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let over = w.games.game(id).await.unwrap();
    assert_eq!(over.status.state(), GameState::Finished);
    assert_eq!(
        result(&over),
        Some((Some(Color::White), EndReason::Resignation))
    );
    refused!(
        w.games.play(&bob(), PLACE, GameRef::Id(id), "c3-c4").await,
        GameError::GameOver(_)
    );

    let timed = started(&w).await;
    play_all(&w, timed, &["a4-a3", "c2-c3"]).await;
    assert!(w.games.game(timed).await.unwrap().status.state() == GameState::Active);
    let r = swept(&w.games, T0 + 3600).await.unwrap();
    assert_eq!(r.timed_out.len(), 1);
    assert_eq!(
        w.games.game(timed).await.unwrap().status.state(),
        GameState::Finished
    );
    refused!(
        w.games
            .play(&alice(), PLACE, GameRef::Id(timed), "b4-b3")
            .await,
        GameError::GameOver(_)
    );
}

// ----- games against the built-in AI ---------------------------------------------------------

fn the_ai() -> Member {
    Member::new(9000, "bot")
}

fn ai_request(place: Place, color: Option<Color>, size: &str) -> AiRequest {
    AiRequest {
        place,
        challenger: alice(),
        ai: the_ai(),
        level: Level::new(1).expect("level 1"),
        size: size.parse().expect("size"),
        color,
        time: TimeControl::OneHour,
    }
}

async fn a_game_against_the_ai_from_start_to_result_is_legal_and_unrated(b: Backend) {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    let w = world(b).await;
    let game = w
        .games
        .challenge_ai(ai_request(PLACE, Some(Color::White), "5x5"))
        .await
        .unwrap();
    assert!(game.is_active());
    assert!(!game.rated);
    assert_eq!((game.black.id, game.white.id), (the_ai().id, alice().id));
    let ai = game.ai.expect("an AI game");
    assert_eq!((ai.color, ai.level.number()), (Color::Black, 1));
    let title = breakthrough_bot::game::text::title(Lang::En, &game);
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
            assert_eq!(w.games.ai_reply(last.id).await.unwrap(), None);
            let moves = position.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            last = w
                .games
                .play(&alice(), PLACE, GameRef::Id(last.id), &mv.to_string())
                .await
                .unwrap()
                .game;
        }
        position = last.position;
    }
    assert!(ai_moves > 0);
    let game = w.games.game(last.id).await.unwrap();
    assert_eq!(game.status.state(), GameState::Finished);
    assert!(result(&game).is_some_and(|(winner, _)| winner.is_some()));
    assert_eq!(game.status.rating_change(), None);
    assert_eq!(w.store.rating_change(game.id).await.unwrap(), None);
    let size: BoardSize = "5x5".parse().unwrap();
    let card = w.games.rating(PLACE.guild, &alice(), size).await.unwrap();
    assert_eq!(card.value, RatingValue::START);
    assert_eq!(card.games, 0);
    assert!(w
        .store
        .rating(PLACE.guild, alice().id, BoardSize::new(5, 5).unwrap())
        .await
        .unwrap()
        .is_none());
    // The stored moves replay to the final position; nothing to answer once it is over.
    let history = w.games.history(PLACE, game.id).await.unwrap();
    let (replayed, _) =
        breakthrough_bot::rules::replay(size, history.moves.iter().map(String::as_str)).unwrap();
    assert_eq!(replayed, game.position);
    assert_eq!(w.games.ai_reply(game.id).await.unwrap(), None);
    assert!(w.games.ai_games_to_move(0).await.unwrap().is_empty());
}

async fn the_ai_with_black_moves_first_and_a_restart_leaves_no_game_waiting(b: Backend) {
    let db = TestDb::new(b).await;
    let url = db.url.clone();
    let clock = Arc::new(ManualClock::new(T0));
    let id = {
        let store = Store::open(&url).await.unwrap();
        let games = Games::new(store.clone(), clock.clone(), Limits::default());
        let game = games
            .challenge_ai(ai_request(PLACE, Some(Color::White), "6x6"))
            .await
            .unwrap();
        assert!(game.ai_to_move());
        assert_eq!(game.to_move().id, the_ai().id);
        // The member cannot move for the AI.
        refused!(
            games
                .play(&alice(), PLACE, GameRef::Id(game.id), "a2-a3")
                .await,
            GameError::NotYourTurn(_)
        );
        // Stopped before the AI answered.
        store.close().await;
        game.id
    };
    let store = Store::open(&url).await.unwrap();
    let games = Games::new(store, clock.clone(), Limits::default());
    // Waiting for the AI since T0: listed once it has waited long enough.
    assert!(games.ai_games_to_move(10).await.unwrap().is_empty());
    clock.advance(10);
    assert_eq!(games.ai_games_to_move(10).await.unwrap(), [id]);
    let played = games.ai_reply(id).await.unwrap().expect("the AI moves");
    assert_eq!(played.game.ply, 1);
    assert_eq!(played.game.to_move().id, alice().id);
    assert!(games
        .game(id)
        .await
        .unwrap()
        .position
        .turn()
        .eq(&Color::White));
    assert!(games.ai_games_to_move(0).await.unwrap().is_empty());
    let h = games.history(PLACE, id).await.unwrap();
    assert_eq!(h.moves, [played.mv.to_string()]);
}

async fn in_a_direct_message_the_ai_plays_but_members_cannot_be_challenged(b: Backend) {
    let w = world(b).await;
    let dm = Place::new(0, 77);
    let mut member_request = request(&alice(), Some(&bob()), "8x8");
    member_request.place = dm;
    refused!(
        w.games.challenge(member_request).await,
        GameError::NotInServer
    );
    let game = w
        .games
        .challenge_ai(ai_request(dm, Some(Color::Black), "8x8"))
        .await
        .unwrap();
    assert_eq!(game.place, dm);
    assert!(!game.ai_to_move());
    let played = w
        .games
        .play(&alice(), dm, GameRef::Only, "e7-e6")
        .await
        .unwrap();
    assert!(played.game.ai_to_move());
    let reply = w.games.ai_reply(game.id).await.unwrap().expect("a reply");
    assert_eq!(reply.game.ply, 2);
    // The AI is not a member one can challenge like others.
    refused!(
        w.games
            .challenge(request(&carol(), Some(&the_ai()), "8x8"))
            .await,
        GameError::BotOpponent(_)
    );
    refused!(
        w.games
            .challenge_ai(AiRequest {
                challenger: the_ai(),
                ..ai_request(PLACE, None, "8x8")
            })
            .await,
        GameError::SelfChallenge
    );
}

async fn games_against_the_ai_count_for_the_member_not_for_the_ai(b: Backend) {
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
            .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
            .await
            .unwrap();
    }
    refused!(
        w.games
            .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
            .await,
        GameError::TooManyGames { .. }
    );
    // The AI already has two games, and bob can still play it.
    w.games
        .challenge_ai(AiRequest {
            challenger: bob(),
            ..ai_request(PLACE, Some(Color::Black), "5x5")
        })
        .await
        .unwrap();
}

async fn concurrent_ai_replies_apply_one_move(b: Backend) {
    let w = world(b).await;
    let game = w
        .games
        .challenge_ai(ai_request(PLACE, Some(Color::White), "8x8"))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let games = w.games.clone();
        tasks.push(tokio::spawn(async move { games.ai_reply(game.id).await }));
    }
    let mut applied = 0;
    for t in tasks {
        if t.await.unwrap().unwrap().is_some() {
            applied += 1;
        }
    }
    assert_eq!(applied, 1);
    let h = w.games.history(PLACE, game.id).await.unwrap();
    assert_eq!(h.moves.len(), 1);
    assert_eq!(h.game.ply, 1);
    assert_eq!(h.game.to_move().id, alice().id);
}

async fn a_write_cut_off_half_way_changes_nothing_and_holds_up_no_one(b: Backend) {
    let w = world(b).await;
    // A request dropped in the middle of its transaction (a caller that stopped waiting).
    let mut tx = w.store.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, MemberId::new(4242), "ghost", false, T0)
        .await
        .unwrap();
    drop(tx);

    // Another process can write: the database's write lock was let go (it would otherwise
    // refuse after its busy timeout).
    let other = Store::open(&w.url).await.unwrap();
    let mut tx = other.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, MemberId::new(4343), "elsewhere", false, T0)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // This process goes on writing, and only the committed change is there.
    started(&w).await;
    assert_eq!(
        w.store
            .member_name(PLACE.guild, MemberId::new(4242))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        w.store
            .member_name(PLACE.guild, MemberId::new(4343))
            .await
            .unwrap()
            .as_deref(),
        Some("elsewhere")
    );
    other.close().await;
}

/// Another channel of the same server as `PLACE`, another server, and a direct message.
const NEXT_CHANNEL: Place = Place::new(10, 21);
const OTHER_SERVER: Place = Place::new(11, 30);
const A_DM: Place = Place::new(0, 40);

async fn a_game_is_played_in_its_own_channel_and_seen_only_in_its_server(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    // Moves, resignations and aborts from anywhere else point to the game's channel.
    for at in [NEXT_CHANNEL, OTHER_SERVER, A_DM] {
        let refusal = w
            .games
            .play(&alice(), at, GameRef::Id(id), "a4-a3")
            .await
            .expect_err("a move from elsewhere");
        assert_eq!(
            refusal.to_string(),
            format!("game #{id} is played in channel 20; make your move there")
        );
        refused!(
            w.games.resign(&alice(), at, GameRef::Id(id)).await,
            GameError::PlayedElsewhere { .. }
        );
        refused!(
            w.games.resignable(alice().id, at, GameRef::Id(id)).await,
            GameError::PlayedElsewhere { .. }
        );
        let refusal = w
            .games
            .abort(&bob(), at, GameRef::Id(id))
            .await
            .expect_err("an abort from elsewhere");
        assert_eq!(
            refusal.to_string(),
            format!("game #{id} is played in channel 20; abort it there")
        );
        assert!(w
            .games
            .move_suggestions(alice().id, at, GameRef::Id(id), "", 25)
            .await
            .unwrap()
            .is_empty());
    }
    let game = w.games.game(id).await.unwrap();
    assert!(game.is_active());
    assert_eq!(game.ply, 0);
    assert!(!w
        .games
        .move_suggestions(alice().id, PLACE, GameRef::Id(id), "", 25)
        .await
        .unwrap()
        .is_empty());

    // Anyone in the server may look at it from any channel; from elsewhere it is not there, for
    // its own players too.
    let seen = w
        .games
        .find_game(carol().id, NEXT_CHANNEL, GameRef::Id(id))
        .await
        .unwrap();
    assert_eq!(seen.id, id);
    assert_eq!(w.games.history(NEXT_CHANNEL, id).await.unwrap().game.id, id);
    for at in [OTHER_SERVER, A_DM] {
        for who in [alice(), carol()] {
            let refusal = w
                .games
                .find_game(who.id, at, GameRef::Id(id))
                .await
                .expect_err("a look from elsewhere");
            assert_eq!(refusal.to_string(), format!("there is no game #{id} here"));
        }
        let refusal = w.games.history(at, id).await.expect_err("history");
        assert_eq!(refusal.to_string(), format!("there is no game #{id} here"));
    }
    // Someone from another server acting on it learns nothing either.
    refused!(
        w.games
            .play(&carol(), OTHER_SERVER, GameRef::Id(id), "a4-a3")
            .await,
        GameError::NoSuchGame(_)
    );

    // In its own channel all of it works.
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    assert_eq!(w.games.game(id).await.unwrap().ply, 1);
}

async fn a_game_against_the_ai_in_a_direct_message_stays_in_that_message(b: Backend) {
    let w = world(b).await;
    let game = w
        .games
        .challenge_ai(ai_request(A_DM, Some(Color::Black), "8x8"))
        .await
        .unwrap();
    let another_dm = Place::new(0, 41);
    for at in [PLACE, another_dm] {
        let refusal = w
            .games
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
                .find_game(carol().id, at, GameRef::Id(game.id))
                .await,
            GameError::NoSuchGame(_)
        );
        refused!(w.games.history(at, game.id).await, GameError::NoSuchGame(_));
    }
    assert_eq!(w.games.game(game.id).await.unwrap().ply, 0);
    w.games
        .find_game(alice().id, A_DM, GameRef::Id(game.id))
        .await
        .unwrap();
    w.games
        .play(&alice(), A_DM, GameRef::Id(game.id), "e7-e6")
        .await
        .unwrap();
}

async fn a_resignation_before_both_sides_have_moved_is_unrated(b: Backend) {
    let w = world(b).await;
    // At the first move (ply 0), and after Black's first move (ply 1): a win, but unrated.
    for (opening, resigner) in [(&[][..], alice()), (&["a4-a3"][..], bob())] {
        let id = started(&w).await;
        play_all(&w, id, opening).await;
        let game = w
            .games
            .resign(&resigner, PLACE, GameRef::Id(id))
            .await
            .unwrap();
        assert_eq!(game.status.state(), GameState::Finished);
        assert_eq!(result(&game).map(|r| r.1), Some(EndReason::Resignation));
        assert_eq!(game.status.rating_change(), None);
        let status = breakthrough_bot::game::text::status(Lang::En, &Plain, &game, T0);
        assert!(
            status.ends_with("resigned · unrated: it ended before both sides had moved"),
            "{status}"
        );
        assert!(
            breakthrough_bot::game::text::title(Lang::En, &game).contains(" · unrated · "),
            "{}",
            breakthrough_bot::game::text::title(Lang::En, &game)
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
        .resign(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    assert!(game.status.rating_change().is_some());
    assert!(!breakthrough_bot::game::text::status(Lang::En, &Plain, &game, T0).contains("unrated"));
    let card = w
        .games
        .rating(PLACE.guild, &bob(), "3x5".parse().unwrap())
        .await
        .unwrap();
    assert_eq!((card.games, card.wins), (1, 1));
}

async fn aborts_and_early_time_outs_say_unrated(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let game = w
        .games
        .abort(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    assert_eq!(
        breakthrough_bot::game::text::status(Lang::En, &Plain, &game, T0),
        "Aborted: no result · unrated: it ended before both sides had moved"
    );
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3"]).await;
    w.clock.advance(3_600);
    let report = swept(&w.games, w.games.now()).await.unwrap();
    assert_eq!(report.aborted.len(), 1);
    assert!(
        breakthrough_bot::game::text::status(Lang::En, &Plain, &report.aborted[0], T0)
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

async fn a_declined_challenge_means_no_for_an_hour(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    w.clock.advance(60);
    w.games
        .decline(&bob(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    w.clock.advance(15 * 60);
    let refusal = w
        .games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .expect_err("a challenge soon after a decline");
    assert_eq!(
        refusal.to_string(),
        "bob declined your challenge: you can challenge them again in 45m"
    );
    // Nothing was written; others are free to challenge bob, and bob alice.
    assert_eq!(
        w.store
            .challenge(ChallengeId::new(c.id.get() + 1))
            .await
            .unwrap(),
        None
    );
    w.games
        .challenge(request(&carol(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    w.games
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    // An hour after the decline, alice may ask again.
    w.clock.advance(45 * 60);
    w.games
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    w.games
        .cancel(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    w.games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
}

async fn five_challenges_an_hour_to_the_same_member_cancelled_ones_too(b: Backend) {
    let w = world(b).await;
    for _ in 0..5 {
        w.games
            .challenge(request(&alice(), Some(&bob()), "3x5"))
            .await
            .unwrap();
        w.clock.advance(60);
        w.games
            .cancel(&alice(), ChallengeRef::Find(PLACE, None))
            .await
            .unwrap();
    }
    w.clock.advance(5 * 60);
    let refusal = w
        .games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .expect_err("a sixth challenge within the hour");
    assert_eq!(
        refusal.to_string(),
        "you have challenged bob 5 times in the last hour, the most allowed: \
         you can challenge them again in 50m"
    );
    assert_eq!(w.store.challenge(ChallengeId::new(6)).await.unwrap(), None);
    // Others are not held back by it.
    w.games
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    // Once the first of the five is an hour old, one more may go out.
    w.clock.advance(50 * 60);
    w.games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
}

// ----- limits on the AI: games per member, one reply each, a bounded queue --------------------

fn dave() -> Member {
    Member::new(1004, "dave")
}

/// A game of `who` (Black, to move first) against the AI on 5x5.
async fn ai_game_of(w: &World, who: &Member) -> GameId {
    w.games
        .challenge_ai(AiRequest {
            challenger: who.clone(),
            ..ai_request(PLACE, Some(Color::Black), "5x5")
        })
        .await
        .expect("a game against the AI")
        .id
}

async fn a_fourth_game_against_the_ai_is_refused_and_says_the_limit(b: Backend) {
    let w = world(b).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(ai_game_of(&w, &alice()).await);
    }
    let refusal = w
        .games
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "5x5"))
        .await
        .unwrap_err();
    assert!(
        matches!(refusal, GameError::TooManyAiGames(3)),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        "you already have 3 games against the AI in progress, the most allowed: finish or resign one first"
    );
    // Nothing was started.
    let games = w.games.games_of(alice().id, None).await.unwrap();
    assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), ids);
    // A game against a member is still allowed, and the AI still plays others.
    started(&w).await;
    ai_game_of(&w, &bob()).await;
    // Once one of the three is over, there is room for a new one.
    w.games
        .resign(&alice(), PLACE, GameRef::Id(ids[0]))
        .await
        .unwrap();
    ai_game_of(&w, &alice()).await;
}

async fn a_member_has_one_ai_reply_on_the_way_and_a_move_elsewhere_meanwhile_changes_nothing(
    b: Backend,
) {
    let w = world(b).await;
    let first = ai_game_of(&w, &alice()).await;
    let second = ai_game_of(&w, &alice()).await;
    let (played, slot) = w
        .games
        .play_with_slot(&alice(), PLACE, GameRef::Id(first), "a4-a3")
        .await
        .unwrap();
    assert!(played.game.ai_to_move());
    let slot = slot.expect("the AI's reply has its place in the queue");
    assert_eq!(slot.game(), first);

    // While that reply is on its way, her move in her other game is refused and not played.
    let refusal = w
        .games
        .play(&alice(), PLACE, GameRef::Id(second), "b4-b3")
        .await
        .unwrap_err();
    assert!(
        matches!(refusal, GameError::AiBusyForYou(id) if id == first),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        format!("the AI is still answering your move in game #{first}: wait for its reply, then try again")
    );
    let untouched = w.games.history(PLACE, second).await.unwrap();
    assert!(untouched.moves.is_empty());
    assert_eq!(untouched.game.to_move().id, alice().id);
    // Nor can she start a game the AI would open.
    refused!(
        w.games
            .challenge_ai(ai_request(PLACE, Some(Color::White), "5x5"))
            .await,
        GameError::AiBusyForYou(_)
    );
    assert_eq!(w.games.games_of(alice().id, None).await.unwrap().len(), 2);
    // A second reply to the same game (the sweeper's) leaves it to the one on its way.
    assert_eq!(w.games.ai_reply(first).await.unwrap(), None);
    assert_eq!(w.games.game(first).await.unwrap().ply, 1);
    // Others are not held up by her.
    let bobs = ai_game_of(&w, &bob()).await;
    w.games
        .play(&bob(), PLACE, GameRef::Id(bobs), "a4-a3")
        .await
        .unwrap();
    w.games
        .ai_reply(bobs)
        .await
        .unwrap()
        .expect("the AI answers bob");

    // The reply comes, and her other game is hers to play again.
    let reply = w
        .games
        .ai_reply_with(slot)
        .await
        .unwrap()
        .expect("the AI replies");
    assert_eq!(reply.game.ply, 2);
    w.games
        .play(&alice(), PLACE, GameRef::Id(second), "b4-b3")
        .await
        .unwrap();
    let reply = w.games.ai_reply(second).await.unwrap().expect("a reply");
    assert_eq!(reply.game.ply, 2);
    assert!(w.games.ai_games_to_move(0).await.unwrap().is_empty());
}

async fn a_full_ai_queue_refuses_at_once_and_leaves_no_game_waiting(b: Backend) {
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
        w.games.play(&carol(), PLACE, GameRef::Id(c), "a4-a3"),
    )
    .await
    .expect("refused without waiting")
    .unwrap_err();
    assert!(matches!(refusal, GameError::AiQueueFull), "{refusal:?}");
    assert_eq!(
        refusal.to_string(),
        "the AI is busy answering other players: try again in a moment"
    );
    let untouched = w.games.history(PLACE, c).await.unwrap();
    assert!(untouched.moves.is_empty());
    assert_eq!(untouched.game.to_move().id, carol().id);
    // A game the AI would open is not started either.
    let refusal = tokio::time::timeout(
        at_once,
        w.games.challenge_ai(AiRequest {
            challenger: dave(),
            ..ai_request(PLACE, Some(Color::White), "5x5")
        }),
    )
    .await
    .expect("refused without waiting");
    refused!(refusal, GameError::AiQueueFull);
    assert!(w.games.games_of(dave().id, None).await.unwrap().is_empty());
    // A game where the member opens still starts: it needs no reply yet.
    let daves = ai_game_of(&w, &dave()).await;

    // One reply is lost on the way (the front end failed before answering): its place is
    // given back, and the game is left to the pickup of games waiting for the AI.
    drop(alices);
    let carols = take(carol(), c).await;
    // Full again: the pickup is refused at once too, and the game still waits.
    let refusal = tokio::time::timeout(at_once, w.games.ai_reply(a))
        .await
        .expect("refused without waiting");
    refused!(refusal, GameError::AiQueueFull);
    assert_eq!(w.games.game(a).await.unwrap().ply, 1);
    let mut waiting = w.games.ai_games_to_move(0).await.unwrap();
    waiting.sort();
    assert_eq!(waiting, [a, b, c]);

    // The replies on their way come in; then the pickup answers the rest, and nothing is left.
    for slot in [bobs, carols] {
        w.games
            .ai_reply_with(slot)
            .await
            .unwrap()
            .expect("the AI replies");
    }
    assert_eq!(w.games.ai_games_to_move(0).await.unwrap(), [a]);
    for id in w.games.ai_games_to_move(0).await.unwrap() {
        w.games.ai_reply(id).await.unwrap().expect("the AI replies");
    }
    assert!(w.games.ai_games_to_move(0).await.unwrap().is_empty());
    for (id, who) in [(a, alice()), (b, bob()), (c, carol())] {
        let g = w.games.game(id).await.unwrap();
        assert_eq!((g.ply, g.to_move().id), (2, who.id));
    }
    // And the queue has room again.
    w.games
        .play(&dave(), PLACE, GameRef::Id(daves), "a4-a3")
        .await
        .unwrap();
    w.games.ai_reply(daves).await.unwrap().expect("a reply");
}

async fn many_members_at_once_against_a_small_ai_queue_are_played_or_refused_never_stuck(
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
                .play_with_slot(&m, PLACE, GameRef::Id(id), "a4-a3")
                .await;
            all_tried.wait().await;
            match tried {
                Ok((_, Some(slot))) => games.ai_reply_with(slot).await.map(|r| r.is_some()),
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
        let ply = w.games.game(id).await.unwrap().ply;
        match result {
            Ok(replied) => assert!(replied && ply == 2, "game {id}: ply {ply}"),
            Err(GameError::AiQueueFull) => {
                assert_eq!(ply, 0, "a refused move was played");
                refused.push((m.clone(), id));
            }
            Err(e) => panic!("unexpected refusal: {e:?}"),
        }
    }
    assert_eq!(refused.len(), 5);
    assert!(w.games.ai_games_to_move(0).await.unwrap().is_empty());
    // Trying again later, each is played and answered.
    for (m, id) in refused {
        w.games
            .play(&m, PLACE, GameRef::Id(id), "a4-a3")
            .await
            .unwrap();
        w.games.ai_reply(id).await.unwrap().expect("a reply");
    }
    assert!(w.games.ai_games_to_move(0).await.unwrap().is_empty());
}

/// carol (Black) and bob each move once in game `id`.
async fn carol_and_bob_move(w: &World, id: GameId) {
    w.games
        .play(&carol(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    w.games
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
}

/// What the outbox holds, oldest first, with everything due.
async fn owed(w: &World) -> Vec<breakthrough_bot::game::Announcement> {
    w.games
        .due_announcements(i64::MAX, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.announcement.expect("a readable announcement"))
        .collect()
}

async fn a_broken_game_does_not_stop_the_sweep_of_the_others(b: Backend) {
    let w = world(b).await;
    let broken = started(&w).await;
    let fine = started_between(&w, &carol(), &bob()).await;
    carol_and_bob_move(&w, fine).await;
    // The first overdue game (by deadline, then id) cannot be read.
    execute(
        &w.url,
        "UPDATE games SET position = 'not a position', deadline = $1 WHERE id = $2",
        &[T0 + 10, broken.get()],
    )
    .await;
    // And another has a time limit no version wrote, put there by hand past the schema's checks.
    let odd = started_between(&w, &dave(), &bob()).await;
    execute_unchecked(
        &w.url,
        "games",
        "UPDATE games SET time_limit = 1234, deadline = $1 WHERE id = $2",
        &[T0 + 20, odd.get()],
    )
    .await;
    let r = swept(&w.games, T0 + 7200).await.expect("the sweep goes on");
    assert_eq!(r.timed_out.iter().map(|g| g.id).collect::<Vec<_>>(), [fine]);
    let row = w.store.game(broken).await.unwrap().unwrap();
    assert_eq!(row.state, GameState::Active, "left for a later pass");
}

async fn the_sweep_queues_each_announcement_with_its_change(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    let c = w
        .games
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    let early = started(&w).await;
    let late = started_between(&w, &carol(), &bob()).await;
    carol_and_bob_move(&w, late).await;
    w.games.sweep(T0 + 49 * 60).await.unwrap();
    let deadline = T0 + 3600;
    assert_eq!(
        owed(&w).await,
        [
            Announcement::Reminder {
                game: early,
                member: alice().id,
                deadline
            },
            Announcement::Reminder {
                game: late,
                member: carol().id,
                deadline
            }
        ]
    );
    let row = w.store.game(early).await.unwrap().unwrap();
    assert!(row.reminded);
    // A reminder for a move since made needs no saying; one still owed does.
    let reminders = w.games.due_announcements(i64::MAX, 100).await.unwrap();
    let first = reminders[0].announcement.clone().unwrap();
    assert!(matches!(
        w.games.announcement(&first).await.unwrap(),
        Some(Announced::Reminder { member, .. }) if member == alice().id
    ));
    for o in &reminders {
        w.games.announced(o.id).await.unwrap();
    }
    w.games.sweep(T0 + 3600).await.unwrap();
    assert_eq!(
        owed(&w).await,
        [
            Announcement::ChallengeExpired { challenge: c.id },
            Announcement::TimedOut { game: early },
            Announcement::TimedOut { game: late }
        ]
    );
    assert!(matches!(
        w.games.announcement(&Announcement::TimedOut { game: late }).await.unwrap(),
        Some(Announced::TimedOut(g)) if result(&g) == Some((Some(Color::White), EndReason::Timeout))
    ));
    // Every service queues what its sweep did: the console reads the same outbox.
    let plain = Games::new(w.store.clone(), w.clock.clone(), Limits::default());
    let c2 = plain
        .challenge(request(&bob(), Some(&alice()), "5x5"))
        .await
        .unwrap();
    assert_eq!(plain.sweep(T0 + 10 * 3600).await.unwrap(), 1);
    assert_eq!(
        plain.challenge_view(c2.id).await.unwrap().state,
        ChallengeState::Expired
    );
    let queued = owed(&w).await;
    assert_eq!(queued.len(), 4, "{queued:?}");
    assert_eq!(
        queued[3],
        Announcement::ChallengeExpired { challenge: c2.id }
    );
}

async fn clocks_move_on_by_the_time_the_service_was_away(b: Backend) {
    let w = world(b).await;
    let other = Games::new(w.store.clone(), w.clock.clone(), Limits::default())
        .only_server(GuildId::new(99));
    assert_eq!(w.games.keep_alive(T0, 60).await.unwrap(), 0, "first seen");
    let id = started(&w).await;
    let c = w
        .games
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    assert_eq!(
        w.games.keep_alive(T0 + 60, 60).await.unwrap(),
        0,
        "not away"
    );
    assert_eq!(other.keep_alive(T0 + 60, 60).await.unwrap(), 0);
    // Down for two hours: more than the hour per move and the challenge's hour.
    let back = T0 + 60 + 7200;
    assert_eq!(w.games.keep_alive(back, 60).await.unwrap(), 7200);
    assert_eq!(
        w.games.game(id).await.unwrap().status.deadline(),
        Some(T0 + 3600 + 7200)
    );
    assert_eq!(
        w.games.challenge_view(c.id).await.unwrap().expires_at,
        T0 + 3600 + 7200
    );
    assert!(
        swept(&w.games, back).await.unwrap().is_empty(),
        "nobody lost"
    );
    // Another scope's record is its own, and its clocks are not these.
    assert_eq!(other.keep_alive(back, 60).await.unwrap(), 7200);
    assert_eq!(
        w.games.game(id).await.unwrap().status.deadline(),
        Some(T0 + 3600 + 7200)
    );
}

async fn an_announced_ai_reply_is_queued_with_the_move(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    let game = w
        .games
        .challenge_ai(AiRequest {
            place: PLACE,
            challenger: alice(),
            ai: Member::new(4242, "the-ai"),
            level: Level::new(1).unwrap(),
            size: "5x5".parse().unwrap(),
            color: Some(Color::White),
            time: TimeControl::OneHour,
        })
        .await
        .unwrap();
    let played = w.games.ai_reply_announced(game.id).await.unwrap().unwrap();
    let queued = owed(&w).await;
    assert_eq!(
        queued,
        [Announcement::AiMoved {
            game: game.id,
            ply: 1
        }]
    );
    assert_eq!(
        w.games.announcement(&queued[0]).await.unwrap(),
        Some(Announced::AiMoved(played))
    );
    assert_eq!(w.store.moves(game.id).await.unwrap().len(), 1);
}

/// SQLite only: its size cap stands in for a full disk. PostgreSQL's disk cannot be filled from a
/// test without a file system of the test's own; its `disk_full` error is read the same way
/// (`StoreError::is_full`).
#[tokio::test]
async fn a_full_disk_refuses_clearly_changes_nothing_and_service_comes_back() {
    use sqlx::Connection;
    let w = world(Backend::Sqlite).await;
    let id = started(&w).await;
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .expect("a move with room");
    // The database may not grow any more: challenges keep coming until one needs a new page.
    w.store
        .limit_size(1)
        .await
        .expect("cap the size")
        .expect("SQLite");
    let challenger = |i: u64| Member::new(5_000 + i, format!("m{i}"));
    let mut refused = None;
    for i in 0..2_000 {
        match w
            .games
            .challenge(request(&challenger(i), Some(&carol()), "8x8"))
            .await
        {
            Ok(_) => {}
            Err(e) => {
                refused = Some((i, e));
                break;
            }
        }
    }
    let (i, e) = refused.expect("the full database refused a write");
    assert!(matches!(e, GameError::StorageFull), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the bot's storage is full, so nothing was changed: please tell the server's admin, and \
         try again later"
    );
    // Nothing of the refused challenge is kept, and the file is sound.
    assert!(w
        .store
        .challenges_by(PLACE.guild, MemberId::new(5_000 + i))
        .await
        .unwrap()
        .is_empty());
    let mut check = sqlx::SqliteConnection::connect(&w.url).await.unwrap();
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut check)
        .await
        .unwrap();
    assert_eq!(verdict, "ok");
    check.close().await.unwrap();
    // Space freed: the same challenge and the game go on.
    w.store
        .limit_size(1 << 30)
        .await
        .expect("lift the cap")
        .expect("SQLite");
    w.games
        .challenge(request(&challenger(i), Some(&carol()), "8x8"))
        .await
        .expect("the same challenge once there is room");
    let played = w
        .games
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .expect("the game goes on");
    assert_eq!(played.game.ply, 2);
}

/// PostgreSQL only: the server drops every connection of the bot (a restart, a fail-over, an
/// admin's `pg_terminate_backend`). A connection in use a moment before is trusted, so the first
/// request after the drop may fail; it gets the apology, keeps nothing, and every later request
/// gets a connection that works. A connection unused for a second is checked before it is used,
/// so after a quiet second no request fails at all, writes and reads alike.
#[tokio::test]
async fn connections_postgresql_dropped_cost_at_most_one_request_and_keep_nothing_of_it() {
    use std::time::Duration;
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    const DROP_ALL: &str = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                            WHERE datname = current_database() AND pid <> pg_backend_pid()";
    let w = world(Backend::Postgres).await;
    let id = started(&w).await;
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .expect("a move before the drop");
    execute(&w.url, DROP_ALL, &[]).await;
    let mut failed = 0;
    let played = loop {
        match w.games.play(&bob(), PLACE, GameRef::Id(id), "c2-c3").await {
            Ok(played) => break played,
            Err(e) => {
                failed += 1;
                assert!(failed <= 1, "a second request failed too: {e:?}");
                assert!(e.is_internal(), "{e:?}");
                assert_eq!(
                    e.localized(Lang::En, &Plain),
                    "something went wrong on our side; please try again"
                );
                let game = w.store.game(id).await.unwrap().expect("the game");
                assert_eq!(game.ply, 1, "the failed move was not kept");
            }
        }
    };
    assert_eq!(played.game.ply, 2);

    // After a quiet second, a drop costs nothing: each connection is checked before use.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    execute(&w.url, DROP_ALL, &[]).await;
    let played = w
        .games
        .play(&alice(), PLACE, GameRef::Id(id), "b4-b3")
        .await
        .expect("the first move after a quiet second and a drop");
    assert_eq!(played.game.ply, 3);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    execute(&w.url, DROP_ALL, &[]).await;
    let moves = w
        .store
        .moves(id)
        .await
        .expect("the first read after a drop");
    assert_eq!(
        moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        ["a4-a3", "c2-c3", "b4-b3"]
    );
}

/// PostgreSQL only: moves that wait for game rows another process holds are checked against what
/// that process left. The move it made stale meanwhile is turned away alone; the other applies.
#[tokio::test]
async fn moves_waiting_for_rows_another_process_holds_are_checked_against_what_it_left() {
    use sqlx::Connection;
    use std::time::Duration;
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    let w = world(Backend::Postgres).await;
    let stale = started(&w).await;
    let fresh = started_between(&w, &carol(), &alice()).await;
    play_all(&w, stale, &["a4-a3"]).await;
    let size = w.games.game(stale).await.unwrap().size;

    let mut other = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut tx = other.begin().await.expect("begin");
    sqlx::query("SELECT id FROM games WHERE id IN ($1, $2) FOR UPDATE")
        .bind(stale.get())
        .bind(fresh.get())
        .fetch_all(&mut *tx)
        .await
        .expect("lock both games");
    let play = |who: Member, id: GameId, mv: &'static str| {
        let games = w.games.clone();
        tokio::spawn(async move { games.play(&who, PLACE, GameRef::Id(id), mv).await })
    };
    let late = play(bob(), stale, "b2-b3");
    let on_time = play(carol(), fresh, "a4-a3");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !late.is_finished() && !on_time.is_finished(),
        "both wait for the rows"
    );

    // Meanwhile the other process moves for bob in the first game, then lets both rows go.
    let position = breakthrough_bot::rules::replay(size, ["a4-a3", "c2-c3"])
        .unwrap()
        .0;
    sqlx::query(
        "UPDATE games SET ply = 2, position = $1, last_move = 'c2-c3', last_move_at = $2
         WHERE id = $3",
    )
    .bind(position.to_string())
    .bind(T0)
    .bind(stale.get())
    .execute(&mut *tx)
    .await
    .expect("the other process's move");
    tx.commit().await.expect("commit");

    refused!(late.await.unwrap(), GameError::PositionChanged);
    assert_eq!(on_time.await.unwrap().unwrap().game.ply, 1);
    assert_eq!(
        w.games.history(PLACE, fresh).await.unwrap().moves,
        ["a4-a3"]
    );
    let h = w.games.history(PLACE, stale).await.unwrap();
    assert_eq!(h.moves, ["a4-a3", "c2-c3"]);
    assert_eq!(h.game.position, position);
}

/// PostgreSQL only: a group of moves that deadlocks with another writer of the database (one
/// that holds a game of the group, then asks for another the group holds) is tried again, so no
/// move is lost and the other writer goes on as well.
#[tokio::test]
async fn a_group_of_moves_that_deadlocks_with_another_writer_is_tried_again() {
    use breakthrough_bot::store::POSTGRES_GROUPS_IN_FLIGHT;
    use sqlx::Connection;
    use std::time::{Duration, Instant};
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    let w = world(Backend::Postgres).await;
    let busy: Vec<GameId> = {
        let mut ids = Vec::new();
        for _ in 0..POSTGRES_GROUPS_IN_FLIGHT {
            ids.push(started(&w).await);
        }
        ids
    };
    let (a, b) = (started(&w).await, started(&w).await);
    let play = |id: GameId| {
        let games = w.games.clone();
        tokio::spawn(async move { games.play(&alice(), PLACE, GameRef::Id(id), "a4-a3").await })
    };

    // Every group in flight is held up on a `busy` game while the moves of `a` and `b` queue up
    // behind them.
    let mut watch = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut first = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut holds_busy = first.begin().await.expect("begin");
    sqlx::query("SELECT id FROM games WHERE id = ANY($1) FOR UPDATE")
        .bind(busy.iter().map(|id| id.get()).collect::<Vec<i64>>())
        .fetch_all(&mut *holds_busy)
        .await
        .expect("lock");
    let mut on_busy = Vec::new();
    for (n, &id) in busy.iter().enumerate() {
        on_busy.push((id, play(id)));
        waiting_for(
            &mut watch,
            &mut holds_busy,
            n as i64 + 1,
            "the moves of busy",
        )
        .await;
    }
    let (on_a, on_b) = (play(a), play(b));
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Another writer holds `b`; once `busy` is let go, the group of `a` and `b` takes `a`
    // and waits for `b`.
    let mut second = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut other = second.begin().await.expect("begin");
    const TOUCH: &str = "UPDATE games SET reminded = reminded WHERE id = $1";
    sqlx::query(TOUCH)
        .bind(b.get())
        .execute(&mut *other)
        .await
        .expect("hold b");
    holds_busy.commit().await.expect("commit");
    waiting_for(&mut watch, &mut other, 1, "the group of a and b").await;

    // Now the other writer asks for `a`: a deadlock, which PostgreSQL breaks after a second by
    // aborting the group's statement (it has waited longer).
    let asked = Instant::now();
    sqlx::query(TOUCH)
        .bind(a.get())
        .execute(&mut *other)
        .await
        .expect("the other writer goes on");
    assert!(
        asked.elapsed() >= Duration::from_millis(500),
        "the other writer was held up by the group, not let through: {:?}",
        asked.elapsed()
    );
    other.commit().await.expect("commit");

    on_busy.extend([(a, on_a), (b, on_b)]);
    for (id, played) in on_busy {
        let played = played
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert_eq!(played.game.ply, 1);
        assert_eq!(w.games.history(PLACE, id).await.unwrap().moves, ["a4-a3"]);
    }
}

/// Waits until `n` statements of other connections wait for the transaction `tx` (PostgreSQL),
/// as `pg_locks` shows it, asked on `watch`; fails after 5 seconds, saying `who` never did.
async fn waiting_for(
    watch: &mut sqlx::PgConnection,
    tx: &mut sqlx::PgConnection,
    n: i64,
    who: &str,
) {
    use std::time::{Duration, Instant};
    let xid: String = sqlx::query_scalar("SELECT pg_current_xact_id()::xid::text")
        .fetch_one(&mut *tx)
        .await
        .expect("the transaction's id");
    let since = Instant::now();
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_locks
             WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = $1",
        )
        .bind(&xid)
        .fetch_one(&mut *watch)
        .await
        .expect("pg_locks");
        if waiting >= n {
            return;
        }
        assert!(
            since.elapsed() < Duration::from_secs(5),
            "{who} never waited"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A write transaction dropped before it commits (its request failed, or was cancelled half-way)
/// keeps nothing and holds up no one: another connection may write the same rows at once, and
/// the process's next write commits only its own.
async fn a_write_transaction_dropped_half_way_keeps_nothing_and_holds_up_no_one(b: Backend) {
    use std::time::Duration;
    let w = world(b).await;
    started(&w).await;
    let dave = Member::new(1004, "dave");
    let mut tx = w.store.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, alice().id, "ghost", false, T0)
        .await
        .unwrap();
    tx.upsert_member(PLACE.guild, dave.id, dave.name.as_str(), false, T0)
        .await
        .unwrap();
    drop(tx);
    // The row the dropped transaction changed is free for a writer elsewhere.
    tokio::time::timeout(
        Duration::from_secs(5),
        execute(
            &w.url,
            "UPDATE member_names SET name = name WHERE member_id = $1",
            &[1001],
        ),
    )
    .await
    .expect("another connection wrote alice's row within 5 s");
    tokio::time::timeout(
        Duration::from_secs(5),
        w.games.challenge(request(&alice(), Some(&carol()), "8x8")),
    )
    .await
    .expect("the next write went through within 5 s")
    .expect("alice challenges carol");
    let name = |id| w.store.member_name(PLACE.guild, id);
    assert_eq!(name(alice().id).await.unwrap().as_deref(), Some("alice"));
    assert_eq!(
        name(dave.id).await.unwrap(),
        None,
        "nothing of the dropped transaction is kept"
    );
}

async fn a_member_is_called_in_each_server_by_the_name_they_use_there(b: Backend) {
    let w = world(b).await;
    let here = started(&w).await;
    // Alice goes by a nickname in another server, and plays carol there.
    let agent = Member::new(alice().id, "Secret Agent");
    let c = w
        .games
        .challenge(ChallengeRequest {
            place: OTHER_SERVER,
            ..request(&carol(), Some(&agent), "3x5")
        })
        .await
        .unwrap();
    let there = w
        .games
        .accept(&agent, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game;
    assert_eq!(there.player(Color::White).name, "Secret Agent");

    // Her first server still calls her alice: the game, its history, her games from a DM.
    assert_eq!(w.games.game(here).await.unwrap().black.name, "alice");
    assert_eq!(
        w.games.history(PLACE, here).await.unwrap().game.black.name,
        "alice"
    );
    let mine: Vec<_> = w
        .games
        .games_of(alice().id, None)
        .await
        .unwrap()
        .into_iter()
        .map(|g| {
            (
                g.id,
                g.black.name.as_str().into(),
                g.white.name.as_str().into(),
            )
        })
        .collect();
    assert_eq!(
        mine,
        [
            (here, "alice".to_string(), "bob".to_string()),
            (there.id, "carol".to_string(), "Secret Agent".to_string())
        ]
    );

    // Ratings and leaderboards: each server's own name, whatever the caller passes.
    for guild in [PLACE.guild, OTHER_SERVER.guild] {
        let mut tx = w.store.begin().await.unwrap();
        tx.upsert_rating(&RatingRow {
            guild_id: guild,
            member_id: alice().id,
            size: BoardSize::DEFAULT,
            value: RatingValue {
                rating: 1600.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 20,
            wins: 10,
            losses: 10,
            last_active: T0,
        })
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }
    let size = BoardSize::DEFAULT;
    for (guild, name) in [(PLACE.guild, "alice"), (OTHER_SERVER.guild, "Secret Agent")] {
        let board = w.games.leaderboard(guild, size, 1).await.unwrap();
        let names: Vec<_> = board
            .standings
            .iter()
            .map(|s| s.member.name.as_str())
            .collect();
        assert_eq!(names, [name], "server {guild}");
        let text = breakthrough_bot::game::text::leaderboard(Lang::En, &Plain, &board);
        let other = if name == "alice" {
            "Secret Agent"
        } else {
            "alice"
        };
        assert!(!text.contains(other), "{text}");
        let card = w
            .games
            .rating(guild, &Member::new(alice().id, "from the caller"), size)
            .await
            .unwrap();
        assert_eq!(card.member.name, name);
    }
}

async fn a_refused_ending_says_whether_the_game_or_the_ratings_moved_on(b: Backend) {
    use breakthrough_bot::store::{Ended, GameEnding, RatedEnding, RatingChangeRow};
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &["a4-a3", "c2-c3"]).await;
    let change = RatingChangeRow {
        game_id: id,
        black_before: RatingValue::START,
        white_before: RatingValue::START,
        black_after: RatingValue::START,
        white_after: RatingValue::START,
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
            black_games,
            white_games: None,
            change: change.clone(),
        }),
        announce: None,
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
    assert!(w.games.game(id).await.unwrap().is_active());
    assert_eq!(
        w.store.end_game(&ending(Some(2), None)).await.unwrap(),
        Ended::Done
    );
    assert_eq!(
        w.store.end_game(&ending(None, None)).await.unwrap(),
        Ended::GameMovedOn
    );
    assert_eq!(
        w.games.game(id).await.unwrap().status.winner(),
        Some(Color::Black)
    );
}

async fn a_stored_value_that_does_not_read_back_is_an_internal_error_not_a_panic(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let c = w
        .games
        .challenge(request(&carol(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    // A time limit that is no time control, and (past the schema's checks) a state no version
    // wrote.
    execute(
        &w.url,
        "UPDATE games SET time_limit = 1234 WHERE id = $1",
        &[id.get()],
    )
    .await;
    execute_unchecked(
        &w.url,
        "challenges",
        "UPDATE challenges SET state = 'paused' WHERE id = $1",
        &[c.id.get()],
    )
    .await;
    // A fresh service on the file, so no game is remembered from before.
    let store = Store::open(&w.url).await.unwrap();
    let games = Games::new(store.clone(), w.clock.clone(), Limits::default());
    for e in [
        games.game(id).await.unwrap_err(),
        games
            .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
            .await
            .unwrap_err(),
        games.challenge_view(c.id).await.unwrap_err(),
    ] {
        assert!(e.is_internal(), "{e:?}");
        assert_eq!(
            e.to_string(),
            "something went wrong on our side; please try again"
        );
    }
    store.close().await;
}

/// A rematch is the same game again with the colours swapped: a challenge to the other player,
/// offered once, whoever asks and however often.
async fn a_rematch_swaps_colours_keeps_the_terms_and_is_offered_once(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let w = world(b).await;
    let id = started(&w).await;
    // Not before the game is over, and only by its players.
    let early = w.games.rematch(&bob(), PLACE, GameRef::Id(id)).await;
    assert!(
        matches!(early, Err(GameError::RematchTooEarly(g)) if g == id),
        "{early:?}"
    );
    play_all(&w, id, &BLACK_WINS).await;
    let onlooker = w.games.rematch(&carol(), PLACE, GameRef::Id(id)).await;
    assert!(
        matches!(onlooker, Err(GameError::NotAPlayer(g)) if g == id),
        "{onlooker:?}"
    );
    let elsewhere = Place::new(11, 21);
    let hidden = w.games.rematch(&bob(), elsewhere, GameRef::Id(id)).await;
    assert!(
        matches!(hidden, Err(GameError::NoSuchGame(g)) if g == id),
        "{hidden:?}"
    );

    // Both players press at once: one rematch.
    let (alice, bob) = (alice(), bob());
    let (a, b) = tokio::join!(
        w.games.rematch(&alice, PLACE, GameRef::Id(id)),
        w.games.rematch(&bob, PLACE, GameRef::Only),
    );
    let (made, refused) = match (a, b) {
        (Ok(Rematch::Challenge(c)), Err(e)) | (Err(e), Ok(Rematch::Challenge(c))) => (c, e),
        other => panic!("not one rematch: {other:?}"),
    };
    assert!(
        matches!(refused, GameError::RematchTaken(g) if g == id),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        format!("the rematch of game #{id} has already been offered")
    );
    let (asker, other) = if made.challenger.id == alice.clone().id {
        (alice.clone(), bob.clone())
    } else {
        (bob.clone(), alice.clone())
    };
    assert_eq!(made.opponent.as_ref().map(|m| m.id), Some(other.id));
    // alice had Black: whoever asked, she has White now.
    let asker_color = if asker.id == alice.clone().id {
        Color::White
    } else {
        Color::Black
    };
    assert_eq!(made.color, Some(asker_color));
    assert_eq!(
        (made.size, made.time, made.rated, made.place),
        ("3x5".parse().unwrap(), TimeControl::OneHour, true, PLACE)
    );
    // It is a challenge like any other: accepted, it is a game with the colours swapped.
    let again = w
        .games
        .accept(&other, ChallengeRef::Id(made.place, made.id))
        .await
        .unwrap()
        .game;
    assert_eq!(
        (again.black.id, again.white.id),
        (bob.clone().id, alice.clone().id)
    );
    // A third press, once the rematch is under way, offers nothing more.
    let late = w
        .games
        .rematch(&alice.clone(), PLACE, GameRef::Id(id))
        .await;
    assert!(matches!(late, Err(GameError::RematchTaken(_))), "{late:?}");
}

/// Every limit on challenges holds for a rematch, and its refusal says which; a refused rematch
/// is not spent.
async fn a_rematch_meets_every_limit_of_a_challenge(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let limits = Limits {
        pending_challenges: 1,
        ..Limits::default()
    };
    let w = world_with(b, limits).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;
    // alice has a challenge out already: a rematch would be her second.
    let out = w
        .games
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    let refused = w.games.rematch(&alice(), PLACE, GameRef::Id(id)).await;
    assert!(
        matches!(refused, Err(GameError::TooManyChallenges(1))),
        "{refused:?}"
    );
    w.games
        .cancel(&alice(), ChallengeRef::Id(out.place, out.id))
        .await
        .unwrap();
    let made = w
        .games
        .rematch(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let Rematch::Challenge(c) = made else {
        panic!("a challenge: {made:?}")
    };
    // bob declines it; a new challenge from alice meets the hour a decline asks for.
    w.games
        .decline(&bob(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    let refused = w
        .games
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await;
    assert!(
        matches!(refused, Err(GameError::Declined { .. })),
        "{refused:?}"
    );
}

/// Against the AI a rematch is the new game at once: same level, colours swapped, once.
async fn a_rematch_against_the_ai_starts_the_game_at_once(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let w = world(b).await;
    let g = w
        .games
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "3x5"))
        .await
        .unwrap();
    w.games
        .resign(&alice(), PLACE, GameRef::Id(g.id))
        .await
        .unwrap();
    let again = w
        .games
        .rematch(&alice(), PLACE, GameRef::Only)
        .await
        .unwrap();
    let Rematch::AiGame(game, slot) = again else {
        panic!("a game: {again:?}")
    };
    // alice had Black: now the AI has it, and opens, with its place in the queue.
    assert_eq!((game.white.id, game.black.id), (alice().id, the_ai().id));
    assert_eq!(
        game.ai.map(|a| (a.color, a.level)),
        Some((Color::Black, Level::new(1).unwrap()))
    );
    assert!(game.is_active() && game.ai_to_move());
    let slot = slot.expect("the AI's place in the queue");
    assert!(w.games.ai_reply_with(slot).await.unwrap().is_some());
    let twice = w.games.rematch(&alice(), PLACE, GameRef::Id(g.id)).await;
    assert!(
        matches!(twice, Err(GameError::RematchTaken(_))),
        "{twice:?}"
    );
}

const DAY: i64 = 86_400;
const HOUR: i64 = 3_600;

fn deadline(game: &Game) -> i64 {
    game.status.deadline().expect("an active game")
}

/// A vacation pauses the member's clocks in every game, and only theirs; a turn reaching them
/// meanwhile gets its full time from their return; moving ends it and gives back the days not
/// taken.
async fn a_vacation_pauses_only_the_members_clocks_and_moving_ends_it(b: Backend) {
    let w = world(b).await;
    // alice (Black) is to move against bob; carol (Black) is to move against alice.
    let first = started(&w).await;
    let second = started_between(&w, &carol(), &alice()).await;
    w.clock.advance(600);
    let before = deadline(&w.games.game(first).await.unwrap());
    let change = w.games.vacation(&alice(), 3).await.unwrap();
    let back = T0 + 600 + 3 * DAY;
    assert!(change.started);
    assert_eq!((change.until, change.days_left), (back, 18));
    assert_eq!(change.games.len(), 2);
    let g = w.games.game(first).await.unwrap();
    assert_eq!(deadline(&g), before + 3 * DAY);
    assert!(
        breakthrough_bot::game::text::status(Lang::En, &Plain, &g, w.games.now())
            .ends_with("alice is on vacation until 2027-01-18 08:10 UTC"),
        "{}",
        breakthrough_bot::game::text::status(Lang::En, &Plain, &g, w.games.now())
    );
    // carol's clock runs as usual: two hours on, she has lost on time; alice has not.
    w.clock.advance(2 * HOUR);
    let report = swept(&w.games, w.games.now()).await.unwrap();
    let ended: Vec<GameId> = report
        .timed_out
        .iter()
        .chain(&report.aborted)
        .map(|g| g.id)
        .collect();
    assert_eq!(ended, [second]);
    assert!(w.games.game(first).await.unwrap().is_active());

    // alice moves: she is back, a day begun counts as taken, and bob has his usual hour.
    w.games
        .play(&alice(), PLACE, GameRef::Id(first), "a4-a3")
        .await
        .unwrap();
    let g = w.games.game(first).await.unwrap();
    assert_eq!(g.away_until(Color::Black, w.games.now()), None);
    assert_eq!(deadline(&g), w.games.now() + HOUR);
    let again = w.games.vacation(&alice(), 0).await;
    assert!(matches!(again, Err(GameError::NotOnVacation)), "{again:?}");

    // bob goes away; alice's move hands him a turn that starts when he is back.
    w.games.vacation(&bob(), 1).await.unwrap();
    let bob_back = w.games.now() + DAY;
    w.games
        .play(&bob(), PLACE, GameRef::Id(first), "c2-c3")
        .await
        .unwrap();
    // bob moved, so he is back at once: alice's turn runs as usual.
    let g = w.games.game(first).await.unwrap();
    assert_eq!(deadline(&g), w.games.now() + HOUR);
    w.games.vacation(&bob(), 1).await.unwrap();
    let bob_back_again = w.games.now() + DAY;
    assert!(bob_back_again >= bob_back);
    w.games
        .play(&alice(), PLACE, GameRef::Id(first), "a3xb2")
        .await
        .unwrap();
    let g = w.games.game(first).await.unwrap();
    assert_eq!(deadline(&g), bob_back_again + HOUR);
    // bob ends it early: his deadline comes back by the time not taken.
    w.clock.advance(HOUR);
    let change = w.games.vacation(&bob(), 0).await.unwrap();
    assert!(!change.started);
    // The first vacation, ended by his move the moment it began, took nothing; this one a day.
    assert_eq!(change.days_left, 21 - 1);
    let g = w.games.game(first).await.unwrap();
    assert_eq!(deadline(&g), w.games.now() + HOUR);
}

/// Two processes on one database, as with gateway shards: a member's vacation taken through the
/// other process reaches the games this one serves within the age its memory of a game is trusted,
/// so their clock waits for them here too, and their move here ends it for both.
async fn a_vacation_taken_through_another_process_reaches_the_games_this_one_serves(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    // alice (Black) moves: bob is to move, and this process remembers the game.
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    let before = deadline(&w.games.game(id).await.unwrap());
    let store = Store::open(&w.url).await.unwrap();
    let other = Games::new(store.clone(), w.clock.clone(), Limits::default());
    other.vacation(&bob(), 1).await.unwrap();
    tokio::time::sleep(
        breakthrough_bot::store::CACHE_MAX_AGE + std::time::Duration::from_millis(100),
    )
    .await;
    let g = w.games.game(id).await.unwrap();
    assert_eq!(deadline(&g), before + DAY);
    assert_eq!(g.away_until(Color::White, w.games.now()), Some(T0 + DAY));
    w.games
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    let again = other.vacation(&bob(), 0).await;
    assert!(matches!(again, Err(GameError::NotOnVacation)), "{again:?}");
    store.close().await;
}

/// The year's allowance, and the refusals: each says why and changes nothing.
async fn vacations_keep_to_the_yearly_allowance_and_refuse_clearly(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let before = deadline(&w.games.game(id).await.unwrap());
    let refused = w.games.vacation(&alice(), 22).await;
    assert!(
        matches!(
            refused,
            Err(GameError::VacationDays {
                asked: 22,
                left: 21
            })
        ),
        "{refused:?}"
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "you have 21 vacation days left this year; ask for 1 to 21"
    );
    let refused = w.games.vacation(&alice(), -1).await;
    assert!(
        matches!(refused, Err(GameError::VacationDays { .. })),
        "{refused:?}"
    );
    assert_eq!(deadline(&w.games.game(id).await.unwrap()), before);

    w.games.vacation(&alice(), 20).await.unwrap();
    let refused = w.games.vacation(&alice(), 1).await;
    assert!(
        matches!(refused, Err(GameError::AlreadyOnVacation(_))),
        "{refused:?}"
    );
    // Back after two and a half days: three are taken, eighteen given back.
    w.clock.advance(2 * DAY + 12 * HOUR);
    let change = w.games.vacation(&alice(), 0).await.unwrap();
    assert_eq!(change.days_left, 18);
    let refused = w.games.vacation(&alice(), 19).await;
    assert!(
        matches!(
            refused,
            Err(GameError::VacationDays {
                asked: 19,
                left: 18
            })
        ),
        "{refused:?}"
    );
    // A year after the first, its days are free again.
    w.clock.advance(365 * DAY);
    assert_eq!(w.games.vacation(&alice(), 21).await.unwrap().days_left, 0);
    // A member who never played may go away too.
    let newcomer = Member::new(1099, "newcomer");
    let change = w.games.vacation(&newcomer, 2).await.unwrap();
    assert!(change.started && change.games.is_empty());
    // A challenge to a member on vacation is allowed, and says so.
    let c = w
        .games
        .challenge(request(&carol(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    let text = breakthrough_bot::game::text::challenge(Lang::En, &Plain, &c, w.games.now());
    assert!(text.contains(" · alice is on vacation until "), "{text}");
}

/// alice's game against the AI (level 1) on 3x5 with Black, after her first move and its reply.
async fn small_ai_game_under_way(w: &World) -> GameId {
    let id = w
        .games
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "3x5"))
        .await
        .unwrap()
        .id;
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    w.games.ai_reply(id).await.unwrap().expect("the AI answers");
    id
}

async fn a_finished_game_between_members_is_analysed_by_anyone_in_its_server(b: Backend) {
    use breakthrough_bot::engine::analysis::Eval;
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;

    let done = w.games.analyze(carol().id, NEXT_CHANNEL, id).await.unwrap();
    assert_eq!(done.game.id, id);
    let plies = &done.analysis.plies;
    let played: Vec<String> = plies.iter().map(|p| p.played.to_string()).collect();
    assert_eq!(played, BLACK_WINS);
    assert_eq!(plies[4].after, Eval::Wins(0));
    let decided = done.analysis.decided.expect("the end is proven");
    assert_eq!(decided.winner, Color::Black);

    let summary = breakthrough_bot::game::analysis::summary(Lang::En, &Plain, &done);
    assert!(
        summary.starts_with("alice (Black) against bob (White) · 3x5 · 3 moves"),
        "{summary}"
    );
    assert!(summary.contains("Black wins in"), "{summary}");
    let file = breakthrough_bot::game::analysis::export(Lang::En, &done);
    let lines: Vec<&str> = file.lines().filter(|l| l.contains(" · ")).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("5 · Black · b2xa1 · wins in 1 → won · ")),
        "{file}"
    );
    // Another server, or a direct message, does not see it.
    for at in [OTHER_SERVER, A_DM] {
        refused!(
            w.games.analyze(carol().id, at, id).await,
            GameError::NoSuchGame(g) if g == id
        );
    }
    refused!(
        w.games.analyze(carol().id, PLACE, GameId::new(999)).await,
        GameError::NoSuchGame(_)
    );
}

async fn a_game_between_members_in_progress_is_not_analysed_and_nothing_changes(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS[..2]).await;
    for who in [alice(), bob(), carol()] {
        let refusal = w.games.analyze(who.id, PLACE, id).await.unwrap_err();
        assert!(
            matches!(refusal, GameError::AnalysisInProgress(g) if g == id),
            "{refusal:?}"
        );
        assert_eq!(
            refusal.to_string(),
            format!(
                "game #{id} is still being played: a game between members can be analysed once it is over, so that the engine helps no one during play"
            )
        );
    }
    assert!(GameError::AnalysisInProgress(id)
        .localized(Lang::Es, &Plain)
        .starts_with(&format!("la partida #{id} todavía se está jugando")));
    let game = w.games.game(id).await.unwrap();
    assert!(game.is_active());
    assert_eq!(game.ply, 2);
    // The refusal held no place in the AI's queue: the game goes on, and is analysed once over.
    play_all(&w, id, &BLACK_WINS[2..]).await;
    w.games.analyze(alice().id, PLACE, id).await.unwrap();
}

async fn a_game_against_the_ai_is_analysed_while_it_is_played(b: Backend) {
    let w = world(b).await;
    let id = small_ai_game_under_way(&w).await;
    let done = w.games.analyze(alice().id, PLACE, id).await.unwrap();
    assert!(done.game.is_active());
    assert_eq!(done.analysis.plies.len(), 2);
    assert_eq!(done.analysis.plies[0].played.to_string(), "a4-a3");
    // The game is as it was, and goes on.
    assert_eq!(w.games.game(id).await.unwrap().ply, 2);
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "c4-c3")
        .await
        .unwrap();
}

async fn one_analysis_per_member_at_a_time_in_the_ais_queue(b: Backend) {
    let w = world_with(
        b,
        Limits {
            ai_queue: 2,
            ..Limits::default()
        },
    )
    .await;
    let finished = started(&w).await;
    play_all(&w, finished, &BLACK_WINS).await;
    let ai_game = small_ai_game_under_way(&w).await;

    let queued = w
        .games
        .queue_analysis(alice().id, PLACE, finished)
        .await
        .unwrap();
    assert_eq!(queued.game().id, finished);
    // While it runs, her second analysis is refused, and so is her move against the AI.
    let refusal = w
        .games
        .queue_analysis(alice().id, PLACE, ai_game)
        .await
        .unwrap_err();
    assert!(
        matches!(refusal, GameError::AnalysisBusyForYou(g) if g == finished),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        format!("the AI is still analysing game #{finished} for you: wait for it, then try again")
    );
    let her_move = |w: &World| {
        let games = w.games.clone();
        async move {
            let game = games.game(ai_game).await.unwrap();
            game.position.legal_moves()[0].to_string()
        }
    };
    let mv = her_move(&w).await;
    refused!(
        w.games.play(&alice(), PLACE, GameRef::Id(ai_game), &mv).await,
        GameError::AnalysisBusyForYou(g) if g == finished
    );
    assert_eq!(w.games.game(ai_game).await.unwrap().ply, 2);
    // Others are served, until the queue is full.
    let bobs = w
        .games
        .queue_analysis(bob().id, PLACE, finished)
        .await
        .unwrap();
    refused!(
        w.games.queue_analysis(carol().id, PLACE, finished).await,
        GameError::AiQueueFull
    );
    drop(bobs);
    let done = w.games.analyze_queued(queued).await.unwrap();
    assert_eq!(done.analysis.plies.len(), 5);
    // Her place is free again; while the AI's reply to her move holds it, her analysis is
    // refused as a second move would be.
    let (_, slot) = w
        .games
        .play_with_slot(&alice(), PLACE, GameRef::Id(ai_game), &mv)
        .await
        .unwrap();
    assert!(slot.is_some());
    refused!(
        w.games.queue_analysis(alice().id, PLACE, finished).await,
        GameError::AiBusyForYou(g) if g == ai_game
    );
    drop(slot);
    w.games.analyze(alice().id, PLACE, finished).await.unwrap();
}

/// A member who asked for turn notifications has one queued with each move that makes it their
/// turn, with the game's start when they move first, and with each reminder; each reads as
/// nothing once the move is made or the setting is off, and a refusal by Discord turns the
/// setting off, to be told once.
async fn turn_notifications_are_queued_with_the_change_and_lapse_with_it(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    w.games
        .set_turn_dms(alice().id, true, Lang::Es)
        .await
        .unwrap();
    assert!(w.games.turn_dms(alice().id).await.unwrap());
    // bob accepts alice's challenge: alice, Black, moves first and is told.
    let id = started(&w).await;
    let turn = |ply: u32, reminder: bool| Announcement::YourTurn {
        game: id,
        member: alice().id,
        ply,
        reminder,
    };
    assert_eq!(owed(&w).await, [turn(0, false)]);
    w.games
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    // Her move made, the first notification has nothing left to say; bob asked for none.
    assert_eq!(w.games.announcement(&turn(0, false)).await.unwrap(), None);
    assert_eq!(owed(&w).await, [turn(0, false)]);
    w.games
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    assert_eq!(owed(&w).await, [turn(0, false), turn(2, false)]);
    match w.games.announcement(&turn(2, false)).await.unwrap() {
        Some(Announced::YourTurn {
            game, member, lang, ..
        }) => {
            assert_eq!((game.ply, member, lang), (2, alice().id, Lang::Es));
            let said =
                breakthrough_bot::game::text::your_turn(lang, &Plain, &game, member, false, T0);
            assert_eq!(
                said,
                "Te toca mover en la partida #1 contra bob: bob ha jugado c2-c3. Quedan 1 h 0 min."
            );
        }
        other => panic!("{other:?}"),
    }
    // The reminder comes with one too.
    w.clock.advance(50 * 60);
    w.games.sweep(w.games.now()).await.unwrap();
    let queued = owed(&w).await;
    assert!(queued.contains(&turn(2, true)), "{queued:?}");
    // Discord refused one: the setting is off, the member is told once, and nothing more is
    // said.
    w.games.turn_dms_refused(alice().id).await.unwrap();
    assert!(!w.games.turn_dms(alice().id).await.unwrap());
    assert_eq!(w.games.announcement(&turn(2, true)).await.unwrap(), None);
    assert!(w.games.take_dm_refusal(alice().id).await.unwrap());
    assert!(!w.games.take_dm_refusal(alice().id).await.unwrap());
}

/// Two processes on one database, each running some of the gateway shards, each sweep only the
/// games of their own shards' servers; direct messages are shard 0's.
async fn each_shard_sweeps_only_its_own_servers(b: Backend) {
    use breakthrough_bot::game::Shards;
    let w = world(b).await;
    // Server 10 (and direct messages) are on shard 0 of 2; server 1 << 22 on shard 1.
    let on_0 = Place::new(10, 20);
    let on_1 = Place::new(1 << 22, 21);
    assert_eq!(
        (Shards::of(on_0.guild, 2), Shards::of(on_1.guild, 2)),
        (0, 1)
    );
    let game_in = |place: Place| {
        let w = &w;
        async move {
            let mut r = request(&alice(), Some(&bob()), "3x5");
            r.place = place;
            r.rated = false;
            let c = w.games.challenge(r).await.unwrap();
            w.games
                .accept(&bob(), ChallengeRef::Id(c.place, c.id))
                .await
                .unwrap()
                .game
                .id
        }
    };
    let first = game_in(on_0).await;
    let second = game_in(on_1).await;
    let shard = |n| {
        w.games.clone().on_shards(Shards {
            count: 2,
            first: n,
            last: n,
        })
    };
    let (zero, one) = (shard(0), shard(1));
    // Both clocks have run out; each shard ends only its own game.
    w.clock.advance(2 * 3_600);
    let ended =
        |r: &Swept| -> Vec<GameId> { r.timed_out.iter().chain(&r.aborted).map(|g| g.id).collect() };
    let by_one = swept(&one, w.games.now()).await.unwrap();
    assert_eq!(ended(&by_one), [second]);
    assert!(w.games.game(first).await.unwrap().is_active());
    let by_zero = swept(&zero, w.games.now()).await.unwrap();
    assert_eq!(ended(&by_zero), [first]);
    // Every shard of the count is no limit at all.
    let all = w.games.clone().on_shards(Shards::all(2));
    assert!(swept(&all, w.games.now()).await.unwrap().is_empty());
}

on_both_backends! {
    #[tokio::test] a_vacation_taken_through_another_process_reaches_the_games_this_one_serves,
    #[tokio::test] a_rated_game_from_challenge_to_result_updates_ratings_as_glicko2_says,
    #[tokio::test] challenges_are_refused_with_reasons_and_change_nothing,
    #[tokio::test] moves_are_refused_with_reasons_and_change_nothing,
    #[tokio::test] abort_before_both_have_moved_leaves_no_result_and_no_rating,
    #[tokio::test] several_games_in_a_channel_need_a_game_number,
    #[tokio::test] an_open_challenge_is_taken_by_the_first_member_who_accepts,
    #[tokio::test] sweep_expires_challenges_ends_games_on_time_and_reminds_once,
    #[tokio::test] deadlines_survive_a_restart,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] fifty_concurrent_copies_of_a_move_apply_exactly_once,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] a_member_winning_two_games_at_the_same_moment_gets_both_results_rated,
    #[tokio::test] the_casual_note_says_the_daily_limit_in_force,
    #[tokio::test] three_rated_games_a_day_per_pair_then_casual,
    #[tokio::test] leaderboard_orders_pages_and_leaves_out_provisional_ratings,
    #[tokio::test] a_stale_move_written_together_with_others_is_turned_away_alone,
    #[tokio::test] a_game_shows_every_change_at_once_and_a_second_process_is_caught_by_the_ply_check,
    #[tokio::test] a_game_against_the_ai_from_start_to_result_is_legal_and_unrated,
    #[tokio::test] the_ai_with_black_moves_first_and_a_restart_leaves_no_game_waiting,
    #[tokio::test] in_a_direct_message_the_ai_plays_but_members_cannot_be_challenged,
    #[tokio::test] games_against_the_ai_count_for_the_member_not_for_the_ai,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] concurrent_ai_replies_apply_one_move,
    #[tokio::test] a_write_cut_off_half_way_changes_nothing_and_holds_up_no_one,
    #[tokio::test] a_game_is_played_in_its_own_channel_and_seen_only_in_its_server,
    #[tokio::test] a_game_against_the_ai_in_a_direct_message_stays_in_that_message,
    #[tokio::test] a_resignation_before_both_sides_have_moved_is_unrated,
    #[tokio::test] aborts_and_early_time_outs_say_unrated,
    #[tokio::test] a_declined_challenge_means_no_for_an_hour,
    #[tokio::test] five_challenges_an_hour_to_the_same_member_cancelled_ones_too,
    #[tokio::test] a_fourth_game_against_the_ai_is_refused_and_says_the_limit,
    #[tokio::test] a_member_has_one_ai_reply_on_the_way_and_a_move_elsewhere_meanwhile_changes_nothing,
    #[tokio::test] a_full_ai_queue_refuses_at_once_and_leaves_no_game_waiting,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] many_members_at_once_against_a_small_ai_queue_are_played_or_refused_never_stuck,
    #[tokio::test] a_broken_game_does_not_stop_the_sweep_of_the_others,
    #[tokio::test] the_sweep_queues_each_announcement_with_its_change,
    #[tokio::test] clocks_move_on_by_the_time_the_service_was_away,
    #[tokio::test] an_announced_ai_reply_is_queued_with_the_move,
    #[tokio::test] a_member_is_called_in_each_server_by_the_name_they_use_there,
    #[tokio::test] a_refused_ending_says_whether_the_game_or_the_ratings_moved_on,
    #[tokio::test] a_stored_value_that_does_not_read_back_is_an_internal_error_not_a_panic,
    #[tokio::test] a_rematch_swaps_colours_keeps_the_terms_and_is_offered_once,
    #[tokio::test] a_rematch_meets_every_limit_of_a_challenge,
    #[tokio::test] a_rematch_against_the_ai_starts_the_game_at_once,
    #[tokio::test] a_vacation_pauses_only_the_members_clocks_and_moving_ends_it,
    #[tokio::test] vacations_keep_to_the_yearly_allowance_and_refuse_clearly,
    #[tokio::test] a_finished_game_between_members_is_analysed_by_anyone_in_its_server,
    #[tokio::test] a_game_between_members_in_progress_is_not_analysed_and_nothing_changes,
    #[tokio::test] a_game_against_the_ai_is_analysed_while_it_is_played,
    #[tokio::test] one_analysis_per_member_at_a_time_in_the_ais_queue,
    #[tokio::test] turn_notifications_are_queued_with_the_change_and_lapse_with_it,
    #[tokio::test] each_shard_sweeps_only_its_own_servers,
    #[tokio::test] a_write_transaction_dropped_half_way_keeps_nothing_and_holds_up_no_one,
}
