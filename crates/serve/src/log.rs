//! The change log file: a header naming its generation, then framed records.
//!
//! ```text
//! header: b"TSLOG\0v1" | generation: u64 LE | crc32(previous 16 bytes): u32 LE   (20 bytes)
//! record: length: u32 LE | crc32(length bytes ++ payload): u32 LE | payload        (length > 0)
//! ```
//!
//! A record is acknowledged only after it is written whole and `sync_data` returned, so the
//! valid records form a prefix of the file. Whatever follows the first record that is short,
//! has length 0 or fails its checksum is a torn tail from a crash mid-append: never
//! acknowledged, discarded on recovery. The checksum covers the length too, so a tail of
//! zeros (a file extended but not yet written) never passes as a record.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
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
    pub fn append(&mut self, payloads: &[Vec<u8>]) -> io::Result<()> {
        let total: usize = payloads.iter().map(|p| p.len() + FRAME_LEN as usize).sum();
        let mut buf = Vec::with_capacity(total);
        for payload in payloads {
            let length = u32::try_from(payload.len())
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "record size"))?
                .to_le_bytes();
            buf.extend_from_slice(&length);
            buf.extend_from_slice(&checksum(length, payload).to_le_bytes());
            buf.extend_from_slice(payload);
        }
        self.file.write_all(&buf)?;
        self.file.sync_data()?;
        self.len += buf.len() as u64;
        Ok(())
    }
}

/// What [`scan`] found in a log file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scan {
    /// The generation in the header; `None` when the header itself is torn (the log was
    /// being created: it holds no acknowledged record).
    pub generation: Option<u64>,
    /// The length of the header and the whole records that follow it.
    pub valid_len: u64,
    /// The file's length; more than `valid_len` when the tail is torn.
    pub file_len: u64,
    pub records: u64,
}

/// Reads a log, handing each whole record's payload to `each` in order, and stops at the
/// first torn one. An error from `each` stops the scan and is returned.
pub fn scan(path: &Path, mut each: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<Scan> {
    let file = File::open(path)?;
    let file_len = file.metadata()?.len();
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut head = [0u8; HEADER_LEN as usize];
    let torn_header = Scan {
        generation: None,
        valid_len: 0,
        file_len,
        records: 0,
    };
    if read_full(&mut reader, &mut head)? < head.len() || head != header(generation_of(&head)) {
        return Ok(torn_header);
    }
    let mut scan = Scan {
        generation: Some(generation_of(&head)),
        valid_len: HEADER_LEN,
        file_len,
        records: 0,
    };
    let mut payload = Vec::new();
    loop {
        let mut frame = [0u8; FRAME_LEN as usize];
        if read_full(&mut reader, &mut frame)? < frame.len() {
            return Ok(scan);
        }
        let (length, crc) = frame.split_at(4);
        let length: [u8; 4] = length.try_into().unwrap_or_default();
        let crc = u32::from_le_bytes(crc.try_into().unwrap_or_default());
        let size = u64::from(u32::from_le_bytes(length));
        let remaining = file_len.saturating_sub(scan.valid_len + FRAME_LEN);
        if size == 0 || size > remaining {
            return Ok(scan);
        }
        payload.resize(size as usize, 0);
        if read_full(&mut reader, &mut payload)? < payload.len()
            || checksum(length, &payload) != crc
        {
            return Ok(scan);
        }
        each(&payload)?;
        scan.valid_len += FRAME_LEN + size;
        scan.records += 1;
    }
}

fn generation_of(head: &[u8; HEADER_LEN as usize]) -> u64 {
    let mut g = [0u8; 8];
    g.copy_from_slice(&head[8..16]);
    u64::from_le_bytes(g)
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
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

    fn records(path: &Path) -> (Scan, Vec<Vec<u8>>) {
        let mut out = Vec::new();
        let scan = scan(path, |p| {
            out.push(p.to_vec());
            Ok(())
        })
        .unwrap();
        (scan, out)
    }

    #[test]
    fn records_round_trip_in_order() {
        let path = temp("round-trip");
        let mut log = LogWriter::create(&path, 7).unwrap();
        log.append(&[b"one".to_vec(), b"two".to_vec()]).unwrap();
        log.append(&[b"three".to_vec()]).unwrap();
        assert_eq!(log.len(), 20 + 11 + 11 + 13);
        let (scan, got) = records(&path);
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
                records: 3
            }
        );
        // Reopened after the scan, appends continue the same file.
        let mut log = LogWriter::open(&path, scan.valid_len).unwrap();
        log.append(&[b"four".to_vec()]).unwrap();
        assert_eq!(records(&path).1.len(), 4);
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
            let (scan, got) = records(&path);
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
    fn zeros_and_flipped_bits_are_not_records() {
        let path = temp("garbage");
        let mut log = LogWriter::create(&path, 3).unwrap();
        log.append(&[b"kept".to_vec()]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let kept = bytes.len() as u64;
        bytes.extend_from_slice(&[0u8; 64]);
        std::fs::write(&path, &bytes).unwrap();
        let (scan, got) = records(&path);
        assert_eq!(
            (got.len(), scan.valid_len, scan.file_len),
            (1, kept, kept + 64)
        );

        let mut log = LogWriter::open(&path, kept).unwrap();
        std::fs::write(&path, &bytes[..kept as usize]).unwrap();
        log.append(&[b"flipped".to_vec()]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (scan, got) = records(&path);
        assert_eq!((got, scan.valid_len), (vec![b"kept".to_vec()], kept));
    }

    #[test]
    fn a_damaged_header_reads_as_no_log() {
        let path = temp("header");
        LogWriter::create(&path, 9).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[9] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let (scan, got) = records(&path);
        assert_eq!((scan.generation, scan.valid_len, got.len()), (None, 0, 0));
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
