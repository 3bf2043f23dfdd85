//! Group commit: the change log's appends and syncs, on a thread of their own, so that writes
//! arriving while a sync is in flight share the next one.
//!
//! A request's records are framed under the account's lock and *staged* here, which numbers
//! them (a sequence number per staged request, in the order the account applied them). The
//! thread takes everything staged so far, appends it with one write, calls `sync_data`, and
//! publishes the last number it covered. A response leaves only once the number it waits for
//! is published: a write's own, and for a read the last one staged when it ran, since a read
//! may show a write that is not yet durable. So every acknowledgement still follows the sync
//! that covers what it acknowledges or shows, and the log is still appended one group at a
//! time, each durable before the next is written (a crash leaves at most a torn tail).

use std::fs::File;
use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use tokio::sync::watch;

/// What is durable: every staged number up to `seq`, unless a write or sync `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Synced {
    pub seq: u64,
    pub failed: bool,
}

#[derive(Debug)]
struct Queue {
    /// The log the staged bytes go to.
    file: Arc<File>,
    /// Framed records staged and not yet handed to a write.
    bytes: Vec<u8>,
    /// The number of the last staged request.
    staged: u64,
    /// A write or sync is under way.
    busy: bool,
    failure: Option<String>,
    stop: bool,
}

#[derive(Debug)]
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when bytes are staged (or the thread is to stop).
    work: Condvar,
    /// Signalled when a write and sync finish.
    done: Condvar,
    synced: watch::Sender<Synced>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The group commit of one change log; cheap to clone (clones share the thread).
#[derive(Debug, Clone)]
pub struct GroupCommit {
    shared: Arc<Shared>,
}

/// Owns the thread: stopping it (on drop) writes and syncs what is staged, then joins it.
#[derive(Debug)]
pub struct Committer {
    handle: GroupCommit,
    thread: Option<JoinHandle<()>>,
}

impl Committer {
    /// Starts the thread that appends to `file` (opened at its end).
    pub fn start(file: File) -> io::Result<Committer> {
        let (synced, _) = watch::channel(Synced {
            seq: 0,
            failed: false,
        });
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                file: Arc::new(file),
                bytes: Vec::new(),
                staged: 0,
                busy: false,
                failure: None,
                stop: false,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
            synced,
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("tablescope-commit".into())
            .spawn(move || run(&worker))?;
        Ok(Committer {
            handle: GroupCommit { shared },
            thread: Some(thread),
        })
    }

    pub fn handle(&self) -> &GroupCommit {
        &self.handle
    }
}

impl Drop for Committer {
    fn drop(&mut self) {
        self.handle.shared.lock().stop = true;
        self.handle.shared.work.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(shared: &Shared) {
    let mut spare = Vec::new();
    loop {
        let (file, mut bytes, seq) = {
            let mut queue = shared.lock();
            while queue.bytes.is_empty() && !queue.stop {
                queue = shared.work.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
            if queue.bytes.is_empty() || queue.failure.is_some() {
                return;
            }
            queue.busy = true;
            let bytes = std::mem::replace(&mut queue.bytes, std::mem::take(&mut spare));
            (Arc::clone(&queue.file), bytes, queue.staged)
        };
        let result = (&*file).write_all(&bytes).and_then(|()| file.sync_data());
        bytes.clear();
        spare = bytes;
        let mut queue = shared.lock();
        queue.busy = false;
        match result {
            Ok(()) => shared.synced.send_modify(|s| s.seq = s.seq.max(seq)),
            Err(e) => {
                queue.failure = Some(format!("the change log could not be written: {e}"));
                shared.synced.send_modify(|s| s.failed = true);
            }
        }
        drop(queue);
        shared.done.notify_all();
    }
}

impl GroupCommit {
    /// Stages framed records for the next group; returns the number to wait for.
    pub fn stage(&self, bytes: &[u8]) -> u64 {
        let mut queue = self.shared.lock();
        queue.bytes.extend_from_slice(bytes);
        queue.staged += 1;
        let seq = queue.staged;
        drop(queue);
        self.shared.work.notify_one();
        seq
    }

    /// The number of the last staged request: what a read that ran now waits for.
    pub fn staged(&self) -> u64 {
        self.shared.lock().staged
    }

    /// Why the log can no longer be written, once it cannot.
    pub fn failure(&self) -> Option<String> {
        self.shared.lock().failure.clone()
    }

    /// Blocks until everything staged is written and synced (before a snapshot switches
    /// the log, and for callers that commit one request at a time).
    pub fn drain(&self) -> io::Result<()> {
        let mut queue = self.shared.lock();
        while (!queue.bytes.is_empty() || queue.busy) && queue.failure.is_none() {
            queue = self
                .shared
                .done
                .wait(queue)
                .unwrap_or_else(|e| e.into_inner());
        }
        match &queue.failure {
            Some(failure) => Err(io::Error::other(failure.clone())),
            None => Ok(()),
        }
    }

    /// After a snapshot made everything staged durable (the caller drained first): appends
    /// go to the next generation's log from here.
    pub fn switch(&self, file: File) {
        let mut queue = self.shared.lock();
        queue.file = Arc::new(file);
        let seq = queue.staged;
        drop(queue);
        self.shared.synced.send_modify(|s| s.seq = s.seq.max(seq));
    }

    /// Waits until `seq` is durable; `Err` with why when it can no longer become so.
    pub async fn durable(&self, seq: u64) -> Result<(), String> {
        let mut synced = self.shared.synced.subscribe();
        let state = synced
            .wait_for(|s| s.seq >= seq || s.failed)
            .await
            .map(|s| *s);
        match state {
            Ok(s) if s.seq >= seq => Ok(()),
            _ => Err(self
                .failure()
                .unwrap_or_else(|| "the change log stopped".to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{self, Damage, LogWriter};

    #[test]
    fn staged_records_are_written_once_each_in_order_and_then_durable() {
        let dir = std::env::temp_dir().join(format!("tablescope-commit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("changes-1.log");
        let mut log = LogWriter::create(&path, 1).unwrap();
        let committer = Committer::start(log.try_clone_file().unwrap()).unwrap();
        let group = committer.handle().clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // Four threads stage 50 records each while the thread writes and syncs; each
        // stage's number is the order the records must be read back in.
        let log = std::sync::Mutex::new(&mut log);
        let staged = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for t in 0..4 {
                let (group, log, staged) = (&group, &log, &staged);
                s.spawn(move || {
                    for i in 0..50 {
                        let payload = format!("{t}-{i}").into_bytes();
                        let mut bytes = Vec::new();
                        // Framing and staging together, as under the account's lock.
                        let mut log = log.lock().unwrap();
                        log.frame(std::slice::from_ref(&payload), &mut bytes)
                            .unwrap();
                        let seq = group.stage(&bytes);
                        drop(log);
                        staged.lock().unwrap().push((seq, payload));
                    }
                });
            }
        });
        let mut staged = staged.into_inner().unwrap();
        staged.sort();
        let last = staged.last().unwrap().0;
        assert_eq!(last, 200);
        runtime.block_on(group.durable(last)).unwrap();
        let mut read = Vec::new();
        log::scan(&path, 1, Damage::Refuse, |_, payload| {
            read.push(payload.to_vec());
            Ok(())
        })
        .unwrap();
        let expected: Vec<Vec<u8>> = staged.into_iter().map(|(_, p)| p).collect();
        assert_eq!(read, expected);
        assert_eq!(group.failure(), None);
        drop(committer);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
