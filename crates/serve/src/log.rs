//! The change log file: a header naming its generation, then framed records.
//!
//! ```text
//! header: b"TSLOG\0v1" | generation: u64 LE | crc32(previous 16 bytes): u32 LE   (20 bytes)
//! record: length: u32 LE | crc32(length bytes ++ payload): u32 LE | payload        (length > 0)
//! ```
//!
//! A record is acknowledged only after it is written whole and `sync_data` returned, so the
//! acknowledged records form a prefix of the file. Records are appended in groups (one write,
//! then `sync_data`, before the next group's write), so a crash mid-append leaves at most a
//! torn tail: bytes after the last whole record with no whole record among them. That tail
//! was never acknowledged and is cut on recovery. A record that is short, has length 0 or
//! fails its checksum *with a whole record after it* is not a torn tail but damage (a bit
//! flipped on disk, an edit): recovery refuses to start rather than drop the acknowledged
//! records after it, unless told to repair. The checksum covers the length too, so a tail of
//! zeros (a file extended but not yet written) never passes as a record.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"TSLOG\0v1";
/// Bytes before the first record.
pub const HEADER_LEN: u64 = 20;
/// Bytes before each record's payload.
const FRAME_LEN: u64 = 8;

fn checksum(length: [u8; 4], payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&length);
    hasher.update(payload);
    hasher.finalize()
}

fn header(generation: u64) -> [u8; HEADER_LEN as usize] {
    let mut out = [0u8; HEADER_LEN as usize];
    out[..8].copy_from_slice(MAGIC);
    out[8..16].copy_from_slice(&generation.to_le_bytes());
    let crc = crc32fast::hash(&out[..16]);
    out[16..].copy_from_slice(&crc.to_le_bytes());
    out
}

/// Appends records to one generation's log.
///
/// Invariant: `len` is the file's length and every byte of it is durable (a header, then
/// whole records), except after an append that returned an error.
#[derive(Debug)]
pub struct LogWriter {
    file: File,
    len: u64,
}

impl LogWriter {
    /// Creates (or empties) the log of `generation` at `path`, its header durable on return.
    /// The caller syncs the directory so that the name is durable too.
    pub fn create(path: &Path, generation: u64) -> io::Result<LogWriter> {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        file.write_all(&header(generation))?;
        file.sync_all()?;
        Ok(LogWriter {
            file,
            len: HEADER_LEN,
        })
    }

    /// Opens an existing log whose first `len` bytes were checked by [`scan`] (and the file
    /// cut to them), to append after them.
    pub fn open(path: &Path, len: u64) -> io::Result<LogWriter> {
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(LogWriter { file, len })
    }

    /// The log's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Appends one record per payload with one write, and returns once they are durable.
    #[cfg(test)]
    pub fn append(&mut self, payloads: &[Vec<u8>]) -> io::Result<()> {
        let mut buf = Vec::new();
        self.frame(payloads, &mut buf)?;
        self.file.write_all(&buf)?;
        self.file.sync_data()?;
        Ok(())
    }

    /// Frames one record per payload onto `buf`, for one write by whoever appends to the
    /// file (the group commit), and counts them in [`LogWriter::len`].
    pub fn frame(&mut self, payloads: &[Vec<u8>], buf: &mut Vec<u8>) -> io::Result<()> {
        let start = buf.len();
        for payload in payloads {
            let length = u32::try_from(payload.len())
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "record size"))?
                .to_le_bytes();
            buf.reserve(payload.len() + FRAME_LEN as usize);
            buf.extend_from_slice(&length);
            buf.extend_from_slice(&checksum(length, payload).to_le_bytes());
            buf.extend_from_slice(payload);
        }
        self.len += (buf.len() - start) as u64;
        Ok(())
    }

    /// Another handle on the log file, positioned at its end, for the group commit to append
    /// through.
    pub fn try_clone_file(&self) -> io::Result<File> {
        self.file.try_clone()
    }
}

/// What [`scan`] found in a log file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scan {
    /// The generation in the header; `None` when the header itself is torn (the log was
    /// being created: it holds no acknowledged record).
    pub generation: Option<u64>,
    /// The length of the header and the whole records that follow it, up to a torn tail.
    pub valid_len: u64,
    /// The file's length; more than `valid_len` when the tail is torn.
    pub file_len: u64,
    pub records: u64,
    /// With `Damage::Skip`: the byte ranges that were not records, between whole ones
    /// (a header rebuilt from the file's name counts as `0..HEADER_LEN`).
    pub skipped: Vec<std::ops::Range<u64>>,
}

