//! `kill -9` during a write storm on many connections at once (so that writes share the group
//! commit's syncs), at random moments, repeated: after each restart every acknowledged write
//! is there with its ETag, no batch is half there, and the table's ACL and the service
//! properties are the last ones acknowledged (or the one set when the kill came).

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{batch_etags, temp_dir, Server};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const TABLE: &str = "Storm";
const BATCH: usize = 5;
/// Connections writing at once; only the first also sets the ACL and the service properties
/// (whose check needs a single writer's order).
const WRITERS: u32 = 8;

/// What the storm sent: acknowledged entities with their ETags, and every batch tried.
#[derive(Default)]
struct Sent {
    acked: BTreeMap<(String, String), String>,
    /// (PartitionKey, row keys) of every batch sent, acknowledged or not.
    batches: Vec<(String, Vec<String>)>,
    acked_batches: usize,
    /// The last stored access policy id and retention days acknowledged, and the last tried.
    acl_acked: Option<String>,
    acl_tried: Option<String>,
    days_acked: Option<u32>,
    days_tried: Option<u32>,
}

fn acl_body(id: &str) -> String {
    format!(
        "<SignedIdentifiers><SignedIdentifier><Id>{id}</Id><AccessPolicy><Permission>r\
         </Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>"
    )
}

fn properties_body(days: u32) -> String {
    format!(
        "<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete>\
         <Read>true</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled>\
         <Days>{days}</Days></RetentionPolicy></Logging></StorageServiceProperties>"
    )
}

/// The text of the first `<name>` element in `body`.
fn first(body: &[u8], name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let open = format!("<{name}>");
    let rest = text.split(&open).nth(1)?;
    Some(rest.split('<').next()?.to_string())
}

const ACL_PATH: &str = "/devstoreaccount1/Storm?comp=acl";
const PROPS_PATH: &str = "/devstoreaccount1/?restype=service&comp=properties";

/// Inserts and batches until the connection fails (the server was killed); `writer` keeps
/// each connection's keys its own.
fn storm(port: u16, round: u32, writer: u32, stop: Arc<AtomicBool>) -> Sent {
    let mut sent = Sent::default();
    let Ok(mut c) = std::panic::catch_unwind(|| serve_support::Client::connect(port)) else {
        return sent;
    };
    let mut i = 0u32;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        if writer == 0 && i.is_multiple_of(7) {
            let id = format!("r{round}-{i}");
            sent.acl_tried = Some(id.clone());
            let xml = [("Content-Type", "application/xml")];
            let Ok(reply) = c.send("PUT", ACL_PATH, &xml, acl_body(&id).as_bytes()) else {
                return sent;
            };
            assert_eq!(reply.status, 204, "{}", reply.text());
            sent.acl_acked = Some(id);
        } else if writer == 0 && i.is_multiple_of(11) {
            let days = 1 + (round * 97 + i) % 365;
            sent.days_tried = Some(days);
            let xml = [("Content-Type", "application/xml")];
            let body = properties_body(days);
            let Ok(reply) = c.send("PUT", PROPS_PATH, &xml, body.as_bytes()) else {
                return sent;
            };
            assert_eq!(reply.status, 202, "{}", reply.text());
            sent.days_acked = Some(days);
        } else if i.is_multiple_of(3) {
            let pk = format!("b{round}-{writer}-{i}");
            let rks: Vec<String> = (0..BATCH).map(|r| format!("{r}")).collect();
            let entities: Vec<String> = rks
                .iter()
                .map(|rk| format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}","I":{i}}}"#))
                .collect();
            sent.batches.push((pk.clone(), rks.clone()));
            let Ok(reply) = c.batch_insert(TABLE, &entities) else {
                return sent;
            };
            assert_eq!(reply.status, 202, "{}", reply.text());
            let etags = batch_etags(&reply);
            assert_eq!(etags.len(), BATCH, "{}", reply.text());
            for (rk, etag) in rks.into_iter().zip(etags) {
                sent.acked.insert((pk.clone(), rk), etag);
            }
            sent.acked_batches += 1;
        } else {
            let (pk, rk) = (format!("p{round}-{writer}"), format!("{i:06}"));
            let entity = format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}","I":{i}}}"#);
            let Ok(reply) = c.insert(TABLE, &entity) else {
                return sent;
            };
            assert_eq!(reply.status, 204, "{}", reply.text());
            let etag = reply.header("etag").expect("etag").to_string();
            sent.acked.insert((pk, rk), etag);
        }
    }
    sent
}

