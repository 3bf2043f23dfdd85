//! HTTP/1.1 on hyper: each request read whole, answered by [`State::serve`] under a lock
//! (the engine runs one request at a time), CORS added, one log line written.

use super::args::{service_name, target_flag, Options, Storage};
use super::body::Body;
use super::commit::GroupCommit;
use super::cors::CorsStart;
use super::response::to_hyper;
use super::state::{Served, State};
use super::store::Store;
use super::{reply, request, time};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io::Write;
use std::sync::{Arc, Mutex};
use tablescope_engine::{Account, ErrorCode, Target};
use tablescope_wire::cors;
use tablescope_wire::{Context, Endpoint, HttpRequest, HttpResponse, MAX_BODY_BYTES};

struct Shared {
    state: Mutex<State>,
    /// The durable store's group commit, waited on without the account's lock.
    group: Option<GroupCommit>,
    silent: bool,
}

/// Loads the account (data directory, `--load`), then serves until the process ends.
pub fn run(options: Options) -> Result<(), String> {
    let state = open(&options)?;
    // Every core: connections are read, parsed and answered on all of them; the engine's
    // part runs under the account's lock, one request at a time, in the order it takes it.
    // One thread is a current-thread runtime: no hand-offs between threads at all.
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut builder = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(threads);
        builder
    };
    let runtime = builder
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(listen(options, state))
}

fn open(options: &Options) -> Result<State, String> {
    let mut endpoint = Endpoint::with_key(&options.account, &options.key)
        .ok_or_else(|| "--key: not base64".to_string())?;
    endpoint.allow_anonymous = options.allow_anonymous;
    let mut account = Account::for_target(options.target.unwrap_or_default(), Box::new(time::now));
    let loaded = match &options.load {
        Some(path) => {
            Some(std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    // Whether the account starts empty: in memory, or a data directory never written.
    let mut new = true;
    let store = match &options.storage {
        Storage::Memory => {
            eprintln!(
                "tablescope-serve: data in memory only ({}; pass --location DIR to keep it)",
                service_name(account.target())
            );
            None
        }
        Storage::Location(dir) => {
            // The account takes the directory's target; an explicit other one is refused
            // before anything on disk changes.
            let (store, r) = match options.target {
                Some(target) => Store::open_for(
                    dir,
                    options.snapshot_bytes,
                    options.repair,
                    target,
                    &mut account,
                ),
                None if options.repair => Store::repair(dir, options.snapshot_bytes, &mut account),
                None => Store::open(dir, options.snapshot_bytes, &mut account),
            }
            .map_err(|e| format!("{}: {e}", dir.display()))?;
            new = r.generation == 0 && r.records == 0;
            for repair in &r.repairs {
                eprintln!("tablescope-serve: --repair: {repair}");
            }
            eprintln!(
                "tablescope-serve: data in {} ({}, generation {}, {} entities, {} change \
                 records{})",
                dir.display(),
                service_name(r.target),
                r.generation,
                r.entities,
                r.records,
                if r.torn_bytes > 0 {
                    format!("; cut off a torn tail of {} bytes", r.torn_bytes)
                } else {
                    String::new()
                }
            );
            Some(store)
        }
    };
    let target_before = account.target();
    let mut state = State::new(account, endpoint, store);
    let loaded_any = loaded.is_some();
    if let (Some(text), Some(path)) = (loaded, &options.load) {
        state.account.import_json(&text).map_err(|e| {
            format!(
                "{}: {}",
                path.display(),
                e.detail.map_or(e.message, |d| d.to_string())
            )
        })?;
        // The import replaced the account in memory only: refusing here changes nothing on disk.
        // The account must stay on the target asked for, or the directory's; a new one takes
        // the workspace's.
        let required = options.target.or((!new).then_some(target_before));
        let workspace = state.account.target();
        if let Some(required) = required.filter(|r| *r != workspace) {
            return Err(format!(
                "{}: a workspace of an {} account; start with --target {} to serve it, \
                 not --target {}",
                path.display(),
                service_name(workspace),
                target_flag(workspace),
                target_flag(required),
            ));
        }
        if let Some(store) = &mut state.store {
            store.snapshot(&state.account).map_err(|e| e.to_string())?;
        }
        state.account.take_changes();
        eprintln!("tablescope-serve: loaded {}", path.display());
    }
    // The starting CORS rules: asked for on the command line, or the default for an account
    // without properties of its own (stored properties win over the default).
    // Cosmos DB for Table supports no CORS rules: its account starts with none.
    let cosmos = state.account.target() == Target::CosmosTable;
    let fresh = (new || loaded_any) && state.account.service_properties().cors.is_empty();
    if cosmos && options.cors.explicit() && options.cors != CorsStart::None {
        return Err("--cors-origin: Azure Cosmos DB for Table does not support CORS".into());
    }
    if new && !loaded_any && cosmos {
        // The first snapshot records the target in the directory (a directory without one
        // holds a Table storage account).
        if let Some(store) = &mut state.store {
            store.snapshot(&state.account).map_err(|e| e.to_string())?;
        }
    }
    if !cosmos && (options.cors.explicit() || fresh) {
        state
            .account
            .set_service_properties(&options.cors.update())
            .map_err(|e| {
                format!(
                    "--cors-origin: {}",
                    e.detail.map_or(e.message, |d| d.to_string())
                )
            })?;
        if let Some(store) = &mut state.store {
            store.snapshot(&state.account).map_err(|e| e.to_string())?;
        }
        state.account.take_changes();
    }
    let rules = &state.account.service_properties().cors;
    match rules.first() {
        None => {
            eprintln!("tablescope-serve: no CORS rules: browser pages on other origins are refused")
        }
        Some(rule) => eprintln!(
            "tablescope-serve: CORS: {} rule(s); the first admits {}",
            rules.len(),
            rule.allowed_origins.join(", ")
        ),
    }
    Ok(state)
}

async fn listen(options: Options, state: State) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind((options.host.as_str(), options.port))
        .await
        .map_err(|e| format!("{}:{}: {e}", options.host, options.port))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let account = state.endpoint.account.clone();
    eprintln!("tablescope-serve: listening on http://{address}/{account}");
    eprintln!(
        "tablescope-serve: connection string: DefaultEndpointsProtocol=http;AccountName={account};\
         AccountKey={};TableEndpoint=http://{address}/{account};",
        options.key
    );
    let shared = Arc::new(Shared {
        group: state.store.as_ref().map(|s| s.group().clone()),
        state: Mutex::new(state),
        silent: options.silent,
    });
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait rather than spin.
                eprintln!("tablescope-serve: accept: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, Infallible>(respond(&shared, request).await) }
            });
            // A connection that breaks mid-request only ends itself.
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn respond(shared: &Shared, request: Request<Incoming>) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let mut request = HttpRequest {
        method: parts.method.as_str().to_owned(),
        url: request::target(&parts.uri),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
                (n.as_str().to_owned(), value)
            })
            .collect(),
        body: Vec::new(),
    };
    let context = Context {
        now: time::now(),
        request_id: time::request_id(),
    };
    let codings = parts.headers.get_all(hyper::header::TRANSFER_ENCODING);
    let unsupported = request::unsupported_coding(codings.iter().map(|v| v.as_bytes()));
    // Preflights too are answered by the wire layer, by the account's CORS rules.
    let body = match unsupported {
        Some(coding) => Err((
            format!("transfer coding {coding} is not supported (501)"),
            ErrorCode::NotImplemented,
        )),
        None => read_body(body, &parts.headers).await.map_err(|e| {
            (
                format!("the request body could not be read: {e}"),
                ErrorCode::InvalidInput,
            )
        }),
    };
    let served = match body {
        Ok(body) => {
            request.body = body;
            let served = {
                let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
                state.serve(&request, &context)
            };
            match (&shared.group, served.durable) {
                (Some(group), seq) if seq > 0 => match group.durable(seq).await {
                    Ok(()) => served,
                    Err(why) => {
                        let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
                        state.not_durable(&request, &context, why)
                    }
                },
                _ => served,
            }
        }
        Err((why, code)) => {
            eprintln!("tablescope-serve: {why}");
            let mut response = reply::error(&request, &context, code);
            let state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            cors::decorate(state.account.service_properties(), &request, &mut response);
            Served {
                response,
                stats: None,
                durable: 0,
            }
        }
    };
    let response = served.response;
    if !shared.silent {
        log(&request, &response, served.stats.as_ref());
    }
    to_hyper(response)
}

