//! Figures as the section shows them: numbers in the page's language (`i18n::number`),
//! rounded to what the model can claim.

use crate::design::{Kind, Spread};
use crate::i18n::{self, msg};

/// A figure: whole numbers from 100 on, else one decimal (`0.4`, `12.5`, `88,012`).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let rounded = if x.abs() >= 100.0 {
        x.round()
    } else {
        (x * 10.0).round() / 10.0
    };
    i18n::number(rounded)
}

/// From a million on, a figure in the language's short form (`650M`, `1.02B`); below it,
/// as [`num`]. The projection at 10⁹ and beyond fits the main column so, each cell keeping
/// its exact figures in its title.
pub fn short(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e6 {
        i18n::compact(x)
    } else {
        num(x)
    }
}

/// A column heading that may break after each slash (`Pages/call`, `Seiten/Aufruf`), so a
/// narrow figure column is not held wide by its heading.
pub fn heading(message: fn() -> String) -> impl Fn() -> String {
    move || message().replace('/', "/\u{200B}")
}

/// A share as a percentage with one decimal (`45.5 %` in German, `45.5%` in English).
pub fn percent(share: f64) -> String {
    msg::design_percent(num(share * 100.0))
}

/// Mean and worst (`12.5 / 40`); one figure when they are equal.
pub fn spread(s: &Spread) -> String {
    spread_with(s, num)
}

/// Mean and worst as [`spread`] does, each figure [`short`].
pub fn spread_short(s: &Spread) -> String {
    spread_with(s, short)
}

fn spread_with(s: &Spread, figure: fn(f64) -> String) -> String {
    if (s.mean - s.worst).abs() < 1e-9 {
        figure(s.mean)
    } else {
        format!("{} / {}", figure(s.mean), figure(s.worst))
    }
}

/// Money with two decimals, or four under one unit (prices per transaction are tiny):
/// `22,734.30 USD`, `0.0004 USD`, `0.00 USD`.
pub fn money(x: f64, currency: &str) -> String {
    let digits = if x.abs() >= 1.0 || x == 0.0 { 2 } else { 4 };
    format!("{} {currency}", i18n::fixed(x, digits))
}

pub fn kind(k: Kind) -> String {
    match k {
        Kind::Point => msg::design_kind_point(),
        Kind::PartitionRange => msg::design_kind_partition_range(),
        Kind::PartitionScan => msg::design_kind_partition_scan(),
        Kind::TableRange => msg::design_kind_table_range(),
        Kind::TableScan => msg::design_kind_table_scan(),
        Kind::Write => msg::design_kind_write(),
    }
}
