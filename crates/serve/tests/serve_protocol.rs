//! Protocol details the server decides itself: a transfer coding it cannot undo is 501 (RFC
//! 9112 §6.1), a JSON member given twice is refused as in an entity, and the request log
//! never shows a SAS's signature.

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{Server, ACCOUNT};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends `raw` on a new connection; the status line's code and the whole response.
fn exchange(port: u16, raw: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(raw.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

#[test]
fn a_transfer_coding_other_than_chunked_is_501() {
    let server = Server::start(&[]);
    let body = r#"{"TableName":"Gzipped"}"#;
    let raw = format!(
        "POST /{ACCOUNT}/Tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    let (status, text) = exchange(server.port, &raw);
    assert_eq!(status, 501, "{text}");
    assert!(text.contains(r#""code":"NotImplemented""#), "{text}");
    // Nothing was created.
    let tables = server
        .client()
        .send(
            "GET",
            &format!("/{ACCOUNT}/Tables"),
            &[("Accept", "application/json;odata=nometadata")],
            b"",
        )
        .unwrap();
    assert_eq!(tables.json()["value"], serde_json::json!([]));
}

#[test]
fn chunked_alone_is_read() {
    let server = Server::start(&[]);
    let body = r#"{"TableName":"Chunked"}"#;
    let raw = format!(
        "POST /{ACCOUNT}/Tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    let (status, text) = exchange(server.port, &raw);
    assert_eq!(status, 201, "{text}");
}

#[test]
fn a_table_name_given_twice_is_refused() {
    let server = Server::start(&[]);
    let mut c = server.client();
    let reply = c
        .send(
            "POST",
            &format!("/{ACCOUNT}/Tables"),
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json;odata=nometadata"),
            ],
            br#"{"TableName":"Dup1","TableName":"Dup2"}"#,
        )
        .unwrap();
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(
        reply.error_code().as_deref(),
        Some("DuplicatePropertiesSpecified")
    );
    let tables = c
        .send(
            "GET",
            &format!("/{ACCOUNT}/Tables"),
            &[("Accept", "application/json;odata=nometadata")],
            b"",
        )
        .unwrap();
    assert_eq!(tables.json()["value"], serde_json::json!([]));
}

#[test]
fn the_request_log_hides_a_sas_signature() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args(["--port", "0", "--allow-anonymous"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut port = None;
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(rest) = line.split("listening on http://127.0.0.1:").nth(1) {
            port = rest.split('/').next().and_then(|p| p.parse::<u16>().ok());
            break;
        }
    }
    // Keep reading: a closed stderr would fail the server's next start-up line.
    std::thread::spawn(move || lines.for_each(drop));
    let port = port.expect("listening");
    let path = format!(
        "/{ACCOUNT}/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2099-01-01&sig=c2VjcmV0%2Bc2ln%3D"
    );
    let (status, _) = exchange(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n"),
    );
    assert_ne!(status, 0);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with(&format!(
        "GET /{ACCOUNT}/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2099-01-01&sig=REDACTED {status}"
    )),
        "{line}"
    );
    assert!(!line.contains("c2VjcmV0"), "{line}");
}
