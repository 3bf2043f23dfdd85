//! The command line: a few flags, parsed with the standard library.

use super::cors::CorsStart;
use super::store::DEFAULT_SNAPSHOT_BYTES;
use std::path::PathBuf;
use tablescope_engine::Target;
use tablescope_wire::{DEV_ACCOUNT, DEV_KEY};

pub const USAGE: &str = "\
tablescope-serve: the Azure Table service on a local endpoint (Tablescope's engine over HTTP)

USAGE:
    tablescope-serve [OPTIONS]
    tablescope-serve export --location DIR > workspace.json

OPTIONS:
    --host HOST            address to listen on [default: 127.0.0.1]
    --port PORT            port to listen on, 0 for any free one [default: 10002]
    --account NAME         the storage account's name [default: devstoreaccount1]
    --key BASE64           the account key [default: the development account's key]
    --target TARGET        the service the account models: `storage` (Azure Table storage)
                           or `cosmos` (Azure Cosmos DB for Table) [default: a --location
                           DIR's own, else storage]; a DIR keeps its target and refuses the
                           other one
    --location DIR         keep the data in DIR across restarts: every acknowledged write
                           is on disk before it is acknowledged
    --in-memory            keep the data in memory only (the default without --location;
                           Azurite's --inMemoryPersistence is accepted too)
    --load FILE            start from a workspace exported by the playground (with
                           --location, it replaces what DIR holds)
    --allow-anonymous      also serve requests that carry no credential
    --cors-origin ORIGIN   start with one CORS rule admitting ORIGIN (repeatable; `*` for
                           every origin) instead of the default rule, which admits the
                           playground (http://127.0.0.1:8080, http://localhost:8080) and
                           is applied only to an account with no stored properties
    --no-cors              start with no CORS rules (browser pages are refused)
    --snapshot-bytes N     with --location: write a snapshot when the change log passes
                           N bytes or the last snapshot's size, whichever is larger
                           [default: 67108864]
    --repair               with --location: start even though DIR is damaged, keeping every
                           change record that reads whole and saying what was dropped
                           (without it, damage stops the start and changes nothing)
    --silent               do not log requests (one line each on stdout by default)
    --threads N            threads answering connections [default: one per core]
    -h, --help             print this help

The defaults match Azurite's, so `UseDevelopmentStorage=true` works unchanged, as does:
    DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=<the key>;
    TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;

`export` writes the account in DIR as the playground's workspace export (to load in the
browser, or with --load), without changing DIR; it can run while a server uses DIR.
";

/// Where the account is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    Memory,
    Location(PathBuf),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub account: String,
    pub key: String,
    pub storage: Storage,
    pub load: Option<PathBuf>,
    pub allow_anonymous: bool,
    pub snapshot_bytes: u64,
    pub silent: bool,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    pub cors: CorsStart,
    /// `--repair`: open a damaged data directory, dropping what cannot be read.
    pub repair: bool,
    /// `--target`: the service the account models; without it, a data directory's own (Table
    /// storage for a new one or in memory).
    pub target: Option<Target>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            host: "127.0.0.1".into(),
            port: 10002,
            account: DEV_ACCOUNT.into(),
            key: DEV_KEY.into(),
            storage: Storage::Memory,
            load: None,
            allow_anonymous: false,
            snapshot_bytes: DEFAULT_SNAPSHOT_BYTES,
            silent: false,
            threads: None,
            cors: CorsStart::Default,
            repair: false,
            target: None,
        }
    }
}

/// The service a target models, as messages name it.
pub fn service_name(target: Target) -> &'static str {
    match target {
        Target::TableStorage => "Azure Table storage",
        Target::CosmosTable => "Azure Cosmos DB for Table",
    }
}

/// The `--target` value naming `target`.
pub fn target_flag(target: Target) -> &'static str {
    match target {
        Target::TableStorage => "storage",
        Target::CosmosTable => "cosmos",
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Serve(Options),
    Export { location: PathBuf },
    Help,
}

