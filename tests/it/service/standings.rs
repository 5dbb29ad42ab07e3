//! What members look up: the leaderboard, and a member's name in each server.

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRequest, GuildId, Leaderboard, Limits, Member, MemberId, RatingValue,
    Timestamp,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Color};
use breakthrough_bot::store::RatingRow;
use breakthrough_bot::text::Plain;

use super::{alice, carol, request, started, world, world_with, World, OTHER_SERVER, PLACE, T0};
use crate::common::db::Backend;
use crate::common::secs;

async fn seed_rating(
    w: &World,
    id: u64,
    name: &str,
    rating: f64,
    deviation: f64,
    last_active: Timestamp,
) {
    let mut tx = w.store.begin().await.unwrap();
    let id = MemberId::new(id);
    tx.upsert_member(PLACE.guild, id, name, T0).await.unwrap();
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

/// Each line of a leaderboard page: its rank (none while provisional) and name.
fn ranks_and_names(board: &Leaderboard) -> Vec<(Option<usize>, String)> {
    board
        .standings
        .iter()
        .map(|s| (s.rank, s.member.name.as_str().to_string()))
        .collect()
}

fn ranked(rank: usize, name: &str) -> (Option<usize>, String) {
    (Some(rank), name.to_string())
}

fn unranked(name: &str) -> (Option<usize>, String) {
    (None, name.to_string())
}

pub(super) async fn leaderboard_ranks_established_ratings_then_lists_provisional_ones(b: Backend) {
    let w = world_with(
        b,
        Limits {
            page_size: 3,
            ..Limits::default()
        },
    )
    .await;
    seed_rating(&w, 1, "p1", 1600.0, 80.0, T0).await;
    seed_rating(&w, 2, "p2", 1800.0, 60.0, T0).await;
    seed_rating(&w, 3, "p3", 1700.0, 100.0, T0).await;
    seed_rating(&w, 4, "new", 1900.0, 200.0, T0).await; // provisional
                                                        // Settled once, but idle for two years: the deviation has grown back past 110.
    seed_rating(&w, 5, "idle", 2000.0, 60.0, T0 - secs(2 * 365 * 86_400)).await;
    seed_rating(&w, 6, "p6", 1500.0, 90.0, T0).await;
    seed_rating(&w, 7, "newer", 1400.0, 300.0, T0).await; // provisional

    let size = BoardSize::DEFAULT;
    let page = |n| w.games.standings.leaderboard(PLACE.guild, size, n);
    // The established by rating, ranked; then the provisional by rating, unranked, even the
    // higher rated ones.
    let page1 = page(1).await.unwrap();
    assert_eq!(
        ranks_and_names(&page1),
        [ranked(1, "p2"), ranked(2, "p3"), ranked(3, "p1")]
    );
    assert_eq!((page1.page, page1.pages), (1, 3));
    let page2 = page(2).await.unwrap();
    assert_eq!(
        ranks_and_names(&page2),
        [ranked(4, "p6"), unranked("idle"), unranked("new")]
    );
    let page3 = page(3).await.unwrap();
    assert_eq!(ranks_and_names(&page3), [unranked("newer")]);
    // Past the end: the last page.
    assert_eq!(page(9).await.unwrap().page, 3);
    // Another board or server is empty.
    let other = w
        .games
        .standings
        .leaderboard(GuildId::new(PLACE.guild.get() + 1), size, 1)
        .await
        .unwrap();
    assert!(other.standings.is_empty());
    assert_eq!(other.pages, 1);

    // What a member reads: ranked lines, then the provisional under a heading on every page
    // that has them.
    let text = |board| breakthrough_bot::text::leaderboard(Lang::En, &Plain, board);
    assert_eq!(
        text(&page1),
        format!(
            "Leaderboard {size} · page 1/3\n\
             1. p2 1800 (10-10)\n\
             2. p3 1700 (10-10)\n\
             3. p1 1600 (10-10)"
        )
    );
    assert_eq!(
        text(&page2),
        format!(
            "Leaderboard {size} · page 2/3\n\
             4. p6 1500 (10-10)\n\
             Provisional (a few more rated games earn a rank):\n\
             · idle 2000? (10-10)\n\
             · new 1900? (10-10)"
        )
    );
    assert_eq!(
        text(&page3),
        format!(
            "Leaderboard {size} · page 3/3\n\
             Provisional (a few more rated games earn a rank):\n\
             · newer 1400? (10-10)"
        )
    );
    assert_eq!(
        text(&other),
        format!("Leaderboard {size} · page 1/1\nNo rated games yet.")
    );
    assert_eq!(
        breakthrough_bot::text::leaderboard(Lang::Es, &Plain, &page3),
        format!(
            "Clasificación {size} · página 3/3\n\
             Provisionales (unas pocas partidas puntuables más les dan puesto):\n\
             · newer 1400? (10-10)"
        )
    );
}

pub(super) async fn a_new_servers_leaderboard_lists_its_provisional_players(b: Backend) {
    let w = world(b).await;
    seed_rating(&w, 1, "first", 1662.0, 290.0, T0).await;
    seed_rating(&w, 2, "second", 1338.0, 290.0, T0).await;
    seed_rating(&w, 3, "third", 1500.0, 350.0, T0).await;

    let board = w
        .games
        .standings
        .leaderboard(PLACE.guild, BoardSize::DEFAULT, 1)
        .await
        .unwrap();
    assert_eq!(
        ranks_and_names(&board),
        [unranked("first"), unranked("third"), unranked("second")]
    );
    assert_eq!((board.page, board.pages), (1, 1));
    assert_eq!(
        breakthrough_bot::text::leaderboard(Lang::En, &Plain, &board),
        format!(
            "Leaderboard {} · page 1/1\n\
             Provisional (a few more rated games earn a rank):\n\
             · first 1662? (10-10)\n\
             · third 1500? (10-10)\n\
             · second 1338? (10-10)",
            BoardSize::DEFAULT
        )
    );
}

pub(super) async fn a_member_is_called_in_each_server_by_the_name_they_use_there(b: Backend) {
    let w = world(b).await;
    let here = started(&w).await;
    // Alice goes by a nickname in another server, and plays carol there.
    let agent = Member::new(alice().id, "Secret Agent");
    let c = w
        .games
        .challenges
        .challenge(ChallengeRequest {
            place: OTHER_SERVER,
            ..request(&carol(), Some(&agent), "3x5")
        })
        .await
        .unwrap();
    let there = w
        .games
        .challenges
        .accept(&agent, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game;
    assert_eq!(there.player(Color::White).name, "Secret Agent");

    // Her first server still calls her alice: the game, its history, her games from a DM.
    assert_eq!(
        w.games.play.game(here).await.unwrap().players.black.name,
        "alice"
    );
    assert_eq!(
        w.games
            .standings
            .history(PLACE, here)
            .await
            .unwrap()
            .game
            .players
            .black
            .name,
        "alice"
    );
    let mine: Vec<_> = w
        .games
        .standings
        .games_of(alice().id, None)
        .await
        .unwrap()
        .into_iter()
        .map(|g| {
            (
                g.id,
                g.players.black.name.as_str().into(),
                g.players.white.name.as_str().into(),
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
        let board = w.games.standings.leaderboard(guild, size, 1).await.unwrap();
        let names: Vec<_> = board
            .standings
            .iter()
            .map(|s| s.member.name.as_str())
            .collect();
        assert_eq!(names, [name], "server {guild}");
        let text = breakthrough_bot::text::leaderboard(Lang::En, &Plain, &board);
        let other = if name == "alice" {
            "Secret Agent"
        } else {
            "alice"
        };
        assert!(!text.contains(other), "{text}");
        let card = w
            .games
            .standings
            .rating(guild, &Member::new(alice().id, "from the caller"), size)
            .await
            .unwrap();
        assert_eq!(card.member.name, name);
    }
}