/// What [`scan`] does with damage, that is bytes that are not a record with whole records
/// after them (or a header that is neither whole nor torn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// Stop with an error naming the offset: only `--repair` may drop acknowledged bytes.
    Refuse,
    /// Skip to the next whole record and go on, listing what was skipped.
    Skip,
}

/// Reads the log of `generation` (the number in its file name), handing each whole record's
/// payload and offset to `each` in order. An error from `each` stops the scan and is returned.
///
/// A torn tail (bytes after the last whole record that hold no whole record, as a crash
/// mid-append leaves) is not read. A record that is not whole *with a whole record after
/// it* cannot come from a crash, since appends are sequential and each waits for the one
/// before to be durable: it is damage, refused or skipped as `damage` says. So is a header
/// that fails its check unless the file is no longer than a header and holds nothing but
/// the header's own bytes or zeros (a log being created).
pub fn scan(
    path: &Path,
    generation: u64,
    damage: Damage,
    mut each: impl FnMut(u64, &[u8]) -> io::Result<()>,
) -> io::Result<Scan> {
    let expected = header(generation);
    let mut scan = Scan {
        generation: Some(generation),
        valid_len: HEADER_LEN,
        file_len: 0,
        records: 0,
        skipped: Vec::new(),
    };
    // The whole records from the start, read in pieces: only the current record's bytes are
    // held. The first bytes that are not a whole record (a torn tail, damage) end it, and
    // the file is read whole from there on, to tell which they are.
    let mut at = 0;
    {
        let file = File::open(path)?;
        scan.file_len = file.metadata()?.len();
        let mut input = io::BufReader::with_capacity(1 << 16, file);
        let mut piece = Vec::new();
        if read_up_to(&mut input, HEADER_LEN as usize, &mut piece)? && piece == expected {
            at = HEADER_LEN;
            loop {
                if !read_up_to(&mut input, FRAME_LEN as usize, &mut piece)? {
                    break;
                }
                let length: [u8; 4] = [piece[0], piece[1], piece[2], piece[3]];
                let crc = u32::from_le_bytes([piece[4], piece[5], piece[6], piece[7]]);
                let size = u32::from_le_bytes(length) as usize;
                if size == 0
                    || !read_up_to(&mut input, size, &mut piece)?
                    || checksum(length, &piece) != crc
                {
                    break;
                }
                each(at, &piece)?;
                at += FRAME_LEN + size as u64;
                scan.records += 1;
                scan.valid_len = at;
            }
        }
    }
    if at == scan.file_len && at > 0 {
        return Ok(scan);
    }
    let bytes = std::fs::read(path)?;
    let file_len = bytes.len() as u64;
    scan.file_len = file_len;
    if at > 0 {
        return scan_from(&bytes, at, scan, damage, each);
    }
    match bytes.get(..HEADER_LEN as usize) {
        Some(head) if head == expected => {}
        Some(head) if head[..8] == MAGIC[..] && head == header(generation_of(head)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "its header says it is generation {}; nothing was changed",
                    generation_of(head)
                ),
            ));
        }
        _ if file_len <= HEADER_LEN
            && bytes.iter().zip(expected).all(|(b, e)| *b == e || *b == 0) =>
        {
            scan.generation = None;
            scan.valid_len = 0;
            return Ok(scan);
        }
        _ if damage == Damage::Refuse => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "its header (bytes 0 to 19) is damaged; nothing was changed. \
                 Start with --repair to rebuild it from the file's name and keep every \
                 record that reads whole"
                    .to_string(),
            ));
        }
        _ => scan.skipped.push(0..HEADER_LEN.min(file_len)),
    }
    scan_from(&bytes, HEADER_LEN, scan, damage, each)
}

/// Reads up to `n` bytes into `piece` (replacing what it held); whether there were `n`.
fn read_up_to(input: &mut impl io::Read, n: usize, piece: &mut Vec<u8>) -> io::Result<bool> {
    piece.clear();
    let read = input.take(n as u64).read_to_end(piece)?;
    Ok(read == n)
}

