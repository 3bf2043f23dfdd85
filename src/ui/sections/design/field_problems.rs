//! A design's problems beside the fields they concern, in the reader's language: each editor
//! row (an entity type, a property, a pattern) shows the problems of its own element, each
//! named by the label of the field it concerns; the list under the editor names the element
//! by its name. A problem's path (`entityTypes[0].properties[2].distribution`) stays data,
//! never text a person reads.

use super::doc::Ctx;
use super::problem_text::problem;
use crate::design::{Design, Problem};
use crate::i18n::msg;
use leptos::prelude::*;

/// What an editor row edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    Type,
    Property,
    Pattern,
}

/// Whether `path` is the element at `prefix` or one of its fields; an entity type's
/// properties are their own rows' concern.
pub fn concerns(path: &str, prefix: &str, element: Element) -> bool {
    match path.strip_prefix(prefix) {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('.')
            .is_some_and(|field| element != Element::Type || !field.starts_with("properties[")),
        None => false,
    }
}

/// The form's label of a field of `element` (`count`, `conditions[1]`, `distribution`).
fn label(element: Element, field: &str) -> Option<String> {
    let name = field.split(['.', '[']).next().unwrap_or_default();
    Some(match (element, name) {
        (Element::Type, "name") => msg::design_type_name(),
        (Element::Type, "table") => msg::design_type_table(),
        (Element::Type, "count") => msg::design_type_count(),
        (Element::Type, "partitionKey") => msg::design_type_pk(),
        (Element::Type, "rowKey") => msg::design_type_rk(),
        (Element::Type, "copyOf") => msg::design_type_copy_of(),
        (Element::Property, "name") => msg::design_prop_name(),
        (Element::Property, "type") => msg::design_prop_type(),
        (Element::Property, "distribution") => msg::design_prop_params(),
        (Element::Property, "scale") => msg::design_prop_scale(),
        (Element::Pattern, "name") => msg::design_pattern_name(),
        (Element::Pattern, "rate") => msg::design_pattern_rate(),
        (Element::Pattern, "entityType") => msg::design_pattern_type(),
        (Element::Pattern, "conditions") => msg::design_pattern_conditions(),
        (Element::Pattern, "resultSize") => msg::design_pattern_result(),
        (Element::Pattern, "needs") => msg::design_pattern_needs(),
        (Element::Pattern, "select") => msg::design_pattern_select(),
        (Element::Pattern, "fanOut") => msg::design_pattern_fan_out(),
        (Element::Pattern, "entityTypes") => msg::design_pattern_types(),
        (Element::Pattern, "perCall") => msg::design_write_per_call(),
        _ => return None,
    })
}

/// The field of the element at `prefix` a problem concerns, by its form label, if the form
/// has the field.
fn field_label(element: Element, prefix: &str, p: &Problem) -> Option<String> {
    let field = p
        .path
        .strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or_default();
    label(element, field)
}

/// A problem of the element at `prefix`, said beside its row: by its field's label.
pub fn at_field(element: Element, prefix: &str, p: &Problem) -> String {
    match field_label(element, prefix, p) {
        Some(l) => msg::design_problem_at(l, problem(&p.issue)),
        None => problem(&p.issue),
    }
}

/// The element a path names: what it is, its own path, and its name as the design has it
/// (`Order · CustomerId` for a property).
fn locate(d: &Design, path: &str) -> Option<(Element, String, String)> {
    let index = |s: &str| s.split(']').next()?.parse::<usize>().ok();
    if let Some(rest) = path.strip_prefix("patterns[") {
        let i = index(rest)?;
        let name = d.patterns.get(i)?.name().to_string();
        return Some((Element::Pattern, format!("patterns[{i}]"), name));
    }
    let i = index(path.strip_prefix("entityTypes[")?)?;
    let ty = d.entity_types.get(i)?;
    let prefix = format!("entityTypes[{i}]");
    let rest = path.get(prefix.len()..).unwrap_or_default();
    if let Some(j) = rest.strip_prefix(".properties[").and_then(index) {
        let prop = ty.properties.get(j)?;
        let name = format!("{} · {}", ty.name, prop.name);
        return Some((Element::Property, format!("{prefix}.properties[{j}]"), name));
    }
    Some((Element::Type, prefix, ty.name.clone()))
}

/// A problem said in the list under the editor: the element's name and the field's label
/// (`Order · CustomerId · Parameters: …`).
pub fn with_place(d: &Design, p: &Problem) -> String {
    match locate(d, &p.path) {
        Some((element, prefix, name)) => {
            let place = match field_label(element, &prefix, p) {
                Some(l) => format!("{name} · {l}"),
                None => name,
            };
            msg::design_problem_at(place, problem(&p.issue))
        }
        None if p.path == "name" => msg::design_problem_at(msg::design_name(), problem(&p.issue)),
        None => problem(&p.issue),
    }
}

/// The problems of the element at `prefix`, beside its fields.
#[component]
pub fn FieldProblems(prefix: String, element: Element) -> impl IntoView {
    let ctx = Ctx::expect();
    let mine = move || {
        ctx.projection.with(|r| match r {
            Ok(_) => Vec::new(),
            Err(e) => e
                .problems
                .iter()
                .filter(|p| concerns(&p.path, &prefix, element))
                .map(|p| (p.path.clone(), at_field(element, &prefix, p)))
                .collect::<Vec<_>>(),
        })
    };
    view! {
        {move || mine().into_iter().map(|(path, text)| view! {
            <p class="field-error design-field-problem" data-path=path>{text}</p>
        }).collect_view()}
    }
}
