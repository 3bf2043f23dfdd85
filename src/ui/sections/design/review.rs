//! The checklist review: each design item of the guide's performance checklist graded pass,
//! warn or fail on the projection, with its figures, the design element to blame and the
//! lesson that teaches the fix. The item is shown in the page's language: the design guide's
//! own sentence where the guide states the rule, otherwise a translation of the German
//! checklist item marked as one; the German original is one click away.

use super::doc::Ctx;
use super::fmt;
use crate::design::{Design, Finding, Grade, Rule};
use crate::i18n::{lang, msg, t, Lang};
use leptos::prelude::*;

pub fn rule_id(r: Rule) -> &'static str {
    match r {
        Rule::QueryScope => "query-scope",
        Rule::QueryDensity => "query-density",
        Rule::Projection => "projection",
        Rule::Denormalisation => "denormalisation",
        Rule::Batches => "batches",
        Rule::Upsert => "upsert",
        Rule::AppendOnly => "append-only",
        Rule::WriteSpread => "write-spread",
        Rule::DataSeries => "data-series",
    }
}

/// The item's short name in the page's language.
pub fn rule_name(r: Rule) -> String {
    match r {
        Rule::QueryScope => msg::design_rule_query_scope(),
        Rule::QueryDensity => msg::design_rule_query_density(),
        Rule::Projection => msg::design_rule_projection(),
        Rule::Denormalisation => msg::design_rule_denormalisation(),
        Rule::Batches => msg::design_rule_batches(),
        Rule::Upsert => msg::design_rule_upsert(),
        Rule::AppendOnly => msg::design_rule_append_only(),
        Rule::WriteSpread => msg::design_rule_write_spread(),
        Rule::DataSeries => msg::design_rule_data_series(),
    }
}

/// The item in the page's language: in English, Dutch and Arabic the design guide's sentence
/// for the rules it states ([`Rule::in_design_guide`]) and a translation of the German
/// checklist item for the others; in German the checklist item itself.
fn item(r: Rule) -> String {
    match r {
        Rule::QueryScope => msg::design_item_query_scope(),
        Rule::QueryDensity => msg::design_item_query_density(),
        Rule::Projection => msg::design_item_projection(),
        Rule::Denormalisation => msg::design_item_denormalisation(),
        Rule::Batches => msg::design_item_batches(),
        Rule::Upsert => msg::design_item_upsert(),
        Rule::AppendOnly => msg::design_item_append_only(),
        Rule::WriteSpread => msg::design_item_write_spread(),
        Rule::DataSeries => msg::design_item_data_series(),
    }
}

pub fn grade_text(g: Grade) -> String {
    match g {
        Grade::Pass => msg::design_grade_pass(),
        Grade::Warn => msg::design_grade_warn(),
        Grade::Fail => msg::design_grade_fail(),
    }
}

pub fn grade_id(g: Grade) -> &'static str {
    match g {
        Grade::Pass => "pass",
        Grade::Warn => "warn",
        Grade::Fail => "fail",
    }
}

/// The figures behind the grade, in the page's language.
pub fn evidence(f: &Finding) -> String {
    let (m, l) = (f.measure, f.limit);
    if m == 0.0 && l == 0.0 {
        return msg::design_ev_none();
    }
    match f.rule {
        Rule::QueryScope => match f.scan_share {
            Some(s) => msg::design_ev_query_scope_scan(
                fmt::percent(crate::design::SCAN_LOAD_LIMIT),
                fmt::percent(s),
            ),
            None => msg::design_ev_query_scope(fmt::percent(l), fmt::percent(m)),
        },
        Rule::QueryDensity => msg::design_ev_query_density(fmt::num(l), fmt::num(m)),
        Rule::Projection => msg::design_ev_projection(fmt::num(m), fmt::num(l)),
        Rule::Denormalisation => msg::design_ev_denormalisation(fmt::num(m)),
        Rule::Batches if f.operations.is_some() => {
            msg::design_ev_batch_operations(fmt::num(l), fmt::num(m))
        }
        Rule::Batches => msg::design_ev_batches(if m > 0.0 {
            msg::design_yes()
        } else {
            msg::design_no()
        }),
        Rule::Upsert => msg::design_ev_upsert(fmt::num(l), fmt::num(m)),
        Rule::AppendOnly => msg::design_ev_append_only(fmt::num(m), fmt::num(l)),
        Rule::WriteSpread => msg::design_ev_write_spread(fmt::num(m), fmt::num(l)),
        Rule::DataSeries => msg::design_ev_data_series(fmt::num(m)),
    }
}

