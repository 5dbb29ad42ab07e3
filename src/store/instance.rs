//! One bot process per database, or per gateway shard of it: an exclusive lock on a file beside
//! the database (or on one per shard), held for the life of the process. The operating system lets it go when the process ends, however it ends
//! (a `kill -9` included), so a restart never waits for a stale claim. The file says which
//! process holds it, so a second one can name the first.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;

use crate::domain::Shards;

use super::{Result, StoreError};

/// Held while the process serves the database (or its shards of it); dropping it lets go.
#[derive(Debug)]
pub struct InstanceLock {
    _files: Vec<File>,
}

/// How a lock file is claimed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// This process alone.
    Exclusive,
    /// Beside other processes claiming it the same way, but no exclusive claim.
    Shared,
}

impl InstanceLock {
    /// Claims the database at `url` for a process that runs `shards` (all of them: `None`).
    ///
    /// A process that runs every shard holds `<db>.lock` alone. One that runs some holds it
    /// shared, beside the other such processes, and holds `<db>.shard-N-of-C.lock` alone for each
    /// of its shards: two processes never run the same shard, and a process that runs them all
    /// never runs beside one that runs some. [`StoreError::InUse`] names the holder.
    ///
    /// A PostgreSQL database is shared by processes on several machines: no lock file can
    /// serve, and `None` is returned; its processes claim their shards with leases in the
    /// database instead (`Store::claim_shards`).
    pub fn acquire_for(url: &str, shards: Option<Shards>) -> Result<Option<InstanceLock>> {
        if super::is_postgres(url) {
            return Ok(None);
        }
        let options = SqliteConnectOptions::from_str(url)?;
        let db = options.get_filename();
        let name = db.to_string_lossy();
        if name.is_empty() || name.starts_with(':') || name.starts_with("file:") {
            return Ok(None);
        }
        let path = lock_path(db, None);
        let Some(shards) = shards else {
            let file = claim(&path, Mode::Exclusive).map_err(|e| match e {
                // Held by processes running some shards: name one of them.
                StoreError::InUse { lock, holder } => {
                    shard_holder(db).unwrap_or(StoreError::InUse { lock, holder })
                }
                other => other,
            })?;
            return Ok(Some(InstanceLock { _files: vec![file] }));
        };
        let mut files = vec![claim(&path, Mode::Shared)?, claim_count(db, shards.count)?];
        for shard in shards.first..=shards.last {
            files.push(claim(
                &lock_path(db, Some((shard, shards.count))),
                Mode::Exclusive,
            )?);
        }
        Ok(Some(InstanceLock { _files: files }))
    }
}

/// Claims the lock file at `path`; claimed alone, it then says which process holds it.
fn claim(path: &Path, mode: Mode) -> Result<File> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| StoreError::Lock(path.to_path_buf(), e))?;
    let locked = match mode {
        Mode::Exclusive => file.try_lock(),
        Mode::Shared => file.try_lock_shared(),
    };
    match locked {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            return Err(StoreError::InUse {
                lock: path.to_path_buf(),
                holder: describe(&holder),
            });
        }
        Err(TryLockError::Error(e)) => return Err(StoreError::Lock(path.to_path_buf(), e)),
    }
    if mode == Mode::Exclusive {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let note = format!("pid={} started={started}\n", std::process::id());
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(note.as_bytes()))
            .and_then(|()| file.flush());
        written.map_err(|e| StoreError::Lock(path.to_path_buf(), e))?;
    }
    Ok(file)
}

/// Processes running some shards must agree on `SHARD_COUNT`, or their servers would overlap:
/// each holds `<db>.shards-of-C.lock` shared, and refuses to start while any other count's file
/// is held. It claims its own before looking, so of two processes started together with
/// different counts at least one sees the other.
fn claim_count(db: &Path, count: u32) -> Result<File> {
    let own = claim(&count_path(db, count), Mode::Shared)?;
    let others =
        files_beside(db, ".shards-of-").map_err(|e| StoreError::Lock(db.to_path_buf(), e))?;
    for (path, rest) in others {
        let Some(other) = rest
            .strip_suffix(".lock")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&other| other != count)
        else {
            continue;
        };
        // Held by some process if it cannot be had alone; had, it is let go at once.
        let probe = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::Lock(path.clone(), e))?;
        match probe.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(StoreError::InUse {
                    lock: path,
                    holder: format!("processes running SHARD_COUNT={other}"),
                });
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::Lock(path, e)),
        }
    }
    Ok(own)
}

