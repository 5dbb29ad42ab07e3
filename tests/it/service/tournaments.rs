//! Tournaments through the game service: what is refused (changing nothing), and a round robin
//! played to its end. The Swiss, the races and the repairs are in `tournament_rounds`.

use breakthrough_bot::game::{
    Announcement, EndReason, Error, Game, GameRef, Member, MemberId, Place, PlayRefusal,
    RoundGames, RoundNumber, TimeControl, TournamentFormat, TournamentId, TournamentRef,
    TournamentRefusal, TournamentRequest, TournamentState,
};
use breakthrough_bot::pairing::TieBreak;
use breakthrough_bot::rules::Color;

use super::{alice, bob, carol, refused, world, World, A_DM, OTHER_SERVER, PLACE};
use crate::common::db::Backend;
use crate::common::secs;

/// `n` members to enter, p1 to pn.
pub(super) fn members(n: u64) -> Vec<Member> {
    (1..=n)
        .map(|i| Member::new(2000 + i, format!("p{i}")))
        .collect()
}

/// A rated tournament on 3x5 with an hour per move, created in `place` by alice, who manages
/// the server.
pub(super) fn request(
    place: Place,
    format: TournamentFormat,
    rounds: Option<u32>,
) -> TournamentRequest {
    TournamentRequest {
        place,
        organizer: alice(),
        manages_server: true,
        name: "Spring cup".into(),
        format,
        size: "3x5".parse().expect("size"),
        time: TimeControl::OneHour,
        rated: true,
        rounds,
        max_players: None,
        starts_in: None,
    }
}

/// A tournament created in `place` by alice with `players` entered, in that order.
pub(super) async fn entered(
    w: &World,
    place: Place,
    format: TournamentFormat,
    rounds: Option<u32>,
    players: &[Member],
) -> TournamentId {
    let id = w
        .games
        .tournaments
        .create_tournament(request(place, format, rounds))
        .await
        .expect("create")
        .id;
    for p in players {
        w.games
            .tournaments
            .join_tournament(p, place, TournamentRef::Id(id))
            .await
            .expect("join");
    }
    id
}

/// Started by its organizer: round 1.
pub(super) async fn started(w: &World, place: Place, id: TournamentId) -> RoundGames {
    w.games
        .tournaments
        .start_tournament(&alice(), false, place, TournamentRef::Id(id))
        .await
        .expect("start")
}

/// `loser` resigns `game`.
pub(super) async fn lose(w: &World, game: &Game, loser: MemberId) {
    let color = game.color_of(loser).expect("a player of the game");
    let who = game.players[color].clone();
    w.games
        .play
        .resign(&who, game.place, GameRef::Id(game.id))
        .await
        .unwrap_or_else(|e| panic!("resign game {}: {e}", game.id));
}

/// The tournament announcements in the outbox about `id`: the rounds announced, in order, and
/// how many final standings.
pub(super) async fn news(w: &World, id: TournamentId) -> (Vec<u32>, usize) {
    let mut rounds = Vec::new();
    let mut ended = 0;
    for owed in w
        .games
        .outbox
        .due_announcements(breakthrough_bot::game::Timestamp::MAX, 10_000)
        .await
        .expect("outbox")
    {
        match owed.announcement {
            Ok(Announcement::TournamentRound { tournament, round }) if tournament == id => {
                rounds.push(round.get());
            }
            Ok(Announcement::TournamentEnded { tournament }) if tournament == id => ended += 1,
            _ => {}
        }
    }
    (rounds, ended)
}

/// Every game of the tournament's rounds so far.
pub(super) async fn all_games(w: &World, id: TournamentId) -> Vec<Game> {
    let t = w
        .games
        .tournaments
        .tournament(id)
        .await
        .expect("tournament");
    let mut games = Vec::new();
    for round in (1..=t.round.get()).map(RoundNumber::new) {
        games.extend(
            w.games
                .tournaments
                .round_games(id, round)
                .await
                .expect("round")
                .games,
        );
    }
    games
}

