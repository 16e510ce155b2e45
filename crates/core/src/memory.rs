//! Giving memory back after a burst of sessions (issue 24.2).
//!
//! glibc's malloc gives freed memory back to the system only from the top
//! of a heap; what 10,000 sessions freed lies below blocks still in use, so
//! after they all quit the server kept 84 MiB over its start. Once a burst
//! is over (at least [`BURST`] sessions ended and at most half of the peak
//! is left), the server asks glibc to release every free page
//! (`malloc_trim`). Under a steady load the count of sessions does not
//! halve, so nothing is released only to be taken again.

/// Sessions that must have ended since the last release.
pub const BURST: usize = 64;

/// Counts sessions to tell when a burst is over.
#[derive(Debug, Default)]
pub struct Bursts {
    /// Sessions open at most since the last release.
    peak: usize,
    /// Sessions ended since the last release.
    ended: usize,
}

impl Bursts {
    /// A session started; `live` are open now (it included).
    pub fn started(&mut self, live: usize) {
        self.peak = self.peak.max(live);
    }

    /// A session ended.
    pub fn ended(&mut self) {
        self.ended += 1;
    }

    /// Whether to release now, with `live` sessions open; if so the count
    /// starts again from here.
    pub fn release_due(&mut self, live: usize) -> bool {
        if self.ended >= BURST && live <= self.peak / 2 {
            self.ended = 0;
            self.peak = live;
            return true;
        }
        false
    }
}

/// Returns the allocator's free pages to the system (glibc: `malloc_trim`;
/// nothing elsewhere). Runs for a few milliseconds over large heaps: call
/// it off the async workers.
#[allow(unsafe_code)]
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes a pad size and has no other precondition;
    // it only works on the allocator's own free lists, under its locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_comes_when_a_burst_is_over_and_not_under_steady_load() {
        let mut b = Bursts::default();
        // 1,000 sessions come; under way, nothing.
        for live in 1..=1000 {
            b.started(live);
        }
        assert!(!b.release_due(1000));
        // Steady churn: as many end as start.
        for _ in 0..500 {
            b.ended();
            b.started(1000);
        }
        assert!(!b.release_due(1000));
        // Most of them go: now.
        for _ in 0..600 {
            b.ended();
        }
        assert!(b.release_due(400));
        assert!(!b.release_due(400));
        // Fewer than BURST ending: not worth it.
        for _ in 0..BURST - 1 {
            b.ended();
        }
        assert!(!b.release_due(0));
        b.ended();
        assert!(b.release_due(0));
        release();
    }
}
