//! The data directory (`--location`): snapshots plus an append-only change log, so that every
//! acknowledged write survives a crash and a write costs its own size, not the account's.
//!
//! # On disk
//!
//! ```text
//! DIR                          locked (flock) by the server that owns it, while it runs
//! DIR/snapshot-<g>.<crc>.bin   the account at the start of generation g, in `snapshot`'s
//!                              layout; <crc> is the CRC-32 of its bytes, 8 hex digits. Its
//!                              meta says which service the account models (none: Table
//!                              storage). Earlier servers wrote `snapshot-<g>.<crc>.json`,
//!                              the playground's export (its `target` member likewise),
//!                              which is still read: the next snapshot is written as `.bin`
//! DIR/changes-<g>.log          what changed since snapshot g: see `log` for the framing, and
//!                              `record` for what a record holds (one per change set)
//! DIR/*.tmp                    a snapshot being written; never read
//! DIR/*.damaged                copies `--repair` set aside; never read
//! ```
//!
//! The account is snapshot g (or empty when g = 0 and there is none) with the whole records
//! of `changes-<g>` replayed in order, for the largest g with a snapshot. Older files are
//! leftovers of a finished switch and are removed on start.
//!
//! # Why a crash at any point is safe
//!
//! A write: the request runs in memory, its change set is appended as one record and
//! `sync_data` returns, then (and only then) the response is sent. Records of requests that
//! arrive while a sync is in flight are appended together by the next write and share the
//! next sync (the group commit, `commit`); each group is durable before the next is written.
//! A crash before the sync leaves at most a torn tail, never acknowledged: recovery cuts it
//! off (whole records in it, never acknowledged either, may be kept). A batch is one record,
//! so it is all there or not at all.
//!
//! A snapshot (when the log outgrows `max(--snapshot-bytes, last snapshot)`, so that the
//! cost per write stays constant), from generation g to g+1:
//! 1. write `snapshot-<g+1>.bin.tmp`, `sync_all`; a crash leaves a `.tmp`, ignored;
//! 2. rename it to `snapshot-<g+1>.<crc>.bin`, sync the directory; from here recovery picks
//!    g+1, and snapshot g+1 holds everything snapshot g + `changes-<g>` held (it was written
//!    from memory, which held exactly those, under the same lock);
//! 3. create `changes-<g+1>.log` with its header, `sync_all`, sync the directory; a crash
//!    before the header is whole leaves a log that reads as empty, which is right;
//! 4. remove snapshot g and `changes-<g>`; a crash leaves them, removed on start.
//!
//! # What is damage, and refused
//!
//! Recovery starts only from files that say what was acknowledged; anything else stops it
//! with a message naming the file (and the offset) and `--repair`, and changes nothing:
//! - a log record that fails its checksum with whole records after it, or that is complete
//!   but fails it (only an incomplete last record is a torn tail; `log`);
//! - a log header that is neither whole nor the start of one being created;
//! - a snapshot whose bytes do not match the checksum in its name;
//! - a log that is missing or empty although its snapshot is the newest and no switch was
//!   under way (the previous generation's files are gone);
//! - a `changes-<g>` newer than every snapshot, which the sequence above cannot leave (step
//!   3 follows the durable rename of step 2); `--repair` refuses it too.
//!
//! `--repair` keeps every record that reads whole and applies, copies the damaged files
//! aside, says what it dropped, and writes what it kept as the next snapshot.
//!
//! # Which service the account models
//!
//! A directory keeps its account's target: the newest snapshot names it (a snapshot without
//! a `target`, or a directory with records and no snapshot, holds a Table storage account; a
//! server that starts a new directory for Cosmos DB for Table writes a snapshot before it
//! listens). Opening a directory that holds anything with the other target is refused before
//! anything on disk changes (a torn tail is cut only after the check).

use super::args::{service_name, target_flag};
use super::commit::{Committer, GroupCommit};
use super::crc_io::{CrcReader, CrcWriter};
use super::export;
use super::log::{self, Damage, LogWriter};
use super::record::{self, Tables};
use super::record_bytes;
use super::snapshot;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use tablescope_engine::{Account, ChangeSet, Target};

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
    /// Appends and syncs the log's records, in groups (declared before the lock, so that it
    /// stops first when the store is dropped).
    committer: Committer,
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
    /// With `--repair`: what was dropped or rebuilt, one line each (empty when nothing was).
    pub repairs: Vec<String>,
    /// The service the account models: the directory's, or (for a directory that holds
    /// nothing yet) the one it was opened with.
    pub target: Target,
}

