//! The design on both targets: every pattern at the projected size on Table storage and on
//! Cosmos DB for Table side by side (entities read and returned, round trips, the index's
//! effect, request units, the latency class), the monthly cost on each with Cosmos's price
//! table (dated, naming its source, editable), and what becomes of the guide's index copies
//! on Cosmos. The figures are the design crate's (`design::two_targets`); this file renders.

use super::doc::Ctx;
use super::figures::figure;
use super::fmt;
use crate::design::{
    two_targets, Because, CopyOnCosmos, CopyVerdict, CosmosPrices, GuidePattern, Latency, OnBoth,
    OnTarget, TwoTargets,
};
use crate::i18n::{self, msg, t};
use crate::ui::widgets::ru::RuModel;
use leptos::prelude::*;

#[component]
pub fn TwoTargetPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let both = Memo::new(move |_| {
        let d = ctx.design.get();
        ctx.projection.with(|p| {
            let p = p.as_ref().ok()?;
            ctx.cosmos_prices.with(|c| two_targets(&d, p, c).ok())
        })
    });
    let total = move || {
        ctx.projection.with(|p| {
            p.as_ref()
                .map_or(0.0, |p| p.counts.iter().map(|c| c.1 as f64).sum())
        })
    };
    view! {
        <section class="panel design-two" aria-labelledby="design-two-heading">
            <h2 id="design-two-heading">{t(msg::design_two_heading)}</h2>
            <p class="hint">{t(msg::design_two_intro)}</p>
            {move || both.get().map(|b| view! {
                {table(&b, total())}
                {costs(&b)}
                <RuModel />
                <h3>{t(msg::design_two_guide_heading)}</h3>
                {verdicts(&b)}
            })}
            <CosmosPriceTable />
        </section>
    }
}

fn table(b: &TwoTargets, entities: f64) -> impl IntoView {
    view! {
        <div class="compare-scroll" tabindex="0">
            <table class="compare two-targets">
                <caption>{msg::design_two_caption(fmt::num(entities))}</caption>
                <thead>
                    <tr>
                        <th scope="col" rowspan="2">{t(msg::design_col_pattern)}</th>
                        <th scope="colgroup" colspan="3" class="t-storage">{t(msg::target_table_storage)}</th>
                        <th scope="colgroup" colspan="4" class="t-cosmos">{t(msg::target_cosmos_table)}</th>
                    </tr>
                    <tr>
                        <th scope="col">{fmt::heading(msg::design_two_col_read)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_trips)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_latency)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_read)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_index)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_ru)}</th>
                        <th scope="col">{fmt::heading(msg::design_two_col_latency)}</th>
                    </tr>
                </thead>
                <tbody>{b.patterns.iter().map(row).collect_view()}</tbody>
            </table>
        </div>
    }
}

/// Request units: whole from 100 on, else to two decimals (`4.95`, `0.02`), as the
/// estimates elsewhere show them.
fn ru(x: f64) -> String {
    if x.abs() >= 100.0 {
        fmt::num(x)
    } else {
        i18n::number((x * 100.0).round() / 100.0)
    }
}

/// Stored GB: whole from 100 on, else to three decimals (a design's own size is tiny).
fn gb(x: f64) -> String {
    if x.abs() >= 100.0 {
        fmt::num(x)
    } else {
        i18n::number((x * 1000.0).round() / 1000.0)
    }
}

fn read_returned(s: &OnTarget, figure: fn(f64) -> String) -> String {
    format!("{} / {}", figure(s.read), figure(s.returned))
}

/// Request units as [`ru`] writes them, from a million on in the language's short form.
fn ru_short(x: f64) -> String {
    if x.abs() >= 1e6 {
        fmt::short(x)
    } else {
        ru(x)
    }
}

fn latency(l: Latency) -> String {
    match l {
        Latency::Point => msg::design_latency_point(),
        Latency::OneRoundTrip => msg::design_latency_one(),
        Latency::RoundTrips => msg::design_latency_trips(),
        Latency::Scan => msg::design_latency_scan(),
    }
}

fn row(p: &OnBoth) -> impl IntoView {
    let index = if p.indexed.is_empty() {
        msg::design_two_keys_only()
    } else {
        p.indexed.join(", ")
    };
    view! {
        <tr data-pattern=p.pattern.clone()>
            <th scope="row" class="p-name">{p.pattern.clone()}" "<span class="p-kind">{fmt::kind(p.kind)}</span></th>
            {figure("s-read", read_returned(&p.storage, fmt::short), read_returned(&p.storage, fmt::num))}
            {figure("s-trips", fmt::short(p.storage.requests), fmt::num(p.storage.requests))}
            <td class="s-latency">{latency(p.storage.latency)}</td>
            {figure("c-read", read_returned(&p.cosmos, fmt::short), read_returned(&p.cosmos, fmt::num))}
            <td class="c-index" dir="ltr">{index}</td>
            {figure("c-ru", msg::design_two_ru_value(ru_short(p.ru_per_call), ru_short(p.ru_per_sec)), msg::design_two_ru_value(ru(p.ru_per_call), ru(p.ru_per_sec)))}
            <td class="c-latency">{latency(p.cosmos.latency)}</td>
        </tr>
    }
}

