//! The outbox: each announcement queued with the change it tells, the AI's announced replies,
//! and turn notifications that lapse with their turn.

use breakthrough_bot::engine::Level;
use breakthrough_bot::game::{
    AiRequest, ChallengeState, EndReason, GameRef, Limits, Member, Services, TimeControl, Timestamp,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::Color;
use breakthrough_bot::text::Plain;

use super::{
    alice, bob, carol, carol_and_bob_move, owed, request, result, started, started_between, world,
    PLACE, T0,
};
use crate::common::db::Backend;
use crate::common::secs;

pub(super) async fn the_sweep_queues_each_announcement_with_its_change(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "8x8"))
        .await
        .unwrap();
    let early = started(&w).await;
    let late = started_between(&w, &carol(), &bob()).await;
    carol_and_bob_move(&w, late).await;
    w.games.play.sweep(T0 + secs(49 * 60)).await.unwrap();
    let deadline = T0 + secs(3600);
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
    let reminders = w
        .games
        .outbox
        .due_announcements(Timestamp::MAX, 100)
        .await
        .unwrap();
    let first = reminders[0].announcement.clone().unwrap();
    assert!(matches!(
        w.games.outbox.announcement(&first).await.unwrap(),
        Some(Announced::Reminder { member, .. }) if member == alice().id
    ));
    for o in &reminders {
        w.games.outbox.announced(o.id).await.unwrap();
    }
    w.games.play.sweep(T0 + secs(3600)).await.unwrap();
    assert_eq!(
        owed(&w).await,
        [
            Announcement::ChallengeExpired { challenge: c.id },
            Announcement::TimedOut { game: early },
            Announcement::TimedOut { game: late }
        ]
    );
    assert!(matches!(
        w.games.outbox.announcement(&Announcement::TimedOut { game: late }).await.unwrap(),
        Some(Announced::TimedOut(g)) if result(&g) == Some((Some(Color::White), EndReason::Timeout))
    ));
    // Every service queues what its sweep did: the console reads the same outbox.
    let plain = Services::new(w.store.clone(), w.clock.clone(), Limits::default());
    let c2 = plain
        .challenges
        .challenge(request(&bob(), Some(&alice()), "5x5"))
        .await
        .unwrap();
    assert_eq!(plain.play.sweep(T0 + secs(10 * 3600)).await.unwrap(), 1);
    assert_eq!(
        plain.challenges.challenge_view(c2.id).await.unwrap().state,
        ChallengeState::Expired
    );
    let queued = owed(&w).await;
    assert_eq!(queued.len(), 4, "{queued:?}");
    assert_eq!(
        queued[3],
        Announcement::ChallengeExpired { challenge: c2.id }
    );
}

pub(super) async fn an_announced_ai_reply_is_queued_with_the_move(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    let game = w
        .games
        .challenges
        .challenge_ai(AiRequest {
            place: PLACE,
            challenger: alice(),
            ai: Member::new(4242, "the-ai"),
            level: Level::new(1).unwrap().into(),
            size: "5x5".parse().unwrap(),
            color: Some(Color::White),
            time: TimeControl::OneHour,
            reach: breakthrough_bot::game::Reach::Posts,
        })
        .await
        .unwrap();
    let played = w
        .games
        .play
        .ai_reply_announced(game.id)
        .await
        .unwrap()
        .unwrap();
    let queued = owed(&w).await;
    assert_eq!(
        queued,
        [Announcement::AiMoved {
            game: game.id,
            ply: 1
        }]
    );
    assert_eq!(
        w.games.outbox.announcement(&queued[0]).await.unwrap(),
        Some(Announced::AiMoved(played))
    );
    assert_eq!(w.store.moves(game.id).await.unwrap().len(), 1);
}

