//! A leaderboard written straight into a database: three established ratings and nine
//! provisional ones, rated at `now` on the default board, for the tests that page through it.

use breakthrough_bot::game::{GuildId, MemberId, RatingValue, Timestamp};
use breakthrough_bot::rules::BoardSize;
use breakthrough_bot::store::{RatingRow, Store};

/// `ann` 1600, `ben` 1700 and `cy` 1550 established; `n1` 1950 … `n9` 1550 provisional. Members
/// 1000 and up, in `guild`.
pub async fn seed_leaderboard(store: &Store, guild: GuildId, now: Timestamp) {
    let mut players = vec![
        ("ann".to_string(), 1600.0, 60.0),
        ("ben".to_string(), 1700.0, 80.0),
        ("cy".to_string(), 1550.0, 100.0),
    ];
    players.extend((1..=9).map(|i| (format!("n{i}"), 2000.0 - 50.0 * f64::from(i), 250.0)));
    let mut tx = store.begin().await.unwrap();
    for (id, (name, rating, deviation)) in (1_000u64..).zip(players) {
        let id = MemberId::new(id);
        tx.upsert_member(guild, id, &name, now).await.unwrap();
        tx.upsert_rating(&RatingRow {
            guild_id: guild,
            member_id: id,
            size: BoardSize::DEFAULT,
            value: RatingValue {
                rating,
                deviation,
                volatility: 0.06,
            },
            games: 3,
            wins: 2,
            losses: 1,
            last_active: now,
        })
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
}
