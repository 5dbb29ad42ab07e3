//! A tournament through a kill -9 of the bot: the last game of a Swiss round ends on time in
//! the bot's own sweep, which pairs the next round in the same transaction; the bot is killed
//! at once and started again, and the round is there exactly once.

use std::time::{Duration, Instant};

use breakthrough_bot::game::{
    GameRef, TimeControl, TournamentFormat, TournamentRef, TournamentRequest, TournamentState,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;

use super::{
    bot_with, database, players, posted, scalar, service, set_deadline, unix_now,
    wait_outbox_empty, words, HERE,
};
use crate::common::fake_discord::{FakeDiscord, CHANNEL_ID, GUILD_ID};

/// Posts in the tournament's channel saying round 2 is paired.
fn round_two_posts(fake: &FakeDiscord) -> usize {
    fake.requests()
        .iter()
        .filter(|r| posted(r, CHANNEL_ID) && words(r).contains("round 2 is paired"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_as_a_rounds_last_game_ends_leaves_the_next_round_paired_once() {
    let (_dir, db) = database();
    let (store, games) = service(&db).await;
    let (alice, bob, carol, dave) = players();
    let id = games
        .tournaments
        .create_tournament(TournamentRequest {
            place: HERE,
            organizer: alice.clone(),
            manages_server: true,
            name: "Night cup".into(),
            format: TournamentFormat::Swiss,
            size: "3x5".parse().unwrap(),
            time: TimeControl::OneHour,
            rated: true,
            rounds: Some(2),
            max_players: None,
            starts_in: None,
        })
        .await
        .unwrap()
        .id;
    for p in [&alice, &bob, &carol, &dave] {
        games
            .tournaments
            .join_tournament(p, HERE, TournamentRef::Id(id))
            .await
            .unwrap();
    }
    let one = games
        .tournaments
        .start_tournament(&alice, false, HERE, TournamentRef::Id(id))
        .await
        .unwrap();
    let (first, last) = (&one.games[0], &one.games[1]);
    games
        .play
        .resign(&first.players[Color::Black], HERE, GameRef::Id(first.id))
        .await
        .unwrap();
    store.close().await;
    // The round's last game is overdue: the bot's first sweep ends it, pairing round 2.
    set_deadline(&db, last.id, unix_now() - 60).await;
    let (fake, bot) = bot_with(&db, &[], |_| {}).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while scalar(&db, "SELECT count(*) FROM games WHERE state = 'finished'").await < 2 {
        assert!(Instant::now() < deadline, "the last game never ended");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    bot.kill();
    // The result and the round it completes were written together.
    let round_two = "SELECT count(*) FROM games WHERE tournament_round = 2";
    assert_eq!(scalar(&db, round_two).await, 2);

    let (again, _bot) = bot_with(&db, &[], |_| {}).await;
    again.wait_for_commands(Some(GUILD_ID)).await;
    wait_outbox_empty(&db).await;
    // A few more sweeps of the restarted bot change nothing.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(scalar(&db, round_two).await, 2);
    assert_eq!(
        scalar(&db, "SELECT count(*) FROM games WHERE tournament_round > 2").await,
        0
    );
    let store = Store::open(&db).await.unwrap();
    let read = store.tournament(id).await.unwrap().unwrap();
    assert_eq!(
        (read.tournament.round.get(), read.tournament.state),
        (2, TournamentState::Running)
    );
    assert_eq!(
        read.games
            .iter()
            .filter(|g| g.tournament_round.map(|r| r.get()) == Some(2))
            .count(),
        2
    );
    // Told once; twice at most if the post was in flight at the kill.
    let told = round_two_posts(&fake) + round_two_posts(&again);
    assert!((1..=2).contains(&told), "round 2 announced {told} times");
    again.assert_spec_ok();
}
