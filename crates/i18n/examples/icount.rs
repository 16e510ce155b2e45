//! One workload of `benches/workloads.rs`, run once, for an instruction
//! count under callgrind. `python3 bench/icount.py` runs each workload
//! twice, with and without `--setup-only` (which makes the same inputs and
//! stops), and takes the difference: the workload alone.
//!
//! Usage: icount WORKLOAD [--setup-only], WORKLOAD one of parse validate
//! legacy from_disk list mlsd.

#[path = "../benches/workloads.rs"]
mod workloads;

use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let run = args.next().as_deref() != Some("--setup-only");
    let mut out = Vec::with_capacity(2 << 20);
    let r = match which.as_str() {
        "parse" => {
            let lines = workloads::command_lines();
            if run {
                workloads::parse(black_box(&lines))
            } else {
                lines.len()
            }
        }
        "validate" => {
            let text = workloads::mixed_text();
            if run {
                usize::from(workloads::validate(black_box(&text)))
            } else {
                text.len()
            }
        }
        "legacy" => {
            let names = workloads::names();
            if run {
                workloads::legacy(black_box(&names))
            } else {
                names.len()
            }
        }
        "from_disk" => {
            let names = workloads::koi8_names();
            if run {
                workloads::from_disk(black_box(&names))
            } else {
                names.len()
            }
        }
        "list" => {
            let entries = workloads::entries();
            if run {
                workloads::list(black_box(&entries), &mut out)
            } else {
                entries.len()
            }
        }
        "mlsd" => {
            let entries = workloads::entries();
            if run {
                workloads::mlsd(black_box(&entries), &mut out)
            } else {
                entries.len()
            }
        }
        other => {
            eprintln!("usage: icount parse|validate|legacy|from_disk|list|mlsd [--setup-only] (not {other:?})");
            return ExitCode::from(2);
        }
    };
    black_box(r);
    ExitCode::SUCCESS
}
