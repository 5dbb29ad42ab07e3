//! The clock sweep: expiries, time-outs and reminders, deadlines across a restart or an absence,
//! a broken game among the others, and each shard sweeping its own servers.

use std::sync::Arc;
use std::time::Duration;

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRefusal, ChallengeState, EndReason, GameId, GameRef, GameState, GuildId,
    Limits, ManualClock, Place, PlayRefusal, Services,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;

use super::{
    alice, bob, carol, carol_and_bob_move, dave, play_all, refused, request, result, started,
    started_between, world, World, PLACE, T0,
};
use crate::common::db::{execute, execute_unchecked, Backend, TestDb};
use crate::common::secs;
use crate::common::swept::{swept, Swept};

pub(super) async fn sweep_expires_challenges_ends_games_on_time_and_reminds_once(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    let early = started(&w).await; // nobody moves: aborted on time
    let c2 = w
        .games
        .challenges
        .challenge(request(&carol(), Some(&bob()), "5x5"))
        .await
        .unwrap();
    let late = w
        .games
        .challenges
        .accept(&bob(), ChallengeRef::Id(c2.place, c2.id))
        .await
        .unwrap()
        .game
        .id;
    // carol (Black) and bob both move; then carol runs out of time.
    w.games
        .play
        .play(&carol(), PLACE, GameRef::Id(late), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(late), "e2-e3")
        .await
        .unwrap();

    assert!(swept(&w.games, T0 + secs(60)).await.unwrap().is_empty());
    // 80% of the hour gone: one reminder for each game, then never again.
    let r = swept(&w.games, T0 + secs(49 * 60)).await.unwrap();
    assert_eq!(r.reminders.len(), 2, "{r:?}");
    assert!(r.expired.is_empty() && r.timed_out.is_empty());
    assert!(swept(&w.games, T0 + secs(50 * 60))
        .await
        .unwrap()
        .reminders
        .is_empty());

    w.clock.set(T0 + secs(3600));
    refused!(
        w.games
            .play
            .play(&carol(), PLACE, GameRef::Id(late), "b4-b3")
            .await,
        PlayRefusal::OutOfTime
    );
    refused!(
        w.games
            .challenges
            .accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::ChallengeClosed(ChallengeState::Expired)
    );
    let r = swept(&w.games, T0 + secs(3600)).await.unwrap();
    assert_eq!(r.expired.iter().map(|c| c.id).collect::<Vec<_>>(), [c.id]);
    assert_eq!(r.aborted.iter().map(|g| g.id).collect::<Vec<_>>(), [early]);
    assert_eq!(r.timed_out.iter().map(|g| g.id).collect::<Vec<_>>(), [late]);
    let lost = &r.timed_out[0];
    assert_eq!(result(lost), Some((Some(Color::White), EndReason::Timeout)));
    assert!(lost.status.rating_change().is_some(), "time-outs are rated");
    assert!(
        swept(&w.games, T0 + secs(3600)).await.unwrap().is_empty(),
        "nothing twice"
    );
    assert_eq!(
        w.games.challenges.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Expired
    );
}