/// [`scan`]'s records from byte `at` of the whole file's `bytes`, after a header checked (or
/// skipped) and the whole records before `at` already handed over.
fn scan_from(
    bytes: &[u8],
    mut at: u64,
    mut scan: Scan,
    damage: Damage,
    mut each: impl FnMut(u64, &[u8]) -> io::Result<()>,
) -> io::Result<Scan> {
    let file_len = bytes.len() as u64;
    while at < file_len {
        if let Some(payload) = record_at(bytes, at) {
            each(at, payload)?;
            at += FRAME_LEN + payload.len() as u64;
            scan.records += 1;
            scan.valid_len = at;
            continue;
        }
        let next = (at + 1..file_len).find(|p| record_at(bytes, *p).is_some());
        let complete = declared_end(bytes, at).is_some_and(|end| end <= file_len);
        if next.is_none() && !complete {
            // Incomplete, with nothing whole after it: a torn tail.
            break;
        }
        let next = next.unwrap_or(file_len);
        if damage == Damage::Refuse {
            let after = if next < file_len {
                format!("and whole records follow it, from byte {next}")
            } else {
                "although it is complete".to_string()
            };
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the record at byte {at} fails its checksum {after}: that is damage, not \
                     a torn write; nothing was changed. Start with --repair to keep every \
                     record that reads whole and drop bytes {at} to {next}"
                ),
            ));
        }
        scan.skipped.push(at..next);
        scan.valid_len = next;
        at = next;
    }
    Ok(scan)
}

/// Where the record whose frame starts at `at` says it ends (`None` without a whole frame,
/// or with length 0).
fn declared_end(bytes: &[u8], at: u64) -> Option<u64> {
    let start = usize::try_from(at).ok()?;
    let length: [u8; 4] = bytes.get(start..start.checked_add(4)?)?.try_into().ok()?;
    let size = u64::from(u32::from_le_bytes(length));
    let have_frame = bytes.len() as u64 >= at + FRAME_LEN;
    (size > 0 && have_frame).then_some(at + FRAME_LEN + size)
}

/// The payload of the whole record that starts at `at`, if one does.
fn record_at(bytes: &[u8], at: u64) -> Option<&[u8]> {
    let start = usize::try_from(at).ok()?;
    let frame = bytes.get(start..start.checked_add(FRAME_LEN as usize)?)?;
    let length: [u8; 4] = frame.get(..4)?.try_into().ok()?;
    let crc = u32::from_le_bytes(frame.get(4..8)?.try_into().ok()?);
    let size = u32::from_le_bytes(length) as usize;
    if size == 0 {
        return None;
    }
    let body = start + FRAME_LEN as usize;
    let payload = bytes.get(body..body.checked_add(size)?)?;
    (checksum(length, payload) == crc).then_some(payload)
}

