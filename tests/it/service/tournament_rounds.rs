//! Swiss tournaments through the game service: a whole one with a withdrawal, a time-out and a
//! vacation; two last games of a round ending at once; and a round owed after a crash, paired
//! by the sweep of a new service.

use std::collections::BTreeSet;

use breakthrough_bot::game::{
    EndReason, Game, GameRef, GameStatus, Limits, MemberId, Place, RoundNumber, Services,
    TournamentFormat, TournamentId, TournamentRef, TournamentState,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;

use super::tournaments::{all_games, entered, lose, members, news, started};
use super::{alice, world, World, PLACE};
use crate::common::db::{execute, Backend};
use crate::common::secs;

/// Both players of `game`, by id, smaller first.
fn pair(game: &Game) -> (MemberId, MemberId) {
    let (a, b) = (game.players[Color::Black].id, game.players[Color::White].id);
    (a.min(b), a.max(b))
}

/// The tournament's round and state now.
async fn at(w: &World, id: TournamentId) -> (u32, TournamentState) {
    let t = w.games.tournaments.tournament(id).await.unwrap();
    (t.round.get(), t.state)
}

/// Seven players, three rounds. Round 1 is paired at the start, with a bye for the last seed;
/// its last game is lost on time at the sweep, which pairs round 2. In round 2 a player takes a
/// vacation (their clock waits), and another withdraws (their game is lost, unrated, and they
/// are paired no more); the vacationer's game ends last and pairs round 3. No one meets anyone
/// twice, each round is paired once, and the tournament ends after round 3 with one final post.
pub(super) async fn a_swiss_of_seven_with_a_withdrawal_a_time_out_and_a_vacation(b: Backend) {
    let w = world(b).await;
    let players = members(7);
    let id = entered(&w, PLACE, TournamentFormat::Swiss, Some(3), &players).await;
    let one = started(&w, PLACE, id).await;
    assert_eq!((one.round.get(), one.games.len()), (1, 3));
    assert_eq!(one.bye.as_ref().map(|m| m.id), Some(players[6].id));
    for g in &one.games {
        let tag = g.tournament.as_ref().expect("a tournament game");
        assert_eq!(
            (tag.id, tag.name.as_str(), tag.round.get()),
            (id, "Spring cup", 1)
        );
    }
    assert_eq!(news(&w, id).await, (vec![1], 0));

    // Round 1: two resignations (the Black player loses), then the last game on time.
    for g in &one.games[..2] {
        lose(&w, g, g.players[Color::Black].id).await;
        assert_eq!(at(&w, id).await, (1, TournamentState::Running));
    }
    w.clock.advance(secs(3_601));
    w.games.play.sweep(w.games.now()).await.unwrap();
    let timed_out = w.games.play.game(one.games[2].id).await.unwrap();
    assert_eq!(timed_out.status.reason(), Some(EndReason::Timeout));
    assert_eq!(timed_out.status.winner(), Some(Color::White));
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));
    assert_eq!(news(&w, id).await, (vec![1, 2], 0));

    let two = w
        .games
        .tournaments
        .round_games(id, RoundNumber::new(2))
        .await
        .unwrap();
    assert_eq!(two.games.len(), 3);
    let bye = two.bye.as_ref().expect("a bye in round 2").id;
    assert_ne!(bye, players[6].id, "a second bye for the same player");
    // The vacationer is the Black player (to move) of the last game; the one who withdraws is
    // the White player of the first, after both have moved, so that a loss would be rated.
    let [withdrawn_game, resigned, paused] = [0, 1, 2].map(|i| two.games[i].clone());
    let away = paused.players[Color::Black].clone();
    let leaver = withdrawn_game.players[Color::White].clone();
    let stayer = withdrawn_game.players[Color::Black].clone();
    let vacation = w.games.play.vacation(&away, 3).await.unwrap();
    assert!(vacation.started);
    let paused_now = w.games.play.game(paused.id).await.unwrap();
    assert!(paused_now.status.deadline() > paused.status.deadline());
    w.games
        .play
        .play(&stayer, PLACE, GameRef::Id(withdrawn_game.id), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .play(&leaver, PLACE, GameRef::Id(withdrawn_game.id), "c2-c3")
        .await
        .unwrap();
    lose(&w, &resigned, resigned.players[Color::White].id).await;
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));

    let (_, lost) = w
        .games
        .tournaments
        .withdraw(&leaver, PLACE, TournamentRef::Only)
        .await
        .unwrap();
    assert_eq!(
        lost.iter().map(|g| g.id).collect::<Vec<_>>(),
        [withdrawn_game.id]
    );
    let forfeited = w.games.play.game(withdrawn_game.id).await.unwrap();
    assert_eq!(forfeited.status.winner(), Some(Color::Black));
    assert_eq!(
        forfeited.status.rating_change(),
        None,
        "a forfeit is unrated"
    );
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));

    // Two hours on, the vacationer's clock has waited: the game goes on, round 3 waits for it.
    w.clock.advance(secs(7_200));
    w.games.play.sweep(w.games.now()).await.unwrap();
    assert!(w.games.play.game(paused.id).await.unwrap().is_active());
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));
    assert_eq!(news(&w, id).await, (vec![1, 2], 0));
    // Back and moving; then their opponent resigns, the round's last game.
    w.games
        .play
        .play(&away, PLACE, GameRef::Id(paused.id), "a4-a3")
        .await
        .unwrap();
    lose(&w, &paused, paused.players[Color::White].id).await;
    assert_eq!(at(&w, id).await, (3, TournamentState::Running));
    assert_eq!(news(&w, id).await, (vec![1, 2, 3], 0));

    let three = w
        .games
        .tournaments
        .round_games(id, RoundNumber::new(3))
        .await
        .unwrap();
    assert_eq!((three.games.len(), three.bye.clone()), (3, None));
    assert_eq!(
        three.games_of(leaver.id).count(),
        0,
        "the withdrawn are not paired"
    );
    let table = w.games.tournaments.table(id).await.unwrap();
    let line = table
        .lines
        .iter()
        .find(|l| l.member.id == leaver.id)
        .unwrap();
    assert!(line.withdrawn);
    for g in &three.games {
        lose(&w, g, g.players[Color::Black].id).await;
    }
    assert_eq!(at(&w, id).await, (3, TournamentState::Finished));
    assert_eq!(news(&w, id).await, (vec![1, 2, 3], 1));

    // Nine games, no pair twice; 9 wins and 2 byes in the table; the winner leads it.
    let games = all_games(&w, id).await;
    assert_eq!(games.len(), 9);
    let pairs: BTreeSet<_> = games.iter().map(pair).collect();
    assert_eq!(pairs.len(), 9, "a rematch");
    assert!(games.iter().all(|g| !g.is_active()));
    let table = w.games.tournaments.table(id).await.unwrap();
    assert_eq!(table.lines.iter().map(|l| l.points).sum::<u32>(), 11);
    assert!(table.lines.windows(2).all(|l| l[0].points >= l[1].points));
    assert_eq!(table.winner(), Some(&table.lines[0].member));

    // A sweep afterwards changes nothing.
    w.games.play.sweep(w.games.now()).await.unwrap();
    assert_eq!(news(&w, id).await, (vec![1, 2, 3], 1));
}

