//! The review: the design items of the guide's performance checklist, each graded pass, warn
//! or fail on a projection, with the number behind the grade, the design element to blame,
//! the lesson that teaches the fix, and the checklist item it applies (cited in the
//! checklist's German, the original; the UI shows each item in the page's language).

use super::figures::Kind;
use super::model::{Design, Distribution, Pattern, WriteOp};
use super::project::Projection;
use super::sample::root_of;
use super::template::{Expr, Format, Template};
use serde::{Deserialize, Serialize};
use tablescope_engine::throughput::PARTITION_TARGET;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Grade {
    Pass,
    Warn,
    Fail,
}

/// The nine design items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rule {
    QueryScope,
    QueryDensity,
    Projection,
    Denormalisation,
    Batches,
    Upsert,
    AppendOnly,
    WriteSpread,
    DataSeries,
}

impl Rule {
    pub const ALL: [Rule; 9] = [
        Rule::QueryScope,
        Rule::QueryDensity,
        Rule::Projection,
        Rule::Denormalisation,
        Rule::Batches,
        Rule::Upsert,
        Rule::AppendOnly,
        Rule::WriteSpread,
        Rule::DataSeries,
    ];

    /// The checklist's category and item, verbatim from the German guide.
    pub fn checklist_item(self) -> (&'static str, &'static str) {
        match self {
            Rule::QueryScope => ("Abfragebereich", "Haben Sie Ihr Schema so konzipiert, dass in den meisten Fällen Punktabfragen verwendet werden können und Tabellenabfragen nur sparsam erfolgen?"),
            Rule::QueryDensity => ("Abfragedichte", "Erfassen Ihre Abfragen normalerweise nur Zeilen für die Rückgabe, die Ihre Anwendung auch verwenden wird?"),
            Rule::Projection => ("Einschränken der zurückgegebenen Daten", "Verwenden Sie Projektion, um die Rückgabe nicht benötigter Eigenschaften zu vermeiden?"),
            Rule::Denormalisation => ("Denormalisierung", "Haben Sie Ihre Daten so normalisiert, dass Sie ineffiziente Abfragen oder mehrere Leseanforderungen beim Abrufen von Daten vermeiden?"),
            Rule::Batches => ("Einfügen, Aktualisieren und Löschen", "Verwenden Sie Batchverarbeitung für Anforderungen, die transaktional oder gleichzeitig erfolgen, um Roundtrips zu reduzieren?"),
            Rule::Upsert => ("Einfügen, Aktualisieren und Löschen", "Vermeiden Sie das Abrufen von Entitäten, nur um zu bestimmen, ob Einfügen oder Aktualisieren erforderlich ist?"),
            Rule::AppendOnly => ("Heiße Partitionen", "Vermeiden Sie Nur-Anhängen/Nur-Voranstellen-Muster?"),
            Rule::WriteSpread => ("Heiße Partitionen", "Verteilen sich Ihre Einfügungen/Aktualisierungen auf mehrere Partitionen?"),
            Rule::DataSeries => ("Einfügen, Aktualisieren und Löschen", "Haben Sie überlegt, Datenreihen, die häufig zusammen abgerufen werden, in einer einzigen Entität als Eigenschaften zu speichern statt in mehreren Entitäten?"),
        }
    }

    /// Whether the design guide ("Design scalable and performant tables", in English, Dutch
    /// and Arabic) states this item's rule in a sentence of its own: the UI then quotes that
    /// sentence, and otherwise shows its translation of the German checklist item, marked so.
    pub fn in_design_guide(self) -> bool {
        matches!(
            self,
            Rule::Batches | Rule::WriteSpread | Rule::Denormalisation
        )
    }