fn generation_of(head: &[u8]) -> u64 {
    let mut g = [0u8; 8];
    g.copy_from_slice(&head[8..16]);
    u64::from_le_bytes(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tablescope-log-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("log")
    }

    fn scan_as(path: &Path, g: u64, damage: Damage) -> io::Result<(Scan, Vec<Vec<u8>>)> {
        let mut out = Vec::new();
        let scan = scan(path, g, damage, |_, p| {
            out.push(p.to_vec());
            Ok(())
        })?;
        Ok((scan, out))
    }

    fn spans(scan: &Scan) -> Vec<(u64, u64)> {
        scan.skipped.iter().map(|r| (r.start, r.end)).collect()
    }

    fn records(path: &Path, g: u64) -> (Scan, Vec<Vec<u8>>) {
        scan_as(path, g, Damage::Refuse).unwrap()
    }

    #[test]
    fn records_round_trip_in_order() {
        let path = temp("round-trip");
        let mut log = LogWriter::create(&path, 7).unwrap();
        log.append(&[b"one".to_vec(), b"two".to_vec()]).unwrap();
        log.append(&[b"three".to_vec()]).unwrap();
        assert_eq!(log.len(), 20 + 11 + 11 + 13);
        let (scan, got) = records(&path, 7);
        assert_eq!(
            got,
            vec![b"one".to_vec(), b"two".to_vec(), b"three".to_vec()]
        );
        assert_eq!(
            scan,
            Scan {
                generation: Some(7),
                valid_len: 55,
                file_len: 55,
                records: 3,
                skipped: vec![]
            }
        );
        // Reopened after the scan, appends continue the same file.
        let mut log = LogWriter::open(&path, scan.valid_len).unwrap();
        log.append(&[b"four".to_vec()]).unwrap();
        assert_eq!(records(&path, 7).1.len(), 4);
    }

    #[test]
    fn every_torn_tail_is_cut_at_the_last_whole_record() {
        let path = temp("torn");
        let mut log = LogWriter::create(&path, 1).unwrap();
        log.append(&[b"first".to_vec()]).unwrap();
        log.append(&[b"second record".to_vec()]).unwrap();
        let whole = std::fs::read(&path).unwrap();
        let first_end = 20 + 8 + 5;
        // Every prefix of the file: the records that are whole, nothing else.
        for cut in 0..whole.len() {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let (scan, got) = records(&path, 1);
            let expected: Vec<Vec<u8>> = if cut < first_end {
                vec![]
            } else {
                vec![b"first".to_vec()]
            };
            assert_eq!(got, expected, "cut at {cut}");
            assert_eq!(scan.generation, (cut >= 20).then_some(1), "cut at {cut}");
            assert_eq!(scan.file_len, cut as u64);
            let valid = if cut < 20 {
                0
            } else if cut < first_end {
                20
            } else {
                first_end as u64
            };
            assert_eq!(scan.valid_len, valid, "cut at {cut}");
        }
    }

    #[test]
    fn a_tail_of_zeros_is_torn() {
        let path = temp("zeros");
        let mut log = LogWriter::create(&path, 3).unwrap();
        log.append(&[b"kept".to_vec()]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let kept = bytes.len() as u64;
        bytes.extend_from_slice(&[0u8; 64]);
        std::fs::write(&path, &bytes).unwrap();
        let (scan, got) = records(&path, 3);
        assert_eq!(
            (got.len(), scan.valid_len, scan.file_len),
            (1, kept, kept + 64)
        );
    }

    /// Three records; `flip` one byte at `at`, then scan refusing and skipping damage.
    fn flipped(name: &str, at: impl Fn(&[u8]) -> usize) -> (io::Error, Scan, Vec<Vec<u8>>) {
        let path = temp(name);
        let mut log = LogWriter::create(&path, 4).unwrap();
        log.append(&[b"one".to_vec(), b"two".to_vec(), b"three".to_vec()])
            .unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let i = at(&bytes);
        bytes[i] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let refused = scan_as(&path, 4, Damage::Refuse).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidData);
        let (scan, got) = scan_as(&path, 4, Damage::Skip).unwrap();
        (refused, scan, got)
    }

    #[test]
    fn a_flipped_bit_before_whole_records_is_damage() {
        // "two" starts at 20 + 11 = 31; its payload at 39.
        let (refused, scan, got) = flipped("middle", |_| 39);
        assert_eq!(
            refused.to_string(),
            "the record at byte 31 fails its checksum and whole records follow it, from byte 42: \
             that is damage, not a torn write; nothing was changed. Start with --repair to keep \
             every record that reads whole and drop bytes 31 to 42"
        );
        assert_eq!(got, vec![b"one".to_vec(), b"three".to_vec()]);
        assert_eq!((spans(&scan), scan.records), (vec![(31, 42)], 2));
    }

    #[test]
    fn a_flipped_bit_in_a_complete_last_record_is_damage() {
        let (refused, scan, got) = flipped("last", |b| b.len() - 1);
        assert!(refused.to_string().starts_with(
            "the record at byte 42 fails its checksum although it is complete: that is damage"
        ));
        assert_eq!(got, vec![b"one".to_vec(), b"two".to_vec()]);
        assert_eq!(spans(&scan), vec![(42, 55)]);
    }

    #[test]
    fn a_flipped_bit_in_the_header_is_damage() {
        let (refused, scan, got) = flipped("header", |_| 9);
        assert!(refused
            .to_string()
            .starts_with("its header (bytes 0 to 19) is damaged"));
        assert_eq!(got.len(), 3, "every record kept, the header rebuilt");
        assert_eq!(spans(&scan), vec![(0, 20)]);
    }

    #[test]
    fn a_header_being_written_reads_as_no_log() {
        let path = temp("header-torn");
        LogWriter::create(&path, 9).unwrap();
        let whole = std::fs::read(&path).unwrap();
        for cut in 0..whole.len() {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let (scan, got) = records(&path, 9);
            assert_eq!((scan.generation, scan.valid_len, got.len()), (None, 0, 0));
        }
        // A file extended before its bytes were written.
        std::fs::write(&path, [0u8; 20]).unwrap();
        assert_eq!(records(&path, 9).0.generation, None);
        // Another generation's whole header is not a torn one.
        std::fs::write(&path, header(8)).unwrap();
        assert_eq!(
            scan_as(&path, 9, Damage::Skip).unwrap_err().to_string(),
            "its header says it is generation 8; nothing was changed"
        );
    }

    #[test]
    fn empty_records_are_refused() {
        let path = temp("empty");
        let mut log = LogWriter::create(&path, 1).unwrap();
        assert_eq!(
            log.append(&[Vec::new()]).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    }
}
