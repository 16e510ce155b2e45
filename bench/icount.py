#!/usr/bin/env python3
"""Instruction counts of the hot paths (command parsing, UTF-8 validation,
charset translation of a 10k listing both ways, LIST and MLSD formatting of
10k entries), under callgrind: stable on a noisy shared machine, where wall
time is not.

Each workload of crates/i18n/benches/workloads.rs runs in its own process
(crates/i18n/examples/icount.rs, release build) under
`valgrind --tool=callgrind`, once with the work and once with
`--setup-only`; the difference is the workload's instruction count.

  python3 bench/icount.py            # print the counts against the baseline
  python3 bench/icount.py --check    # exit 1 if a count grew by more than 3 %
  python3 bench/icount.py --update   # write the counts as the new baseline

The baseline (bench/icount-baseline.json) records the CPU features that
change which code runs (glibc's memcpy variants, simdutf8's AVX2 path).
On a CPU whose features differ, --check says so and compares nothing: the
counts would differ for that reason alone. scripts/test.sh runs --check.
"""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
BASELINE = os.path.join(HERE, 'icount-baseline.json')
WORKLOADS = ['parse', 'validate', 'legacy', 'from_disk', 'list', 'mlsd']
TOLERANCE = 0.03
# What decides the code paths taken under valgrind (which itself offers up
# to AVX2, never AVX-512).
FEATURES = ['sse4_2', 'avx', 'avx2', 'bmi2', 'erms']


def cpu_features():
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('flags'):
                have = set(line.split(':', 1)[1].split())
                return [x for x in FEATURES if x in have]
    return []


def build():
    subprocess.run(['cargo', 'build', '--release', '--locked', '-q', '-p', 'babelftp-i18n', '--example', 'icount'],
                   cwd=TOP, check=True)
    target = os.environ.get('CARGO_TARGET_DIR') or os.path.join(TOP, 'target')
    return os.path.join(target, 'release', 'examples', 'icount')


def collected(binary, args):
    r = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', binary, *args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f'icount {args}: exit {r.returncode}\n{r.stderr[-2000:]}')
    m = re.search(r'Collected : (\d+)', r.stderr)
    if not m:
        raise SystemExit(f'no "Collected" line from callgrind:\n{r.stderr[-2000:]}')
    return int(m.group(1))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ''
    if mode not in ('', '--check', '--update'):
        raise SystemExit(__doc__)
    try:
        subprocess.run(['valgrind', '--version'], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit('valgrind is needed (scripts/test.sh installs it)')
    binary = build()
    counts = {w: collected(binary, [w]) - collected(binary, [w, '--setup-only']) for w in WORKLOADS}
    features = cpu_features()
    base = None
    if os.path.exists(BASELINE):
        with open(BASELINE) as f:
            base = json.load(f)
    print(f'# instruction counts (callgrind), CPU features {" ".join(features)}')
    worse = []
    comparable = base is not None and base.get('cpu_features') == features
    for w in WORKLOADS:
        line = f'{w:10s} {counts[w]:>12,}'
        if comparable and w in base['counts']:
            b = base['counts'][w]
            r = counts[w] / b if b else float('inf')
            line += f'   baseline {b:>12,}   {r:.3f}x'
            if r > 1 + TOLERANCE:
                worse.append(f'{w}: {counts[w]:,} instructions, {r:.3f}x the baseline {b:,}')
        print(line)
    if mode == '--update':
        with open(BASELINE, 'w') as f:
            json.dump({'cpu_features': features, 'counts': counts}, f, indent=1)
            f.write('\n')
        print(f'# written: {BASELINE}')
        return
    if mode == '--check':
        if base is None:
            raise SystemExit(f'{BASELINE} is missing: run bench/icount.py --update')
        if not comparable:
            print(f'# the baseline was counted on a CPU with {base.get("cpu_features")}; this one has {features}: '
                  'the code paths differ, nothing compared')
            return
        if worse:
            raise SystemExit('instruction-count regression (more than 3 % over bench/icount-baseline.json):\n  '
                             + '\n  '.join(worse))
        print('# no workload grew by more than 3 %')


if __name__ == '__main__':
    main()
