//! The served account and its data directory: one request at a time, each write durable
//! before its response leaves (by the group commit, waited on outside the account's lock).

use super::reply;
use super::store::Store;
use tablescope_engine::{Account, QueryStats};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest, HttpResponse};

/// The account, how callers authenticate, and where it is kept.
///
/// Invariant: with a store, every change the account holds is durable in it, unless
/// `failure` is set, after which nothing more is served (memory may hold a change the disk
/// does not, and answering from it would show data a restart loses).
pub struct State {
    pub account: Account,
    pub endpoint: Endpoint,
    pub store: Option<Store>,
    failure: Option<String>,
}

/// A response and, for queries, what the engine scanned and returned.
pub struct Served {
    pub response: HttpResponse,
    pub stats: Option<QueryStats>,
    /// With a store: the group commit's number that must be durable before the response
    /// leaves (this request's records, or the last staged ones a read may show); 0 for none.
    pub durable: u64,
}

impl State {
    /// Serves `account`; with a store, the account must be the one the store loaded.
    pub fn new(mut account: Account, endpoint: Endpoint, store: Option<Store>) -> State {
        // Without a store nothing reads the change feed: turn it off so it does not grow.
        account.set_change_feed(store.is_some());
        State {
            account,
            endpoint,
            store,
            failure: None,
        }
    }

    /// Answers one request, and stages its changes for the group commit: the response may
    /// leave once [`Served::durable`] is (`Store::group`).
    pub fn serve(&mut self, request: &HttpRequest, context: &Context) -> Served {
        if self.failure.is_none() {
            self.failure = self.store.as_ref().and_then(|s| s.group().failure());
        }
        if let Some(failure) = &self.failure {
            return self.internal_error(request, context, failure.clone());
        }
        let outcome = wire::handle(&mut self.account, &self.endpoint, context, request);
        let Some(store) = &mut self.store else {
            return Served {
                response: outcome.response,
                stats: outcome.stats,
                durable: 0,
            };
        };
        let sets = self.account.take_changes();
        let durable = if sets.is_empty() {
            store.group().staged()
        } else {
            match store.stage(&self.account, &sets) {
                Ok(seq) => seq,
                Err(e) => {
                    let failure = format!("the data directory could not be written: {e}");
                    self.failure = Some(failure.clone());
                    return self.internal_error(request, context, failure);
                }
            }
        };
        // The change is staged: this response stands (once durable) even if the snapshot
        // fails, which first makes it durable. Only a write pays for a snapshot: a read
        // after a start on a long log answers without writing one.
        if !sets.is_empty() && store.wants_snapshot() {
            if let Err(e) = store.snapshot(&self.account) {
                self.failure = Some(format!("a snapshot could not be written: {e}"));
            }
        }
        Served {
            response: outcome.response,
            stats: outcome.stats,
            durable,
        }
    }

    /// The response to a request whose changes could not be made durable.
    pub fn not_durable(&mut self, request: &HttpRequest, context: &Context, why: String) -> Served {
        self.failure.get_or_insert(why.clone());
        self.internal_error(request, context, why)
    }

    fn internal_error(&self, request: &HttpRequest, context: &Context, why: String) -> Served {
        eprintln!("tablescope-serve: {why}; restart the server to recover what was acknowledged");
        let mut response = reply::error(
            request,
            context,
            tablescope_engine::ErrorCode::InternalError,
        );
        wire::cors::decorate(self.account.service_properties(), request, &mut response);
        Served {
            response,
            stats: None,
            durable: 0,
        }
    }
}