pub(super) async fn deadlines_survive_a_restart(b: Backend) {
    let db = Arc::new(TestDb::new(b).await);
    let url = db.url.clone();
    let clock = Arc::new(ManualClock::new(T0));
    let id = {
        let store = Store::open(&url).await.unwrap();
        let w = World {
            games: Services::new(store.clone(), clock.clone(), Limits::default()),
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
    let games = Services::new(store, clock, Limits::default());
    let r = swept(&games, T0 + secs(3601)).await.unwrap();
    assert_eq!(r.timed_out.len(), 1);
    assert_eq!(r.timed_out[0].id, id);
}

pub(super) async fn a_broken_game_does_not_stop_the_sweep_of_the_others(b: Backend) {
    let w = world(b).await;
    let broken = started(&w).await;
    let fine = started_between(&w, &carol(), &bob()).await;
    carol_and_bob_move(&w, fine).await;
    // The first overdue game (by deadline, then id) cannot be read.
    execute(
        &w.url,
        "UPDATE games SET position = 'not a position', deadline = $1 WHERE id = $2",
        &[(T0 + secs(10)).unix_seconds(), broken.get()],
    )
    .await;
    // And another has a time limit no version wrote, put there by hand past the schema's checks.
    let odd = started_between(&w, &dave(), &bob()).await;
    execute_unchecked(
        &w.url,
        "games",
        "UPDATE games SET time_limit = 1234, deadline = $1 WHERE id = $2",
        &[(T0 + secs(20)).unix_seconds(), odd.get()],
    )
    .await;
    let r = swept(&w.games, T0 + secs(7200))
        .await
        .expect("the sweep goes on");
    assert_eq!(r.timed_out.iter().map(|g| g.id).collect::<Vec<_>>(), [fine]);
    let row = w.store.game(broken).await.unwrap().unwrap();
    assert_eq!(row.state, GameState::Active, "left for a later pass");
}

pub(super) async fn clocks_move_on_by_the_time_the_service_was_away(b: Backend) {
    let w = world(b).await;
    let other = Services::new(w.store.clone(), w.clock.clone(), Limits::default())
        .only_server(GuildId::new(99));
    assert_eq!(
        w.games.outbox.keep_alive(T0, secs(60)).await.unwrap(),
        Duration::ZERO,
        "first seen"
    );
    let id = started(&w).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    assert_eq!(
        w.games
            .outbox
            .keep_alive(T0 + secs(60), secs(60))
            .await
            .unwrap(),
        Duration::ZERO,
        "not away"
    );
    assert_eq!(
        other
            .outbox
            .keep_alive(T0 + secs(60), secs(60))
            .await
            .unwrap(),
        Duration::ZERO
    );
    // Down for two hours: more than the hour per move and the challenge's hour.
    let back = T0 + secs(60 + 7200);
    assert_eq!(
        w.games.outbox.keep_alive(back, secs(60)).await.unwrap(),
        secs(7200)
    );
    assert_eq!(
        w.games.play.game(id).await.unwrap().status.deadline(),
        Some(T0 + secs(3600 + 7200))
    );
    assert_eq!(
        w.games
            .challenges
            .challenge_view(c.id)
            .await
            .unwrap()
            .expires_at,
        T0 + secs(3600 + 7200)
    );
    assert!(
        swept(&w.games, back).await.unwrap().is_empty(),
        "nobody lost"
    );
    // Another scope's record is its own, and its clocks are not these.
    assert_eq!(
        other.outbox.keep_alive(back, secs(60)).await.unwrap(),
        secs(7200)
    );
    assert_eq!(
        w.games.play.game(id).await.unwrap().status.deadline(),
        Some(T0 + secs(3600 + 7200))
    );
}

/// Two processes on one database, each running some of the gateway shards, each sweep only the
/// games of their own shards' servers; direct messages are shard 0's.
pub(super) async fn each_shard_sweeps_only_its_own_servers(b: Backend) {
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
            let c = w.games.challenges.challenge(r).await.unwrap();
            w.games
                .challenges
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
    w.clock.advance(secs(2 * 3_600));
    let ended =
        |r: &Swept| -> Vec<GameId> { r.timed_out.iter().chain(&r.aborted).map(|g| g.id).collect() };
    let by_one = swept(&one, w.games.now()).await.unwrap();
    assert_eq!(ended(&by_one), [second]);
    assert!(w.games.play.game(first).await.unwrap().is_active());
    let by_zero = swept(&zero, w.games.now()).await.unwrap();
    assert_eq!(ended(&by_zero), [first]);
    // Every shard of the count is no limit at all.
    let all = w.games.clone().on_shards(Shards::all(2));
    assert!(swept(&all, w.games.now()).await.unwrap().is_empty());
}
