//! Vote games: a channel plays the AI by its members' votes, each window closed once.

use std::time::Duration;

use breakthrough_bot::engine::Level;
use breakthrough_bot::game::{
    Against, Announcement, Clock, EndReason, Game, Member, Place, Services, TeamRefusal,
    TeamRequest, TimeControl, Timestamp,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;

use super::{alice, bob, carol, dave, deadline, owed, the_ai, world, World, PLACE};
use crate::common::db::Backend;
use crate::refused;

/// The channel of `PLACE` as the game's player.
fn the_channel() -> Member {
    Member::new(PLACE.channel.get(), "#general")
}

fn team_request(color: Color) -> TeamRequest {
    TeamRequest {
        place: PLACE,
        team: the_channel(),
        by: alice(),
        against: Against::Ai(the_ai(), Level::new(1).expect("level 1")),
        size: "5x5".parse().expect("size"),
        color: Some(color),
        window: TimeControl::TenMinutes,
    }
}

/// `who`'s vote for `mv` in the vote game of `PLACE`, counted.
async fn vote(w: &World, who: &Member, mv: &str) -> breakthrough_bot::game::Voted {
    vote_in(w, who, PLACE, mv).await
}

/// `who`'s vote for `mv` in the vote game of `place`, counted.
async fn vote_in(w: &World, who: &Member, place: Place, mv: &str) -> breakthrough_bot::game::Voted {
    w.games
        .teams
        .vote(who, place, None, mv)
        .await
        .unwrap_or_else(|e| panic!("{:?} votes {mv}: {e}", who.name))
}

async fn game(w: &World, g: &Game) -> Game {
    w.games.play.game(g.id).await.expect("the game")
}

/// Moves the clock just past the window of `g` and sweeps.
async fn close(w: &World, g: &Game) -> Game {
    let now = game(w, g).await;
    w.clock.set(deadline(&now));
    w.games.play.sweep(w.clock.now()).await.expect("sweep");
    game(w, g).await
}

pub(super) async fn a_vote_game_is_played_by_its_channels_votes_to_its_end_with_credits(
    b: Backend,
) {
    let w = world(b).await;
    let g = w
        .games
        .teams
        .start(team_request(Color::Black))
        .await
        .expect("a vote game");
    assert_eq!(g.players.black.name.as_str(), "#general");
    assert!(!g.rated);
    assert_eq!(g.ply, 0);

    // A window: votes, one changed. The leader is played with its count when it closes.
    let v = vote(&w, &alice(), "a4-a3").await;
    assert!(!v.changed);
    assert_eq!(v.tally.voters, 1);
    w.clock.advance(Duration::from_secs(1));
    vote(&w, &bob(), "b4-b3").await;
    w.clock.advance(Duration::from_secs(1));
    vote(&w, &carol(), "b4-b3").await;
    w.clock.advance(Duration::from_secs(1));
    let v = vote(&w, &bob(), "a4-a3").await;
    assert!(v.changed);
    assert_eq!(v.tally.voters, 3);
    assert_eq!(
        v.tally
            .moves
            .iter()
            .map(|(m, n)| (m.to_string(), *n))
            .collect::<Vec<_>>(),
        [("a4-a3".to_string(), 2), ("b4-b3".to_string(), 1)]
    );
    let after = close(&w, &g).await;
    // The channel's move, then the AI's answer at once: the channel's window is open again.
    assert_eq!(after.ply, 2, "{after:?}");
    let moves = w.store.moves(g.id).await.unwrap();
    assert_eq!(moves[0].notation, "a4-a3");
    let said = owed(&w).await;
    assert!(said.contains(&Announcement::TeamMoved {
        game: g.id,
        ply: 1,
        mv: "a4-a3".to_string(),
        votes: 2,
        voters: 3,
    }));
    // The AI's answer is told in the same post: no post of its own.
    assert!(!said
        .iter()
        .any(|a| matches!(a, Announcement::AiMoved { .. })));
    // The next window lasts ten minutes from the AI's move.
    assert_eq!(deadline(&after), w.clock.now() + Duration::from_secs(600));

    // A tie: two votes each; the move that reached two first is played.
    let [first, second] = legal_pair(&after);
    vote(&w, &alice(), &first).await;
    w.clock.advance(Duration::from_secs(1));
    vote(&w, &bob(), &second).await;
    w.clock.advance(Duration::from_secs(1));
    vote(&w, &carol(), &second).await;
    w.clock.advance(Duration::from_secs(1));
    vote(&w, &dave(), &first).await;
    let after = close(&w, &g).await;
    let moves = w.store.moves(g.id).await.unwrap();
    assert_eq!(moves[2].notation, second, "second reached two votes first");
    assert_eq!(after.ply, 4);

    // A vote after the window closed, before any sweep: it counts for nothing, and says so.
    w.clock.set(deadline(&after));
    let [late, _] = legal_pair(&after);
    refused!(
        w.games.teams.vote(&alice(), PLACE, None, &late).await,
        TeamRefusal::WindowClosed(id) if id == g.id
    );
    assert!(w.store.votes(g.id, 4).await.unwrap().is_empty());

    // An empty window is extended once; the second loses the game.
    w.games.play.sweep(w.clock.now()).await.expect("sweep");
    let extended = game(&w, &g).await;
    assert_eq!(extended.ply, 4);
    assert_eq!(
        deadline(&extended),
        w.clock.now() + Duration::from_secs(600)
    );
    assert!(owed(&w).await.iter().any(|a| matches!(
        a,
        Announcement::TeamWindowExtended { game, ply: 4, .. } if *game == g.id
    )));
    let over = close(&w, &g).await;
    assert_eq!(over.status.winner(), Some(Color::White));
    assert_eq!(over.status.reason(), Some(EndReason::Timeout));

    // The end is told once, with each voter's votes and how many were played.
    w.games.play.sweep(w.clock.now()).await.expect("sweep");
    let credits: Vec<_> = owed(&w)
        .await
        .into_iter()
        .filter(|a| matches!(a, Announcement::TeamCredits { .. }))
        .collect();
    assert_eq!(credits, [Announcement::TeamCredits { game: g.id }]);
    let credits = w.games.teams.credits(&over).await.unwrap();
    let seen: Vec<(String, u32, u32)> = credits
        .iter()
        .map(|c| (c.member.name.as_str().to_string(), c.played, c.votes))
        .collect();
    assert_eq!(
        seen,
        [
            ("bob".to_string(), 2, 2),
            ("alice".to_string(), 1, 2),
            ("carol".to_string(), 1, 2),
            ("dave".to_string(), 0, 1),
        ]
    );
    // Never rated: no member has a rating from it.
    assert!(w
        .store
        .rating(PLACE.guild, alice().id, g.size)
        .await
        .unwrap()
        .is_none());
}

/// Two quiet legal moves of the side to move in `g`, as notation.
fn legal_pair(g: &Game) -> [String; 2] {
    let moves: Vec<String> = g
        .position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.contains('-'))
        .collect();
    [moves[0].clone(), moves[1].clone()]
}

