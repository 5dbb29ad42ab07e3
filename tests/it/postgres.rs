//! PostgreSQL: the throwaway cluster the tests start for themselves answers, and is the tests'
//! own (see `common::postgres`).

use crate::common::postgres;

#[tokio::test]
async fn the_tests_start_a_postgresql_cluster_of_their_own_and_it_answers() {
    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let url = cluster.database().await;
    let pool = sqlx::PgPool::connect(&url).await.expect("connect");
    let (one, version): (i32, String) = sqlx::query_as("SELECT 1, version()")
        .fetch_one(&pool)
        .await
        .expect("a query");
    assert_eq!(one, 1);
    assert!(version.starts_with("PostgreSQL "), "{version}");
    // Each test has a database of its own.
    let other = cluster.database().await;
    assert_ne!(url, other);
    pool.close().await;
}
