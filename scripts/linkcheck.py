#!/usr/bin/env python3
"""Checks that every relative link of the docs points to something that exists.

    python3 scripts/linkcheck.py --html target/book --markdown README.md docs

--html DIR: every .html file under DIR (the built user guide): each
relative href/src of <a>, <link>, <img>, <script>, <iframe> and <source>
must name a file or directory under DIR, and each #anchor an id (or an
<a name>) of the page it points to.

--markdown PATH...: every .md file given, or under a directory given: each
relative link ([text](target), ![alt](target), [ref]: target, and the
href/src of HTML written inline) must name a file or directory that exists
beside it, and each #anchor a heading of the Markdown file it points to
(GitHub's heading ids: lowercase, punctuation dropped, spaces as '-', a
'-N' suffix for repeats). Code blocks and `code spans` are not links.

External links (http:, https:, mailto:, …) are never fetched. Prints every
broken link as FILE:LINE: TARGET: why, and exits 1 if there is any.
Standard library only.
"""

import argparse
import html.parser
import os
import re
import sys
import unicodedata
from urllib.parse import unquote, urlsplit

SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')


def is_external(target):
    return bool(SCHEME.match(target)) or target.startswith('//')


# ---------------------------------------------------------------- HTML


class Page(html.parser.HTMLParser):
    """The ids of one HTML page and the links it makes (with their lines)."""

    LINK_ATTRS = {'a': 'href', 'link': 'href', 'img': 'src', 'script': 'src', 'iframe': 'src', 'source': 'src'}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []  # (line, target)
        self.base = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get('id'):
            self.ids.add(attrs['id'])
        if tag == 'a' and attrs.get('name'):
            self.ids.add(attrs['name'])
        if tag == 'base' and attrs.get('href') is not None:
            self.base = attrs['href']
        attr = self.LINK_ATTRS.get(tag)
        if attr and attrs.get(attr) is not None:
            self.links.append((self.getpos()[0], attrs[attr]))

    handle_startendtag = handle_starttag


def check_html(root, broken):
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        broken.append((root, 0, '', 'the built book is missing'))
        return 0
    pages = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith('.html'):
                path = os.path.join(d, f)
                p = Page()
                with open(path, encoding='utf-8') as fh:
                    p.feed(fh.read())
                p.close()
                pages[path] = p
    count = 0
    for path, page in sorted(pages.items()):
        here = os.path.dirname(path)
        if page.base is not None:
            if is_external(page.base):
                continue  # links resolved against another site
            here = root if page.base.startswith('/') else os.path.normpath(os.path.join(here, page.base))
        for line, target in page.links:
            if not target or is_external(target):
                continue
            count += 1
            parts = urlsplit(target)
            if parts.path:
                rel = unquote(parts.path)
                dest = os.path.normpath(os.path.join(root, rel.lstrip('/')) if rel.startswith('/') else os.path.join(here, rel))
            else:
                dest = path
            if os.path.commonpath([dest, root]) != root:
                broken.append((path, line, target, 'points outside the book'))
                continue
            if os.path.isdir(dest):
                dest = os.path.join(dest, 'index.html')
            if not os.path.exists(dest):
                broken.append((path, line, target, 'no such file'))
                continue
            frag = unquote(parts.fragment)
            if frag and dest.endswith('.html'):
                if dest not in pages or frag not in pages[dest].ids:
                    broken.append((path, line, target, f'no id "{frag}" in {os.path.relpath(dest, root)}'))
    return count


# ---------------------------------------------------------------- Markdown

FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
INLINE_LINK = re.compile(r'\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|\'[^\']*\'|\([^)]*\)))?\s*\)')
REF_DEF = re.compile(r'^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)')
HTML_ATTR = re.compile(r'<(?:a|img|source)\b[^>]*?\b(?:href|src)\s*=\s*"([^"]*)"', re.I)
HEADING = re.compile(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$')


def markdown_lines(text, keep_code_spans=False):
    """(line number, line) outside fenced code blocks, code spans blanked
    unless keep_code_spans."""
    fence = None
    for n, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield n, line if keep_code_spans else CODE_SPAN.sub(lambda s: ' ' * len(s.group(0)), line)


def github_slug(heading):
    """The id GitHub gives a heading."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # links: their text
    text = re.sub(r'<[^>]+>', '', text)  # inline HTML
    text = text.replace('`', '').lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in ' -':
            out.append('-')
        elif ch == '_' or cat[0] in 'LNM':
            out.append(ch)
    return ''.join(out)


_anchors = {}


def md_anchors(path):
    if path not in _anchors:
        seen = {}
        ids = set()
        with open(path, encoding='utf-8') as fh:
            for _, line in markdown_lines(fh.read(), keep_code_spans=True):
                m = HEADING.match(line)
                if not m:
                    continue
                slug = github_slug(m.group(2))
                n = seen.get(slug, 0)
                seen[slug] = n + 1
                ids.add(slug if n == 0 else f'{slug}-{n}')
        with open(path, encoding='utf-8') as fh:
            for m in re.finditer(r'<a\s[^>]*\b(?:name|id)\s*=\s*"([^"]+)"', fh.read()):
                ids.add(m.group(1))
        _anchors[path] = ids
    return _anchors[path]


def markdown_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith('.md'):
                        yield os.path.join(d, f)
        else:
            yield p


def check_markdown(paths, broken):
    count = 0
    for path in markdown_files(paths):
        if not os.path.isfile(path):
            broken.append((path, 0, '', 'no such file to check'))
            continue
        here = os.path.dirname(os.path.abspath(path))
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        for n, line in markdown_lines(text):
            targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
            targets += [m.group(1) for m in REF_DEF.finditer(line)]
            targets += [m.group(1) for m in HTML_ATTR.finditer(line)]
            for target in targets:
                target = target.strip('<>')
                if not target or is_external(target):
                    continue
                count += 1
                parts = urlsplit(target)
                dest = os.path.normpath(os.path.join(here, unquote(parts.path))) if parts.path else os.path.abspath(path)
                if not os.path.exists(dest):
                    broken.append((path, n, target, 'no such file'))
                    continue
                frag = unquote(parts.fragment)
                if frag and dest.endswith('.md') and frag not in md_anchors(dest):
                    broken.append((path, n, target, f'no heading "{frag}" in {os.path.relpath(dest)}'))
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--html', metavar='DIR', action='append', default=[], help='a built HTML site')
    ap.add_argument('--markdown', metavar='PATH', nargs='+', default=[], help='Markdown files or directories')
    args = ap.parse_args()
    if not args.html and not args.markdown:
        ap.error('nothing to check: give --html DIR and/or --markdown PATH...')
    broken = []
    checked = 0
    for d in args.html:
        checked += check_html(d, broken)
    checked += check_markdown(args.markdown, broken)
    if broken:
        print(f'linkcheck: {len(broken)} broken link(s) of {checked}:', file=sys.stderr)
        for path, line, target, why in broken:
            print(f'  {os.path.relpath(path)}:{line}: {target}: {why}', file=sys.stderr)
        return 1
    print(f'linkcheck: {checked} relative links, none broken')
    return 0


if __name__ == '__main__':
    sys.exit(main())
