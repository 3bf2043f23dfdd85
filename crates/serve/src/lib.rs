//! `tablescope-serve`: the engine as a local Table service endpoint, so that unmodified SDK
//! code (and the playground in a browser) can run against it.
//!
//! - [`args`]: the command line;
//! - `server`: HTTP on hyper, handing each request to `tablescope_wire`;
//! - `cors`: preflights and exposed headers for pages;
//! - `request`: the request target, transfer codings the server refuses, and the log line
//!   (the SAS signature hidden); `response`: the wire layer's response handed to hyper;
//! - [`store`]: the data directory (`--location`): snapshots plus an append-only change log,
//!   every write durable before it is acknowledged (its module docs give the on-disk format);
//! - `record`, `record_bytes`, `log`, `snapshot`: what a log record holds, its bytes, its
//!   framing, and the snapshot's layout; `export`: the playground's workspace export (`export`, and the snapshots of
//!   earlier servers).
//!
//! Native only, behind the `serve` feature: the wasm builds never see it.

#![forbid(unsafe_code)]

pub mod args;
mod body;
mod commit;
mod cors;
mod crc_io;
mod export;
mod log;
mod record;
mod record_bytes;
mod reply;
mod request;
mod response;
mod server;
mod snapshot;
mod state;
pub mod store;
mod time;

use std::io::Write;
use std::process::ExitCode;

/// Runs the command line `args` (without the program's name).
pub fn main(args: impl IntoIterator<Item = String>) -> ExitCode {
    let result = match args::parse(args) {
        Ok(args::Command::Help) => {
            print!("{}", args::USAGE);
            Ok(())
        }
        Ok(args::Command::Export { location }) => export_to_stdout(&location),
        Ok(args::Command::Serve(options)) => server::run(options),
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tablescope-serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `export`: the account in a data directory, as the playground's export, on stdout.
fn export_to_stdout(location: &std::path::Path) -> Result<(), String> {
    let mut account = tablescope_engine::Account::default();
    store::Store::read(location, &mut account)
        .map_err(|e| format!("{}: {e}", location.display()))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    export::write(&account, &mut out)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())
}