/// A member who asked for turn notifications has one queued with each move that makes it their
/// turn, with the game's start when they move first, and with each reminder; each reads as
/// nothing once the move is made or the setting is off, and a refusal by Discord turns the
/// setting off, to be told once.
pub(super) async fn turn_notifications_are_queued_with_the_change_and_lapse_with_it(b: Backend) {
    use breakthrough_bot::game::{Announced, Announcement};
    let w = world(b).await;
    w.games
        .settings
        .set_turn_dms(alice().id, true, Lang::Es)
        .await
        .unwrap();
    assert!(w.games.settings.turn_dms(alice().id).await.unwrap());
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
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    // Her move made, the first notification has nothing left to say; bob asked for none.
    assert_eq!(
        w.games.outbox.announcement(&turn(0, false)).await.unwrap(),
        None
    );
    assert_eq!(owed(&w).await, [turn(0, false)]);
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    assert_eq!(owed(&w).await, [turn(0, false), turn(2, false)]);
    match w.games.outbox.announcement(&turn(2, false)).await.unwrap() {
        Some(Announced::YourTurn {
            game, member, lang, ..
        }) => {
            assert_eq!((game.ply, member, lang), (2, alice().id, Lang::Es));
            let said = breakthrough_bot::text::your_turn(lang, &Plain, &game, member, false, T0);
            assert_eq!(
                said,
                "Te toca mover en la partida #1 contra bob: bob ha jugado c2-c3. Quedan 1 h 0 min."
            );
        }
        other => panic!("{other:?}"),
    }
    // The reminder comes with one too.
    w.clock.advance(secs(50 * 60));
    w.games.play.sweep(w.games.now()).await.unwrap();
    let queued = owed(&w).await;
    assert!(queued.contains(&turn(2, true)), "{queued:?}");
    // Discord refused one: the setting is off, the member is told once, and nothing more is
    // said.
    w.games.outbox.turn_dms_refused(alice().id).await.unwrap();
    assert!(!w.games.settings.turn_dms(alice().id).await.unwrap());
    assert_eq!(
        w.games.outbox.announcement(&turn(2, true)).await.unwrap(),
        None
    );
    assert!(w.games.outbox.take_dm_refusal(alice().id).await.unwrap());
    assert!(!w.games.outbox.take_dm_refusal(alice().id).await.unwrap());
}

/// Whether the outbox heard of something queued, without waiting for it longer than `within`.
async fn rung(w: &super::World, within: std::time::Duration) -> bool {
    tokio::time::timeout(within, w.games.outbox.queued())
        .await
        .is_ok()
}

pub(super) async fn the_outbox_hears_of_each_queued_announcement_as_its_write_commits(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    // Whatever starting the game queued is heard once; then the bell is quiet.
    rung(&w, secs(1)).await;
    assert!(!rung(&w, std::time::Duration::from_millis(200)).await);

    // Reads, and a sweep with nothing due, queue nothing and ring nothing.
    w.games.play.game(id).await.unwrap();
    w.games.play.sweep(T0 + secs(60)).await.unwrap();
    assert!(owed(&w).await.is_empty());
    assert!(!rung(&w, std::time::Duration::from_millis(200)).await);

    // A sweep that queues a reminder rings as it commits, with no front end telling anyone.
    w.games.play.sweep(T0 + secs(49 * 60)).await.unwrap();
    assert_eq!(owed(&w).await.len(), 1);
    assert!(rung(&w, secs(10)).await);
    assert!(!rung(&w, std::time::Duration::from_millis(200)).await);

    // So does a board handed to the outbox.
    let game = w.games.play.game(id).await.unwrap();
    w.games.outbox.board_owed(&game).await.unwrap();
    assert!(rung(&w, secs(10)).await);
}

/// The announcements due at `now`.
async fn due_at(w: &super::World, now: Timestamp) -> Vec<breakthrough_bot::game::Announcement> {
    w.games
        .outbox
        .due_announcements(now, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.announcement.expect("a readable announcement"))
        .collect()
}

pub(super) async fn a_turn_told_by_direct_message_waits_for_the_board_it_links_to(b: Backend) {
    use breakthrough_bot::game::{Announcement, MessageId};
    let w = world(b).await;
    w.games
        .settings
        .set_turn_dms(alice().id, true, Lang::En)
        .await
        .unwrap();
    let id = started(&w).await;
    let turn = |ply: u32, reminder: bool| Announcement::YourTurn {
        game: id,
        member: alice().id,
        ply,
        reminder,
    };
    // Queued with the game, but not due until the board it links to has a message.
    assert_eq!(owed(&w).await, [turn(0, false)]);
    assert_eq!(due_at(&w, T0 + secs(30)).await, []);
    rung(&w, secs(1)).await;
    // The board's message recorded, it is due at once, and the outbox hears of it.
    w.games
        .outbox
        .board_posted(id, MessageId::new(4242))
        .await
        .unwrap();
    assert_eq!(due_at(&w, T0).await, [turn(0, false)]);
    assert!(rung(&w, secs(10)).await);
    let owed_now = w.games.outbox.due_announcements(T0, 100).await.unwrap();
    for o in &owed_now {
        w.games.outbox.announced(o.id).await.unwrap();
    }
    // A board whose message is never known: the turn is told when it has waited a minute.
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    assert_eq!(due_at(&w, T0 + secs(59)).await, []);
    assert_eq!(due_at(&w, T0 + secs(60)).await, [turn(2, false)]);
    w.games
        .outbox
        .announced(
            w.games
                .outbox
                .due_announcements(T0 + secs(60), 100)
                .await
                .unwrap()[0]
                .id,
        )
        .await
        .unwrap();
    // A reminder links to a board already posted: it is due at once.
    w.clock.advance(secs(50 * 60));
    w.games.play.sweep(w.games.now()).await.unwrap();
    assert!(due_at(&w, w.games.now()).await.contains(&turn(2, true)));
}
