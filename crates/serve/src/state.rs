//! The served account and its data directory: one request at a time, each write durable
//! before its response leaves.

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

    /// Answers one request, and makes its changes durable before returning.
    pub fn serve(&mut self, request: &HttpRequest, context: &Context) -> Served {
        if let Some(failure) = &self.failure {
            return self.internal_error(request, context, failure.clone());
        }
        let outcome = wire::handle(&mut self.account, &self.endpoint, context, request);
        let Some(store) = &mut self.store else {
            return Served {
                response: outcome.response,
                stats: outcome.stats,
            };
        };
        let sets = self.account.take_changes();
        if sets.is_empty() {
            return Served {
                response: outcome.response,
                stats: outcome.stats,
            };
        }
        if let Err(e) = store.commit(&self.account, &sets) {
            let failure = format!("the data directory could not be written: {e}");
            self.failure = Some(failure.clone());
            return self.internal_error(request, context, failure);
        }
        // The change is durable: this response stands even if the snapshot fails.
        if store.wants_snapshot() {
            if let Err(e) = store.snapshot(&self.account) {
                self.failure = Some(format!("a snapshot could not be written: {e}"));
            }
        }
        Served {
            response: outcome.response,
            stats: outcome.stats,
        }
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
        }
    }
}