/// A snapshot file: `snapshot-<g>.<crc32 of its bytes, 8 hex digits>.bin` (`snapshot`'s
/// layout), or `.json` (the playground's export, as earlier servers wrote snapshots).
#[derive(Debug, Clone)]
struct SnapshotFile {
    generation: u64,
    /// `None` for a name without one (`snapshot-<g>.json`, as older servers wrote).
    crc: Option<u32>,
    /// In `snapshot`'s layout (`.bin`), else the JSON export (`.json`).
    binary: bool,
    path: PathBuf,
}

fn snapshot_name(g: u64, crc: u32) -> String {
    format!("snapshot-{g}.{crc:08x}.bin")
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
    snapshots: Vec<SnapshotFile>,
    logs: Vec<u64>,
    temporary: Vec<PathBuf>,
}

impl Listing {
    fn snapshot(&self, g: u64) -> Option<&SnapshotFile> {
        self.snapshots.iter().find(|s| s.generation == g)
    }
}

fn list(dir: &Path) -> io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.ends_with(".tmp") {
            listing.temporary.push(entry.path());
        } else if let Some((stem, binary)) = name.strip_prefix("snapshot-").and_then(|n| {
            n.strip_suffix(".bin")
                .map(|s| (s, true))
                .or_else(|| n.strip_suffix(".json").map(|s| (s, false)))
        }) {
            let (g, crc) = match stem.split_once('.') {
                Some((g, crc)) if crc.len() == 8 => (g, u32::from_str_radix(crc, 16).ok()),
                Some(_) => continue,
                None => (stem, None),
            };
            let Ok(generation) = g.parse::<u64>() else {
                continue;
            };
            if listing.snapshot(generation).is_some() {
                return Err(other(format!(
                    "{} holds two snapshots of generation {generation}; nothing was changed",
                    dir.display()
                )));
            }
            if binary && crc.is_none() {
                continue;
            }
            listing.snapshots.push(SnapshotFile {
                generation,
                crc,
                binary,
                path: entry.path(),
            });
        } else if let Some(g) = name
            .strip_prefix("changes-")
            .and_then(|n| n.strip_suffix(".log"))
            .and_then(|n| n.parse::<u64>().ok())
        {
            listing.logs.push(g);
        }
    }
    Ok(listing)
}

/// How [`recover`] treats the directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Read only (an export, while a server may be running).
    Read,
    /// To append: a torn tail is cut off. Damage is refused.
    Open,
    /// `--repair`: damage is dropped, and listed in `Recovered::repairs`.
    Repair,
}

/// Loads a snapshot after checking its bytes against the checksum in its name.
fn load_snapshot(
    snapshot: &SnapshotFile,
    mode: Mode,
    repairs: &mut Vec<String>,
) -> io::Result<Tables> {
    let path = &snapshot.path;
    // Read as it streams in (the byte layout holds one partition at a time); the checksum
    // covers the whole file, so a file refused part way is still read to its end, and a
    // checksum that does not match is reported rather than what the damage made of it.
    let mut input = CrcReader::new(io::BufReader::with_capacity(1 << 16, File::open(path)?));
    let read = if snapshot.binary {
        snapshot::read_from(&mut input)
    } else {
        export::read(&mut input)
    };
    io::copy(&mut input, &mut io::sink())?;
    let actual = input.hasher.finalize();
    let problem = match snapshot.crc {
        Some(crc) if crc == actual => None,
        Some(crc) => Some(format!(
            "its bytes do not match the checksum in its name ({actual:08x}, not {crc:08x}): \
             it was changed after it was written"
        )),
        None => Some(
            "its name carries no checksum (an older server wrote it, or it was renamed)"
                .to_string(),
        ),
    };
    if let Some(problem) = problem {
        if mode != Mode::Repair {
            return Err(other(format!(
                "{}: {problem}; nothing was changed. Start with --repair to load it as it reads \
                 and write a checked snapshot of it",
                path.display()
            )));
        }
        repairs.push(format!("{}: {problem}; loaded as it reads", path.display()));
    }
    read.map_err(|e| other(format!("{}: {e}", path.display())))
}

/// What the account's target must be: `expected`, when a target was asked for (a directory
/// holding an account of another is refused); `fresh` is the target of a directory that holds
/// nothing yet (no snapshot, no record).
#[derive(Debug, Clone, Copy)]
struct Targets {
    expected: Option<Target>,
    fresh: Target,
}

