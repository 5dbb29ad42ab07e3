//! Games in threads of their own: a game moves into the thread opened for it, is played there,
//! tells the channel it started in when it ends, and comes back to that channel if its thread is
//! deleted. Why a server's games could not get threads is kept for its admins.

use breakthrough_bot::game::{
    AccessRefusal, Announced, Announcement, ChannelId, GameRef, Place, ThreadRefusal, ThreadTrouble,
};
use breakthrough_bot::rules::Color;

use super::{alice, bob, owed, refused, started, world, PLACE, T0};
use crate::common::db::Backend;

const THREAD: Place = Place::new(10, 77);

pub(super) async fn a_game_in_its_thread_is_played_there_and_its_end_is_told_in_its_channel(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    let game = w.games.play.game(id).await.unwrap();
    assert_eq!((game.place, game.thread_of), (PLACE, None));

    assert!(w
        .games
        .threads
        .thread_opened(&game, THREAD.channel)
        .await
        .unwrap());
    // Opened twice (a retried request): the game is already there.
    assert!(!w
        .games
        .threads
        .thread_opened(&game, ChannelId::new(78))
        .await
        .unwrap());
    let game = w.games.play.game(id).await.unwrap();
    assert_eq!((game.place, game.thread_of), (THREAD, Some(PLACE.channel)));

    // Played in the thread without a game number; the channel it started in points there.
    w.games
        .play
        .play(&alice(), THREAD, GameRef::Only, "a4-a3")
        .await
        .unwrap();
    let refusal = w
        .games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .expect_err("a move from the channel the game left");
    assert_eq!(
        refusal.to_string(),
        format!("game #{id} is played in channel 77; make your move there")
    );
    refused!(
        w.games.play.play(&bob(), PLACE, GameRef::Only, "c2-c3").await,
        AccessRefusal::GamesElsewhere { ref channels, .. } if channels == &[THREAD.channel]
    );
    w.games
        .play
        .play(&bob(), THREAD, GameRef::Only, "c2-c3")
        .await
        .unwrap();
    assert!(
        owed(&w).await.is_empty(),
        "nothing to tell while it goes on"
    );

    // It ends in the thread: the channel it started in is told, once.
    w.games
        .play
        .resign(&bob(), THREAD, GameRef::Only)
        .await
        .unwrap();
    let told = w
        .games
        .outbox
        .due_announcements(breakthrough_bot::game::Timestamp::MAX, 10)
        .await
        .unwrap();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].place, PLACE);
    assert_eq!(
        told[0].announcement,
        Ok(Announcement::ThreadEnded { game: id })
    );
    match w.games.outbox.to_say(&told[0]).await.unwrap() {
        Some(Announced::ThreadEnded(game)) => {
            assert_eq!(game.place, THREAD);
            assert_eq!(game.status.winner(), Some(Color::Black));
        }
        other => panic!("{other:?}"),
    }
}

pub(super) async fn a_game_whose_thread_is_deleted_goes_back_to_its_channel_with_what_it_owes(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    let game = w.games.play.game(id).await.unwrap();
    assert!(w
        .games
        .threads
        .thread_opened(&game, THREAD.channel)
        .await
        .unwrap());
    // Something owed to the thread when it goes.
    let game = w.games.play.game(id).await.unwrap();
    w.games.outbox.board_owed(&game).await.unwrap();

    assert_eq!(
        w.games.threads.thread_deleted(THREAD).await.unwrap(),
        Some(PLACE)
    );
    // A channel that is no game's thread moves nothing.
    assert_eq!(
        w.games
            .threads
            .thread_deleted(Place::new(10, 99))
            .await
            .unwrap(),
        None
    );
    let game = w.games.play.game(id).await.unwrap();
    assert_eq!((game.place, game.thread_of), (PLACE, None));
    let owed = w
        .games
        .outbox
        .due_announcements(breakthrough_bot::game::Timestamp::MAX, 10)
        .await
        .unwrap();
    assert_eq!(owed.len(), 1);
    assert_eq!(owed[0].place, PLACE, "the board owed goes to the channel");
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Only, "a4-a3")
        .await
        .unwrap();
}

pub(super) async fn why_threads_were_refused_is_kept_until_a_game_gets_one(b: Backend) {
    let w = world(b).await;
    assert_eq!(
        w.games.threads.thread_trouble(PLACE.guild).await.unwrap(),
        None
    );
    w.games
        .threads
        .thread_refused(PLACE, ThreadRefusal::TooManyThreads)
        .await
        .unwrap();
    w.games
        .threads
        .thread_refused(PLACE, ThreadRefusal::MissingPermissions)
        .await
        .unwrap();
    // The latest refusal, of this server only.
    assert_eq!(
        w.games.threads.thread_trouble(PLACE.guild).await.unwrap(),
        Some(ThreadTrouble {
            channel: PLACE.channel,
            why: ThreadRefusal::MissingPermissions,
            at: T0,
        })
    );
    assert_eq!(
        w.games
            .threads
            .thread_trouble(Place::new(11, 30).guild)
            .await
            .unwrap(),
        None
    );
    // A game that gets its thread clears it.
    let id = started(&w).await;
    let game = w.games.play.game(id).await.unwrap();
    assert!(w
        .games
        .threads
        .thread_opened(&game, THREAD.channel)
        .await
        .unwrap());
    assert_eq!(
        w.games.threads.thread_trouble(PLACE.guild).await.unwrap(),
        None
    );
}
