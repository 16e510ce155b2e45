//! What the client knows of one server's names, across listings: the
//! prior of its decisions.

use std::collections::BTreeMap;

use super::decision::Decision;
use crate::detect::candidates::candidates;
use crate::Charset;

/// What the client knows of one server's names, across listings.
///
/// Counts of names seen as UTF-8, as raw bytes and decoded confidently per
/// charset. One listing adds at most [`PER_LISTING`] to each count, so a
/// single odd directory does not flip what the server is taken to hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evidence {
    utf8: u32,
    raw: u32,
    legacy: BTreeMap<&'static str, u32>,
}

/// Most a single listing adds to one count.
const PER_LISTING: u32 = 4;
/// Counts are halved past this, so old evidence fades.
const CAP: u32 = 200;
const LINE_TAG: &str = "ev1";

impl Evidence {
    /// A single line of printable ASCII: `ev1 utf8=N raw=N <charset>=N ...`.
    pub fn to_line(&self) -> String {
        let mut s = format!("{LINE_TAG} utf8={} raw={}", self.utf8, self.raw);
        for (name, n) in &self.legacy {
            s.push_str(&format!(" {name}={n}"));
        }
        s
    }

    /// Reads [`Evidence::to_line`]'s format back; anything else (garbage,
    /// an unknown charset, a newer version) gives empty evidence.
    pub fn from_line(s: &str) -> Evidence {
        Self::parse(s).unwrap_or_default()
    }

    fn parse(s: &str) -> Option<Evidence> {
        let mut parts = s.split_ascii_whitespace();
        if parts.next()? != LINE_TAG {
            return None;
        }
        let mut ev = Evidence::default();
        for part in parts {
            let (key, value) = part.split_once('=')?;
            let n: u32 = value.parse().ok()?;
            let n = n.min(CAP);
            match key {
                "utf8" => ev.utf8 = n,
                "raw" => ev.raw = n,
                _ => {
                    let cand = candidates().iter().find(|c| c.charset.name() == key)?;
                    ev.legacy.insert(cand.charset.name(), n);
                }
            }
        }
        Some(ev)
    }

    /// Learns from one listing's decisions.
    pub fn observe(&mut self, decisions: &[Decision]) {
        let mut utf8 = 0;
        let mut raw = 0;
        let mut legacy: BTreeMap<&'static str, u32> = BTreeMap::new();
        for d in decisions {
            match d {
                Decision::Utf8 => utf8 += 1,
                Decision::Raw => raw += 1,
                Decision::Decoded {
                    charset,
                    confident: true,
                    ..
                } => {
                    *legacy.entry(charset.name()).or_default() += 1;
                }
                Decision::Decoded { .. } | Decision::Ascii => {}
            }
        }
        self.utf8 += utf8.min(PER_LISTING);
        self.raw += raw.min(PER_LISTING);
        for (name, n) in legacy {
            *self.legacy.entry(name).or_default() += n.min(PER_LISTING);
        }
        if self
            .utf8
            .max(self.raw)
            .max(self.legacy.values().copied().max().unwrap_or(0))
            > CAP
        {
            self.utf8 /= 2;
            self.raw /= 2;
            for n in self.legacy.values_mut() {
                *n /= 2;
            }
            self.legacy.retain(|_, n| *n > 0);
        }
    }

    /// No legacy charset was ever seen: the server's names are UTF-8 (or
    /// ASCII) as far as anyone knows, and there is nothing worth keeping.
    pub fn no_legacy(&self) -> bool {
        self.legacy.is_empty()
    }

    /// The server's most likely legacy charset: at least 3 confident names
    /// and twice as many as the runner-up.
    pub fn likely(&self) -> Option<Charset> {
        let mut v: Vec<(&&str, &u32)> = self.legacy.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1));
        let (name, &n) = *v.first()?;
        let second = v.get(1).map_or(0, |(_, &m)| m);
        (n >= 3 && n >= 2 * second).then(|| Charset::for_label(name)).flatten()
    }

    /// Shares of the candidate charsets in the history (sums to 1, or all
    /// zero without history).
    pub(super) fn weights(&self, ncand: usize) -> Vec<f64> {
        let mut w = vec![0.0; ncand];
        let total: u32 = self.legacy.values().sum();
        if total == 0 {
            return w;
        }
        for (name, &n) in &self.legacy {
            if let Some(idx) = candidates().iter().position(|c| c.charset.name() == *name) {
                if let Some(slot) = w.get_mut(idx) {
                    *slot = f64::from(n) / f64::from(total);
                }
            }
        }
        w
    }
}