/// Gives tables that hold nothing yet the fresh target; refuses tables that hold an account
/// of another target than the one expected.
fn check_target(tables: &mut Tables, written: bool, targets: Targets) -> io::Result<Target> {
    if !written {
        tables.set_target_when_empty(targets.fresh);
        return Ok(tables.target());
    }
    match targets.expected {
        Some(want) if want != tables.target() => {
            let held = tables.target();
            return Err(other(format!(
                "it holds an {} account (made with --target {}), which --target {} cannot \
                 open; nothing was changed. Start without --target, or with --target {}, to \
                 serve it",
                service_name(held),
                target_flag(held),
                target_flag(want),
                target_flag(held),
            )));
        }
        _ => {}
    }
    Ok(tables.target())
}

/// Loads the account that `dir` holds; in [`Mode::Open`] and [`Mode::Repair`] also cuts a
/// torn tail off the log, so that appends continue after the last whole record. With
/// an expected target, a directory holding an account of another target is refused first.
fn recover(dir: &Path, mode: Mode, targets: Targets) -> io::Result<(Tables, Recovered, Listing)> {
    let listing = list(dir)?;
    let generation = listing
        .snapshots
        .iter()
        .map(|s| s.generation)
        .max()
        .unwrap_or(0);
    if let Some(g) = listing.logs.iter().find(|g| **g > generation) {
        return Err(other(format!(
            "{} has no snapshot of generation {g}: the directory was not written by this \
             server alone; nothing was changed",
            log_path(dir, *g).display()
        )));
    }
    let mut recovered = Recovered {
        generation,
        records: 0,
        torn_bytes: 0,
        entities: 0,
        repairs: Vec::new(),
        target: Target::TableStorage,
    };
    let mut tables = match listing.snapshot(generation) {
        None => Tables::default(),
        Some(snapshot) => load_snapshot(snapshot, mode, &mut recovered.repairs)?,
    };
    // A log that is missing or holds no header is right at generation 0 with no snapshot (a
    // new directory), or while the previous generation's files are still there (a crash
    // between writing a snapshot and creating its log). Otherwise its records are lost.
    let switching = listing.snapshots.iter().any(|s| s.generation < generation)
        || listing.logs.iter().any(|g| *g < generation);
    let may_be_empty = listing.snapshots.is_empty() || switching;
    let path = log_path(dir, generation);
    let lost = |what: &str, repairs: &mut Vec<String>| {
        if may_be_empty {
            return Ok(());
        }
        let snapshot = listing
            .snapshot(generation)
            .map_or_else(String::new, |s| s.path.display().to_string());
        if mode != Mode::Repair {
            return Err(other(format!(
                "{} is {what}, but {snapshot} says its changes follow in it: writes acknowledged \
                 since that snapshot would be lost; nothing was changed. Start with --repair to \
                 start from the snapshot alone",
                path.display()
            )));
        }
        repairs.push(format!(
            "{} is {what}: started from {snapshot} alone",
            path.display()
        ));
        Ok(())
    };
    let snapshot = !listing.snapshots.is_empty();
    if !listing.logs.contains(&generation) {
        recovered.target = check_target(&mut tables, snapshot, targets)?;
        lost("missing", &mut recovered.repairs)?;
        recovered.entities = tables.entity_count();
        return Ok((tables, recovered, listing));
    }
    let damage = if mode == Mode::Repair {
        Damage::Skip
    } else {
        Damage::Refuse
    };
    let mut failure = None;
    let mut dropped = Vec::new();
    let scan = log::scan(&path, generation, damage, |offset, payload| {
        let ops = record_bytes::decode(payload)
            .map_err(|e| format!("a checked record does not parse: {e}"))
            .and_then(|ops| tables.check(&ops).map(|()| ops));
        match ops {
            Ok(ops) => {
                for op in ops {
                    tables.apply(op).map_err(other)?;
                }
                Ok(())
            }
            Err(e) if mode == Mode::Repair => {
                dropped.push(format!("the record at byte {offset}: {e}"));
                Ok(())
            }
            Err(e) => {
                failure = Some(format!("the record at byte {offset}: {e}"));
                Err(other(String::new()))
            }
        }
    })
    .map_err(|e| match failure.take() {
        Some(f) => other(format!("{}: {f}", path.display())),
        None => other(format!("{}: {e}", path.display())),
    })?;
    if scan.generation.is_none() {
        lost("empty (it has no whole header)", &mut recovered.repairs)?;
    }
    for range in &scan.skipped {
        recovered.repairs.push(format!(
            "{}: dropped bytes {} to {} (not a whole record)",
            path.display(),
            range.start,
            range.end
        ));
    }
    let dropped_records = dropped.len() as u64;
    for d in dropped {
        recovered
            .repairs
            .push(format!("{}: dropped {d}", path.display()));
    }
    recovered.records = scan.records - dropped_records;
    recovered.torn_bytes = scan.file_len - scan.valid_len;
    recovered.target = check_target(&mut tables, snapshot || scan.records > 0, targets)?;
    if mode != Mode::Read && scan.generation.is_some() && scan.valid_len < scan.file_len {
        let file = OpenOptions::new().write(true).open(&path)?;
        file.set_len(scan.valid_len)?;
        file.sync_all()?;
    }
    recovered.entities = tables.entity_count();
    Ok((tables, recovered, listing))
}

