//! What a person sees of a transfer: its progress bar and its speed.

/// What a person sees of a transfer: a progress bar on a terminal (none
/// in a pipe), then one line saying where the bytes went, how long it
/// took and how fast; nothing with -q. The bar appears with the first
/// octets: a transfer the server refuses leaves no empty bar behind.
pub(crate) struct Shown {
    bar: Option<indicatif::ProgressBar>,
    /// Whether the bar is drawn yet (it is hidden until data move).
    drawn: std::sync::atomic::AtomicBool,
    start: u64,
    quiet: bool,
    began: std::time::Instant,
}

impl Shown {
    pub(crate) fn start(total: Option<u64>, start: u64, quiet: bool) -> Shown {
        use std::io::IsTerminal;
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let hidden = indicatif::ProgressDrawTarget::hidden();
            let (bar, template) = match total {
                Some(t) => (
                    indicatif::ProgressBar::with_draw_target(Some(t), hidden),
                    "{wide_bar} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
                ),
                // No size known: no total to show, nor a bar to fill.
                None => (
                    indicatif::ProgressBar::with_draw_target(None, hidden),
                    "{spinner} {bytes} {bytes_per_sec}",
                ),
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.set_position(start);
            bar
        });
        Shown {
            bar,
            drawn: std::sync::atomic::AtomicBool::new(false),
            start,
            quiet,
            began: std::time::Instant::now(),
        }
    }

    /// `n` octets moved so far in this transfer.
    pub(crate) fn update(&self, n: u64) {
        if let Some(b) = &self.bar {
            if !self.drawn.swap(true, std::sync::atomic::Ordering::Relaxed) {
                b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            b.set_position(self.start + n);
        }
    }

    /// Takes the bar away, saying nothing (a failure, or a download to
    /// standard output).
    pub(crate) fn clear(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }

    /// `bytes` moved in this transfer, to `dest`.
    pub(crate) fn done(self, bytes: u64, dest: &str) {
        let secs = self.began.elapsed().as_secs_f64();
        let quiet = self.quiet;
        self.clear();
        if !quiet {
            eprintln!(
                "{}",
                crate::msg::ts(
                    "cli-x1-bytes-in",
                    &[
                        ("bytes", &bytes.to_string()),
                        ("dest", dest),
                        ("secs", &format!("{secs:.2}")),
                        ("rate", &rate(bytes, secs)),
                    ]
                )
            );
        }
    }
}

/// A speed for a person: `40.2 MB/s` (decimal units, as curl and wget).
pub(crate) fn rate(bytes: u64, secs: f64) -> String {
    let mut r = bytes as f64 / secs.max(1e-6);
    for unit in ["B/s", "kB/s", "MB/s", "GB/s"] {
        if r < 1000.0 || unit == "GB/s" {
            return format!("{r:.1} {unit}");
        }
        r /= 1000.0;
    }
    format!("{r:.1} GB/s")
}
