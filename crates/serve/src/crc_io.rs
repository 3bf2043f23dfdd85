//! Readers and writers that keep the CRC-32 of the bytes that went through them: a
//! snapshot's checksum, computed while it is written and while it is read.

use std::io::{self, Read, Write};

/// A reader that keeps the CRC-32 of what went through it.
pub struct CrcReader<R> {
    inner: R,
    pub hasher: crc32fast::Hasher,
}

impl<R> CrcReader<R> {
    pub fn new(inner: R) -> CrcReader<R> {
        CrcReader {
            inner,
            hasher: crc32fast::Hasher::new(),
        }
    }
}

impl<R: Read> Read for CrcReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// A writer that keeps the CRC-32 of what went through it.
pub struct CrcWriter<W> {
    pub inner: W,
    pub hasher: crc32fast::Hasher,
}

impl<W> CrcWriter<W> {
    pub fn new(inner: W) -> CrcWriter<W> {
        CrcWriter {
            inner,
            hasher: crc32fast::Hasher::new(),
        }
    }
}

impl<W: Write> Write for CrcWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
