//! `breakthrough-bot bench`: many games at once through the whole `game` API, on a fresh SQLite
//! file with the production durability settings (and with `--db postgres://…` on that database
//! too, side by side), reporting moves per second and move latency.
//! `bench --analyze`: the time `/analyze` takes over whole games the AI played against itself.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::engine::{self, Level};
use crate::game::{
    ChallengeRef, ChallengeRequest, GameRef, Limits, Member, Place, Services, SystemClock,
    TimeControl,
};
use crate::rules::{BoardSize, Position};
use crate::store::Store;

/// What a run measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    pub games: usize,
    pub moves: usize,
    pub elapsed: Duration,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl BenchReport {
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64()
    }
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "games: {}\nmoves: {}\nelapsed: {:.2} s\nmoves/s: {:.0}\nlatency p50: {:.3} ms\nlatency p99: {:.3} ms\nlatency max: {:.3} ms",
            self.games,
            self.moves,
            self.elapsed.as_secs_f64(),
            self.moves_per_second(),
            ms(self.p50),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// A database file in the temporary folder, removed (with its WAL files) when dropped.
struct TempDb(PathBuf);

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// One line of the table [`compare`] prints.
#[derive(Debug, Clone)]
pub struct BenchRow {
    pub backend: &'static str,
    pub concurrency: usize,
    pub report: BenchReport,
}

/// The rows as a table, one per backend and concurrency.
pub fn table(rows: &[BenchRow]) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut out = String::from(
        "backend   concurrency  games  moves   elapsed s  moves/s  p50 ms  p99 ms  max ms\n",
    );
    for r in rows {
        let b = &r.report;
        out.push_str(&format!(
            "{:<9} {:>11}  {:>5}  {:>6}  {:>9.2}  {:>7.0}  {:>6.3}  {:>6.3}  {:>6.1}\n",
            r.backend,
            r.concurrency,
            b.games,
            b.moves,
            b.elapsed.as_secs_f64(),
            b.moves_per_second(),
            ms(b.p50),
            ms(b.p99),
            ms(b.max)
        ));
    }
    out
}

/// Runs [`run`] at each concurrency on a fresh SQLite file, then the same on each database of
/// `dbs` (PostgreSQL's, which may hold other data: the bench's members are new each run). With
/// `metrics`, the metrics' recorder is installed first, as in a bot with `HEALTH_ADDR`, and the
/// moves it counted are said on standard error at the end.
pub async fn compare(
    games: usize,
    concurrencies: &[usize],
    size: BoardSize,
    seed: u64,
    dbs: &[String],
    metrics: bool,
) -> anyhow::Result<Vec<BenchRow>> {
    let recorder = if metrics {
        Some(crate::telemetry::install()?)
    } else {
        None
    };
    let rows = compare_on(games, concurrencies, size, seed, dbs).await?;
    if let Some(recorder) = recorder {
        let moves = recorder
            .render()
            .lines()
            .filter(|l| l.starts_with(crate::telemetry::MOVES))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>();
        eprintln!("metrics recorded {moves} moves");
    }
    Ok(rows)
}

async fn compare_on(
    games: usize,
    concurrencies: &[usize],
    size: BoardSize,
    seed: u64,
    dbs: &[String],
) -> anyhow::Result<Vec<BenchRow>> {
    let mut rows = Vec::new();
    for &concurrency in concurrencies {
        let report = run(games, concurrency, size, seed).await?;
        rows.push(BenchRow {
            backend: "sqlite",
            concurrency,
            report,
        });
    }
    for url in dbs {
        let store = Store::open(url).await?;
        for &concurrency in concurrencies {
            let report = run_on(&store, games, concurrency, size, seed).await?;
            rows.push(BenchRow {
                backend: store.backend_name(),
                concurrency,
                report,
            });
        }
        store.close().await;
    }
    Ok(rows)
}

/// Plays `games` games of `size` with `concurrency` of them in flight, random moves from `seed`,
/// on a fresh SQLite file.
pub async fn run(
    games: usize,
    concurrency: usize,
    size: BoardSize,
    seed: u64,
) -> anyhow::Result<BenchReport> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let db = TempDb(std::env::temp_dir().join(format!(
        "breakthrough-bench-{}-{stamp}.db",
        std::process::id()
    )));
    let store = Store::open(&format!("sqlite://{}", db.0.display())).await?;
    let report = run_on(&store, games, concurrency, size, seed).await;
    store.close().await;
    report
}