/// Makes a directory entry's creation, rename or removal durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Takes the directory's lock: an OS lock (`flock`) on the directory itself, held while the
/// returned file is open, so no file can be deleted to defeat it. (Where a directory cannot
/// be opened as a file, on Windows, it is a `LOCK` file opened without delete sharing.)
fn lock(dir: &Path) -> io::Result<File> {
    #[cfg(unix)]
    let file = File::open(dir)?;
    #[cfg(not(unix))]
    let file = {
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(windows)]
        std::os::windows::fs::OpenOptionsExt::share_mode(&mut options, 0x1 | 0x2);
        options.open(dir.join("LOCK"))?
    };
    file.try_lock().map_err(|_| {
        other(format!(
            "{} is in use by another tablescope-serve",
            dir.display()
        ))
    })?;
    Ok(file)
}

/// A file name beside `path` for a copy of it set aside by a repair: `<name>.damaged`, or
/// `<name>.damaged-<n>` when that is taken.
fn aside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut n = 0;
    loop {
        let candidate = path.with_file_name(if n == 0 {
            format!("{name}.damaged")
        } else {
            format!("{name}.damaged-{n}")
        });
        if !candidate.exists() {
            return candidate;
        }
        n += 1;
    }
}

impl Store {
    /// Opens (creating if needed) the data directory, loads what it holds into `account`
    /// (which must be empty), and takes the directory's lock. Damage (a record that fails its
    /// checksum with records after it, a damaged header or snapshot, a missing log) is
    /// refused with an error that names the file, the offset and `--repair`.
    pub fn open(
        dir: &Path,
        snapshot_bytes: u64,
        account: &mut Account,
    ) -> io::Result<(Store, Recovered)> {
        Store::open_as(dir, snapshot_bytes, Mode::Open, None, account)
    }

    /// [`Store::open`] for `--repair`: keeps every record that reads whole and applies, and
    /// lists what it dropped in `Recovered::repairs`. When it drops anything, it first copies
    /// the damaged files aside (`<name>.damaged`), then writes what it kept as a new
    /// snapshot, so the directory is whole again.
    pub fn repair(
        dir: &Path,
        snapshot_bytes: u64,
        account: &mut Account,
    ) -> io::Result<(Store, Recovered)> {
        Store::open_as(dir, snapshot_bytes, Mode::Repair, None, account)
    }

    /// [`Store::open`] (or with `repair`, [`Store::repair`]) for an account on `target`: a
    /// directory that holds an account of the other target is refused, naming both, before
    /// anything on disk changes; one that holds nothing yet takes `target`.
    pub fn open_for(
        dir: &Path,
        snapshot_bytes: u64,
        repair: bool,
        target: Target,
        account: &mut Account,
    ) -> io::Result<(Store, Recovered)> {
        let mode = if repair { Mode::Repair } else { Mode::Open };
        Store::open_as(dir, snapshot_bytes, mode, Some(target), account)
    }

    fn open_as(
        dir: &Path,
        snapshot_bytes: u64,
        mode: Mode,
        expected: Option<Target>,
        account: &mut Account,
    ) -> io::Result<(Store, Recovered)> {
        fs::create_dir_all(dir)?;
        let lock = lock(dir)?;
        let targets = Targets {
            expected,
            fresh: expected.unwrap_or(account.target()),
        };
        let (tables, recovered, listing) = recover(dir, mode, targets)?;
        let g = recovered.generation;
        let repaired = !recovered.repairs.is_empty();
        if repaired {
            let mut damaged: Vec<PathBuf> = listing
                .snapshot(g)
                .map(|s| s.path.clone())
                .into_iter()
                .collect();
            if listing.logs.contains(&g) {
                damaged.push(log_path(dir, g));
            }
            for path in damaged {
                let copy = aside(&path);
                fs::copy(&path, &copy)?;
                File::open(&copy)?.sync_all()?;
            }
            sync_dir(dir)?;
        }
        for path in &listing.temporary {
            fs::remove_file(path)?;
        }
        for old in listing.snapshots.iter().filter(|s| s.generation < g) {
            fs::remove_file(&old.path)?;
        }
        for old in listing.logs.iter().filter(|s| **s < g) {
            fs::remove_file(log_path(dir, *old))?;
        }
        let path = log_path(dir, g);
        let log = match fs::metadata(&path) {
            Ok(meta) if meta.len() >= log::HEADER_LEN => LogWriter::open(&path, meta.len())?,
            Ok(_) => LogWriter::create(&path, g)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => LogWriter::create(&path, g)?,
            Err(e) => return Err(e),
        };
        sync_dir(dir)?;
        let snapshot_len = listing
            .snapshot(g)
            .map_or(0, |s| fs::metadata(&s.path).map_or(0, |m| m.len()));
        tables.restore(account);
        let committer = Committer::start(log.try_clone_file()?)?;
        let mut store = Store {
            dir: dir.to_path_buf(),
            generation: g,
            log,
            snapshot_len,
            snapshot_bytes,
            committer,
            _lock: lock,
        };
        if repaired {
            store.snapshot(account)?;
        }
        Ok((store, recovered))
    }

