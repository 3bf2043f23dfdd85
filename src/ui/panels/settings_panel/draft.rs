//! What the settings editor holds while the user types: each CORS rule and each stored access
//! policy as the text of its fields (one signal per field, so typing re-renders one input),
//! read into the engine's values when saved, and where a refusal belongs among them.

use crate::engine::settings::{
    CorsList, CorsRule, Permissions, PropertiesUpdate, ServiceProperties, SettingProblem,
    SignedIdentifier, CORS_METHODS,
};
use crate::engine::{AccessPolicy, DateTime, Detail, Error};
use crate::i18n::msg;
use crate::ui::text::notice_text::Say;
use leptos::prelude::*;
use std::sync::Arc;

/// An instant in the form the editor shows and takes.
pub const EXAMPLE_TIME: &str = "2030-01-31T12:00:00Z";

/// A field of a rule or a policy, where a problem is shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    Origins,
    Methods,
    AllowedHeaders,
    ExposedHeaders,
    MaxAge,
    Id,
    Start,
    Expiry,
    Permissions,
}

impl Field {
    /// The field's part of its element ids (`cors-3-origins`).
    pub fn slug(self) -> &'static str {
        match self {
            Field::Origins => "origins",
            Field::Methods => "methods",
            Field::AllowedHeaders => "allowed-headers",
            Field::ExposedHeaders => "exposed-headers",
            Field::MaxAge => "max-age",
            Field::Id => "id",
            Field::Start => "start",
            Field::Expiry => "expiry",
            Field::Permissions => "permissions",
        }
    }
}

/// Where a problem is shown: beside one field of one item (by its draft's key), or under
/// the whole list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum At {
    List,
    Item(u32, Field),
}

/// Why a save did not happen: the service refused it (its code, and the typed problem), or
/// the editor could not read a field into a value.
#[derive(Clone)]
pub enum Why {
    Service(Error),
    Local(Say),
}

/// A refused save, kept until the next attempt.
#[derive(Clone)]
pub struct Problem {
    pub at: At,
    pub why: Why,
}

impl Problem {
    /// What to say beside the field, in the language shown.
    pub fn text(&self) -> String {
        match &self.why {
            Why::Service(e) => e
                .detail
                .as_deref()
                .map(crate::ui::text::error_text::detail)
                .unwrap_or_else(|| e.message.clone()),
            Why::Local(say) => say(),
        }
    }

    /// The service's error, for the notice under the save button.
    pub fn service(&self) -> Option<Error> {
        match &self.why {
            Why::Service(e) => Some(e.clone()),
            Why::Local(_) => None,
        }
    }
}