/// [`run`] on an open store. The members are new to it: their ids start past any the bench gave
/// before (they are counted from the clock).
pub async fn run_on(
    store: &Store,
    games: usize,
    concurrency: usize,
    size: BoardSize,
    seed: u64,
) -> anyhow::Result<BenchReport> {
    let limits = Limits::default();
    let service = Services::new(store.clone(), Arc::new(SystemClock), limits);
    let place = Place::new(1, 1);
    // Microseconds since 2020, times two per game: new members on a database used before.
    let base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
        .saturating_sub(1_577_836_800_000_000)
        .saturating_mul(4);

    // Set up every game first: a challenge and its acceptance, between two fresh members.
    let mut started = Vec::with_capacity(games);
    for i in 0..games as u64 {
        let a = Member::new(base + 2 * i, format!("player{}", 2 * i));
        let b = Member::new(base + 2 * i + 1, format!("player{}", 2 * i + 1));
        let c = service
            .challenges
            .challenge(ChallengeRequest {
                place,
                challenger: a.clone(),
                opponent: Some(b.clone()),
                size,
                color: Some(crate::rules::Color::Black),
                time: TimeControl::OneDay,
                rated: true,
            })
            .await?;
        let game = service
            .challenges
            .accept(&b, ChallengeRef::Id(c.place, c.id))
            .await?
            .game;
        started.push((game, a, b));
    }

    // The tables are seconds old. On a server that has run a while, PostgreSQL's autovacuum has
    // given the planner their statistics (it analyzes a table once a tenth of it changed); here
    // it would plan for the empty tables of a minute ago.
    store.analyze().await?;

    let queue = Arc::new(Mutex::new(started));
    let latencies = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let begin = Instant::now();
    let mut workers = Vec::new();
    for w in 0..concurrency.max(1) {
        let (queue, latencies, service) = (queue.clone(), latencies.clone(), service.clone());
        workers.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(seed ^ (w as u64).wrapping_mul(0x9e37_79b9));
            let mut mine = Vec::new();
            loop {
                let next = queue.lock().map(|mut q| q.pop()).unwrap_or(None);
                let Some((mut game, black, white)) = next else {
                    break;
                };
                while game.is_active() {
                    let moves = game.position.legal_moves();
                    let mv = moves[rng.random_range(0..moves.len())];
                    let who = if game.position.turn() == crate::rules::Color::Black {
                        &black
                    } else {
                        &white
                    };
                    let t = Instant::now();
                    let played = service
                        .play
                        .play(who, game.place, GameRef::Id(game.id), &mv.to_string())
                        .await?;
                    mine.push(t.elapsed());
                    game = played.game;
                }
            }
            if let Ok(mut all) = latencies.lock() {
                all.extend(mine);
            }
            anyhow::Ok(())
        }));
    }
    for w in workers {
        w.await??;
    }
    let elapsed = begin.elapsed();
    let mut lat = latencies.lock().map(|l| l.clone()).unwrap_or_default();
    lat.sort();
    let pick = |q: f64| {
        lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Ok(BenchReport {
        games,
        moves: lat.len(),
        elapsed,
        p50: pick(0.50),
        p99: pick(0.99),
        max: lat.last().copied().unwrap_or_default(),
    })
}

/// What `bench --analyze` measured: each game's plies and analysis time.
#[derive(Debug, Clone)]
pub struct AnalysisBenchReport {
    pub size: BoardSize,
    pub level: Level,
    /// Per game: plies, positions searched, and the time its analysis took.
    pub games: Vec<(usize, u64, Duration)>,
}

impl std::fmt::Display for AnalysisBenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |d: Duration| d.as_secs_f64();
        let mut times: Vec<Duration> = self.games.iter().map(|g| g.2).collect();
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let max = times.last().copied().unwrap_or_default();
        let plies: usize = self.games.iter().map(|g| g.0).sum();
        let nodes: u64 = self.games.iter().map(|g| g.1).sum();
        let total: Duration = times.iter().sum();
        for (i, (p, n, t)) in self.games.iter().enumerate() {
            writeln!(
                f,
                "game {}: {p} plies, {n} positions searched, {:.2} s",
                i + 1,
                secs(*t)
            )?;
        }
        write!(
            f,
            "games: {} ({}, level {} against itself)\nplies: {plies} ({:.1} per game)\npositions searched per ply: {:.0}\nanalysis median: {:.2} s\nanalysis max: {:.2} s\nper ply: {:.1} ms",
            self.games.len(),
            self.size,
            self.level,
            plies as f64 / self.games.len().max(1) as f64,
            nodes as f64 / plies.max(1) as f64,
            secs(median),
            secs(max),
            secs(total) * 1000.0 / plies.max(1) as f64
        )
    }
}