/// A small xorshift, seeded from the clock; the seed is printed so a failure can be rerun.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn kill_9_during_a_write_storm_loses_nothing_acknowledged() {
    let seed = std::env::var("STORM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    println!("STORM_SEED={seed}");
    let mut rng = Rng(seed);
    let dir = temp_dir("kill");
    // A small snapshot threshold, so that kills also land during snapshots.
    let args = ["--snapshot-bytes", "16384"];
    let server = Server::durable(&dir, &args);
    assert_eq!(server.client().create_table(TABLE).unwrap().status, 204);
    drop(server);

    let mut expected: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut batches: Vec<(String, Vec<String>)> = Vec::new();
    // What the ACL's id and the logging retention were after the last restart.
    let (mut acl, mut days): (Option<String>, Option<String>) = (None, None);
    let started = Instant::now();
    for round in 0..5 {
        let mut server = Server::durable(&dir, &args);
        let port = server.port;
        let stop = Arc::new(AtomicBool::new(false));
        let clients: Vec<_> = (0..WRITERS)
            .map(|writer| {
                let flag = Arc::clone(&stop);
                std::thread::spawn(move || storm(port, round, writer, flag))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(150 + rng.below(850)));
        server.kill();
        stop.store(true, Ordering::Relaxed);
        let mut sent = Sent::default();
        for client in clients {
            let one = client.join().expect("a storm thread");
            sent.acked.extend(one.acked);
            sent.batches.extend(one.batches);
            sent.acked_batches += one.acked_batches;
            // Only writer 0 sets these.
            sent.acl_acked = sent.acl_acked.or(one.acl_acked);
            sent.acl_tried = sent.acl_tried.or(one.acl_tried);
            sent.days_acked = sent.days_acked.or(one.days_acked);
            sent.days_tried = sent.days_tried.or(one.days_tried);
        }
        println!(
            "round {round}: {} entities acknowledged, {} of {} batches",
            sent.acked.len(),
            sent.acked_batches,
            sent.batches.len()
        );
        assert!(!sent.acked.is_empty(), "round {round} wrote nothing");
        expected.extend(sent.acked);
        batches.extend(sent.batches);

        let server = Server::durable(&dir, &args);
        let found = server.client().scan(TABLE);
        // The settings: the last acknowledged, or the one in flight when the kill came.
        let mut c = server.client();
        let found_acl = first(&c.send("GET", ACL_PATH, &[], b"").unwrap().body, "Id");
        let acked_acl = sent.acl_acked.clone().or(acl.clone());
        assert!(
            found_acl == acked_acl || found_acl == sent.acl_tried,
            "round {round}: ACL {found_acl:?}, acknowledged {acked_acl:?} (seed {seed})"
        );
        acl = found_acl;
        let found_days = first(&c.send("GET", PROPS_PATH, &[], b"").unwrap().body, "Days");
        let acked_days = sent.days_acked.map(|d| d.to_string()).or(days.clone());
        assert!(
            found_days == acked_days || found_days == sent.days_tried.map(|d| d.to_string()),
            "round {round}: Days {found_days:?}, acknowledged {acked_days:?} (seed {seed})"
        );
        days = found_days;
        for (key, etag) in &expected {
            assert_eq!(
                found.get(key),
                Some(etag),
                "round {round}: acknowledged {key:?} (seed {seed})\n{}",
                server.log_text()
            );
        }
        for (pk, rks) in &batches {
            let present = rks
                .iter()
                .filter(|rk| found.contains_key(&(pk.clone(), (*rk).clone())))
                .count();
            assert!(
                present == 0 || present == rks.len(),
                "round {round}: batch {pk} is half there ({present} of {}) (seed {seed})",
                rks.len()
            );
        }
        // Whatever was written but not acknowledged is there whole, with the ETag it got.
        expected = found;
    }
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