pub(super) async fn create_refusals(b: Backend) {
    let w = world(b).await;
    let rr = TournamentFormat::RoundRobin;
    let swiss = TournamentFormat::Swiss;
    let mut no_right = request(PLACE, rr, None);
    no_right.manages_server = false;
    refused!(
        w.games.tournaments.create_tournament(no_right).await,
        TournamentRefusal::NeedsManageServer
    );
    refused!(
        w.games
            .tournaments
            .create_tournament(request(A_DM, rr, None))
            .await,
        TournamentRefusal::InDirect
    );
    let mut too_many = request(PLACE, rr, None);
    too_many.max_players = Some(33);
    refused!(
        w.games.tournaments.create_tournament(too_many).await,
        TournamentRefusal::Players {
            format: TournamentFormat::RoundRobin,
            max: 32
        }
    );
    let mut too_many = request(PLACE, swiss, None);
    too_many.max_players = Some(129);
    refused!(
        w.games.tournaments.create_tournament(too_many).await,
        TournamentRefusal::Players {
            format: TournamentFormat::Swiss,
            max: 128
        }
    );
    refused!(
        w.games
            .tournaments
            .create_tournament(request(PLACE, rr, Some(3)))
            .await,
        TournamentRefusal::RoundsOnlySwiss
    );
    assert!(w
        .games
        .tournaments
        .tournaments_in(PLACE.guild)
        .await
        .unwrap()
        .is_empty());

    // The caps themselves are taken.
    let mut most = request(PLACE, rr, None);
    most.max_players = Some(32);
    assert_eq!(
        w.games
            .tournaments
            .create_tournament(most)
            .await
            .unwrap()
            .max_players,
        32
    );
    let mut most = request(PLACE, swiss, Some(3));
    most.max_players = Some(128);
    assert_eq!(
        w.games
            .tournaments
            .create_tournament(most)
            .await
            .unwrap()
            .max_players,
        128
    );
    w.games
        .tournaments
        .create_tournament(request(PLACE, swiss, None))
        .await
        .unwrap();
    // A fourth live one in the server is refused; another server has its own three.
    refused!(
        w.games
            .tournaments
            .create_tournament(request(PLACE, swiss, None))
            .await,
        TournamentRefusal::Limit(3)
    );
    assert_eq!(
        w.games
            .tournaments
            .tournaments_in(PLACE.guild)
            .await
            .unwrap()
            .len(),
        3
    );
    w.games
        .tournaments
        .create_tournament(request(OTHER_SERVER, swiss, None))
        .await
        .unwrap();
}

