//! Shared by the `serve_*` tests: the real `tablescope-serve` binary on a free loopback port,
//! and a tiny HTTP/1.1 client over a std `TcpStream` (keep-alive, `Content-Length` bodies:
//! all the server writes), so the tests need no HTTP crate of their own.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const ACCOUNT: &str = "devstoreaccount1";

/// A running server; killed (SIGKILL) when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    /// What the server wrote on stderr.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the binary with `args` (plus `--port 0 --silent --allow-anonymous`) and waits
    /// until it listens.
    pub fn start(args: &[&str]) -> Server {
        let mut all = vec!["--allow-anonymous"];
        all.extend_from_slice(args);
        Server::start_strict(&all)
    }

    /// Starts the binary with `args` (plus `--port 0 --silent`) and waits until it listens.
    pub fn start_strict(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
            .args(["--port", "0", "--silent"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tablescope-serve");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut port = None;
        for line in lines.by_ref() {
            let line = line.expect("stderr line");
            log.lock().unwrap().push(line.clone());
            if let Some(rest) = line.split("listening on http://127.0.0.1:").nth(1) {
                port = rest.split('/').next().and_then(|p| p.parse().ok());
                break;
            }
        }
        let Some(port) = port else {
            let _ = child.kill();
            panic!("the server did not start: {:?}", log.lock().unwrap());
        };
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Server { child, port, log }
    }

    /// Starts a durable server on `dir`.
    pub fn durable(dir: &Path, args: &[&str]) -> Server {
        let mut all = vec!["--location", dir.to_str().expect("utf-8 path")];
        all.extend_from_slice(args);
        Server::start(&all)
    }

    pub fn client(&self) -> Client {
        Client::connect(self.port)
    }

    /// `kill -9`.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn log_text(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A fresh, empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tablescope-serve-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    /// Header names lower-cased, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A JSON error's code, from its `odata.error` body (production sends no
    /// `x-ms-error-code` header with one; this asserts so).
    pub fn error_code(&self) -> Option<String> {
        assert_eq!(self.header("x-ms-error-code"), None, "{}", self.text());
        Some(self.json()["odata.error"]["code"].as_str()?.to_string())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }
}

/// One keep-alive connection.
pub struct Client {
    stream: BufReader<TcpStream>,
    port: u16,
}

impl Client {
    pub fn connect(port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Client {
            stream: BufReader::new(stream),
            port,
        }
    }

    /// Sends a request; an error when the connection fails (the server was killed).
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        for (n, v) in headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let stream = self.stream.get_mut();
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        stream.write_all(&bytes)?;
        self.read_reply()
    }

    fn read_reply(&mut self) -> std::io::Result<Reply> {
        let eof = || std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed");
        let mut line = String::new();
        if self.stream.read_line(&mut line)? == 0 {
            return Err(eof());
        }
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(eof)?;
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            if self.stream.read_line(&mut line)? == 0 {
                return Err(eof());
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (n, v) = line.split_once(':').ok_or_else(eof)?;
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        let reply = Reply {
            status,
            headers,
            body: Vec::new(),
        };
        let len: usize = reply
            .header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; len];
        self.stream.read_exact(&mut body)?;
        Ok(Reply { body, ..reply })
    }

    pub fn create_table(&mut self, name: &str) -> std::io::Result<Reply> {
        let body = format!(r#"{{"TableName":"{name}"}}"#);
        self.send(
            "POST",
            &format!("/{ACCOUNT}/Tables"),
            &[
                ("Content-Type", "application/json"),
                ("Prefer", "return-no-content"),
            ],
            body.as_bytes(),
        )
    }

    /// Inserts an entity (JSON object text) without echo: 204 and its ETag.
    pub fn insert(&mut self, table: &str, entity: &str) -> std::io::Result<Reply> {
        self.send(
            "POST",
            &format!("/{ACCOUNT}/{table}"),
            &[
                ("Content-Type", "application/json"),
                ("Prefer", "return-no-content"),
            ],
            entity.as_bytes(),
        )
    }

    /// Inserts the entities in one `$batch` (one changeset).
    pub fn batch_insert(&mut self, table: &str, entities: &[String]) -> std::io::Result<Reply> {
        let (batch, changeset) = ("batch_b1", "changeset_c1");
        let mut body =
            format!("--{batch}\r\nContent-Type: multipart/mixed; boundary={changeset}\r\n\r\n");
        for entity in entities {
            body.push_str(&format!(
                "--{changeset}\r\nContent-Type: application/http\r\n\
                 Content-Transfer-Encoding: binary\r\n\r\n\
                 POST http://127.0.0.1:{}/{ACCOUNT}/{table} HTTP/1.1\r\n\
                 Content-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\n\
                 Prefer: return-no-content\r\nDataServiceVersion: 3.0;\r\n\r\n{entity}\r\n",
                self.port
            ));
        }
        body.push_str(&format!("--{changeset}--\r\n--{batch}--\r\n"));
        self.send(
            "POST",
            &format!("/{ACCOUNT}/$batch"),
            &[(
                "Content-Type",
                &format!("multipart/mixed; boundary={batch}"),
            )],
            body.as_bytes(),
        )
    }

    /// Every entity of a table, by (PartitionKey, RowKey), with its `odata.etag`, following
    /// continuation tokens.
    pub fn scan(&mut self, table: &str) -> BTreeMap<(String, String), String> {
        let mut out = BTreeMap::new();
        let mut next: Option<(String, String)> = None;
        loop {
            let mut path = format!("/{ACCOUNT}/{table}()");
            if let Some((pk, rk)) = &next {
                path.push_str(&format!(
                    "?NextPartitionKey={}&NextRowKey={}",
                    encode(pk),
                    encode(rk)
                ));
            }
            let reply = self
                .send("GET", &path, &[("Accept", "application/json")], b"")
                .expect("query");
            assert_eq!(reply.status, 200, "{}", reply.text());
            let json = reply.json();
            for e in json["value"].as_array().expect("value") {
                let key = (
                    e["PartitionKey"].as_str().unwrap().to_string(),
                    e["RowKey"].as_str().unwrap().to_string(),
                );
                out.insert(key, e["odata.etag"].as_str().unwrap().to_string());
            }
            next = match (
                reply.header("x-ms-continuation-NextPartitionKey"),
                reply.header("x-ms-continuation-NextRowKey"),
            ) {
                (Some(pk), Some(rk)) => Some((pk.to_string(), rk.to_string())),
                _ => return out,
            };
        }
    }
}

/// The ETags in a `$batch` response's parts, in order.
pub fn batch_etags(reply: &Reply) -> Vec<String> {
    reply
        .text()
        .lines()
        .filter_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case("etag")
                .then(|| v.trim().to_string())
        })
        .collect()
}

/// Percent-encodes a query value (tokens are opaque and may hold `+`, `/`, `=`).
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'!' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