    /// The lesson (a built-in scenario) that teaches the fix.
    pub fn lesson(self) -> &'static str {
        match self {
            Rule::QueryScope => "./?scenario=query-kinds.json#learn",
            Rule::QueryDensity | Rule::Denormalisation => "./?scenario=index-entities.json#learn",
            Rule::Projection => "./?scenario=employees.json#learn",
            Rule::Batches | Rule::Upsert => "./?scenario=batch-update.json#learn",
            Rule::AppendOnly | Rule::WriteSpread => "./?scenario=hot-partition.json#learn",
            Rule::DataSeries => "./?scenario=compound-keys.json#learn",
        }
    }
}

/// One graded item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub rule: Rule,
    pub grade: Grade,
    /// The figure graded, and the limit it was held against.
    pub measure: f64,
    pub limit: f64,
    /// The figures in a sentence (English; the UI may build its own from measure/limit).
    pub evidence: String,
    /// The element to blame (`patterns[3]`, `entityTypes[0].partitionKey`), if any.
    pub element: Option<String>,
    /// Query scope: the share of the account's load (entities scanned per second) taken by
    /// the heaviest table scan, when it reaches [`SCAN_LOAD_LIMIT`] (and so fails the item).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan_share: Option<f64>,
    /// Batches: the operations of a write call that keeps to one partition but takes more
    /// than an entity group transaction's 100 (and so fails the item when it batches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operations: Option<u64>,
    pub lesson: String,
    pub checklist_category: String,
    pub checklist_item: String,
}

fn finding(
    rule: Rule,
    grade: Grade,
    measure: f64,
    limit: f64,
    evidence: String,
    element: Option<String>,
) -> Finding {
    let (category, item) = rule.checklist_item();
    Finding {
        rule,
        grade,
        measure,
        limit,
        evidence,
        element,
        scan_share: None,
        operations: None,
        lesson: rule.lesson().into(),
        checklist_category: category.into(),
        checklist_item: item.into(),
    }
}

/// A table scan that takes this share of the account's load (entities scanned per second,
/// what the scalability targets count) fails "query scope" whatever its rate.
pub const SCAN_LOAD_LIMIT: f64 = 0.1;

/// Operations an entity group transaction takes at most.
const MAX_BATCH: u64 = tablescope_engine::MAX_OPERATIONS as u64;

/// Reviews a design on its projection (the figures at the size that matters).
pub fn review(design: &Design, projection: &Projection) -> Vec<Finding> {
    Rule::ALL
        .iter()
        .map(|r| grade(*r, design, projection))
        .collect()
}

/// The English sentences of the review, in one place for the catalogue.
mod text {
    pub fn scope(share: f64) -> String {
        format!(
            "{:.1}% of the read load (entities scanned per second) is point or partition queries",
            share * 100.0
        )
    }
    pub fn scan(name: &str, share: f64) -> String {
        format!(
            "{name:?} scans the table and takes {:.1}% of the account's load (a table scan fails from {:.0}%)",
            share * 100.0,
            super::SCAN_LOAD_LIMIT * 100.0
        )
    }
    pub fn density(name: &str, ratio: f64) -> String {
        format!("{name:?} scans {ratio:.1} entities per entity it returns")
    }
    pub fn projection(name: &str, full: f64, sel: f64) -> String {
        format!("{name:?} downloads {full:.0} bytes per call; $select of the needed properties: {sel:.0}")
    }
    pub fn requests(name: &str, n: f64) -> String {
        format!("{name:?} asks {n:.1} partitions per call, one request each")
    }
    pub fn batch_operations(name: &str, operations: u64) -> String {
        format!("{name:?} writes {operations} entities per call: an entity group transaction takes at most 100 operations")
    }
    pub fn batch(name: &str, batchable: bool, batched: bool) -> String {
        match (batchable, batched) {
            (true, true) => format!("{name:?} writes its entities in one entity group transaction"),
            (true, false) => format!("{name:?} writes entities of one partition one by one: one batch would do"),
            _ => format!("{name:?} writes entities that must stay consistent into different partitions: no batch can keep them together"),
        }
    }
    pub fn upsert(name: &str, requests: f64) -> String {
        format!("{name:?} reads before it writes: {requests:.0} requests per call where an upsert needs {:.0}", requests - 1.0)
    }
    pub fn append(name: &str, key: &str, load: f64) -> String {
        format!(
            "{name:?}: every new entity goes to the newest partition ({key}), {load:.0} entities/s"
        )
    }
    pub fn spread(name: &str, key: &str, load: f64) -> String {
        format!("{name:?}: partition {key} takes {load:.0} entities/s against the 2,000/s target")
    }
    pub fn series(name: &str, returned: f64) -> String {
        format!("{name:?} reads {returned:.0} one-value entities of a series per call")
    }
    pub fn none() -> String {
        "no pattern concerns this item".into()
    }
}