pub(super) async fn vote_games_are_refused_with_reasons(b: Backend) {
    let w = world(b).await;
    let mut direct = team_request(Color::Black);
    direct.place = Place::new(0, 40);
    refused!(w.games.teams.start(direct).await, TeamRefusal::InDirect);
    let mut long = team_request(Color::Black);
    long.window = TimeControl::ThreeDays;
    refused!(w.games.teams.start(long).await, TeamRefusal::Window);
    refused!(
        w.games.teams.vote(&alice(), PLACE, None, "a4-a3").await,
        TeamRefusal::NoTeamGame
    );
    w.games
        .teams
        .start(team_request(Color::Black))
        .await
        .expect("a vote game");
    refused!(
        w.games.teams.start(team_request(Color::White)).await,
        TeamRefusal::ChannelBusy
    );
    refused!(
        w.games.teams.vote(&alice(), PLACE, None, "a4-a2").await,
        TeamRefusal::Move(_)
    );
    // Two more channels of the server, then the limit.
    for channel in [21, 22] {
        let mut other = team_request(Color::White);
        other.place = Place::new(PLACE.guild.get(), channel);
        other.team = Member::new(channel, format!("#c{channel}"));
        w.games.teams.start(other).await.expect("another channel");
    }
    let mut fourth = team_request(Color::Black);
    fourth.place = Place::new(PLACE.guild.get(), 23);
    fourth.team = Member::new(23, "#c23");
    refused!(w.games.teams.start(fourth).await, TeamRefusal::Limit(3));
}

/// Two processes close the same window at once, and one of them again after: the move is played
/// once, and told once. (A process killed between the close and the move leaves the window as it
/// was: the next sweep closes it, as here.)
pub(super) async fn a_window_closed_by_two_processes_at_once_plays_its_move_once(b: Backend) {
    let w = world(b).await;
    let g = w
        .games
        .teams
        .start(team_request(Color::Black))
        .await
        .expect("a vote game");
    vote(&w, &alice(), "a4-a3").await;
    let other = Store::open(&w.url).await.expect("a second process");
    let second = Services::new(other.clone(), w.clock.clone(), Default::default());
    w.clock.set(deadline(&g));
    let now = w.clock.now();
    let (a, b) = tokio::join!(w.games.play.sweep(now), second.play.sweep(now));
    a.expect("sweep");
    b.expect("sweep");
    second.play.sweep(now).await.expect("sweep again");
    let after = game(&w, &g).await;
    assert_eq!(after.ply, 2, "the channel's move and the AI's, once each");
    let moved = owed(&w)
        .await
        .into_iter()
        .filter(|a| matches!(a, Announcement::TeamMoved { .. }))
        .count();
    assert_eq!(moved, 1);
    other.close().await;
}

