#!/usr/bin/env python3
"""SVG line plots (log-log) from the JSON that bench/listing.py writes, with
no plotting library: one plot per figure, one line per server.

Usage: bench/plot.py listing.json OUT_DIR
Writes OUT_DIR/listing-LIST-ms.svg, listing-NLST-ms.svg, listing-MLSD-ms.svg
(wall time against directory size) and listing-LIST-rss.svg (peak RSS
growth of the server during a LIST against directory size).

Or: bench/plot.py --sessions all.json OUT_DIR (the JSON of bench/all.py
run with IDLE=100,500,1000,…): OUT_DIR/sessions-memory.svg, the memory
idle sessions add to each server against their number.
"""
import json, math, os, sys

COLOURS = ['#1b6ac9', '#d1495b', '#2a9d8f', '#e9a03b', '#6a4c93', '#555555', '#8ab17d']
W, H, L, R, T, B = 720, 400, 70, 200, 40, 50


def nice_ticks(lo, hi):
    out = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        if 10 ** e >= lo * 0.9999:
            out.append(10 ** e)
        e += 1
    return out


def plot(title, xlabel, ylabel, series, path, ymin_floor=None):
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts if y > 0]
    if not xs or not ys:
        return
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if ymin_floor is not None:
        y0 = max(min(y0, ymin_floor), 1e-3)
    y0, y1 = 10 ** math.floor(math.log10(y0)), 10 ** math.ceil(math.log10(y1))
    if x0 == x1:
        x1 = x0 * 10

    def px(x):
        return L + (math.log10(x) - math.log10(x0)) / (math.log10(x1) - math.log10(x0)) * (W - L - R)

    def py(y):
        y = max(y, y0)
        return H - B - (math.log10(y) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)) * (H - T - B)

    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2 - R / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    for t in nice_ticks(x0, x1):
        o.append(f'<line x1="{px(t):.1f}" y1="{T}" x2="{px(t):.1f}" y2="{H - B}" stroke="#ddd"/>')
        o.append(f'<text x="{px(t):.1f}" y="{H - B + 16}" text-anchor="middle">{t:,}</text>')
    for t in nice_ticks(y0, y1):
        o.append(f'<line x1="{L}" y1="{py(t):.1f}" x2="{W - R}" y2="{py(t):.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{L - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    o.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">{xlabel}</text>')
    o.append(f'<text x="16" y="{(T + H - B) / 2}" text-anchor="middle" '
             f'transform="rotate(-90 16 {(T + H - B) / 2})">{ylabel}</text>')
    o.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#333"/>')
    for i, (name, pts) in enumerate(series.items()):
        c = COLOURS[i % len(COLOURS)]
        pts = sorted(pts)
        o.append('<polyline fill="none" stroke-width="2" stroke="{}" points="{}"/>'.format(
            c, ' '.join(f'{px(x):.1f},{py(y):.1f}' for x, y in pts)))
        for x, y in pts:
            o.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
        ly = T + 14 + i * 18
        o.append(f'<line x1="{W - R + 10}" y1="{ly - 4}" x2="{W - R + 30}" y2="{ly - 4}" stroke="{c}" stroke-width="2"/>')
        o.append(f'<text x="{W - R + 36}" y="{ly}">{name}</text>')
    o.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(o) + '\n')


def sessions(path, out):
    data = json.load(open(path))
    series = {}
    for key, values in data.items():
        server, fig = key.split('|', 1)
        if fig.endswith('idle sessions, added MiB') and values:
            n = int(fig.split()[0])
            v = sorted(values)[len(values) // 2]
            series.setdefault(server, []).append((n, max(v, 0.01)))
    os.makedirs(out, exist_ok=True)
    plot('Memory added by idle logged-in sessions', 'sessions', 'MiB (median, floor 0.01)', series,
         os.path.join(out, 'sessions-memory.svg'), ymin_floor=0.01)


def main():
    if sys.argv[1] == '--sessions':
        return sessions(sys.argv[2], sys.argv[3])
    data = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for fmt in ('LIST', 'NLST', 'MLSD'):
        series = {}
        for server, r in data.items():
            pts = [(int(k.split()[0]), v[0]) for k, v in r.items() if k.split()[1] == fmt]
            if pts:
                series[server] = pts
        plot(f'{fmt}: time to the 226 against directory size', 'entries in the directory', 'ms (median)',
             series, os.path.join(out, f'listing-{fmt}-ms.svg'))
    series = {}
    for server, r in data.items():
        pts = [(int(k.split()[0]), max(v[3], 1) / 1024) for k, v in r.items() if k.split()[1] == 'LIST']
        if pts:
            series[server] = pts
    plot('LIST: server RSS growth while listing', 'entries in the directory', 'MiB (peak, floor 1 KiB)',
         series, os.path.join(out, 'listing-LIST-rss.svg'), ymin_floor=0.001)


if __name__ == '__main__':
    main()