/// The two games of a four-player Swiss's round 1 resigned at the same moment: round 2 is
/// paired once. Done in several servers, each a race of its own.
pub(super) async fn two_last_games_ending_at_once_pair_the_next_round_once(b: Backend) {
    let w = world(b).await;
    for server in 0..4 {
        let place = Place::new(500 + server, 20);
        let id = entered(&w, place, TournamentFormat::Swiss, Some(2), &members(4)).await;
        let one = started(&w, place, id).await;
        assert_eq!(one.games.len(), 2);
        let (g1, g2) = (&one.games[0], &one.games[1]);
        tokio::join!(
            lose(&w, g1, g1.players[Color::Black].id),
            lose(&w, g2, g2.players[Color::White].id),
        );
        assert_eq!(at(&w, id).await, (2, TournamentState::Running));
        assert_eq!(
            w.games
                .tournaments
                .round_games(id, RoundNumber::new(2))
                .await
                .unwrap()
                .games
                .len(),
            2
        );
        assert_eq!(news(&w, id).await, (vec![1, 2], 0), "server {server}");
    }
}

/// Round 1's last result written behind the service's back, as a crash between the result and
/// its step would leave it: a new service's sweep pairs round 2 once; a second sweep, and a
/// third service's, do nothing. Then the tournament's last result, likewise: the sweep ends it.
pub(super) async fn a_round_owed_after_a_crash_is_paired_once_by_the_sweep(b: Backend) {
    let w = world(b).await;
    let id = entered(&w, PLACE, TournamentFormat::Swiss, Some(2), &members(4)).await;
    let one = started(&w, PLACE, id).await;
    lose(&w, &one.games[0], one.games[0].players[Color::Black].id).await;
    let end_behind = |game: &Game| {
        let (url, game, now) = (w.url.clone(), game.id.get(), w.games.now().unix_seconds());
        async move {
            let changed = execute(
                &url,
                "UPDATE games SET state = 'finished', winner = 'white',
                     end_reason = 'resignation', finished_at = $2
                 WHERE id = $1",
                &[game, now],
            )
            .await;
            assert_eq!(changed, 1);
        }
    };
    end_behind(&one.games[1]).await;
    assert_eq!(
        at(&w, id).await,
        (1, TournamentState::Running),
        "no step ran"
    );

    let fresh = || async {
        let store = Store::open(&w.url).await.unwrap();
        Services::new(store, w.clock.clone(), Limits::default())
    };
    let second = fresh().await;
    second.play.sweep(second.now()).await.unwrap();
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));
    assert_eq!(
        w.games
            .tournaments
            .round_games(id, RoundNumber::new(2))
            .await
            .unwrap()
            .games
            .len(),
        2
    );
    assert_eq!(news(&w, id).await, (vec![1, 2], 0));
    second.play.sweep(second.now()).await.unwrap();
    fresh().await.play.sweep(second.now()).await.unwrap();
    assert_eq!(all_games(&w, id).await.len(), 4);
    assert_eq!(news(&w, id).await, (vec![1, 2], 0));

    // Round 2, the last: one result through the service, the other behind its back.
    let two = w
        .games
        .tournaments
        .round_games(id, RoundNumber::new(2))
        .await
        .unwrap();
    lose(&w, &two.games[0], two.games[0].players[Color::Black].id).await;
    end_behind(&two.games[1]).await;
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));
    second.play.sweep(second.now()).await.unwrap();
    assert_eq!(at(&w, id).await, (2, TournamentState::Finished));
    second.play.sweep(second.now()).await.unwrap();
    assert_eq!(news(&w, id).await, (vec![1, 2], 1));
}