/// Votes sent as the window closes: those that arrive before the close count; every one for that
/// window after it is refused, and the move played is the leader of the votes counted.
pub(super) async fn votes_arriving_as_the_window_closes_count_only_before_it(b: Backend) {
    let w = world(b).await;
    let g = w
        .games
        .teams
        .start(team_request(Color::Black))
        .await
        .expect("a vote game");
    vote(&w, &alice(), "e4-e3").await;
    w.clock.set(deadline(&g) - Duration::from_secs(1));
    let voters: Vec<Member> = (0..10)
        .map(|i| Member::new(2_000 + i, format!("m{i}")))
        .collect();
    let before: Vec<_> = futures_util::future::join_all(
        voters[..5]
            .iter()
            .map(|m| w.games.teams.vote(m, PLACE, None, "a4-a3")),
    )
    .await;
    assert!(before.iter().all(Result::is_ok));
    w.clock.set(deadline(&g));
    let now: Timestamp = w.clock.now();
    // Votes for the window at ply 0, as a menu of it casts them: a vote typed without a ply
    // after the close goes to the next window instead.
    let late = voters[5..]
        .iter()
        .map(|m| w.games.teams.vote(m, PLACE, Some(0), "e4-e3"));
    let (late, swept) = tokio::join!(
        futures_util::future::join_all(late),
        w.games.play.sweep(now)
    );
    swept.expect("sweep");
    for answer in late {
        refused!(answer, TeamRefusal::WindowClosed(_));
    }
    let moves = w.store.moves(g.id).await.unwrap();
    assert_eq!(moves[0].notation, "a4-a3");
}

/// Two channels of one server play each other: each votes in its own window, a member votes for
/// one side only, and both channels hear of every move.
pub(super) async fn two_channels_of_a_server_play_each_other_by_votes(b: Backend) {
    let w = world(b).await;
    let east = Place::new(PLACE.guild.get(), 21);
    let mut req = team_request(Color::Black);
    req.against = Against::Channel(Member::new(21, "#east"));
    let g = w
        .games
        .teams
        .start(req)
        .await
        .expect("a game between channels");
    assert!(g.ai.is_none());
    assert_eq!(g.team(Color::White).map(|c| c.get()), Some(21));
    assert!(owed(&w)
        .await
        .contains(&Announcement::TeamGameStarted { game: g.id }));
    // Black's window is #general's: #east waits.
    vote(&w, &alice(), "a4-a3").await;
    refused!(
        w.games.teams.vote(&bob(), east, None, "c2-c3").await,
        TeamRefusal::NotYourTurn(id) if id == g.id
    );
    let after = close(&w, &g).await;
    assert_eq!(after.ply, 1);
    let told = owed(&w)
        .await
        .into_iter()
        .filter(|a| matches!(a, Announcement::TeamMoved { ply: 1, .. }))
        .count();
    assert_eq!(told, 2, "both channels hear of the move");
    // alice voted for Black: she cannot vote for White.
    refused!(
        w.games.teams.vote(&alice(), east, None, "c2-c3").await,
        TeamRefusal::OtherSide(id) if id == g.id
    );
    vote_in(&w, &bob(), east, "c2-c3").await;
    let after = close(&w, &g).await;
    assert_eq!(after.ply, 2);
    let moves = w.store.moves(g.id).await.unwrap();
    assert_eq!(
        moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        ["a4-a3", "c2-c3"]
    );
    // Neither channel can start another, nor a channel play itself.
    let mut busy = team_request(Color::Black);
    busy.place = Place::new(PLACE.guild.get(), 22);
    busy.team = Member::new(22, "#west");
    busy.against = Against::Channel(Member::new(21, "#east"));
    refused!(
        w.games.teams.start(busy.clone()).await,
        TeamRefusal::ChannelBusy
    );
    busy.against = Against::Channel(Member::new(22, "#west"));
    refused!(w.games.teams.start(busy).await, TeamRefusal::SameChannel);
}

/// Vote games started at once in six channels of a server: three start, three are refused with
/// the limit, on PostgreSQL's many writers too.
pub(super) async fn vote_games_started_at_once_keep_to_the_servers_limit(b: Backend) {
    let w = world(b).await;
    let starts = (30..36).map(|channel| {
        let mut req = team_request(Color::Black);
        req.place = Place::new(PLACE.guild.get(), channel);
        req.team = Member::new(channel, format!("#c{channel}"));
        let games = w.games.clone();
        tokio::spawn(async move { games.teams.start(req).await })
    });
    let mut started = 0;
    for done in futures_util::future::join_all(starts).await {
        match done.expect("the task") {
            Ok(_) => started += 1,
            Err(e) => assert!(
                crate::is_refusal!(e, TeamRefusal::Limit(3)),
                "wrong refusal: {e:?}"
            ),
        }
    }
    assert_eq!(started, 3);
}