/// Reads the body whole, but stops past [`MAX_BODY_BYTES`]: the wire layer refuses such a
/// body (413 RequestBodyTooLarge, as the service does) without the rest being buffered.
async fn read_body(mut body: Incoming, headers: &hyper::HeaderMap) -> Result<Vec<u8>, String> {
    // A request without a body (every read's) is done before the first poll.
    if hyper::body::Body::is_end_stream(&body) {
        return Ok(Vec::new());
    }
    let declared = headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut out = Vec::with_capacity(declared.min(MAX_BODY_BYTES + 1));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| e.to_string())?;
        if let Ok(data) = frame.into_data() {
            out.extend_from_slice(&data);
            if out.len() > MAX_BODY_BYTES {
                break;
            }
        }
    }
    Ok(out)
}

/// Writes the request's log line: `METHOD target status`, the target with its SAS signature
/// redacted, then `scanned=N returned=N` for a query. Built in a buffer each thread keeps, and
/// written whole in one call.
fn log(
    request: &HttpRequest,
    response: &HttpResponse,
    stats: Option<&tablescope_engine::QueryStats>,
) {
    thread_local! {
        static LINE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    LINE.with_borrow_mut(|line| {
        line.clear();
        let counts = stats.map(|s| (s.scanned, s.returned));
        request::push_log_line(&request.method, &request.url, response.status, counts, line);
        // A closed stdout (piped into `head`) must not stop the server.
        let _ = std::io::stdout().lock().write_all(line.as_bytes());
    });
}