/// The monthly cost on each target, each total with its parts.
fn costs(b: &TwoTargets) -> impl IntoView {
    let s = &b.storage;
    let c = &b.cosmos;
    let money = |x: f64| fmt::money(x, &c.currency);
    let gb = gb(c.stored_gb);
    let beyond = c
        .containers
        .iter()
        .filter(|k| k.beyond_serverless)
        .map(|k| msg::design_two_beyond_serverless(ru(k.ru_per_sec), &k.table))
        .collect::<Vec<_>>();
    view! {
        <dl class="figures design-summary two-costs">
            <div><dt>{t(msg::design_two_cost_storage)}</dt>
                <dd class="cost-storage">{fmt::money(s.total, &s.currency)}</dd></div>
            <div><dt>{msg::design_two_cost_provisioned(fmt::num(c.provisioned_ru_per_sec))}</dt>
                <dd class="cost-provisioned">{money(c.provisioned_total)}
                    <small>{msg::design_two_cost_parts(gb.clone(), money(c.storage), money(c.provisioned))}</small></dd></div>
            <div><dt>{t(msg::design_two_cost_serverless)}</dt>
                <dd class="cost-serverless">{money(c.serverless_total)}
                    <small>{msg::design_two_cost_parts(gb, money(c.storage), money(c.serverless))}</small></dd></div>
        </dl>
        {beyond.into_iter().map(|text| view! { <p class="field-note beyond-serverless">{text}</p> }).collect_view()}
    }
}

fn guide_name(g: GuidePattern) -> String {
    match g {
        GuidePattern::IntraPartitionSecondaryIndex => msg::design_guide_intra(),
        GuidePattern::InterPartitionSecondaryIndex => msg::design_guide_inter(),
    }
}

fn verdict(v: &CopyVerdict) -> String {
    let guide = guide_name(v.guide_pattern);
    match v.on_cosmos {
        CopyOnCosmos::Unnecessary => {
            let reads = v
                .because
                .iter()
                .filter_map(|b| match b {
                    Because::IndexAnswers {
                        pattern,
                        properties,
                    } => Some(msg::design_two_answers(
                        &v.of,
                        pattern,
                        properties.join(", "),
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("; ");
            msg::design_two_unnecessary(
                &v.copy,
                gb(v.stored_gb),
                &guide,
                reads,
                ru(v.ru_per_sec),
                ru(v.writes_per_sec),
            )
        }
        CopyOnCosmos::OrderLost => {
            let pattern = v
                .because
                .iter()
                .find_map(|b| match b {
                    Because::KeyOrder { pattern } => Some(pattern.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            msg::design_two_copy_order(&v.copy, &guide, pattern)
        }
        CopyOnCosmos::Unread => msg::design_two_unread(&v.copy, &guide),
    }
}

/// What becomes of each index copy on Cosmos, which storage scans the index answers, and
/// which reads lose their key order.
fn verdicts(b: &TwoTargets) -> impl IntoView {
    let mut items: Vec<(&'static str, String)> = Vec::new();
    items.extend(b.copies.iter().map(|v| ("verdict-copy", verdict(v))));
    items.extend(
        b.scans_answered
            .iter()
            .map(|p| ("verdict-scan", msg::design_two_scan_answered(p))),
    );
    items.extend(
        b.order_lost
            .iter()
            .map(|p| ("verdict-order", msg::design_two_order_lost(p))),
    );
    if items.is_empty() {
        items.push(("verdict-none", msg::design_two_nothing()));
    }
    view! {
        <ul class="two-verdicts">
            {items.into_iter().map(|(class, text)| view! { <li class=class>{text}</li> }).collect_view()}
        </ul>
    }
}

/// Cosmos's price table, each field editable; its date and source shown with it.
#[component]
fn CosmosPriceTable() -> impl IntoView {
    let ctx = Ctx::expect();
    let p = ctx.cosmos_prices;
    let text = move |f: fn(&CosmosPrices) -> String| move || p.with(f);
    let num = super::project::price_number;
    view! {
        <details class="cosmos-prices">
            <summary>{move || msg::design_cosmos_prices_summary(p.with(|p| p.as_of.clone()), p.with(|p| p.source.clone()))}</summary>
            <div class="field-row">
                {super::form::text(msg::design_cosmos_price_provisioned, "price-ru-hour", text(|p| p.per_100_ru_per_sec_hour.to_string()), move |v| if let Some(x) = num(&v) { p.update(|p| p.per_100_ru_per_sec_hour = x) })}
                {super::form::text(msg::design_cosmos_price_serverless, "price-million-ru", text(|p| p.per_million_ru.to_string()), move |v| if let Some(x) = num(&v) { p.update(|p| p.per_million_ru = x) })}
                {super::form::text(msg::design_price_gb, "price-cosmos-gb", text(|p| p.per_gb_month.to_string()), move |v| if let Some(x) = num(&v) { p.update(|p| p.per_gb_month = x) })}
                {super::form::text(msg::design_price_currency, "price-cosmos-currency", text(|p| p.currency.clone()), move |v| p.update(|p| p.currency = v))}
                {super::form::text(msg::design_price_as_of, "price-cosmos-as-of", text(|p| p.as_of.clone()), move |v| p.update(|p| p.as_of = v))}
                {super::form::text(msg::design_price_source, "price-cosmos-source", text(|p| p.source.clone()), move |v| p.update(|p| p.source = v))}
            </div>
            <p class="field-note">{text(|p| p.note.clone())}</p>
            <button type="button" class="price-reset" on:click=move |_| p.set(CosmosPrices::default())>{t(msg::design_price_reset)}</button>
        </details>
    }
}
