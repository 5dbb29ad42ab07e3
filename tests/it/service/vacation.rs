//! Vacations: only the member's clocks wait, through another process too, within the yearly
//! allowance.

use std::time::Duration;

use breakthrough_bot::game::{GameId, GameRef, Limits, Member, PlayRefusal, Services};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;
use breakthrough_bot::text::Plain;

use super::{alice, bob, carol, deadline, request, started, started_between, world, PLACE, T0};
use crate::common::db::Backend;
use crate::common::secs;
use crate::common::swept::swept;

const DAY: Duration = secs(86_400);
const HOUR: Duration = secs(3_600);

/// A vacation pauses the member's clocks in every game, and only theirs; a turn reaching them
/// meanwhile gets its full time from their return; moving ends it and gives back the days not
/// taken.
pub(super) async fn a_vacation_pauses_only_the_members_clocks_and_moving_ends_it(b: Backend) {
    let w = world(b).await;
    // alice (Black) is to move against bob; carol (Black) is to move against alice.
    let first = started(&w).await;
    let second = started_between(&w, &carol(), &alice()).await;
    w.clock.advance(secs(600));
    let before = deadline(&w.games.play.game(first).await.unwrap());
    let change = w.games.play.vacation(&alice(), 3).await.unwrap();
    let back = T0 + secs(600) + 3 * DAY;
    assert!(change.started);
    assert_eq!((change.until, change.days_left), (back, 18));
    assert_eq!(change.games.len(), 2);
    let g = w.games.play.game(first).await.unwrap();
    assert_eq!(deadline(&g), before + 3 * DAY);
    assert!(
        breakthrough_bot::text::status(Lang::En, &Plain, &g, w.games.now())
            .ends_with("alice is on vacation until 2027-01-18 08:10 UTC"),
        "{}",
        breakthrough_bot::text::status(Lang::En, &Plain, &g, w.games.now())
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
    assert!(w.games.play.game(first).await.unwrap().is_active());

    // alice moves: she is back, a day begun counts as taken, and bob has his usual hour.
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(first), "a4-a3")
        .await
        .unwrap();
    let g = w.games.play.game(first).await.unwrap();
    assert_eq!(g.away_until(Color::Black, w.games.now()), None);
    assert_eq!(deadline(&g), w.games.now() + HOUR);
    let again = w.games.play.vacation(&alice(), 0).await;
    assert!(
        again
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, PlayRefusal::NotOnVacation)),
        "{again:?}"
    );

    // bob goes away; alice's move hands him a turn that starts when he is back.
    w.games.play.vacation(&bob(), 1).await.unwrap();
    let bob_back = w.games.now() + DAY;
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(first), "c2-c3")
        .await
        .unwrap();
    // bob moved, so he is back at once: alice's turn runs as usual.
    let g = w.games.play.game(first).await.unwrap();
    assert_eq!(deadline(&g), w.games.now() + HOUR);
    w.games.play.vacation(&bob(), 1).await.unwrap();
    let bob_back_again = w.games.now() + DAY;
    assert!(bob_back_again >= bob_back);
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(first), "a3xb2")
        .await
        .unwrap();
    let g = w.games.play.game(first).await.unwrap();
    assert_eq!(deadline(&g), bob_back_again + HOUR);
    // bob ends it early: his deadline comes back by the time not taken.
    w.clock.advance(HOUR);
    let change = w.games.play.vacation(&bob(), 0).await.unwrap();
    assert!(!change.started);
    // The first vacation, ended by his move the moment it began, took nothing; this one a day.
    assert_eq!(change.days_left, 21 - 1);
    let g = w.games.play.game(first).await.unwrap();
    assert_eq!(deadline(&g), w.games.now() + HOUR);
}

/// Two processes on one database, as with gateway shards: a member's vacation taken through the
/// other process reaches the games this one serves within the age its memory of a game is trusted,
/// so their clock waits for them here too, and their move here ends it for both.
pub(super) async fn a_vacation_taken_through_another_process_reaches_the_games_this_one_serves(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    // alice (Black) moves: bob is to move, and this process remembers the game.
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    let before = deadline(&w.games.play.game(id).await.unwrap());
    let store = Store::open(&w.url).await.unwrap();
    let other = Services::new(store.clone(), w.clock.clone(), Limits::default());
    other.play.vacation(&bob(), 1).await.unwrap();
    tokio::time::sleep(
        breakthrough_bot::store::CACHE_MAX_AGE + std::time::Duration::from_millis(100),
    )
    .await;
    let g = w.games.play.game(id).await.unwrap();
    assert_eq!(deadline(&g), before + DAY);
    assert_eq!(g.away_until(Color::White, w.games.now()), Some(T0 + DAY));
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
    let again = other.play.vacation(&bob(), 0).await;
    assert!(
        again
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, PlayRefusal::NotOnVacation)),
        "{again:?}"
    );
    store.close().await;
}

/// The year's allowance, and the refusals: each says why and changes nothing.
pub(super) async fn vacations_keep_to_the_yearly_allowance_and_refuse_clearly(b: Backend) {
    let w = world(b).await;
    let id = started(&w).await;
    let before = deadline(&w.games.play.game(id).await.unwrap());
    let refused = w.games.play.vacation(&alice(), 22).await;
    assert!(
        refused.as_ref().is_err_and(|e| crate::is_refusal!(
            e,
            PlayRefusal::VacationDays {
                asked: 22,
                left: 21
            }
        )),
        "{refused:?}"
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "you have 21 vacation days left this year; ask for 1 to 21"
    );
    let refused = w.games.play.vacation(&alice(), -1).await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, PlayRefusal::VacationDays { .. })),
        "{refused:?}"
    );
    assert_eq!(deadline(&w.games.play.game(id).await.unwrap()), before);

    w.games.play.vacation(&alice(), 20).await.unwrap();
    let refused = w.games.play.vacation(&alice(), 1).await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, PlayRefusal::AlreadyOnVacation(_))),
        "{refused:?}"
    );
    // Back after two and a half days: three are taken, eighteen given back.
    w.clock.advance(2 * DAY + 12 * HOUR);
    let change = w.games.play.vacation(&alice(), 0).await.unwrap();
    assert_eq!(change.days_left, 18);
    let refused = w.games.play.vacation(&alice(), 19).await;
    assert!(
        refused.as_ref().is_err_and(|e| crate::is_refusal!(
            e,
            PlayRefusal::VacationDays {
                asked: 19,
                left: 18
            }
        )),
        "{refused:?}"
    );
    // A year after the first, its days are free again.
    w.clock.advance(365 * DAY);
    assert_eq!(
        w.games.play.vacation(&alice(), 21).await.unwrap().days_left,
        0
    );
    // A member who never played may go away too.
    let newcomer = Member::new(1099, "newcomer");
    let change = w.games.play.vacation(&newcomer, 2).await.unwrap();
    assert!(change.started && change.games.is_empty());
    // A challenge to a member on vacation is allowed, and says so.
    let c = w
        .games
        .challenges
        .challenge(request(&carol(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    let text = breakthrough_bot::text::challenge(Lang::En, &Plain, &c, w.games.now());
    assert!(text.contains(" · alice is on vacation until "), "{text}");
}