/// The element to blame by its name: `patterns[3]` is the pattern's name,
/// `entityTypes[0].partitionKey` the type's name and the key.
pub fn element(d: &Design, path: &str) -> String {
    let index = |prefix: &str| {
        path.strip_prefix(prefix)?
            .split(']')
            .next()?
            .parse::<usize>()
            .ok()
    };
    if let Some(p) = index("patterns[").and_then(|i| d.patterns.get(i)) {
        return p.name().to_string();
    }
    if let Some(ty) = index("entityTypes[").and_then(|i| d.entity_types.get(i)) {
        return match path.rsplit('.').next() {
            Some("partitionKey") => format!("{} · PartitionKey {}", ty.name, ty.partition_key),
            Some("rowKey") => format!("{} · RowKey {}", ty.name, ty.row_key),
            _ => ty.name.clone(),
        };
    }
    path.to_string()
}

#[component]
pub fn ChecklistPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    view! {
        <section class="panel design-checklist" aria-labelledby="design-checklist-heading">
            <h2 id="design-checklist-heading">{t(msg::design_checklist_heading)}</h2>
            <p class="hint">{t(msg::design_checklist_hint)}</p>
            <ol class="checklist">
                {move || {
                    let d = ctx.design.get();
                    ctx.findings.get().into_iter().map(|f| view! { <Item f=f d=d.clone() /> }).collect_view()
                }}
            </ol>
        </section>
    }
}

#[component]
fn Item(f: Finding, d: Design) -> impl IntoView {
    let blame = f.element.as_deref().map(|p| element(&d, p));
    let (rule, grade) = (f.rule, f.grade);
    let original = format!("{}: {}", f.checklist_category, f.checklist_item);
    let guide = rule.in_design_guide();
    // Where the item's text comes from in the page's language: the German checklist itself,
    // the design guide, or a translation of the checklist.
    let source = move || match (lang(), guide) {
        (Lang::De, _) => "checklist",
        (_, true) => "guide",
        (_, false) => "translation",
    };
    let lesson = f.lesson.clone();
    view! {
        <li class=format!("checklist-item grade-{}", grade_id(grade)) data-rule=rule_id(rule) data-grade=grade_id(grade)>
            <p>
                <strong class="grade">{move || grade_text(grade)}</strong>" "
                <span class="rule">{move || rule_name(rule)}</span>" — "
                <q class="item">{move || item(rule)}</q>
            </p>
            <p class="evidence">{move || evidence(&f)}</p>
            {blame.map(|b| view! { <p class="blame">{t(msg::design_blame)}" "<bdi>{b}</bdi></p> })}
            <p class="cite" data-source=source>
                {move || match source() {
                    "checklist" => msg::design_cite_original(),
                    "guide" => msg::design_cite_guide(),
                    _ => msg::design_cite_translated(),
                }}
            </p>
            {move || (lang() != Lang::De).then(|| view! {
                <details class="cite-original">
                    <summary>{t(msg::design_cite_german)}</summary>
                    <q lang="de" dir="ltr">{original.clone()}</q>
                </details>
            })}
            <a class="lesson" href=lesson>{t(msg::design_lesson)}</a>
        </li>
    }
}
