//! Time is injected: the engine never reads a system clock (which panics on wasm32).

use super::datetime::DateTime;

/// A source of the current instant.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime;
}

/// A clock that stands still at one instant; the account still issues strictly increasing
/// Timestamps (one tick apart), so runs on it are deterministic.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub DateTime);

impl Default for FixedClock {
    /// 2026-01-01T00:00:00Z.
    fn default() -> Self {
        FixedClock(DateTime::from_ticks(134_116_992_000_000_000).unwrap_or(DateTime::MIN))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime {
        self.0
    }
}

impl<F: Fn() -> DateTime + Send + Sync> Clock for F {
    fn now(&self) -> DateTime {
        self()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_fixed_clock_is_2026() {
        assert_eq!(
            FixedClock::default().now().to_string(),
            "2026-01-01T00:00:00Z"
        );
    }
}
