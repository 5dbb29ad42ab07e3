//! `breakthrough-bot backup FILE`: a copy of the SQLite database taken by another process while
//! moves are being played, which opens, passes SQLite's integrity check and holds every move
//! acknowledged before it began; a file that exists is never overwritten.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use breakthrough_bot::game::{
    ChallengeRef, ChallengeRequest, GameRef, Limits, Member, Place, Services, SystemClock,
    TimeControl,
};
use breakthrough_bot::store::Store;
use sqlx::Connection;

const PLACE: Place = Place::new(1, 2);

fn bot() -> Command {
    Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"))
}

/// Plays games of alice's, each against a new opponent (a slow backup must not bring her to the
/// limit of challenges to one member), on `games` until `stop`, counting each move once the
/// service has acknowledged it.
async fn play_on(games: Services, played: Arc<AtomicUsize>, stop: Arc<AtomicUsize>) {
    let alice = Member::new(1, "alice");
    let mut opponents = 2u64..;
    while stop.load(Ordering::SeqCst) == 0 {
        let n = opponents.next().unwrap_or(2);
        let bob = Member::new(n, format!("bob{n}"));
        let c = games
            .challenges
            .challenge(ChallengeRequest {
                place: PLACE,
                challenger: alice.clone(),
                opponent: Some(bob.clone()),
                size: "8x8".parse().unwrap(),
                color: Some(breakthrough_bot::rules::Color::Black),
                time: TimeControl::OneHour,
                rated: false,
            })
            .await
            .unwrap();
        let mut game = games
            .challenges
            .accept(&bob, ChallengeRef::Id(PLACE, c.id))
            .await
            .unwrap()
            .game;
        while game.is_active() && stop.load(Ordering::SeqCst) == 0 {
            let who = if game.to_move().id == alice.id {
                &alice
            } else {
                &bob
            };
            let mv = game.position.legal_moves()[0].to_string();
            game = games
                .play
                .play(who, PLACE, GameRef::Id(game.id), &mv)
                .await
                .unwrap()
                .game;
            played.fetch_add(1, Ordering::SeqCst);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_moves_are_played_is_whole_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bot.db").display());
    let store = Store::open(&url).await.unwrap();
    let games = Services::new(store.clone(), Arc::new(SystemClock), Limits::default());
    let (played, stop) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let player = tokio::spawn(play_on(games, played.clone(), stop.clone()));
    while played.load(Ordering::SeqCst) < 20 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }

    // Another process copies the database while the moves go on.
    let copy = dir.path().join("copy.db");
    let acknowledged = played.load(Ordering::SeqCst);
    let out = tokio::task::spawn_blocking({
        let (url, copy) = (url.clone(), copy.clone());
        move || {
            bot()
                .args(["backup", "--db", &url])
                .arg(&copy)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stop.store(1, Ordering::SeqCst);
    player.await.unwrap();
    assert!(
        played.load(Ordering::SeqCst) > acknowledged,
        "moves went on during the backup"
    );

    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", copy.display()))
        .await
        .unwrap();
    let check: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(check, "ok");
    let moves: i64 = sqlx::query_scalar("SELECT count(*) FROM moves")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert!(
        moves >= i64::try_from(acknowledged).unwrap(),
        "{moves} moves in the copy, {acknowledged} acknowledged before it began"
    );
    conn.close().await.unwrap();
    // The copy is a database the bot opens as it is.
    Store::open(&format!("sqlite://{}", copy.display()))
        .await
        .unwrap()
        .close()
        .await;

    // A second backup into the same file is refused, and the file is left as it was.
    let before = std::fs::metadata(&copy).unwrap().len();
    let out = bot()
        .args(["backup", "--db", &url])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("exists: a backup never overwrites a file"),
        "{said}"
    );
    assert_eq!(std::fs::metadata(&copy).unwrap().len(), before);
    // PostgreSQL has its own tool.
    let out = bot()
        .args(["backup", "--db", "postgres://localhost/x"])
        .arg(dir.path().join("pg.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("for PostgreSQL use pg_dump"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    store.close().await;
}
