//! The floor under the server's CPU per request on this machine: hyper on the same runtime,
//! answering every request with a fixed 200 and no work at all. What `tablescope-serve`
//! spends per request above this is its own; this much is the kernel's TCP, the runtime and
//! HTTP/1.1 parsing, which no change to the request path removes.
//!
//! BODY_BYTES (default 2, a `{}`) sizes the body, to find the floor under a large answer (a
//! 1,000-entity page is about 218 KB in nometadata).
//!
//!   cargo run --profile serve -p tablescope-serve --example hyper_floor -- PORT [THREADS] [BODY_BYTES]

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Response;
use hyper_util::rt::TokioIo;
use std::convert::Infallible;

fn main() {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let threads: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let body: Bytes = match args.next().and_then(|b| b.parse::<usize>().ok()) {
        Some(len) if len >= 2 => {
            let mut text = vec![b' '; len];
            text[0] = b'{';
            text[len - 1] = b'}';
            Bytes::from(text)
        }
        _ => Bytes::from_static(b"{}"),
    };
    let mut builder = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(threads);
        builder
    };
    let runtime = builder.enable_io().enable_time().build().expect("runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind");
        eprintln!("listening on {}", listener.local_addr().expect("address"));
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            let body = body.clone();
            tokio::spawn(async move {
                let service = service_fn(move |_request| {
                    let body = body.clone();
                    async move { Ok::<_, Infallible>(Response::new(Full::new(body))) }
                });
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
}