pub(super) async fn entry_and_start_refusals(b: Backend) {
    let w = world(b).await;
    let id = entered(&w, PLACE, TournamentFormat::Swiss, None, &[bob()]).await;
    let which = TournamentRef::Id(id);
    let before = w.games.tournaments.tournament(id).await.unwrap();
    refused!(
        w.games
            .tournaments
            .join_tournament(&bob(), PLACE, which)
            .await,
        TournamentRefusal::AlreadyIn
    );
    refused!(
        w.games
            .tournaments
            .leave_tournament(&carol(), PLACE, which)
            .await,
        TournamentRefusal::NotIn
    );
    refused!(
        w.games.tournaments.withdraw(&bob(), PLACE, which).await,
        TournamentRefusal::NotStarted
    );
    w.games
        .tournaments
        .join_tournament(&carol(), PLACE, which)
        .await
        .unwrap();
    refused!(
        w.games
            .tournaments
            .start_tournament(&alice(), false, PLACE, which)
            .await,
        TournamentRefusal::TooFew(2)
    );
    let with_two = w.games.tournaments.tournament(id).await.unwrap();
    assert_eq!(with_two.state, TournamentState::Open);
    assert_eq!(with_two.entrants.len(), before.entrants.len() + 1);
    let dave = Member::new(1004, "dave");
    w.games
        .tournaments
        .join_tournament(&dave, PLACE, which)
        .await
        .unwrap();
    refused!(
        w.games
            .tournaments
            .start_tournament(&bob(), false, PLACE, which)
            .await,
        TournamentRefusal::NotOrganizer
    );
    let with_three = w.games.tournaments.tournament(id).await.unwrap();
    assert_eq!(
        (with_three.state, with_three.round.get()),
        (TournamentState::Open, 0)
    );
    assert_eq!(news(&w, id).await, (vec![], 0));

    // A member who manages the server may start it for its organizer.
    let round = w
        .games
        .tournaments
        .start_tournament(&bob(), true, PLACE, which)
        .await
        .unwrap();
    let running = w.games.tournaments.tournament(id).await.unwrap();
    refused!(
        w.games
            .tournaments
            .join_tournament(&Member::new(1005, "erin"), PLACE, which)
            .await,
        TournamentRefusal::AlreadyStarted
    );
    refused!(
        w.games
            .tournaments
            .leave_tournament(&bob(), PLACE, which)
            .await,
        TournamentRefusal::AlreadyStarted
    );
    let game = round.games[0].clone();
    let player = game.players[Color::Black].clone();
    refused!(
        w.games
            .play
            .abort(&player, PLACE, GameRef::Id(game.id))
            .await,
        PlayRefusal::NoAbortInTournament
    );
    assert_eq!(w.games.tournaments.tournament(id).await.unwrap(), running);
    assert!(w.games.play.game(game.id).await.unwrap().is_active());
}