/// A four-player Swiss whose players withdraw one by one: a withdrawal that ends a round pairs
/// the next at once, the withdrawn are paired no more, and with one player left it ends.
pub(super) async fn withdrawals_pair_the_next_round_and_end_a_swiss_left_with_one(b: Backend) {
    let w = world(b).await;
    let players = members(4);
    let id = entered(&w, PLACE, TournamentFormat::Swiss, Some(4), &players).await;
    let one = started(&w, PLACE, id).await;
    lose(&w, &one.games[0], one.games[0].players[Color::Black].id).await;
    let first_out = one.games[1].players[Color::White].clone();
    w.games
        .tournaments
        .withdraw(&first_out, PLACE, TournamentRef::Id(id))
        .await
        .unwrap();
    assert_eq!(at(&w, id).await, (2, TournamentState::Running));
    let two = w
        .games
        .tournaments
        .round_games(id, RoundNumber::new(2))
        .await
        .unwrap();
    assert_eq!(two.games.len(), 1);
    let bye = two.bye.clone().expect("three left: a bye");
    assert_ne!(bye.id, first_out.id);
    assert_eq!(two.games_of(first_out.id).count(), 0);

    // One of round 2's players withdraws: round 3 pairs the two left.
    let second_out = two.games[0].players[Color::Black].clone();
    w.games
        .tournaments
        .withdraw(&second_out, PLACE, TournamentRef::Id(id))
        .await
        .unwrap();
    assert_eq!(at(&w, id).await, (3, TournamentState::Running));
    let three = w
        .games
        .tournaments
        .round_games(id, RoundNumber::new(3))
        .await
        .unwrap();
    assert_eq!((three.games.len(), three.bye.clone()), (1, None));
    let last = three.games[0].players[Color::White].clone();
    w.games
        .tournaments
        .withdraw(&last, PLACE, TournamentRef::Id(id))
        .await
        .unwrap();
    // One player left: no fourth round; it is over.
    assert_eq!(at(&w, id).await, (3, TournamentState::Finished));
    assert_eq!(news(&w, id).await, (vec![1, 2, 3], 1));
    let table = w.games.tournaments.table(id).await.unwrap();
    let winner = table.winner().expect("a winner").id;
    assert!(![first_out.id, second_out.id, last.id].contains(&winner));
}