    /// Loads what `dir` holds into `account` without changing the directory.
    pub fn read(dir: &Path, account: &mut Account) -> io::Result<Recovered> {
        // A running server may switch generations between the listing and the reads; the
        // files it removes are whole copies of the newer ones, so reading again is enough.
        let mut last = None;
        for _ in 0..5 {
            let targets = Targets {
                expected: None,
                fresh: account.target(),
            };
            match recover(dir, Mode::Read, targets) {
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
        self.stage(account, sets)?;
        self.committer.handle().drain()
    }

    /// Stages the change sets of one request for the group commit, as one record each, and
    /// returns the number to wait for ([`GroupCommit::durable`]) before acknowledging them. A
    /// set that replaced the whole account (an import) is recorded by a snapshot, durable on
    /// return.
    pub fn stage(&mut self, account: &Account, sets: &[ChangeSet]) -> io::Result<u64> {
        let mut payloads = Vec::with_capacity(sets.len());
        for set in sets {
            match record::ops(account, set) {
                Some(ops) => payloads.push(record_bytes::encode(&ops)?),
                None => {
                    self.snapshot(account)?;
                    return Ok(self.committer.handle().staged());
                }
            }
        }
        if payloads.is_empty() {
            return Ok(self.committer.handle().staged());
        }
        let mut bytes = Vec::new();
        self.log.frame(&payloads, &mut bytes)?;
        Ok(self.committer.handle().stage(&bytes))
    }

    /// The group commit of this store's log, to wait on outside the account's lock.
    pub fn group(&self) -> &GroupCommit {
        self.committer.handle()
    }

    /// Whether the log has grown enough that a snapshot pays for itself.
    pub fn wants_snapshot(&self) -> bool {
        self.log.len() > self.snapshot_bytes.max(self.snapshot_len)
    }

    /// Writes the account as the next generation's snapshot and starts its empty log.
    pub fn snapshot(&mut self, account: &Account) -> io::Result<()> {
        // The log being replaced is written and synced first: its appends stay in order, and
        // nothing writes to it once it is removed.
        self.committer.handle().drain()?;
        let next = self.generation + 1;
        let temporary = self.dir.join(format!("snapshot-{next}.bin.tmp"));
        let written = (|| {
            let mut out =
                CrcWriter::new(BufWriter::with_capacity(1 << 16, File::create(&temporary)?));
            snapshot::write(account, &mut out)?;
            let crc = out.hasher.clone().finalize();
            let file = out.inner.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok::<(u64, u32), io::Error>((file.metadata()?.len(), crc))
        })();
        let (len, crc) = match written {
            Ok(written) => written,
            Err(e) => {
                let _ = fs::remove_file(&temporary);
                return Err(e);
            }
        };
        let target = self.dir.join(snapshot_name(next, crc));
        fs::rename(&temporary, &target)?;
        sync_dir(&self.dir)?;
        self.log = LogWriter::create(&log_path(&self.dir, next), next)?;
        sync_dir(&self.dir)?;
        // Everything staged is in the snapshot, durable: appends continue in the new log.
        self.committer.handle().switch(self.log.try_clone_file()?);
        let previous = self.generation;
        self.generation = next;
        self.snapshot_len = len;
        // Leftovers only: a failure here loses nothing (they are removed on the next start).
        if let Ok(listing) = list(&self.dir) {
            for old in listing
                .snapshots
                .iter()
                .filter(|s| s.generation <= previous)
            {
                let _ = fs::remove_file(&old.path);
            }
        }
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
