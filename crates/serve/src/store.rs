//! The data directory (`--location`): snapshots plus an append-only change log, so that every
//! acknowledged write survives a crash and a write costs its own size, not the account's.
//!
//! # On disk
//!
//! ```text
//! DIR/LOCK                 held (flock) by the server that owns DIR
//! DIR/snapshot-<g>.json    the account at the start of generation g, in the playground's
//!                          export format (loadable in the browser as it is)
//! DIR/changes-<g>.log      what changed since snapshot-<g>: see `log` for the framing, and
//!                          `record` for what a record holds (one per change set)
//! DIR/*.tmp                a snapshot being written; never read
//! ```
//!
//! The account is `snapshot-<g>` (or empty when g = 0 and there is none) with the whole
//! records of `changes-<g>` replayed in order, for the largest g with a snapshot. Older files
//! are leftovers of a finished switch and are removed on start.
//!
//! # Why a crash at any point is safe
//!
//! A write: the request runs in memory, its change set is appended as one record and
//! `sync_data` returns, then (and only then) the response is sent. A crash before the sync
//! leaves at most a torn record, never acknowledged: recovery cuts it off. A batch is one
//! record, so it is all there or not at all.
//!
//! A snapshot (when the log outgrows `max(--snapshot-bytes, last snapshot)`, so that the
//! cost per write stays constant), from generation g to g+1:
//! 1. write `snapshot-<g+1>.json.tmp`, `sync_all`; a crash leaves a `.tmp`, ignored;
//! 2. rename it to `snapshot-<g+1>.json`, sync the directory; from here recovery picks g+1,
//!    and `snapshot-<g+1>` holds everything `snapshot-<g>` + `changes-<g>` held (it was
//!    written from memory, which held exactly those, under the same lock);
//! 3. create `changes-<g+1>.log` with its header, `sync_all`, sync the directory; a crash
//!    before the header is whole leaves a log that reads as empty, which is right;
//! 4. remove `snapshot-<g>` and `changes-<g>`; a crash leaves them, removed on start.
//!
//! A `changes-<g>` newer than every snapshot cannot come from this sequence (step 3 follows
//! the durable rename of step 2), so recovery refuses to start rather than guess.

use super::export;
use super::log::{self, LogWriter};
use super::record::{self, Op, Tables};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use tablescope_engine::{Account, ChangeSet};

/// The default log size that triggers a snapshot.
pub const DEFAULT_SNAPSHOT_BYTES: u64 = 64 << 20;

/// An open data directory, owned by this process.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    generation: u64,
    log: LogWriter,
    /// The size of the current snapshot; the log may grow to it before the next one.
    snapshot_len: u64,
    snapshot_bytes: u64,
    _lock: File,
}

/// What recovery found, for the start-up line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    pub generation: u64,
    pub records: u64,
    /// Bytes of a torn tail that were cut off.
    pub torn_bytes: u64,
    pub entities: usize,
}

fn snapshot_path(dir: &Path, g: u64) -> PathBuf {
    dir.join(format!("snapshot-{g}.json"))
}

fn log_path(dir: &Path, g: u64) -> PathBuf {
    dir.join(format!("changes-{g}.log"))
}

fn other(message: String) -> io::Error {
    io::Error::other(message)
}

/// The generations of the snapshots and logs in `dir`, and its `.tmp` files.
#[derive(Debug, Default)]
struct Listing {
    snapshots: Vec<u64>,
    logs: Vec<u64>,
    temporary: Vec<PathBuf>,
}

fn list(dir: &Path) -> io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let number = |prefix: &str, suffix: &str| {
            name.strip_prefix(prefix)?
                .strip_suffix(suffix)?
                .parse::<u64>()
                .ok()
        };
        if name.ends_with(".tmp") {
            listing.temporary.push(entry.path());
        } else if let Some(g) = number("snapshot-", ".json") {
            listing.snapshots.push(g);
        } else if let Some(g) = number("changes-", ".log") {
            listing.logs.push(g);
        }
    }
    Ok(listing)
}

/// Loads the account that `dir` holds. With `repair`, also makes the directory clean for
/// appending: the torn tail cut off, leftovers removed. Without it, reads only (an export
/// while a server may be running).
fn recover(dir: &Path, repair: bool) -> io::Result<(Tables, Recovered, Listing)> {
    let listing = list(dir)?;
    let generation = listing.snapshots.iter().copied().max().unwrap_or(0);
    if let Some(g) = listing.logs.iter().find(|g| **g > generation) {
        return Err(other(format!(
            "{} has no snapshot-{g}.json: the directory was not written by this server alone; \
             nothing was changed",
            log_path(dir, *g).display()
        )));
    }
    let mut tables = if listing.snapshots.is_empty() {
        Tables::default()
    } else {
        let path = snapshot_path(dir, generation);
        let file = io::BufReader::new(File::open(&path)?);
        export::read(file).map_err(|e| other(format!("{}: {e}", path.display())))?
    };
    let path = log_path(dir, generation);
    let mut recovered = Recovered {
        generation,
        records: 0,
        torn_bytes: 0,
        entities: 0,
    };
    if listing.logs.contains(&generation) {
        let mut failure = None;
        let scan = log::scan(&path, |payload| {
            let ops: Vec<Op> = serde_json::from_slice(payload)
                .map_err(|e| other(format!("a checked record does not parse: {e}")))?;
            for op in ops {
                if let Err(e) = tables.apply(op) {
                    failure = Some(e.clone());
                    return Err(other(e));
                }
            }
            Ok(())
        })
        .map_err(|e| other(format!("{}: {e}", path.display())))?;
        if let Some(e) = failure {
            return Err(other(format!("{}: {e}", path.display())));
        }
        if scan.generation.is_some_and(|g| g != generation) {
            return Err(other(format!(
                "{} says it is generation {:?}",
                path.display(),
                scan.generation
            )));
        }
        recovered.records = scan.records;
        recovered.torn_bytes = scan.file_len - scan.valid_len;
        if repair && scan.generation.is_none() {
            // Created but its header never made it whole: it holds nothing; start it again.
            fs::remove_file(&path)?;
        } else if repair && scan.valid_len < scan.file_len {
            let file = OpenOptions::new().write(true).open(&path)?;
            file.set_len(scan.valid_len)?;
            file.sync_all()?;
        }
    }
    recovered.entities = tables.entity_count();
    Ok((tables, recovered, listing))
}

