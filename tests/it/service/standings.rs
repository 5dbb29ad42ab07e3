//! What members look up: the leaderboard, and a member's name in each server.

use breakthrough_bot::game::text::Plain;
use breakthrough_bot::game::{
    ChallengeRef, ChallengeRequest, GuildId, Limits, Member, MemberId, RatingValue, Timestamp,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Color};
use breakthrough_bot::store::RatingRow;

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

pub(super) async fn leaderboard_orders_pages_and_leaves_out_provisional_ratings(b: Backend) {
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
    seed_rating(&w, 5, "idle", 2000.0, 60.0, T0 - secs(2 * 365 * 86_400)).await;
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

pub(super) async fn a_member_is_called_in_each_server_by_the_name_they_use_there(b: Backend) {
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
    assert_eq!(
        w.games.game(here).await.unwrap().players.black.name,
        "alice"
    );
    assert_eq!(
        w.games
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