/// A round robin: a withdrawal forfeits every game left of the player (unrated); the others
/// play on to the end. Another, cancelled, lets its games go on as ordinary games, and their
/// ends step it no more.
pub(super) async fn a_round_robin_withdrawal_forfeits_the_rest_and_a_cancelled_one_plays_on(
    b: Backend,
) {
    let w = world(b).await;
    let players = members(4);
    let id = entered(&w, PLACE, TournamentFormat::RoundRobin, None, &players).await;
    let round = started(&w, PLACE, id).await;
    assert_eq!(round.games.len(), 6);
    let (_, lost) = w
        .games
        .tournaments
        .withdraw(&players[0], PLACE, TournamentRef::Id(id))
        .await
        .unwrap();
    assert_eq!(lost.len(), 3);
    for g in &lost {
        assert_eq!(
            g.status.winner(),
            g.color_of(players[0].id).map(Color::opposite)
        );
        assert_eq!(g.status.rating_change(), None);
    }
    let table = w.games.tournaments.table(id).await.unwrap();
    let out = table
        .lines
        .iter()
        .find(|l| l.member.id == players[0].id)
        .unwrap();
    assert!(out.withdrawn);
    assert_eq!((out.points, out.played, out.left), (0, 3, Some(0)));
    for g in round
        .games_of(players[1].id)
        .filter(|g| g.color_of(players[0].id).is_none())
    {
        lose(&w, g, players[1].id).await;
    }
    assert_eq!(at(&w, id).await, (1, TournamentState::Running));
    let left = round
        .games
        .iter()
        .find(|g| g.color_of(players[2].id).is_some() && g.color_of(players[3].id).is_some())
        .unwrap();
    lose(&w, left, players[3].id).await;
    assert_eq!(at(&w, id).await, (1, TournamentState::Finished));
    assert_eq!(news(&w, id).await, (vec![1], 1));
    let table = w.games.tournaments.table(id).await.unwrap();
    assert_eq!(table.winner().map(|m| m.id), Some(players[2].id));

    // Cancelled with its games in progress: they go on, and end as ordinary games.
    let there = Place::new(600, 20);
    let other = entered(&w, there, TournamentFormat::RoundRobin, None, &members(3)).await;
    let round = started(&w, there, other).await;
    w.games
        .tournaments
        .cancel_tournament(&alice(), false, there, TournamentRef::Id(other))
        .await
        .unwrap();
    assert_eq!(at(&w, other).await, (1, TournamentState::Cancelled));
    // Ordinary games: the first, not begun, may be aborted as any game may.
    let (first, rest) = round.games.split_first().unwrap();
    let aborted = w
        .games
        .play
        .abort(
            &first.players[Color::Black],
            first.place,
            GameRef::Id(first.id),
        )
        .await
        .unwrap();
    assert_eq!(
        aborted.status,
        GameStatus::Aborted {
            reason: EndReason::Aborted
        }
    );
    for g in rest {
        assert!(w.games.play.game(g.id).await.unwrap().is_active());
        lose(&w, g, g.players[Color::Black].id).await;
    }
    assert_eq!(at(&w, other).await, (1, TournamentState::Cancelled));
    assert_eq!(news(&w, other).await, (vec![1], 0));
}

/// A tournament with a start time is started by the sweep once the time comes; one with fewer
/// than 3 entrants then is cancelled, and says so once.
pub(super) async fn the_sweep_starts_a_tournament_at_its_time_or_cancels_it(b: Backend) {
    let w = world(b).await;
    let mut timed = super::tournaments::request(PLACE, TournamentFormat::Swiss, None);
    timed.starts_in = Some(secs(86_400));
    let id = w
        .games
        .tournaments
        .create_tournament(timed.clone())
        .await
        .unwrap()
        .id;
    let players = members(5);
    for p in &players {
        w.games
            .tournaments
            .join_tournament(p, PLACE, TournamentRef::Id(id))
            .await
            .unwrap();
    }
    let there = Place::new(700, 20);
    timed.place = there;
    let few = w
        .games
        .tournaments
        .create_tournament(timed)
        .await
        .unwrap()
        .id;
    for p in &players[..2] {
        w.games
            .tournaments
            .join_tournament(p, there, TournamentRef::Id(few))
            .await
            .unwrap();
    }
    w.clock.advance(secs(86_399));
    w.games.play.sweep(w.games.now()).await.unwrap();
    assert_eq!(at(&w, id).await, (0, TournamentState::Open));
    assert_eq!(at(&w, few).await, (0, TournamentState::Open));
    w.clock.advance(secs(1));
    w.games.play.sweep(w.games.now()).await.unwrap();
    w.games.play.sweep(w.games.now()).await.unwrap();
    let t = w.games.tournaments.tournament(id).await.unwrap();
    // Five players: ⌈log2 5⌉ + 1 rounds, fixed at the start.
    assert_eq!(
        (t.round.get(), t.state, t.rounds),
        (1, TournamentState::Running, Some(4))
    );
    assert_eq!(
        w.games
            .tournaments
            .round_games(id, RoundNumber::new(1))
            .await
            .unwrap()
            .games
            .len(),
        2
    );
    assert_eq!(news(&w, id).await, (vec![1], 0));
    assert_eq!(at(&w, few).await, (0, TournamentState::Cancelled));
    let cancelled = w
        .games
        .outbox
        .due_announcements(breakthrough_bot::game::Timestamp::MAX, 1_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|o| {
            o.announcement
                == Ok(breakthrough_bot::game::Announcement::TournamentCancelled { tournament: few })
        })
        .count();
    assert_eq!(cancelled, 1);
}