/// Parses the arguments after the program's name. Flags take `--flag value` or
/// `--flag=value`.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut args = args.into_iter().peekable();
    let export = args.peek().is_some_and(|a| a == "export");
    if export {
        args.next();
    }
    let mut options = Options::default();
    let (mut location, mut in_memory) = (None, false);
    let (mut origins, mut no_cors) = (Vec::new(), false);
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--host" => options.host = value()?,
            "--port" => {
                let v = value()?;
                options.port = v.parse().map_err(|_| format!("--port {v}: not a port"))?;
            }
            "--account" => options.account = value()?,
            "--key" => options.key = value()?,
            "--location" => location = Some(PathBuf::from(value()?)),
            "--in-memory" | "--inMemoryPersistence" => in_memory = true,
            "--load" => options.load = Some(PathBuf::from(value()?)),
            "--allow-anonymous" => options.allow_anonymous = true,
            "--snapshot-bytes" => {
                let v = value()?;
                options.snapshot_bytes = v
                    .parse()
                    .map_err(|_| format!("--snapshot-bytes {v}: not a number"))?;
            }
            "--silent" => options.silent = true,
            "--threads" => {
                let v = value()?;
                options.threads = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--threads {v}: not a number above 0"))?,
                );
            }
            "--cors-origin" => origins.push(value()?),
            "--no-cors" => no_cors = true,
            "--repair" => options.repair = true,
            "--target" => {
                let v = value()?;
                options.target = Some(
                    Target::ALL
                        .into_iter()
                        .find(|t| target_flag(*t) == v)
                        .ok_or_else(|| format!("--target {v}: not `storage` or `cosmos`"))?,
                );
            }
            other => return Err(format!("unknown argument {other} (see --help)")),
        }
    }
    if export {
        return location
            .map(|location| Command::Export { location })
            .ok_or_else(|| "export needs --location DIR".to_string());
    }
    options.cors = match (origins.is_empty(), no_cors) {
        (false, true) => return Err("--cors-origin and --no-cors exclude each other".into()),
        (false, false) => CorsStart::Origins(origins),
        (true, true) => CorsStart::None,
        (true, false) => CorsStart::Default,
    };
    options.storage = match (location, in_memory) {
        (Some(_), true) => return Err("--location and --in-memory exclude each other".into()),
        (Some(dir), false) => Storage::Location(dir),
        (None, _) if options.repair => return Err("--repair needs --location DIR".into()),
        (None, _) => Storage::Memory,
    };
    Ok(Command::Serve(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, String> {
        parse(line.split_whitespace().map(String::from))
    }

    #[test]
    fn defaults_are_azurites() {
        assert_eq!(parse_str(""), Ok(Command::Serve(Options::default())));
        let o = Options::default();
        assert_eq!((o.host.as_str(), o.port), ("127.0.0.1", 10002));
        assert_eq!(o.account, "devstoreaccount1");
    }

    #[test]
    fn every_flag() {
        let got = parse_str(
            "--host 0.0.0.0 --port=0 --account me --key a2V5 --location /tmp/d \
             --load w.json --allow-anonymous --snapshot-bytes 4096 --silent --repair --threads 3",
        );
        assert_eq!(
            got,
            Ok(Command::Serve(Options {
                host: "0.0.0.0".into(),
                port: 0,
                account: "me".into(),
                key: "a2V5".into(),
                storage: Storage::Location("/tmp/d".into()),
                load: Some("w.json".into()),
                allow_anonymous: true,
                snapshot_bytes: 4096,
                silent: true,
                threads: Some(3),
                cors: CorsStart::Default,
                repair: true,
                target: None,
            }))
        );
        assert_eq!(
            parse_str("export --location=/tmp/d"),
            Ok(Command::Export {
                location: "/tmp/d".into()
            })
        );
        assert_eq!(parse_str("--port 9 -h"), Ok(Command::Help));
        match parse_str("--target cosmos") {
            Ok(Command::Serve(o)) => assert_eq!(o.target, Some(Target::CosmosTable)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse_str("--target=mongo"),
            Err("--target mongo: not `storage` or `cosmos`".to_string())
        );
        let cors = |line: &str| match parse_str(line) {
            Ok(Command::Serve(o)) => Ok(o.cors),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(
            cors("--cors-origin http://a.example --cors-origin=http://b.example"),
            Ok(CorsStart::Origins(vec![
                "http://a.example".into(),
                "http://b.example".into()
            ]))
        );
        assert_eq!(cors("--no-cors"), Ok(CorsStart::None));
        assert_eq!(
            cors("--no-cors --cors-origin x"),
            Err("--cors-origin and --no-cors exclude each other".to_string())
        );
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(
            parse_str("--port x"),
            Err("--port x: not a port".to_string())
        );
        assert_eq!(parse_str("--host"), Err("--host needs a value".to_string()));
        assert_eq!(
            parse_str("--location d --in-memory"),
            Err("--location and --in-memory exclude each other".to_string())
        );
        assert_eq!(
            parse_str("--repair"),
            Err("--repair needs --location DIR".to_string())
        );
        assert_eq!(
            parse_str("export"),
            Err("export needs --location DIR".to_string())
        );
        assert_eq!(
            parse_str("--verbose"),
            Err("unknown argument --verbose (see --help)".to_string())
        );
    }
}