/// Plays `games` games of `size` between the AI at `level` and itself (a different seed each game,
/// as the AI plays on a fast machine: [`engine::think_unhurried`]), and times the analysis of
/// each, one after the other on one thread, as `/analyze` does its work.
pub fn analysis(games: usize, size: BoardSize, level: Level, seed: u64) -> AnalysisBenchReport {
    let mut out = Vec::with_capacity(games);
    for g in 0..games as u64 {
        let start = Position::new(size);
        let mut at = start;
        let mut moves = Vec::new();
        while let Some(t) = engine::think_unhurried(
            &at,
            level,
            seed.wrapping_mul(1_000_003) ^ (g << 16) ^ moves.len() as u64,
        ) {
            let Ok(next) = at.play(t.best) else { break };
            moves.push(t.best);
            at = next;
        }
        let began = Instant::now();
        let Ok(review) = engine::analysis::analyze(&start, &moves) else {
            continue;
        };
        out.push((moves.len(), review.nodes, began.elapsed()));
    }
    AnalysisBenchReport {
        size,
        level,
        games: out,
    }
}

/// What `bench --windows` measured: how long after their windows closed the channels of vote
/// games due at once saw their move played and the AI's answer.
#[derive(Debug, Clone)]
pub struct WindowsBenchReport {
    pub games: usize,
    pub level: Level,
    pub elapsed: Duration,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl std::fmt::Display for WindowsBenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "vote games due at once: {}\nAI level: {}\nall closed in: {:.1} ms\nclosed after (move and AI answer) p50: {:.1} ms\np99: {:.1} ms\nmax: {:.1} ms",
            self.games,
            self.level,
            ms(self.elapsed),
            ms(self.p50),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// Starts `games` vote games on 8x8 against the AI at `level` on a fresh SQLite file, each in a
/// server of its own with three votes in its window, then closes every window at once as the
/// clock's sweep does: each channel's move is played, then the AI answers.
pub async fn windows(games: usize, level: Level) -> anyhow::Result<WindowsBenchReport> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let db = TempDb(std::env::temp_dir().join(format!(
        "breakthrough-bench-windows-{}-{stamp}.db",
        std::process::id()
    )));
    let store = Store::open(&format!("sqlite://{}", db.0.display())).await?;
    let service = Services::new(store.clone(), Arc::new(SystemClock), Limits::default());
    let voters: Vec<Member> = (1..=3)
        .map(|i| Member::new(i, format!("voter{i}")))
        .collect();
    for i in 0..games as u64 {
        let place = Place::new(10_000 + i, 20_000 + i);
        service
            .teams
            .start(crate::game::TeamRequest {
                place,
                team: Member::new(place.channel.get(), format!("#team{i}")),
                by: voters[0].clone(),
                against: crate::game::Against::Ai(Member::new(9, "bot"), level),
                size: BoardSize::DEFAULT,
                color: Some(crate::rules::Color::Black),
                window: TimeControl::OneHour,
            })
            .await?;
        for (voter, mv) in voters.iter().zip(["a7-a6", "b7-b6", "a7-a6"]) {
            service.teams.vote(voter, place, None, mv).await?;
        }
    }
    let now = service.now() + TimeControl::OneHour.duration() + Duration::from_secs(1);
    let begin = Instant::now();
    let mut closed = service.teams.close_windows(now).await?;
    let elapsed = begin.elapsed();
    store.close().await;
    anyhow::ensure!(
        closed.len() == games,
        "{} of {games} windows closed",
        closed.len()
    );
    closed.sort();
    let pick = |q: f64| {
        closed
            .get(((closed.len() as f64 * q) as usize).min(closed.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Ok(WindowsBenchReport {
        games,
        level,
        elapsed,
        p50: pick(0.50),
        p99: pick(0.99),
        max: closed.last().copied().unwrap_or_default(),
    })
}