/// Five players, every pair once: the games are made at the start, each with White and Black
/// twice; alice, bob and carol beat each other in a circle and dave and erin, who lost to them
/// all, play each other; the last game, alice's and bob's, is lost on time, which decides the
/// three tied at the top.
pub(super) async fn a_round_robin_of_five_is_played_to_its_end(b: Backend) {
    let w = world(b).await;
    let players = members(5);
    let id = entered(&w, PLACE, TournamentFormat::RoundRobin, None, &players).await;
    let round = started(&w, PLACE, id).await;
    assert_eq!(round.round.get(), 1);
    assert_eq!(round.bye, None);
    assert_eq!(round.games.len(), 10);
    let mut pairs: Vec<(MemberId, MemberId)> = round
        .games
        .iter()
        .map(|g| {
            let (a, b) = (g.players[Color::Black].id, g.players[Color::White].id);
            (a.min(b), a.max(b))
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 10, "every pair exactly once");
    for p in &players {
        let games: Vec<&Game> = round.games_of(p.id).collect();
        let white = games
            .iter()
            .filter(|g| g.color_of(p.id) == Some(Color::White))
            .count();
        assert_eq!((games.len(), white), (4, 2), "{:?}'s colours", p.name);
    }
    for g in &round.games {
        let tag = g.tournament.as_ref().expect("a tournament game");
        assert_eq!(
            (tag.id, tag.name.as_str(), tag.round.get()),
            (id, "Spring cup", 1)
        );
        assert_eq!(g.place, PLACE);
    }
    assert_eq!(news(&w, id).await, (vec![1], 0));

    // The top three: p1, p2, p3 in a circle, the one timed out decided by the clock; both
    // beat p4 and p5; p4 beats p5.
    let [p1, p2, p3, p4, p5] = [0, 1, 2, 3, 4].map(|i| players[i].id);
    let between = |a: MemberId, b: MemberId| {
        round
            .games
            .iter()
            .find(|g| g.color_of(a).is_some() && g.color_of(b).is_some())
            .expect("their game")
            .clone()
    };
    // p1 and p2's game is lost on time by the side to move, Black.
    let last = between(p1, p2);
    let timed_out = last.players[Color::Black].id;
    let (top_winner, top_loser) = if timed_out == p2 { (p1, p2) } else { (p2, p1) };
    // The circle: top_winner beats top_loser (on time), top_loser beats p3, p3 beats top_winner.
    let mut losses = vec![(p3, top_loser), (top_winner, p3)];
    for top in [p1, p2, p3] {
        losses.push((p4, top));
        losses.push((p5, top));
    }
    losses.push((p5, p4));
    for (i, (loser, winner)) in losses.iter().enumerate() {
        let game = between(*loser, *winner);
        lose(&w, &game, *loser).await;
        let t = w.games.tournaments.tournament(id).await.unwrap();
        assert_eq!(
            (t.state, t.round.get()),
            (TournamentState::Running, 1),
            "after {i}"
        );
    }
    assert_eq!(news(&w, id).await, (vec![1], 0), "nothing ends early");
    let table = w.games.tournaments.table(id).await.unwrap();
    let p1_line = table.lines.iter().find(|l| l.member.id == p1).unwrap();
    assert_eq!((p1_line.played, p1_line.left), (3, Some(1)));

    w.clock.advance(secs(3_601));
    w.games.play.sweep(w.games.now()).await.unwrap();
    let last = w.games.play.game(last.id).await.unwrap();
    assert_eq!(last.status.reason(), Some(EndReason::Timeout));
    assert_eq!(last.status.winner(), last.color_of(top_winner));

    let table = w.games.tournaments.table(id).await.unwrap();
    assert_eq!(table.tournament.state, TournamentState::Finished);
    let order: Vec<MemberId> = table.lines.iter().map(|l| l.member.id).collect();
    // The three on 3 points each beat one of the others (direct encounter 1 each) and p4 and p5
    // (Sonneborn-Berger 3 + 1 + 0): fewer losses on time ranks them, then the seeding (entry).
    let (first, second) = if top_loser == p1 { (p2, p3) } else { (p1, p3) };
    assert_eq!(order, [first, second, top_loser, p4, p5]);
    let points: Vec<u32> = table.lines.iter().map(|l| l.points).collect();
    assert_eq!(points, [3, 3, 3, 1, 0]);
    for line in &table.lines[..3] {
        let on_time = u32::from(line.member.id == top_loser);
        assert_eq!(
            line.tie_breaks,
            [
                TieBreak::DirectEncounter(1),
                TieBreak::SonnebornBerger(4),
                TieBreak::LostOnTime(on_time)
            ],
            "{:?}",
            line.member.name
        );
    }
    assert_eq!(
        table.lines[3].tie_breaks,
        [
            TieBreak::DirectEncounter(0),
            TieBreak::SonnebornBerger(0),
            TieBreak::LostOnTime(0)
        ]
    );
    for (rank, line) in table.lines.iter().enumerate() {
        assert_eq!(line.rank as usize, rank + 1);
        assert_eq!((line.played, line.left), (4, Some(0)));
    }
    assert_eq!(table.winner().map(|m| m.id), Some(first));
    assert_eq!(news(&w, id).await, (vec![1], 1));

    // Over: nothing more is taken, and another sweep announces nothing.
    w.games.play.sweep(w.games.now()).await.unwrap();
    assert_eq!(news(&w, id).await, (vec![1], 1));
    refused!(
        w.games
            .tournaments
            .withdraw(&players[0], PLACE, TournamentRef::Id(id))
            .await,
        TournamentRefusal::Over
    );
}

/// Ten tournaments created in one server at the same moment: three are, the others are refused
/// for the server's limit.
pub(super) async fn tournaments_created_at_once_keep_to_the_servers_limit(b: Backend) {
    let w = world(b).await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let games = w.games.clone();
        tasks.push(tokio::spawn(async move {
            games
                .tournaments
                .create_tournament(request(PLACE, TournamentFormat::Swiss, None))
                .await
        }));
    }
    let mut created = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => created += 1,
            Err(Error::Refused(TournamentRefusal::Limit(3))) => {}
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
    assert_eq!(created, 3);
    assert_eq!(
        w.games
            .tournaments
            .tournaments_in(PLACE.guild)
            .await
            .unwrap()
            .len(),
        3
    );
}
