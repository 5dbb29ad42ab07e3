//! A throwaway PostgreSQL cluster for the tests, from the server binaries Debian's `postgresql`
//! package installs: `initdb` in a temporary directory, started on a loopback port of its own
//! and a private socket directory, and stopped and removed when the test process ends, however
//! it ends, Ctrl-C included (a watchdog process, in a process group of its own, outlives it by
//! at most a second). One cluster per test process; each test makes a database of its own in it.
//!
//! Without the binaries the PostgreSQL tests are skipped with one line saying why, except under
//! CI (`CI` set), where that is a failure: `.ci/run` installs them.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The running cluster.
#[derive(Debug)]
pub struct Cluster {
    port: u16,
    /// Its server binaries, data directory, log and `postgres` options: to stop and start it.
    bin: PathBuf,
    data: PathBuf,
    log: PathBuf,
    options: String,
}

/// The options every test cluster runs with: its port, its private socket directory, and room
/// for the many pools of the tests.
fn options(port: u16, dir: &Path) -> String {
    format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
        dir.display()
    )
}

/// The cluster of this test process, started on first use; `None` (said once on stderr) where
/// the binaries are missing outside CI.
pub fn cluster() -> Option<&'static Cluster> {
    static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| match binaries() {
            Some(bin) => Some(start(&bin, Commits::Asynchronous)),
            None if std::env::var_os("CI").is_some() => {
                panic!("PostgreSQL's server binaries are missing under CI: .ci/run installs them")
            }
            None => {
                eprintln!(
                    "PostgreSQL suite skipped: no /usr/lib/postgresql/*/bin here (apt-get install postgresql)"
                );
                None
            }
        })
        .as_ref()
}

impl Cluster {
    /// A cluster of the calling test's own, to stop and start under the bot; removed when the
    /// test process ends. Its commits are synchronous, as PostgreSQL's are by default: a commit
    /// acknowledged is still there after a crash (`-m immediate`). `None` as for [`cluster`].
    pub fn own() -> Option<Cluster> {
        cluster()?;
        binaries().map(|bin| start(&bin, Commits::Synchronous))
    }

    /// Stops the server: `mode` is `fast` (clients are disconnected, a clean shut-down) or
    /// `immediate` (as a crash: recovery when it starts again).
    pub fn stop(&self, mode: &str) {
        let ok = as_server_user(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-m", mode, "-w", "stop"])
            .stdout(Stdio::null())
            .status()
            .expect("run pg_ctl");
        assert!(ok.success(), "pg_ctl stop -m {mode} failed");
    }

    /// Starts the server again after [`Cluster::stop`], and waits until it takes connections.
    pub fn start_again(&self) {
        let ok = as_server_user(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(&self.log)
            .args(["-w", "-o", &self.options, "start"])
            .stdout(Stdio::null())
            .status()
            .expect("run pg_ctl");
        assert!(
            ok.success(),
            "pg_ctl start failed: see {}",
            self.log.display()
        );
    }

    /// A new, empty database in the cluster, as a URL.
    pub async fn database(&self) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let name = format!(
            "test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", self.port);
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&admin)
            .await
            .expect("connect to the test cluster");
        // The name is ours (digits and underscores), so it is safe in the statement.
        let create = sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"));
        sqlx::raw_sql(create)
            .execute(&mut conn)
            .await
            .expect("create a test database");
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

/// The newest `/usr/lib/postgresql/<major>/bin` with `initdb` and `pg_ctl` in it.
fn binaries() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let major = e.file_name().to_string_lossy().parse().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").exists() && bin.join("pg_ctl").exists()).then_some((major, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

/// Runs `program` as the `postgres` user when this process is root (initdb refuses root), else
/// as itself.
fn as_server_user(program: &Path) -> Command {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Whether a commit waits for its WAL to be written: the tests' shared cluster does not (a
/// crash of it is never tested, and the tests run faster).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Commits {
    Synchronous,
    Asynchronous,
}

fn start(bin: &Path, commits: Commits) -> Cluster {
    let dir = tempfile::Builder::new()
        .prefix("pg-test-")
        .tempdir()
        .expect("a directory for the cluster")
        .keep();
    // The server user must own its directory.
    let _ = Command::new("chown")
        .args(["-R", "postgres"])
        .arg(&dir)
        .status();
    let data = dir.join("data");
    let ok = as_server_user(&bin.join("initdb"))
        .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
        .arg(&data)
        .stdout(Stdio::null())
        .status()
        .expect("run initdb");
    assert!(ok.success(), "initdb failed");
    let port = free_port();
    let mut options = options(port, &dir);
    if commits == Commits::Asynchronous {
        options.push_str(" -c synchronous_commit=off");
    }
    let cluster = Cluster {
        port,
        bin: bin.to_path_buf(),
        data: data.clone(),
        log: dir.join("server.log"),
        options,
    };
    cluster.start_again();
    // The watchdog: once this process is gone, stop the cluster and remove its directory. It is
    // meant to outlive this process, so nothing here waits for it.
    let stop = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
         {runas} {pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        runas = if as_server_user(Path::new("true")).get_program() == "runuser" {
            "runuser -u postgres --"
        } else {
            ""
        },
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.display(),
    );
    #[allow(clippy::zombie_processes)]
    // A process group of its own: Ctrl-C on `cargo test`, or a `timeout` around it, signals the
    // whole group of the test process, and the watchdog must outlive that to stop the cluster.
    Command::new("sh")
        .args(["-c", &stop])
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the cluster's watchdog");
    cluster
}
