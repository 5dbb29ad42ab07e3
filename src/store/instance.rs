//! One bot process per database: an exclusive lock on a file beside the database, held for the
//! life of the process. The operating system lets it go when the process ends, however it ends
//! (a `kill -9` included), so a restart never waits for a stale claim. The file says which
//! process holds it, so a second one can name the first.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;

use super::{Result, StoreError};

/// Held while the process serves the database; dropping it lets go.
#[derive(Debug)]
pub struct InstanceLock {
    _file: File,
    path: PathBuf,
}

impl InstanceLock {
    /// Claims the database at `url` for this process. `None` for a database that only this
    /// process can see (in memory). [`StoreError::InUse`] names the process that holds it.
    pub fn acquire(url: &str) -> Result<Option<InstanceLock>> {
        let options = SqliteConnectOptions::from_str(url)?;
        let db = options.get_filename();
        let name = db.to_string_lossy();
        if name.is_empty() || name.starts_with(':') || name.starts_with("file:") {
            return Ok(None);
        }
        let path = lock_path(db);
        let open = || {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
        };
        let mut file = open().map_err(|e| StoreError::Lock(path.clone(), e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(StoreError::InUse {
                    lock: path,
                    holder: describe(&holder),
                });
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::Lock(path, e)),
        }
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let note = format!("pid={} started={started}\n", std::process::id());
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(note.as_bytes()))
            .and_then(|()| file.flush());
        written.map_err(|e| StoreError::Lock(path.clone(), e))?;
        Ok(Some(InstanceLock { _file: file, path }))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// `breakthrough.db` → `breakthrough.db.lock`.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The holder as written in the lock file, in words: `process 1234, running for 3 min`.
fn describe(note: &str) -> String {
    let field = |key: &str| {
        note.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let Some(pid) = field("pid") else {
        return "another process (it did not say which)".to_string();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    match field("started") {
        Some(started) => {
            let minutes = now.saturating_sub(started) / 60;
            format!("process {pid}, running for {minutes} min")
        }
        None => format!("process {pid}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_is_refused_and_names_the_first_until_it_lets_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("x.db").display());
        let first = InstanceLock::acquire(&url).expect("first").expect("a file");
        match InstanceLock::acquire(&url) {
            Err(StoreError::InUse { holder, .. }) => {
                assert!(
                    holder.starts_with(&format!("process {}", std::process::id())),
                    "{holder}"
                );
            }
            other => panic!("expected InUse, got {other:?}"),
        }
        drop(first);
        assert!(InstanceLock::acquire(&url).expect("after").is_some());
        assert!(InstanceLock::acquire("sqlite::memory:")
            .expect("memory")
            .is_none());
    }
}
