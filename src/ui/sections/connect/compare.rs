//! The same query's answers from the sandbox and from the connection, compared: the same
//! entities in the same order, the same pages, the same continuation tokens.
//!
//! Invariant: a property the service sets itself at write time (`Timestamp`, the ETag) and
//! the response's own metadata (`odata.*`) are left out: two accounts never agree on them.
//! Everything else, type annotations included, must be equal for the answers to be the same.

use super::query::{Entity, Page};
use serde_json::Value;

/// A property that two accounts holding the same entities still answer differently.
fn ignored(name: &str) -> bool {
    name.starts_with("odata.") || name == "Timestamp" || name == "Timestamp@odata.type"
}

/// One way the two answers differ. Positions and pages count from 1.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// A different number of pages.
    Pages { sandbox: usize, connection: usize },
    /// A page with a different number of entities.
    PageSize {
        page: usize,
        sandbox: usize,
        connection: usize,
    },
    /// A page ends with a different continuation token (`None`: the last page).
    Token {
        page: usize,
        sandbox: Option<String>,
        connection: Option<String>,
    },
    /// At this position the two answers hold different entities (`None`: that side has no
    /// entity there). Keys as `PartitionKey / RowKey`.
    Entity {
        position: usize,
        sandbox: Option<String>,
        connection: Option<String>,
    },
    /// The same entity, with a property that differs (`None`: that side lacks it); values as
    /// JSON.
    Property {
        position: usize,
        key: String,
        property: String,
        sandbox: Option<String>,
        connection: Option<String>,
    },
}

/// `PartitionKey / RowKey` of an entity (blank where the answer has no key, as a `$select`
/// without the keys).
pub fn key_text(e: &Entity) -> String {
    let key = |n: &str| e.get(n).and_then(Value::as_str).unwrap_or_default();
    format!("{} / {}", key("PartitionKey"), key("RowKey"))
}

/// Every difference between the sandbox's pages and the connection's, pages first.
pub fn compare(sandbox: &[Page], connection: &[Page]) -> Vec<Difference> {
    let mut out = Vec::new();
    if sandbox.len() != connection.len() {
        out.push(Difference::Pages {
            sandbox: sandbox.len(),
            connection: connection.len(),
        });
    }
    for (i, (s, c)) in sandbox.iter().zip(connection).enumerate() {
        if s.entities.len() != c.entities.len() {
            out.push(Difference::PageSize {
                page: i + 1,
                sandbox: s.entities.len(),
                connection: c.entities.len(),
            });
        }
        let (st, ct) = (
            s.next.as_ref().map(|t| t.text()),
            c.next.as_ref().map(|t| t.text()),
        );
        if st != ct {
            out.push(Difference::Token {
                page: i + 1,
                sandbox: st,
                connection: ct,
            });
        }
    }
    let all = |pages: &[Page]| -> Vec<Entity> {
        pages
            .iter()
            .flat_map(|p| p.entities.iter().cloned())
            .collect()
    };
    let (s, c) = (all(sandbox), all(connection));
    for position in 0..s.len().max(c.len()) {
        let (se, ce) = (s.get(position), c.get(position));
        match (se, ce) {
            (Some(se), Some(ce)) if key_text(se) == key_text(ce) => {
                properties(position + 1, se, ce, &mut out)
            }
            _ => out.push(Difference::Entity {
                position: position + 1,
                sandbox: se.map(key_text),
                connection: ce.map(key_text),
            }),
        }
    }
    out
}

/// The properties of one entity that differ, in the sandbox's order, then the connection's
/// extra ones.
fn properties(position: usize, s: &Entity, c: &Entity, out: &mut Vec<Difference>) {
    let names = s
        .keys()
        .chain(c.keys().filter(|k| !s.contains_key(*k)))
        .filter(|n| !ignored(n));
    for name in names {
        let (sv, cv) = (s.get(name), c.get(name));
        if sv != cv {
            out.push(Difference::Property {
                position,
                key: key_text(s),
                property: name.clone(),
                sandbox: sv.map(Value::to_string),
                connection: cv.map(Value::to_string),
            });
        }
    }
}

/// The entity with what the service sets itself removed: what a copy writes.
pub fn writable(e: &Entity) -> Entity {
    e.iter()
        .filter(|(n, _)| !ignored(n))
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::query::{Page, Token};
    use super::*;
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn entity(v: Value) -> Entity {
        v.as_object().cloned().unwrap_or_default()
    }

    fn page(entities: Vec<Value>, next: Option<&str>) -> Page {
        Page {
            entities: entities.into_iter().map(entity).collect(),
            next: next.map(|p| Token {
                partition: p.into(),
                row: None,
            }),
        }
    }

    #[wasm_bindgen_test]
    fn timestamps_etags_and_metadata_never_differ() {
        let s = page(
            vec![
                json!({"odata.etag": "a", "PartitionKey": "p", "RowKey": "1", "Timestamp": "x", "N": 1}),
            ],
            None,
        );
        let c = page(
            vec![
                json!({"odata.etag": "b", "PartitionKey": "p", "RowKey": "1", "Timestamp": "y", "Timestamp@odata.type": "Edm.DateTime", "N": 1}),
            ],
            None,
        );
        assert_eq!(compare(&[s], &[c]), vec![]);
    }

    #[wasm_bindgen_test]
    fn every_difference_is_named() {
        let s = vec![page(
            vec![
                json!({"PartitionKey": "p", "RowKey": "1", "N": 1}),
                json!({"PartitionKey": "p", "RowKey": "2"}),
            ],
            None,
        )];
        let c = vec![
            page(
                vec![
                    json!({"PartitionKey": "p", "RowKey": "1", "N": 2, "M@odata.type": "Edm.Int64", "M": "3"}),
                    json!({"PartitionKey": "p", "RowKey": "3"}),
                ],
                Some("t"),
            ),
            page(vec![json!({"PartitionKey": "q", "RowKey": "1"})], None),
        ];
        let text = |v: &str| Some(v.to_string());
        assert_eq!(
            compare(&s, &c),
            vec![
                Difference::Pages {
                    sandbox: 1,
                    connection: 2
                },
                Difference::Token {
                    page: 1,
                    sandbox: None,
                    connection: text("NextPartitionKey=t")
                },
                Difference::Property {
                    position: 1,
                    key: "p / 1".into(),
                    property: "N".into(),
                    sandbox: text("1"),
                    connection: text("2"),
                },
                Difference::Property {
                    position: 1,
                    key: "p / 1".into(),
                    property: "M@odata.type".into(),
                    sandbox: None,
                    connection: text("\"Edm.Int64\""),
                },
                Difference::Property {
                    position: 1,
                    key: "p / 1".into(),
                    property: "M".into(),
                    sandbox: None,
                    connection: text("\"3\""),
                },
                Difference::Entity {
                    position: 2,
                    sandbox: text("p / 2"),
                    connection: text("p / 3")
                },
                Difference::Entity {
                    position: 3,
                    sandbox: None,
                    connection: text("q / 1")
                },
            ]
        );
    }
}
