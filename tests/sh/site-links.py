#!/usr/bin/env python3
"""Checks a built site: every relative link and anchor resolves, nothing is fetched from
elsewhere, and no script/handler/javascript: URL comes from the content."""
import html.parser, os, re, sys
from urllib.parse import urlsplit, unquote

root = sys.argv[1]
ids, links, problems = {}, [], []

class P(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path, self.ids, self.scripts = path, set(), 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'id' in a:
            if a['id'] in self.ids:
                problems.append(f'{self.path}: duplicate id {a["id"]!r}')
            self.ids.add(a['id'])
        if 'name' in a and tag == 'a':
            self.ids.add(a['name'])
        for k, v in attrs:
            if k.startswith('on'):
                problems.append(f'{self.path}: event handler attribute {k}')
            if k in ('href', 'src') and v is not None:
                if v.strip().lower().startswith(('javascript:', 'vbscript:', 'data:')):
                    problems.append(f'{self.path}: dangerous URL {v!r}')
                links.append((self.path, tag, k, v))
        if tag == 'script':
            self.scripts += 1
            if 'src' not in a:
                problems.append(f'{self.path}: inline script')
        if tag in ('iframe', 'object', 'embed', 'style', 'form'):
            problems.append(f'{self.path}: <{tag}> in the output')

for d, _, files in os.walk(root):
    for f in files:
        p = os.path.relpath(os.path.join(d, f), root)
        if f.endswith('.html'):
            text = open(os.path.join(d, f), encoding='utf-8').read()
            if re.search(r'[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]', text):
                problems.append(f'{p}: control character in the output')
            parser = P(p)
            parser.feed(text)
            ids[p] = parser.ids
            if parser.scripts != 3:
                problems.append(f'{p}: {parser.scripts} script elements (the template has 3: xsc.js, search-index.js, console.js)')
        elif f.endswith(('.css', '.js')):
            text = open(os.path.join(d, f), encoding='utf-8').read()
            if re.search(r'url\(|@import|fetch\(|XMLHttpRequest|https?://', text):
                problems.append(f'{p}: may make a network request')

checked = 0
for page, tag, attr, url in links:
    u = urlsplit(url)
    if u.scheme:
        if tag != 'a':
            problems.append(f'{page}: external resource {url!r}')
        continue
    target = page if not u.path else os.path.normpath(os.path.join(os.path.dirname(page), unquote(u.path)))
    if target.startswith('..') or not os.path.exists(os.path.join(root, target)):
        problems.append(f'{page}: broken link {url!r}')
        continue
    if u.fragment and target.endswith('.html') and unquote(u.fragment) not in ids.get(target, set()):
        problems.append(f'{page}: missing anchor {url!r}')
    checked += 1

for p in problems[:50]:
    print(p)
print(f'{len(ids)} pages, {checked} links checked, {len(problems)} problems')
sys.exit(1 if problems else 0)
