//! The projection to production scale: every pattern's figures at the target size, the load
//! on its hottest partition against 2,000 entities/s, the account's load against 20,000/s,
//! the hottest partition overall and its share, and a monthly cost from the price table
//! (dated, naming its source, editable).

use super::doc::Ctx;
use super::figures::{figure, header, pattern_cell, row};
use super::fmt;
use crate::design::{Prices, Projection};
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// The design's problems, each named by its element and field (each is also shown beside
/// the field it concerns), if any.
#[component]
pub fn Problems() -> impl IntoView {
    let ctx = Ctx::expect();
    let problems = move || match ctx.projection.get() {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    };
    view! {
        <ul class="form-problems design-problems" role="alert" hidden=move || problems().is_empty()>
            {move || {
                let d = ctx.design.get();
                problems().into_iter().map(|p| view! {
                    <li data-path=p.path.clone()>{super::field_problems::with_place(&d, &p)}</li>
                }).collect_view()
            }}
        </ul>
    }
}

#[component]
pub fn ProjectionPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let projection = move || ctx.projection.get().ok();
    view! {
        <section class="panel design-project" aria-labelledby="design-project-heading">
            <h2 id="design-project-heading">{t(msg::design_project_heading)}</h2>
            <div class="field-row">
                {super::form::text(msg::design_target, "design-target", move || ctx.target.get(), move |v| ctx.target.set(v))}
            </div>
            <p class="field-error target-problem">
                {move || ctx.target_total().is_none().then(msg::design_target_invalid)}
            </p>
            {move || projection().map(summary)}
            {move || projection().map(|p| figure_tables(&p))}
            {move || projection().map(|p| super::scaling::table(&p))}
            <PriceTable />
        </section>
    }
}

/// Each pattern's figures per call at the target size, then its load: entities per second,
/// on its hottest partition, and transactions a month. Two tables, so each fits the main
/// column at 10⁹ and beyond in every language.
fn figure_tables(p: &Projection) -> impl IntoView {
    let total = fmt::num(p.counts.iter().map(|c| c.1 as f64).sum());
    view! {
        <div class="compare-scroll" tabindex="0">
            <table class="compare projected">
                <caption>{msg::design_projected_at(total.clone())}</caption>
                {header()}
                <tbody>
                    {p.patterns.iter().enumerate().map(|(i, x)| row(i, &x.figures, true)).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="compare-scroll" tabindex="0">
            <table class="compare projected-load">
                <caption>{msg::design_projected_load_at(total)}</caption>
                <thead><tr>
                    <th scope="col">{t(msg::design_col_pattern)}</th>
                    <th scope="col">{fmt::heading(msg::design_col_load)}</th>
                    <th scope="col">{fmt::heading(msg::design_col_hot)}</th>
                    <th scope="col">{fmt::heading(msg::design_col_tx)}</th>
                </tr></thead>
                <tbody>
                    {p.patterns.iter().enumerate().map(|(i, x)| {
                        let hot = |n: fn(f64) -> String| x.hottest.as_ref().map(|h| format!("{} ({})", n(h.entities_per_sec), fmt::percent(h.of_target))).unwrap_or_default();
                        view! {
                            <tr data-pattern=i>
                                {pattern_cell(&x.figures)}
                                {figure("f-load", fmt::short(x.entities_per_sec), fmt::num(x.entities_per_sec))}
                                {figure("f-hot", hot(fmt::short), hot(fmt::num))}
                                {figure("f-tx", fmt::short(x.transactions_per_month), fmt::num(x.transactions_per_month))}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The account's load, the hottest partition, the stored size and the monthly cost.
fn summary(p: Projection) -> impl IntoView {
    let hot = p.hottest.as_ref().map(|h| {
        msg::design_hottest(
            &h.partition_key,
            fmt::num(h.entities_per_sec),
            fmt::percent(p.hottest_share),
            &h.table,
            fmt::percent(h.of_target),
        )
    });
    let c = &p.cost;
    view! {
        <dl class="figures design-summary">
            <div><dt>{t(msg::design_account_load)}</dt>
                <dd class="s-account">{format!("{} ({})", fmt::num(p.account_entities_per_sec), fmt::percent(p.account_of_target))}</dd></div>
            <div><dt>{t(msg::design_stored)}</dt><dd class="s-stored">{format!("{} GB", fmt::num(c.stored_gb))}</dd></div>
            <div><dt>{t(msg::design_cost_tx)}</dt><dd class="s-cost-tx">{fmt::money(c.transactions, &c.currency)}</dd></div>
            <div><dt>{t(msg::design_cost_storage)}</dt><dd class="s-cost-storage">{fmt::money(c.storage, &c.currency)}</dd></div>
            <div><dt>{t(msg::design_cost_total)}</dt><dd class="s-cost">{fmt::money(c.total, &c.currency)}</dd></div>
        </dl>
        <p class="design-hottest">{hot.unwrap_or_else(msg::design_no_writes)}</p>
    }
}

/// A price as typed: a number not below zero, with a decimal point or comma.
pub(super) fn price_number(v: &str) -> Option<f64> {
    v.trim()
        .replace(',', ".")
        .parse::<f64>()
        .ok()
        .filter(|x| *x >= 0.0)
}

/// The price table, each field editable; its date and source are shown with it.
#[component]
fn PriceTable() -> impl IntoView {
    let ctx = Ctx::expect();
    let p = ctx.prices;
    let text = move |f: fn(&Prices) -> String| move || p.with(f);
    let num = price_number;
    view! {
        <details class="design-prices">
            <summary>{move || msg::design_prices_summary(p.with(|p| p.as_of.clone()), p.with(|p| p.source.clone()))}</summary>
            <div class="field-row">
                {super::form::text(msg::design_price_tx, "price-tx", text(|p| p.per_10k_transactions.to_string()), move |v| if let Some(x) = num(&v) { p.update(|p| p.per_10k_transactions = x) })}
                {super::form::text(msg::design_price_gb, "price-gb", text(|p| p.per_gb_month.to_string()), move |v| if let Some(x) = num(&v) { p.update(|p| p.per_gb_month = x) })}
                {super::form::text(msg::design_price_currency, "price-currency", text(|p| p.currency.clone()), move |v| p.update(|p| p.currency = v))}
                {super::form::text(msg::design_price_as_of, "price-as-of", text(|p| p.as_of.clone()), move |v| p.update(|p| p.as_of = v))}
                {super::form::text(msg::design_price_source, "price-source", text(|p| p.source.clone()), move |v| p.update(|p| p.source = v))}
                {super::form::text(msg::design_price_offer, "price-offer", text(|p| p.offer.clone()), move |v| p.update(|p| p.offer = v))}
            </div>
            <p class="field-note">{text(|p| p.note.clone())}</p>
            <button type="button" class="price-reset" on:click=move |_| p.set(Prices::default())>{t(msg::design_price_reset)}</button>
        </details>
    }
}