/// A fresh key for a draft (keys only tell drafts apart while the editor is open).
pub fn next_key() -> u32 {
    thread_local! {
        // The editor's drafts are its own; a counter per page is enough to key them.
        static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    NEXT.with(|n| {
        let k = n.get();
        n.set(k + 1);
        k
    })
}

/// A CORS rule being edited.
#[derive(Clone, Copy)]
pub struct RuleDraft {
    pub key: u32,
    pub origins: RwSignal<String>,
    pub methods: RwSignal<[bool; CORS_METHODS.len()]>,
    pub allowed: RwSignal<String>,
    pub exposed: RwSignal<String>,
    pub max_age: RwSignal<String>,
}

impl RuleDraft {
    pub fn new(rule: &CorsRule) -> Self {
        let methods = CORS_METHODS.map(|m| rule.allowed_methods.iter().any(|x| x == m));
        RuleDraft {
            key: next_key(),
            origins: RwSignal::new(rule.allowed_origins.join(", ")),
            methods: RwSignal::new(methods),
            allowed: RwSignal::new(rule.allowed_headers.join(", ")),
            exposed: RwSignal::new(rule.exposed_headers.join(", ")),
            max_age: RwSignal::new(rule.max_age_in_seconds.to_string()),
        }
    }

    /// A new rule: every origin may read (GET) and nothing else yet.
    pub fn blank() -> Self {
        RuleDraft::new(&CorsRule {
            allowed_origins: vec!["*".into()],
            allowed_methods: vec!["GET".into()],
            allowed_headers: Vec::new(),
            exposed_headers: Vec::new(),
            max_age_in_seconds: 0,
        })
    }

    /// The rule the fields say, or where they cannot be read.
    pub fn rule(&self) -> Result<CorsRule, Problem> {
        let max_age = self.max_age.with_untracked(|t| t.trim().parse::<u32>());
        let max_age_in_seconds = max_age.map_err(|_| Problem {
            at: At::Item(self.key, Field::MaxAge),
            why: Why::Local(Arc::new(msg::settings_max_age_invalid)),
        })?;
        let methods = self.methods.get_untracked();
        Ok(CorsRule {
            allowed_origins: self.origins.with_untracked(|t| entries(t)),
            allowed_methods: CORS_METHODS
                .iter()
                .zip(methods)
                .filter(|(_, on)| *on)
                .map(|(m, _)| m.to_string())
                .collect(),
            allowed_headers: self.allowed.with_untracked(|t| entries(t)),
            exposed_headers: self.exposed.with_untracked(|t| entries(t)),
            max_age_in_seconds,
        })
    }
}

/// A comma-separated list's entries, trimmed, empty ones left out.
fn entries(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every rule's value, or the first field that cannot be read.
pub fn rules(drafts: &[RuleDraft]) -> Result<Vec<CorsRule>, Problem> {
    drafts.iter().map(RuleDraft::rule).collect()
}

/// The request that saves `rules` as the account's CORS rules (the rest is kept).
pub fn cors_update(rules: Vec<CorsRule>) -> PropertiesUpdate {
    PropertiesUpdate {
        cors: Some(rules),
        ..PropertiesUpdate::default()
    }
}

/// Where the service's refusal of `drafts` belongs: beside the list of the rule that broke
/// it alone (checked one rule at a time, as the service would), else under all of them.
pub fn locate_cors(error: Error, drafts: &[RuleDraft], rules: &[CorsRule]) -> Problem {
    let at = setting(&error)
        .and_then(|problem| {
            drafts.iter().zip(rules).find_map(|(draft, rule)| {
                let alone = ServiceProperties::default().update(&cors_update(vec![rule.clone()]));
                let same = alone.err().as_ref().and_then(setting) == Some(problem);
                same.then_some(())
                    .and_then(|()| cors_field(problem))
                    .map(|field| At::Item(draft.key, field))
            })
        })
        .unwrap_or(At::List);
    Problem {
        at,
        why: Why::Service(error),
    }
}

fn setting(error: &Error) -> Option<&SettingProblem> {
    match error.detail.as_deref() {
        Some(Detail::Setting(problem)) => Some(problem),
        _ => None,
    }
}

/// The field a rule's problem names (`None`: a problem of all the rules together).
fn cors_field(problem: &SettingProblem) -> Option<Field> {
    use SettingProblem::*;
    let list = match problem {
        CorsEmpty { list }
        | CorsListTooLong { list, .. }
        | CorsPrefixes { list, .. }
        | CorsEntryTooLong { list, .. } => *list,
        CorsMethod { .. } => CorsList::AllowedMethods,
        _ => return None,
    };
    Some(match list {
        CorsList::AllowedOrigins => Field::Origins,
        CorsList::AllowedMethods => Field::Methods,
        CorsList::AllowedHeaders => Field::AllowedHeaders,
        CorsList::ExposedHeaders => Field::ExposedHeaders,
    })
}

/// A stored access policy being edited.
#[derive(Clone, Copy)]
pub struct PolicyDraft {
    pub key: u32,
    pub id: RwSignal<String>,
    pub start: RwSignal<String>,
    pub expiry: RwSignal<String>,
    /// r, a, u, d.
    pub permissions: RwSignal<[bool; 4]>,
}

impl PolicyDraft {
    pub fn new(identifier: &SignedIdentifier) -> Self {
        let policy = identifier.access_policy.clone().unwrap_or_default();
        let time = |t: Option<DateTime>| t.map(|t| t.to_string()).unwrap_or_default();
        let p = policy
            .permission
            .as_deref()
            .and_then(Permissions::parse_ordered)
            .unwrap_or_default();
        PolicyDraft {
            key: next_key(),
            id: RwSignal::new(identifier.id.clone()),
            start: RwSignal::new(time(policy.start)),
            expiry: RwSignal::new(time(policy.expiry)),
            permissions: RwSignal::new([p.read, p.add, p.update, p.delete]),
        }
    }

    /// A new policy: read only, no start or expiry yet.
    pub fn blank() -> Self {
        let draft = PolicyDraft::new(&SignedIdentifier {
            id: String::new(),
            access_policy: None,
        });
        draft.permissions.set([true, false, false, false]);
        draft
    }

    /// The signed identifier the fields say, or where they cannot be read.
    pub fn identifier(&self) -> Result<SignedIdentifier, Problem> {
        let time = |field: Field, text: RwSignal<String>| {
            let text = text.get_untracked();
            let text = text.trim().to_string();
            if text.is_empty() {
                return Ok(None);
            }
            DateTime::parse(&text).map(Some).map_err(|_| Problem {
                at: At::Item(self.key, field),
                why: Why::Local(Arc::new(move || {
                    msg::settings_time_invalid(EXAMPLE_TIME, format!("{text:?}"))
                })),
            })
        };
        let start = time(Field::Start, self.start)?;
        let expiry = time(Field::Expiry, self.expiry)?;
        let permission: String = "raud"
            .chars()
            .zip(self.permissions.get_untracked())
            .filter(|(_, on)| *on)
            .map(|(c, _)| c)
            .collect();
        let permission = (!permission.is_empty()).then_some(permission);
        let access_policy = (start.is_some() || expiry.is_some() || permission.is_some())
            .then_some(AccessPolicy {
                start,
                expiry,
                permission,
            });
        Ok(SignedIdentifier {
            id: self.id.get_untracked(),
            access_policy,
        })
    }
}

/// Every policy's value, or the first field that cannot be read.
pub fn identifiers(drafts: &[PolicyDraft]) -> Result<Vec<SignedIdentifier>, Problem> {
    drafts.iter().map(PolicyDraft::identifier).collect()
}

/// Where the service's refusal of `drafts` belongs: beside the policy that broke the rule.
pub fn locate_acl(error: Error, drafts: &[PolicyDraft], list: &[SignedIdentifier]) -> Problem {
    use SettingProblem::*;
    let pairs = || drafts.iter().zip(list);
    let at = match setting(&error) {
        Some(SignedIdentifierId { .. }) => pairs()
            .find(|(_, i)| !(1..=64).contains(&i.id.chars().count()))
            .map(|(d, _)| At::Item(d.key, Field::Id)),
        // The second of the two: the first was fine until it came.
        Some(SignedIdentifierTwice { id }) => pairs()
            .filter(|(_, i)| &i.id == id)
            .nth(1)
            .map(|(d, _)| At::Item(d.key, Field::Id)),
        Some(Permission { .. }) => pairs()
            .find(|(_, i)| {
                let p = i
                    .access_policy
                    .as_ref()
                    .and_then(|p| p.permission.as_deref());
                p.is_some_and(|p| Permissions::parse_ordered(p).is_none())
            })
            .map(|(d, _)| At::Item(d.key, Field::Permissions)),
        _ => None,
    };
    Problem {
        at: at.unwrap_or(At::List),
        why: Why::Service(error),
    }
}