fn label(i: usize) -> Option<String> {
    Some(format!("patterns[{i}]"))
}

fn grade(rule: Rule, d: &Design, p: &Projection) -> Finding {
    let reads =
        || {
            d.patterns.iter().enumerate().zip(&p.patterns).filter_map(
                |((i, pat), proj)| match pat {
                    Pattern::Read(r) => Some((i, r, proj)),
                    Pattern::Write(_) => None,
                },
            )
        };
    let writes =
        || {
            d.patterns.iter().enumerate().zip(&p.patterns).filter_map(
                |((i, pat), proj)| match pat {
                    Pattern::Write(w) => Some((i, w, proj)),
                    Pattern::Read(_) => None,
                },
            )
        };
    let quiet = || finding(rule, Grade::Pass, 0.0, 0.0, text::none(), None);
    match rule {
        Rule::QueryScope => {
            // Weighted by load: each read's entities scanned per second at its rate.
            let total: f64 = reads().map(|(_, _, x)| x.entities_per_sec).sum();
            if total <= 0.0 {
                return quiet();
            }
            let targeted: f64 = reads()
                .filter(|(_, _, x)| x.figures.kind.is_targeted())
                .map(|(_, _, x)| x.entities_per_sec)
                .sum();
            let share = targeted / total;
            let heaviest_scan = reads()
                .filter(|(_, _, x)| !x.figures.kind.is_targeted())
                .max_by(|a, b| a.2.entities_per_sec.total_cmp(&b.2.entities_per_sec));
            let account = p.account_entities_per_sec.max(total);
            let scan = heaviest_scan
                .map(|(i, r, x)| (i, r, x.entities_per_sec / account))
                .filter(|(_, _, s)| *s >= SCAN_LOAD_LIMIT);
            let g = if scan.is_some() || share < 0.5 {
                Grade::Fail
            } else if share < 0.9 {
                Grade::Warn
            } else {
                Grade::Pass
            };
            let evidence = match scan {
                Some((_, r, s)) => text::scan(&r.name, s),
                None => text::scope(share),
            };
            let mut f = finding(
                rule,
                g,
                share,
                0.9,
                evidence,
                heaviest_scan
                    .and_then(|(i, _, _)| label(i))
                    .filter(|_| g != Grade::Pass),
            );
            f.scan_share = scan.map(|(_, _, s)| s);
            f
        }
        Rule::QueryDensity => {
            let worst = reads()
                .map(|(i, r, x)| {
                    (
                        i,
                        r,
                        x.figures.scanned.mean / x.figures.returned.mean.max(1.0),
                    )
                })
                .max_by(|a, b| a.2.total_cmp(&b.2));
            match worst {
                None => quiet(),
                Some((i, r, ratio)) => {
                    let g = if ratio <= 5.0 {
                        Grade::Pass
                    } else if ratio <= 100.0 {
                        Grade::Warn
                    } else {
                        Grade::Fail
                    };
                    finding(
                        rule,
                        g,
                        ratio,
                        5.0,
                        text::density(&r.name, ratio),
                        label(i).filter(|_| g != Grade::Pass),
                    )
                }
            }
        }
        Rule::Projection => {
            let offender = reads().find(|(_, r, _)| {
                let ty = d.entity_type(&r.entity_type);
                !r.select
                    && r.needs
                        .as_ref()
                        .is_some_and(|n| ty.is_some_and(|t| n.len() < t.properties.len()))
            });
            match offender {
                None => quiet(),
                Some((i, r, x)) => {
                    let (full, sel) = (
                        x.figures.payload_bytes.mean,
                        x.figures.payload_bytes_selected.mean,
                    );
                    finding(
                        rule,
                        Grade::Warn,
                        full,
                        sel,
                        text::projection(&r.name, full, sel),
                        label(i),
                    )
                }
            }
        }
        Rule::Denormalisation => {
            // Several requests to different partitions for one answer (a fan-out); pages of
            // one long answer are the density and load figures' concern.
            let worst = reads()
                .filter(|(_, _, x)| x.figures.partitions.mean > 1.0 && x.figures.kind.is_targeted())
                .max_by(|a, b| {
                    a.2.figures
                        .partitions
                        .mean
                        .total_cmp(&b.2.figures.partitions.mean)
                });
            match worst {
                Some((i, r, x)) => {
                    let n = x.figures.partitions.mean;
                    let g = if n > 10.0 && r.rate >= 1.0 {
                        Grade::Fail
                    } else {
                        Grade::Warn
                    };
                    finding(rule, g, n, 1.0, text::requests(&r.name, n), label(i))
                }
                None => quiet(),
            }
        }
        Rule::Batches => {
            let worst = writes()
                .filter(|(_, w, _)| w.operations() > 1)
                .map(|(i, w, x)| {
                    let batchable = x.figures.batchable.unwrap_or(false);
                    let g = match (batchable, w.batch) {
                        (true, true) => Grade::Pass,
                        (true, false) => Grade::Warn,
                        _ => Grade::Fail,
                    };
                    (g, i, w, x, batchable)
                })
                .max_by_key(|(g, ..)| *g);
            match worst {
                None => quiet(),
                Some((g, i, w, x, batchable)) => {
                    let operations = w.operations();
                    // More than 100 operations fail a batch even in one partition; the
                    // measure is then the operation count against the limit of 100.
                    if !batchable && operations > MAX_BATCH && x.figures.partitions.worst <= 1.0 {
                        return Finding {
                            operations: Some(operations),
                            ..finding(
                                rule,
                                if w.batch { Grade::Fail } else { Grade::Warn },
                                operations as f64,
                                MAX_BATCH as f64,
                                text::batch_operations(&w.name, operations),
                                Some(format!("patterns[{i}].perCall")),
                            )
                        };
                    }
                    let element = if batchable {
                        label(i)
                    } else {
                        // The first type keyed unlike the write's first type (else the
                        // second type).
                        let pk = |t: &String| d.entity_type(t).map(|e| &e.partition_key);
                        let first = w.entity_types.first().and_then(pk);
                        w.entity_types
                            .iter()
                            .skip(1)
                            .find(|t| pk(t) != first)
                            .or_else(|| w.entity_types.get(1))
                            .and_then(|t| d.entity_types.iter().position(|e| &e.name == t))
                            .map(|j| format!("entityTypes[{j}].partitionKey"))
                    };
                    finding(
                        rule,
                        g,
                        f64::from(u8::from(batchable)),
                        1.0,
                        text::batch(&w.name, batchable, w.batch),
                        element.filter(|_| g != Grade::Pass),
                    )
                }
            }
        }
        Rule::Upsert => match writes().find(|(_, w, _)| w.read_first) {
            None => quiet(),
            Some((i, w, x)) => finding(
                rule,
                Grade::Warn,
                x.figures.requests.mean,
                x.figures.requests.mean - 1.0,
                text::upsert(&w.name, x.figures.requests.mean),
                label(i),
            ),
        },
        Rule::AppendOnly => {
            let offender = writes()
                .filter(|(_, w, _)| w.op == WriteOp::Insert)
                .find_map(|(i, w, x)| {
                    let j = w.entity_types.iter().find_map(|t| {
                        let j = d.entity_types.iter().position(|e| &e.name == t)?;
                        monotone_lead(d, j).then_some(j)
                    })?;
                    Some((i, w, x, j))
                });
            match offender {
                None => quiet(),
                Some((_, w, x, j)) => {
                    let load = x.hottest.as_ref().map_or(0.0, |h| h.entities_per_sec);
                    let key = x
                        .hottest
                        .as_ref()
                        .map_or(String::new(), |h| h.partition_key.clone());
                    let g = if load >= f64::from(PARTITION_TARGET) {
                        Grade::Fail
                    } else {
                        Grade::Warn
                    };
                    finding(
                        rule,
                        g,
                        load,
                        f64::from(PARTITION_TARGET),
                        text::append(&w.name, &key, load),
                        Some(format!("entityTypes[{j}].partitionKey")),
                    )
                }
            }
        }
        Rule::WriteSpread => {
            let worst = writes()
                .filter_map(|(i, w, x)| x.hottest.as_ref().map(|h| (i, w, h)))
                .max_by(|a, b| a.2.entities_per_sec.total_cmp(&b.2.entities_per_sec));
            match worst {
                None => quiet(),
                Some((i, w, h)) => {
                    let target = f64::from(PARTITION_TARGET);
                    let g = if h.entities_per_sec >= target {
                        Grade::Fail
                    } else if h.entities_per_sec >= target / 2.0 {
                        Grade::Warn
                    } else {
                        Grade::Pass
                    };
                    finding(
                        rule,
                        g,
                        h.entities_per_sec,
                        target,
                        text::spread(&w.name, &h.partition_key, h.entities_per_sec),
                        label(i).filter(|_| g != Grade::Pass),
                    )
                }
            }
        }
        Rule::DataSeries => {
            let offender = reads().find(|(_, r, x)| {
                let Some(ty) = d.entity_type(&r.entity_type) else {
                    return false;
                };
                let keyed: Vec<String> = [&ty.partition_key, &ty.row_key]
                    .iter()
                    .filter_map(|t| Template::parse(t).ok())
                    .flat_map(|t| {
                        t.fields()
                            .map(|f| f.expr.property().to_string())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                let values = ty
                    .properties
                    .iter()
                    .filter(|p| !keyed.contains(&p.name))
                    .count();
                x.figures.kind != Kind::TableScan
                    && x.figures.returned.mean >= 10.0
                    && values <= 1
                    && timed_row_key(d, ty)
            });
            match offender {
                None => quiet(),
                Some((i, r, x)) => finding(
                    rule,
                    Grade::Warn,
                    x.figures.returned.mean,
                    1.0,
                    text::series(&r.name, x.figures.returned.mean),
                    label(i),
                ),
            }
        }
    }
}

/// Whether the PartitionKey's first varying part rises with time (a date, ticks, an
/// inverted tick count or a sequence) with no hash bucket before it.
fn monotone_lead(d: &Design, j: usize) -> bool {
    let Some(ty) = d.entity_types.get(j) else {
        return false;
    };
    let Ok(t) = Template::parse(&ty.partition_key) else {
        return false;
    };
    let root = root_of(d, ty);
    let Some(first) = t.fields().next() else {
        return false;
    };
    let dist = root
        .property(first.expr.property())
        .map(|p| &p.distribution);
    match (&first.expr, dist) {
        (Expr::Hash { .. }, _) => false,
        (Expr::Inverted(_), _) => true,
        (_, Some(Distribution::Timestamps { .. } | Distribution::Sequential { .. })) => true,
        _ => false,
    }
}

fn timed_row_key(d: &Design, ty: &super::model::EntityType) -> bool {
    let Ok(t) = Template::parse(&ty.row_key) else {
        return false;
    };
    let root = root_of(d, ty);
    let timed = t.fields().any(|f| {
        matches!(f.expr, Expr::Inverted(_))
            || matches!(f.format, Format::Date | Format::Ticks)
            || matches!(
                root.property(f.expr.property()).map(|p| &p.distribution),
                Some(Distribution::Timestamps { .. })
            )
    });
    timed
}