/// Makes a directory entry's creation, rename or removal durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

impl Store {
    /// Opens (creating if needed) the data directory, loads what it holds into `account`
    /// (which must be empty), and takes the directory's lock.
    pub fn open(
        dir: &Path,
        snapshot_bytes: u64,
        account: &mut Account,
    ) -> io::Result<(Store, Recovered)> {
        fs::create_dir_all(dir)?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("LOCK"))?;
        lock.try_lock().map_err(|_| {
            other(format!(
                "{} is in use by another tablescope-serve",
                dir.display()
            ))
        })?;
        let (tables, recovered, listing) = recover(dir, true)?;
        let g = recovered.generation;
        for path in &listing.temporary {
            fs::remove_file(path)?;
        }
        for old in listing.snapshots.iter().filter(|s| **s < g) {
            fs::remove_file(snapshot_path(dir, *old))?;
        }
        for old in listing.logs.iter().filter(|s| **s < g) {
            fs::remove_file(log_path(dir, *old))?;
        }
        let path = log_path(dir, g);
        let log = match fs::metadata(&path) {
            Ok(meta) => LogWriter::open(&path, meta.len())?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => LogWriter::create(&path, g)?,
            Err(e) => return Err(e),
        };
        sync_dir(dir)?;
        let snapshot_len = fs::metadata(snapshot_path(dir, g)).map_or(0, |m| m.len());
        tables.restore(account);
        let store = Store {
            dir: dir.to_path_buf(),
            generation: g,
            log,
            snapshot_len,
            snapshot_bytes,
            _lock: lock,
        };
        Ok((store, recovered))
    }

    /// Loads what `dir` holds into `account` without changing the directory.
    pub fn read(dir: &Path, account: &mut Account) -> io::Result<Recovered> {
        // A running server may switch generations between the listing and the reads; the
        // files it removes are whole copies of the newer ones, so reading again is enough.
        let mut last = None;
        for _ in 0..5 {
            match recover(dir, false) {
                Ok((tables, recovered, _)) => {
                    tables.restore(account);
                    return Ok(recovered);
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| other("the directory kept changing".into())))
    }

    /// Makes the change sets of one request durable; returns once they are. A set that
    /// replaced the whole account (an import) is recorded by a snapshot.
    pub fn commit(&mut self, account: &Account, sets: &[ChangeSet]) -> io::Result<()> {
        let mut payloads = Vec::with_capacity(sets.len());
        for set in sets {
            match record::ops(account, set) {
                Some(ops) => payloads.push(serde_json::to_vec(&ops)?),
                None => return self.snapshot(account),
            }
        }
        if !payloads.is_empty() {
            self.log.append(&payloads)?;
        }
        Ok(())
    }

    /// Whether the log has grown enough that a snapshot pays for itself.
    pub fn wants_snapshot(&self) -> bool {
        self.log.len() > self.snapshot_bytes.max(self.snapshot_len)
    }

    /// Writes the account as the next generation's snapshot and starts its empty log.
    pub fn snapshot(&mut self, account: &Account) -> io::Result<()> {
        let next = self.generation + 1;
        let target = snapshot_path(&self.dir, next);
        let temporary = self.dir.join(format!("snapshot-{next}.json.tmp"));
        let written = (|| {
            let mut out = BufWriter::with_capacity(1 << 16, File::create(&temporary)?);
            export::write(account, &mut out)?;
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok::<u64, io::Error>(file.metadata()?.len())
        })();
        let len = match written {
            Ok(len) => len,
            Err(e) => {
                let _ = fs::remove_file(&temporary);
                return Err(e);
            }
        };
        fs::rename(&temporary, &target)?;
        sync_dir(&self.dir)?;
        self.log = LogWriter::create(&log_path(&self.dir, next), next)?;
        sync_dir(&self.dir)?;
        let previous = self.generation;
        self.generation = next;
        self.snapshot_len = len;
        // Leftovers only: a failure here loses nothing (they are removed on the next start).
        let _ = fs::remove_file(snapshot_path(&self.dir, previous));
        let _ = fs::remove_file(log_path(&self.dir, previous));
        let _ = sync_dir(&self.dir);
        Ok(())
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn log_len(&self) -> u64 {
        self.log.len()
    }
}

#[cfg(test)]
mod tests;
