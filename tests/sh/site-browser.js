// Loads every page of a built site in headless Chromium from file:// and checks: no console
// errors or page errors, no request leaves file://, the search finds openat2 and
// RESOLVE_CACHED and words of the pages' text, the dark-mode toggle switches the colours, a
// long page lists its sections, openat2's matrix has measured columns, and at 390x844 a menu button opens the pages and tables
// scroll in their box. Screenshots (1280x900 and 390x844) go to argv[3].
const { chromium } = require(process.env.PW_MODULE || 'playwright-core');
const fs = require('fs'), path = require('path');
const site = path.resolve(process.argv[2]), shots = path.resolve(process.argv[3]);

function pages(dir) {
  let out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out = out.concat(pages(p));
    else if (e.name.endsWith('.html')) out.push(p);
  }
  return out.sort();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run'] });
  const ctx = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const problems = [];
  let current = '';
  page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${current}: console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', e => problems.push(`${current}: page error: ${e.message}`));
  page.on('request', r => { if (!r.url().startsWith('file://')) problems.push(`${current}: request to ${r.url()}`); });
  page.on('requestfailed', r => problems.push(`${current}: failed to load ${r.url()}`));
  const all = pages(site);
  for (const p of all) {
    current = path.relative(site, p);
    await page.goto('file://' + p, { waitUntil: 'load' });
  }
  const fail = m => { problems.push(m); };

  // search from the home page
  current = 'index.html';
  await page.goto('file://' + path.join(site, 'index.html'));
  for (const [q, want] of [['openat2', 'reference/syscalls/openat2.html'], ['RESOLVE_CACHED', 'reference/syscalls/openat2.html#flag-RESOLVE_CACHED']]) {
    await page.fill('#search', q);
    const first = await page.$eval('#search-results li a', a => a.getAttribute('href')).catch(() => null);
    if (first !== want) fail(`search '${q}': first hit ${first}, want ${want}`);
    if (await page.$eval('#search-results', e => e.hidden)) fail(`search '${q}': results hidden`);
  }
  await page.screenshot({ path: path.join(shots, 'site-search.png') });
  // follow the RESOLVE_CACHED hit: the anchor exists and is the target
  await page.fill('#search', 'RESOLVE_CACHED');
  await page.press('#search', 'Enter');
  await page.waitForLoadState('load');
  if (!page.url().endsWith('openat2.html#flag-RESOLVE_CACHED')) fail(`Enter went to ${page.url()}`);
  const target = await page.evaluate(() => document.querySelector(':target') && document.querySelector(':target').id);
  if (target !== 'flag-RESOLVE_CACHED') fail(`:target is ${target}`);
  await page.screenshot({ path: path.join(shots, 'site-openat2-light.png') });

  // dark mode: the toggle flips the background and survives a reload
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.click('#theme-toggle');
  const dark = await bg();
  if (light === dark) fail(`toggle did not change the background (${light})`);
  if (await page.evaluate(() => document.documentElement.getAttribute('data-theme')) !== 'dark') fail('toggle did not set data-theme=dark');
  await page.screenshot({ path: path.join(shots, 'site-openat2-dark.png') });
  await page.reload();
  if (await bg() !== dark) fail('the dark theme did not persist across a reload');
  await page.click('#theme-toggle');
  if (await bg() !== light) fail('toggling back did not restore the light theme');

  // following the system: a dark-scheme context starts dark without a click
  const ctx2 = await browser.newContext({ colorScheme: 'dark' });
  const p2 = await ctx2.newPage();
  await p2.goto('file://' + path.join(site, 'reference/structs/open_how.html'));
  const sys = await p2.evaluate(() => getComputedStyle(document.body).backgroundColor);
  if (sys === light) fail('prefers-color-scheme: dark is not followed');
  await p2.screenshot({ path: path.join(shots, 'site-open_how-system-dark.png') });
  // print styles hide the navigation
  await p2.emulateMedia({ media: 'print' });
  if (await p2.evaluate(() => getComputedStyle(document.querySelector('nav.side')).display) !== 'none') fail('print shows the navigation');

  // full-text search: words of the pages' bodies, not only names and titles, find a section
  current = 'index.html (full text)';
  await page.goto('file://' + path.join(site, 'index.html'));
  for (const [q, where] of [['zero-fill', ''], ['double fetch', ''], ['CHECK_FIELDS', ''], ['sign-extension', ''],
                            ['EEXTSYS_NOOP', 'guide/feature-discovery.html']]) {
    await page.fill('#search', q);
    const hits = await page.$$eval('#search-results li a', as => as.map(a => [a.getAttribute('href'), a.textContent]));
    const inText = hits.filter(h => h[1].toLowerCase().includes(q.toLowerCase()));
    if (!hits.length) fail(`full-text search '${q}': nothing found`);
    else if (!inText.length) fail(`full-text search '${q}': no hit shows the words (${hits[0]})`);
    if (where && !hits.some(h => h[0].startsWith(where))) fail(`full-text search '${q}': no hit in ${where}`);
  }
  await page.fill('#search', 'double fetch');
  await page.screenshot({ path: path.join(shots, 'site-search-text-1280x900.png') });

  // the citations of the proposals
  await page.goto('file://' + path.join(site, 'guide/feature-discovery.html'));
  if (!await page.$('a[href="https://lwn.net/Articles/830666/"]')) fail('feature-discovery cites no LWN article');

  // an "on this page" list on a long page, and one matrix (the table; the picture is a link)
  await page.goto('file://' + path.join(site, 'reference/syscalls/perf_event_open.html'));
  if (!await page.$('nav.toc a[href="#compatibility-matrix"]')) fail('perf_event_open: no "on this page" entry for the matrix');
  if (await page.$('article img[src*="matrix/"]')) fail('perf_event_open: the matrix is shown twice (table and picture)');

  // the measured columns (data/measured) beside the simulated ones: a table of real kernels
  // with their versions, and the picture's columns after the simulated ones
  await page.goto('file://' + path.join(site, 'reference/syscalls/openat2.html'));
  const heads = await page.$$eval('article table th', ths => ths.map(t => t.textContent.trim()));
  if (!heads.some(h => h.includes('real kernel'))) fail('openat2: no table of measured real kernels');
  if (!heads.some(h => /^6\.1\.\d+/.test(h)) || !heads.some(h => /^5\.10\.\d+/.test(h))) fail(`openat2: no measured 5.10 or 6.1 column (${heads})`);
  const svg = fs.readFileSync(path.join(site, 'reference/matrix/openat2.svg'), 'utf8');
  if (!svg.includes('>real kernels') || !/>6\.1\.\d+</.test(svg)) fail('openat2.svg: no measured columns');

  // a phone, 390x844: a menu button opens the pages, tables scroll inside their box, the
  // page itself does not scroll sideways
  const phone = await browser.newContext({ colorScheme: 'light', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const m = await phone.newPage();
  m.on('pageerror', e => problems.push(`390px: page error: ${e.message}`));
  await m.goto('file://' + path.join(site, 'reference/syscalls/perf_event_open.html'));
  await m.screenshot({ path: path.join(shots, 'site-perf_event_open-390x844.png') });
  if (await m.evaluate(() => getComputedStyle(document.querySelector('nav.side')).display) !== 'none') fail('390px: the sidebar shows before the menu is opened');
  if (!await m.isVisible('#menu-toggle')) fail('390px: no menu button');
  else {
    await m.click('#menu-toggle');
    if (await m.evaluate(() => getComputedStyle(document.querySelector('nav.side')).display) === 'none') fail('390px: the menu button does not open the pages');
    if (await m.getAttribute('#menu-toggle', 'aria-expanded') !== 'true') fail('390px: aria-expanded not set');
    await m.screenshot({ path: path.join(shots, 'site-menu-390x844.png') });
    await m.click('#menu-toggle');
  }
  const overflow = await m.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 1) fail(`390px: the page scrolls sideways by ${overflow}px`);
  const scrolls = await m.evaluate(() => [...document.querySelectorAll('.table-wrap')].some(w => w.scrollWidth > w.clientWidth &&
    ['auto', 'scroll'].includes(getComputedStyle(w).overflowX)));
  if (!scrolls) fail('390px: no wide table scrolls inside its box');
  await m.fill('#search', 'zero-fill');
  if (await m.$eval('#search-results', e => e.hidden)) fail('390px: the search shows nothing');
  await m.screenshot({ path: path.join(shots, 'site-search-390x844.png') });
  await phone.close();

  await browser.close();
  for (const p of problems.slice(0, 40)) console.log(p);
  console.log(`${all.length} pages loaded, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
})().catch(e => { console.log(String(e && e.stack || e)); process.exit(1); });
