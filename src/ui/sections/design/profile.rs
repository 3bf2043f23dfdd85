//! The generated values beside the declared ones: after a generation (and before an
//! evaluation) the design's tables are read back, a page per step, and every categorical
//! property's distinct values and most frequent value's share are shown beside what the
//! design declares at that size. The evaluation's comparison names its differences from it.

use super::doc::Ctx;
use super::fmt;
use super::remote::Reader;
use crate::design::{Design, Difference, Profile, ProfileRun};
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// Counts the values in the tables, pausing every `SLICE_MS` so the page stays responsive.
pub async fn read(reader: &Reader, design: &Design) -> Result<Profile, String> {
    let now = crate::ui::kit::dom::now;
    let mut run = ProfileRun::new(design);
    let mut slice_start = now();
    while !run.step(reader)? {
        if now() - slice_start >= super::run::SLICE_MS {
            super::run::pause().await;
            slice_start = now();
        }
    }
    Ok(run.profile())
}

/// The profile's table (nothing before the first count).
#[component]
pub fn ProfileTable() -> impl IntoView {
    let ctx = Ctx::expect();
    move || {
        ctx.profile.get().map(|(_, p)| {
            view! {
                <div class="compare-scroll" tabindex="0">
                    <table class="compare profile">
                        <caption>{t(msg::design_profile_heading)}</caption>
                        <thead><tr>
                            <th scope="col">{t(msg::design_col_property)}</th>
                            <th scope="col">{t(msg::design_col_values)}</th>
                            <th scope="col">{t(msg::design_col_top)}</th>
                            <th scope="col">{t(msg::design_col_top_share)}</th>
                            <th scope="col">{t(msg::design_col_as_declared)}</th>
                        </tr></thead>
                        <tbody>
                            {p.properties.into_iter().map(|row| {
                                let values = format!(
                                    "{} / {}{}",
                                    fmt::num(row.declared_values as f64),
                                    fmt::num(row.values as f64),
                                    if row.capped { "+" } else { "" },
                                );
                                let shares = format!("{} / {}", fmt::percent(row.top_declared), fmt::percent(row.top_measured));
                                let ok = !row.departs();
                                view! {
                                    <tr data-property=row.property.clone() class:departs=!ok>
                                        <th scope="row">{format!("{}.{}", row.entity_type, row.property)}</th>
                                        <td class="p-values">{values}</td>
                                        <td class="p-top" dir="auto">{row.top}</td>
                                        <td class="p-share">{shares}</td>
                                        <td class="p-ok">{move || if ok { msg::design_yes() } else { msg::design_no() }}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="field-note">{t(msg::design_profile_note)}</p>
            }
        })
    }
}

/// A difference between measured and projected selectivity, said.
pub fn difference(d: &Difference) -> String {
    match d {
        Difference::FewerValues {
            property,
            values,
            declared,
        } => msg::design_why_fewer(*values, fmt::num(*declared as f64), property),
        Difference::Share {
            property,
            value,
            measured,
            declared,
        } => msg::design_why_share(
            fmt::percent(*declared),
            fmt::percent(*measured),
            property,
            value,
        ),
        Difference::Combination => msg::design_why_combination(),
    }
}
