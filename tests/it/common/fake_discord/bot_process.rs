//! Runs the bot binary as a child process wired to the fake, and kills it on drop.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::FakeDiscord;

/// Variables cleared from the inherited environment so a developer's shell cannot leak a real
/// token, guild or database into a test.
const CLEARED: [&str; 5] = [
    "DISCORD_TOKEN",
    "DISCORD_API_BASE",
    "DISCORD_GUILD_ID",
    "DATABASE_URL",
    "RUST_LOG",
];

/// The bot as a child process. Its stdout and stderr go to a log file (in cargo's
/// `CARGO_TARGET_TMPDIR`, else the system temp folder); the process is killed when this is
/// dropped. The log file is removed then, unless the test is panicking (its path is
/// printed instead).
pub struct BotProcess {
    child: Arc<Mutex<Child>>,
    log_path: PathBuf,
}

impl BotProcess {
    /// Starts `bin` with `DISCORD_TOKEN` (a dummy), `DISCORD_API_BASE` (the fake) and
    /// `RUST_LOG` (the test's own `RUST_LOG`, else `info`), plus `env` (e.g. `DATABASE_URL`,
    /// `DISCORD_GUILD_ID`; these override the defaults), and tells the fake to watch it.
    pub fn spawn(bin: impl AsRef<Path>, fake: &FakeDiscord, env: &[(&str, &str)]) -> BotProcess {
        let api_base = fake.api_base();
        let rust_log = std::env::var("RUST_LOG").unwrap_or_else(|_| "info".to_string());
        let mut all: Vec<(&str, &str)> = vec![
            ("DISCORD_TOKEN", "fake-token"),
            ("DISCORD_API_BASE", api_base.as_str()),
            ("RUST_LOG", rust_log.as_str()),
        ];
        all.extend_from_slice(env);
        let bot = Self::spawn_with_env(bin, &all);
        fake.watch_bot(&bot);
        bot
    }

    /// Starts `bin` with exactly these variables on top of the inherited environment (less
    /// the Discord and database ones). Later entries win.
    pub fn spawn_with_env(bin: impl AsRef<Path>, env: &[(&str, &str)]) -> BotProcess {
        Self::spawn_in(bin, None, env)
    }

    /// Like [`BotProcess::spawn`], in the working directory `dir` (where it finds a `.env`).
    pub fn spawn_in_dir(
        bin: impl AsRef<Path>,
        fake: &FakeDiscord,
        dir: &Path,
        env: &[(&str, &str)],
    ) -> BotProcess {
        let api_base = fake.api_base();
        let mut all: Vec<(&str, &str)> = vec![("DISCORD_API_BASE", api_base.as_str())];
        all.extend_from_slice(env);
        let bot = Self::spawn_in(bin, Some(dir), &all);
        fake.watch_bot(&bot);
        bot
    }

    fn spawn_in(bin: impl AsRef<Path>, dir: Option<&Path>, env: &[(&str, &str)]) -> BotProcess {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let bin = bin.as_ref();
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = bin
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bot".into());
        let log_path = std::env::temp_dir().join(format!("{name}-{}-{n}.log", std::process::id()));
        let log = File::create(&log_path)
            .unwrap_or_else(|e| panic!("create bot log {}: {e}", log_path.display()));
        let log2 = log.try_clone().expect("clone log file handle");
        let mut cmd = Command::new(bin);
        for k in CLEARED {
            cmd.env_remove(k);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log2));
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("start bot {}: {e}", bin.display()));
        BotProcess {
            child: Arc::new(Mutex::new(child)),
            log_path,
        }
    }

    pub fn id(&self) -> u32 {
        self.child.lock().unwrap().id()
    }

    /// Where stdout and stderr go.
    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    /// Everything the bot has written so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    /// Whether the process is still running.
    pub fn is_running(&self) -> bool {
        matches!(self.child.lock().unwrap().try_wait(), Ok(None))
    }

    /// Waits up to `timeout` for the process to end by itself; its exit status, or `None` if it
    /// is still running.
    pub fn wait_exit(&self, timeout: std::time::Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.lock().unwrap().try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Kills the process (if still running) and reaps it.
    /// Asks the process to stop, as systemd or Ctrl-C does (SIGTERM).
    pub fn terminate(&self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.id().to_string()])
            .status();
    }

    pub fn kill(&self) {
        let mut child = self.child.lock().unwrap();
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
        }
        let _ = child.wait();
    }

    pub(crate) fn child_handle(&self) -> Weak<Mutex<Child>> {
        Arc::downgrade(&self.child)
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("bot log kept at {}", self.log_path.display());
        } else {
            let _ = std::fs::remove_file(&self.log_path);
        }
    }
}