/// The files beside database `db` whose names go on from its own name and `stem`
/// (`breakthrough.db.shard-…`), each with the rest of its name.
fn files_beside(db: &Path, stem: &str) -> std::io::Result<Vec<(PathBuf, String)>> {
    let dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Some(name) = db.file_name() else {
        return Ok(Vec::new());
    };
    let prefix = format!("{}{stem}", name.to_string_lossy());
    Ok(std::fs::read_dir(dir)?
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name().to_string_lossy().into_owned();
            let rest = file.strip_prefix(&prefix)?.to_string();
            Some((entry.path(), rest))
        })
        .collect())
}

/// `breakthrough.db` → `breakthrough.db.shards-of-4.lock`.
fn count_path(db: &Path, count: u32) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(format!(".shards-of-{count}.lock"));
    PathBuf::from(name)
}

/// A process holding one of the shard lock files of database `db`, if one is held.
fn shard_holder(db: &Path) -> Option<StoreError> {
    files_beside(db, ".shard-")
        .ok()?
        .into_iter()
        .find_map(|(path, _)| {
            // Held if it cannot be claimed; a claim that succeeds is let go at once.
            match claim(&path, Mode::Shared) {
                Err(e @ StoreError::InUse { .. }) => Some(e),
                _ => None,
            }
        })
}

/// `breakthrough.db` → `breakthrough.db.lock`, or for shard 2 of 4 `breakthrough.db.shard-2-of-4.lock`.
fn lock_path(db: &Path, shard: Option<(u32, u32)>) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    match shard {
        None => name.push(".lock"),
        Some((n, count)) => name.push(format!(".shard-{n}-of-{count}.lock")),
    }
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
        let first = InstanceLock::acquire_for(&url, None)
            .expect("first")
            .expect("a file");
        match InstanceLock::acquire_for(&url, None) {
            Err(StoreError::InUse { holder, .. }) => {
                assert!(
                    holder.starts_with(&format!("process {}", std::process::id())),
                    "{holder}"
                );
            }
            other => panic!("expected InUse, got {other:?}"),
        }
        drop(first);
        assert!(InstanceLock::acquire_for(&url, None)
            .expect("after")
            .is_some());
        assert!(InstanceLock::acquire_for("sqlite::memory:", None)
            .expect("memory")
            .is_none());
    }

    #[test]
    fn processes_share_a_database_by_shards_but_never_a_shard() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("x.db").display());
        let of_two = |first, last| {
            Some(Shards {
                count: 2,
                first,
                last,
            })
        };
        let a = InstanceLock::acquire_for(&url, of_two(0, 0))
            .expect("shard 0")
            .expect("a file");
        let b = InstanceLock::acquire_for(&url, of_two(1, 1))
            .expect("shard 1")
            .expect("a file");
        let me = format!("process {}", std::process::id());
        for (shards, what) in [
            (of_two(1, 1), "shard 1 again"),
            (of_two(0, 1), "both"),
            (None, "all"),
        ] {
            match InstanceLock::acquire_for(&url, shards) {
                Err(StoreError::InUse { holder, lock }) => {
                    assert!(holder.starts_with(&me), "{what}: {holder}");
                    assert!(
                        lock.to_string_lossy().contains(".shard-"),
                        "{what}: {lock:?}"
                    );
                }
                other => panic!("{what}: expected InUse, got {other:?}"),
            }
        }
        drop((a, b));
        let all = InstanceLock::acquire_for(&url, None)
            .expect("all")
            .expect("a file");
        assert!(matches!(
            InstanceLock::acquire_for(&url, of_two(0, 0)),
            Err(StoreError::InUse { .. })
        ));
        drop(all);
        let both = InstanceLock::acquire_for(&url, of_two(0, 1))
            .expect("after")
            .expect("a file");
        // A process with another shard count would serve servers these serve.
        let of_three = Some(Shards {
            count: 3,
            first: 2,
            last: 2,
        });
        match InstanceLock::acquire_for(&url, of_three) {
            Err(StoreError::InUse { holder, lock }) => {
                assert_eq!(holder, "processes running SHARD_COUNT=2");
                assert!(
                    lock.to_string_lossy().ends_with("x.db.shards-of-2.lock"),
                    "{lock:?}"
                );
            }
            other => panic!("another count: expected InUse, got {other:?}"),
        }
        drop(both);
        assert!(InstanceLock::acquire_for(&url, of_three)
            .expect("once the others are gone")
            .is_some());
    }
}
