// Browser test of cgt's web app: serves web/dist on 127.0.0.1 and drives the page in Debian's
// chromium (headless, through playwright-core) by its stable hooks, as a person or a script
// would, comparing every figure with the command line's. Run with `make web-test` (it builds
// web/dist and bin/cgt first).
//
// Checked: the module's size (gzip -9), the time to a first result and for a 10,000-line
// ledger, the figures against `bin/cgt report.calculate ... --output json`, the downloads read
// back by the CLI, errors in the page, phone width, labels and focus, the printed report's
// workings, and privacy: every request the page makes is recorded and none may go anywhere
// but the page's own server; nothing is stored.
//
// Times are the best of two or three tries and are reported against their budgets, not failed:
// a test asserts behaviour, and a time is a measure of the machine as much as of the page
// (docs/performance.md gives the figures on a quiet machine). CGT_WEB_STRICT_TIMES=1 makes a
// time over budget fail, for measuring on a quiet machine.
//
// Without /usr/bin/chromium (or bin/cgt, or web/dist) the tests are skipped, except under
// CI=true where they fail.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { serve } from './serve.mjs';

const webDir = resolve(fileURLToPath(new URL('..', import.meta.url)));
const repo = resolve(webDir, '..');
const dist = join(webDir, 'dist');
const resultsDir = join(webDir, 'test-results');
const cgt = join(repo, 'bin', 'cgt');
const ledgergen = join(repo, 'bin', 'cgt-ledgergen');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const inCI = process.env.CI === 'true';

// The budgets of DESIGN §19 and §27.
// The module at most 2,000,000 bytes by `gzip -9` (§27), the measure the budget is given in
// and `make bench-wasm` prints (Node's zlib at level 9 gives some 14 KB more for this module).
const MODULE_GZIP_MAX = 2_000_000;
const FIRST_RESULT_MS = 1_500; // (page opened → ready) + (file chosen → done), the example ledger
const LARGE_LEDGER_MS = 2_000; // file chosen → done, 10,000 lines
const MAX_INPUT = 10_000_000; // the most the page reads at once (10 MB)
const MEMORY_MAX = 1024 * 1024 * 1024; // the browser's memory with MAX_INPUT of files

// withinBudget reports a time against its budget, with the machine's load beside it; it fails
// only under CGT_WEB_STRICT_TIMES=1.
function withinBudget(ms, budget, what) {
  const load = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} processors`;
  if (ms <= budget) {
    console.log(`# ${what}: ${ms} ms, within its budget of ${budget} ms (${load})`);
    return;
  }
  const msg = `${what} took ${ms} ms, over its budget of ${budget} ms (${load})`;
  if (process.env.CGT_WEB_STRICT_TIMES) assert.fail(msg);
  console.log(`# OVER BUDGET (reported, not failed; CGT_WEB_STRICT_TIMES=1 fails it): ${msg}`);
}

const example = join(repo, 'examples', 'portfolio.cgt');
const exportFile = join(repo, 'cgt', 'imports', 'testdata', 'trading212', 'kapji_2024_transactions.csv');

const missing = [
  [chromiumPath, 'install Debian\'s chromium ("apt-get install -y chromium")'],
  [join(dist, 'index.html'), 'run "make web"'],
  [cgt, 'run "make build"'],
  [ledgergen, 'run "make build"'],
].filter(([path]) => !existsSync(path));
if (missing.length && inCI) {
  throw new Error(`missing under CI=true: ${missing.map(([p, fix]) => `${p} (${fix})`).join('; ')}`);
}
const skip = missing.length ? `missing ${missing.map(([p, fix]) => `${p}: ${fix}`).join('; ')}` : false;
if (skip) console.log(`# skipped: ${skip}`);

let server;
let baseURL;
let browser;
let tmp;
const requests = []; // every URL any page asked for
const pageErrors = [];

before(async () => {
  if (skip) return;
  server = await serve(dist);
  baseURL = `http://127.0.0.1:${server.address().port}`;
  tmp = mkdtempSync(join(tmpdir(), 'cgt-web-test-'));
  mkdirSync(resultsDir, { recursive: true });
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions'],
    timeout: 60_000,
  });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function newPage(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  context.setDefaultTimeout(30_000);
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('worker', (w) => w.on('console', () => {}));
  return page;
}

// open loads the page and waits until the calculator is ready; it returns the milliseconds
// from opening to ready.
async function open(page) {
  const t0 = Date.now();
  await page.goto(`${baseURL}/`);
  await page.waitForSelector('body[data-state="ready"]');
  return Date.now() - t0;
}

// choose sets the files and waits for the result (done or error); it returns the milliseconds
// from choosing to the end, and every state the page went through.
async function choose(page, paths) {
  return settle(page, () => page.setInputFiles('#files', paths));
}

// settle does what action does and waits until the page has finished the work it started:
// body[data-state] went to done or error. It returns the milliseconds that took and every
// state the page went through.
async function settle(page, action) {
  await page.evaluate(() => {
    window.__states = [];
    if (window.__watching) return;
    window.__watching = true;
    new MutationObserver(() => window.__states.push(document.body.dataset.state))
      .observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  });
  const t0 = Date.now();
  await action();
  await page.waitForFunction(() => window.__states.some((s) => s === 'done' || s === 'error'));
  const ms = Date.now() - t0;
  return { ms, states: await page.evaluate(() => window.__states) };
}

function cli(...args) {
  return run('report.calculate', ...args);
}

// run is the CLI's JSON envelope of a command.
function run(command, ...args) {
  let out;
  try {
    out = execFileSync(cgt, [command, ...args, '--output', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (err) {
    out = err.stdout;
  }
  return JSON.parse(out);
}

// pageYears reads every year section the page shows: its boxes and figures.
function pageYears(page) {
  return page.$$eval('section[data-period]', (sections) => sections.map((s) => ({
    period: s.dataset.period,
    boxes: Object.fromEntries([...s.querySelectorAll('[data-box]')].map((e) => [e.dataset.box, e.textContent])),
    taxable_gain: s.querySelector('[data-figure="taxable_gain"]')?.dataset.value,
    tax_due: s.querySelector('[data-figure="tax_due"]')?.dataset.value ?? null,
  })));
}

function assertSameFigures(shown, env) {
  assert.ok(env.ok, JSON.stringify(env.error));
  assert.ok(shown.length > 0, 'the page shows no tax year');
  for (const y of shown) {
    const ty = env.data.tax_years.find((t) => t.period === y.period);
    assert.ok(ty, `the CLI has no ${y.period}`);
    const boxes = Object.fromEntries(ty.sa108.boxes.map((b) => [b.box, b.value]));
    assert.deepEqual(y.boxes, boxes, `${y.period}: boxes`);
    assert.equal(y.taxable_gain, ty.taxable_gain, `${y.period}: taxable gain`);
    assert.equal(y.tax_due, ty.tax ? ty.tax.total : null, `${y.period}: tax due`);
  }
}

function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test('the module is within its size budget', { skip }, () => {
  const wasm = readFileSync(join(dist, 'cgt.wasm'));
  const gz = execFileSync('gzip', ['-9', '-c', join(dist, 'cgt.wasm')], { maxBuffer: 64 << 20 }).length;
  const zlib = gzipSync(wasm, { level: 9 }).length;
  console.log(`# cgt.wasm: ${wasm.length} bytes, ${gz} gzip -9 (budget ${MODULE_GZIP_MAX}), ${zlib} by Node's zlib`);
  assert.ok(gz <= MODULE_GZIP_MAX, `cgt.wasm is ${gz} bytes gzipped, over ${MODULE_GZIP_MAX}`);
  for (const f of ['index.html', 'app.js', 'app.css', 'worker.js', 'wasm_exec.js', 'example.cgt', 'tables/NOTICE.txt', 'LICENSE', 'NOTICE']) {
    assert.ok(existsSync(join(dist, f)), `web/dist/${f} is missing`);
  }
  // Both bundled data sets' notices travel with the tables the page fetches.
  const notice = readFileSync(join(dist, 'tables/NOTICE.txt'), 'utf8');
  for (const src of ['cgt/fx/NOTICE.txt', 'cgt/eri/NOTICE.txt']) {
    assert.ok(notice.includes(readFileSync(join(repo, src), 'utf8').trim()), `web/dist/tables/NOTICE.txt lacks ${src}`);
  }
  // The tables the module is built without, fetched by the page: the files the CLI embeds.
  for (const [f, src] of [['tables/rates.csv', 'cgt/fx/rates.csv'], ['tables/eri.txt', 'cgt/eri/table.txt']]) {
    assert.ok(readFileSync(join(dist, f)).equals(readFileSync(join(repo, src))), `web/dist/${f} is not ${src}`);
  }
});

test('the example ledger: first result within budget, figures as the CLI\'s', { skip, timeout: 120_000 }, async () => {
  // The best of two openings: the first may also pay for reading the files from disk.
  let best = Infinity;
  let page;
  for (let i = 0; i < 2; i++) {
    page?.context().close();
    page = await newPage();
    const ready = await open(page);
    const { ms, states } = await choose(page, [example]);
    assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
    assert.ok(states.includes('working'), `no working state: ${states}`);
    console.log(`# example: page opened → ready ${ready} ms, file chosen → done ${ms} ms`);
    best = Math.min(best, ready + ms);
  }
  withinBudget(best, FIRST_RESULT_MS, 'the first result for the example ledger');

  const env = cli(example);
  assertSameFigures(await pageYears(page), env);
  const warnings = await page.$$eval('#warnings li', (lis) => lis.map((li) => li.textContent));
  assert.deepEqual(warnings, [...new Set(env.warnings)]);
  // Warnings come before the figures.
  assert.ok(await page.$eval('#warnings-box', (w) => !!(w.compareDocumentPosition(document.querySelector('section[data-period]')) & Node.DOCUMENT_POSITION_FOLLOWING)));
  const report = page.frameLocator('#report');
  assert.match(await report.locator('h1').textContent(), /Capital gains report/);
  assert.ok((await report.locator('h2', { hasText: 'Tax year 2024/25' }).count()) === 1);
  await page.screenshot({ path: join(resultsDir, 'example.png'), fullPage: true });
  await page.context().close();
});

test('an export and a ledger together, with income and year; downloads read back by the CLI', { skip, timeout: 120_000 }, async () => {
  const page = await newPage();
  await open(page);
  await page.fill('#income', '60000');
  await page.fill('#year', '2024');
  const { ms } = await choose(page, [exportFile, example]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  console.log(`# export + ledger, income and year: file chosen → done ${ms} ms`);

  const env = cli(exportFile, example, 'taxable_income=60000', 'year=2024');
  const shown = await pageYears(page);
  assert.deepEqual(shown.map((y) => y.period), ['2024/25']);
  assert.ok(shown[0].tax_due, 'no tax due shown with income given');
  assertSameFigures(shown, env);
  assert.equal(await page.locator('#warnings li').count(), env.warnings.length);

  // The imported ledger, read back by the command line, gives the same figures.
  const [ledgerDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-ledger')]);
  const ledger = join(tmp, 'ledger.cgt');
  await ledgerDownload.saveAs(ledger);
  assert.match(readFileSync(ledger, 'utf8'), /^# Ledger of .*kapji_2024_transactions\.csv, portfolio\.cgt, combined by cgt in the browser/);
  assertSameFigures(shown, cli(ledger, 'taxable_income=60000', 'year=2024'));

  // The report is the CLI's HTML report of the same files.
  const [reportDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-report')]);
  const reportFile = join(tmp, 'report.html');
  await reportDownload.saveAs(reportFile);
  const html = readFileSync(reportFile, 'utf8');
  assert.match(html, /Content-Security-Policy/);
  assert.match(html, /<h2>What this report assumes<\/h2>/);
  assert.match(html, /taxable income £60,000\.00/);

  // Changing the income works it out again.
  await settle(page, async () => { await page.fill('#income', '20000'); await page.press('#income', 'Enter'); });
  assertSameFigures(await pageYears(page), cli(exportFile, example, 'taxable_income=20000', 'year=2024'));
  await settle(page, async () => { await page.fill('#losses', '2500'); await page.press('#losses', 'Enter'); });
  assertSameFigures(await pageYears(page), cli(exportFile, example, 'taxable_income=20000', 'year=2024', 'losses_brought_forward=2500'));

  // Printed, every match's working shows, and headings stay with what follows them.
  await page.emulateMedia({ media: 'print' });
  const report = page.frameLocator('#report');
  const workings = report.locator('details pre');
  assert.ok((await workings.count()) > 0, 'the report has no workings');
  for (let i = 0; i < (await workings.count()); i++) {
    assert.ok(await workings.nth(i).isVisible(), `working ${i} is hidden in print`);
  }
  assert.equal(await report.locator('h2').first().evaluate((h) => getComputedStyle(h).breakAfter), 'avoid');
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await workings.first().isVisible(), false, 'on screen the workings are shown on demand');
  await page.context().close();
});

// Exports this project's tests were not written against (../shared/broker-samples), four
// brokers at once with a ledger: every year's figures as the CLI's, and the imported ledger
// read back. Skipped without ../shared, failed under CI=true.
const samples = resolve(repo, '..', 'shared', 'broker-samples');
const unseen = ['ibkr/ibflex_activity_cash.xml', 'schwab/kapji_schwab_transactions.csv', 'freetrade/kapji_transactions.csv',
  'hargreaves-lansdown/kapji_hl-transaction-summary.csv'].map((f) => join(samples, f));
if (!existsSync(samples) && inCI && !skip) throw new Error(`${samples} is missing under CI=true`);
test('unseen exports of four brokers and a ledger together', { skip: skip || (!existsSync(samples) && `${samples} is not here`), timeout: 120_000 }, async () => {
  const page = await newPage();
  await open(page);
  await page.fill('#income', '45000');
  const { ms } = await choose(page, [...unseen, example]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  console.log(`# four exports and a ledger: file chosen → done ${ms} ms`);
  const env = cli(...unseen, example, 'taxable_income=45000');
  const shown = await pageYears(page);
  assert.deepEqual(shown.map((y) => y.period), env.data.tax_years.filter((t) => t.disposal_count > 0).map((t) => t.period).reverse());
  assertSameFigures(shown, env);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-ledger')]);
  const ledger = join(tmp, 'unseen.cgt');
  await download.saveAs(ledger);
  assertSameFigures(shown, cli(ledger, 'taxable_income=45000'));
  await page.context().close();
});

test('a 10,000-line ledger within budget, with a working state', { skip, timeout: 180_000 }, async () => {
  const ledger = join(tmp, 'ledger-10k.cgt');
  execFileSync(ledgergen, ['-n', '10000', '-o', ledger]);
  let best = Infinity;
  for (let i = 0; i < 3 && best > LARGE_LEDGER_MS; i++) {
    const page = await newPage();
    await open(page);
    const { ms, states } = await choose(page, [ledger]);
    assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
    assert.ok(states.includes('working'), `no working state: ${states}`);
    console.log(`# 10,000-line ledger: file chosen → done ${ms} ms`);
    best = Math.min(best, ms);
    if (i === 0) assertSameFigures(await pageYears(page), cli(ledger));
    await page.context().close();
  }
  withinBudget(best, LARGE_LEDGER_MS, 'a 10,000-line ledger');
});

test('errors are shown in the page, with where and how to fix them', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  const bad = join(tmp, 'bad.cgt');
  execFileSync('sh', ['-c', `printf '2024-04-01 BUY AAPL 100 @ 150.00 USD\\n2024-06-20 SELL AAPL 50 @ 1,80 USD\\n' > '${bad}'`]);
  await choose(page, [bad]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  const error = page.locator('#error');
  assert.ok(await error.isVisible());
  const text = await error.textContent();
  assert.match(text, /line 2/);
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.match(await page.textContent('#status'), /Not worked out/);

  // An unknown year is a warning, not a silent zero.
  await settle(page, async () => {
    await page.fill('#year', '2031');
    await page.setInputFiles('#files', [example]);
  });
  assert.ok((await page.locator('#warnings li').count()) > 0);
  await page.context().close();
});

test('phone width, labels, keyboard', { skip, timeout: 60_000 }, async () => {
  const page = await newPage({ width: 375, height: 740 });
  await open(page);
  assert.ok((await overflow(page)) <= 1, 'the empty page scrolls sideways at 375px');
  // Every control has a label; results are announced.
  const unlabelled = await page.$$eval('input:not([type=hidden]), button', (els) => els
    .filter((e) => !(e.labels && e.labels.length) && !e.textContent.trim() && !e.getAttribute('aria-label'))
    .map((e) => e.id || e.outerHTML));
  assert.deepEqual(unlabelled, []);
  assert.equal(await page.getAttribute('#status', 'aria-live'), 'polite');
  assert.equal(await page.getAttribute('#files', 'multiple'), '');

  // From the keyboard: the income field, Enter, then the downloads are reachable by Tab.
  await choose(page, [example]);
  await settle(page, async () => {
    await page.focus('#income');
    await page.keyboard.type('45000');
    await page.keyboard.press('Enter');
  });
  assert.ok(await page.$('[data-figure="tax_due"]'));
  await page.focus('#download-report');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'download-report');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'download-ledger');
  assert.ok((await overflow(page)) <= 1, `the results scroll sideways at 375px by ${await overflow(page)}px`);
  await page.screenshot({ path: join(resultsDir, 'phone.png'), fullPage: true });
  await page.context().close();
});

test('the example ledger from its button', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  await settle(page, () => page.click('#example'));
  assert.equal(await page.getAttribute('body', 'data-state'), 'done');
  assertSameFigures(await pageYears(page), cli(example));
  await page.context().close();
});

test('files dropped on the page are read as if chosen', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  const text = readFileSync(example, 'utf8');
  await settle(page, async () => {
    const dataTransfer = await page.evaluateHandle((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'dropped.cgt', { type: 'text/plain' }));
      return dt;
    }, text);
    await page.dispatchEvent('#drop', 'drop', { dataTransfer });
  });
  assert.equal(await page.getAttribute('body', 'data-state'), 'done');
  assert.match(await page.textContent('#file-list'), /dropped\.cgt/);
  assertSameFigures(await pageYears(page), cli(example));
  await page.context().close();
});

test('try a sale: offered when the registry has plan.sale', { skip, timeout: 60_000 }, async () => {
  let hasPlan = true;
  try {
    execFileSync(cgt, ['help', 'plan.sale'], { stdio: 'ignore' });
  } catch {
    hasPlan = false;
  }
  const page = await newPage();
  await open(page);
  assert.equal(await page.locator('#plan').isVisible(), hasPlan);
  if (!hasPlan) {
    await page.context().close();
    return;
  }
  await choose(page, [example]);
  await settle(page, async () => {
    await page.fill('#plan-ticker', 'AAPL');
    await page.fill('#plan-quantity', '10');
    await page.fill('#plan-price', '230.00 USD');
    await page.fill('#plan-date', '2025-01-15');
    await page.click('#plan-run');
  });
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#plan-out'));
  assert.ok((await page.textContent('#plan-out')).trim().length > 0);
  await page.context().close();
});

// accountsSupported: this build's report.calculate takes the accounts argument.
function accountsSupported() {
  const env = cli(example, 'accounts=nothing.csv=ISA:ISA');
  return !(env.error && env.error.context && env.error.context.argument === 'accounts' && /unknown argument/.test(env.error.message));
}

// download clicks a download link and returns the saved file's path.
async function download(page, selector, name) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = join(tmp, name);
  await d.saveAs(file);
  return file;
}

// warningsShown is the text of every warning the page shows, each as often as shown: the
// #warnings list, the plan views' lists, and any warning list of the report in the page
// that is visible.
async function warningsShown(page) {
  const own = await page.$$eval('#warnings li, #plan .warnings-box li', (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.textContent));
  const inReport = await page.frameLocator('#report').locator('ul.warn li').evaluateAll((lis) => lis.filter((li) => li.checkVisibility()).map((li) => li.textContent));
  return [...own, ...inReport];
}

test('each warning is shown once', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  await choose(page, [exportFile, example]);
  const env = cli(exportFile, example);
  assert.ok(env.warnings.length > 0, 'the test needs warnings');
  const shown = await warningsShown(page);
  assert.deepEqual(shown, [...new Set(shown)], `a warning is shown twice: ${shown.join(' | ')}`);
  assert.deepEqual(await page.$$eval('#warnings li', (lis) => lis.map((li) => li.textContent)), [...new Set(env.warnings)]);
  // Printed, the report keeps its own list (the page's is not printed).
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.frameLocator('#report').locator('ul.warn').isVisible(), true, 'the printed report lost its warnings');
  await page.emulateMedia({ media: 'screen' });
  // The downloaded report keeps them too.
  const html = readFileSync(await download(page, '#download-report', 'warned.html'), 'utf8');
  assert.match(html, /<h2>Check these first<\/h2>/);
  await page.context().close();
});

test('a file declared an ISA is left out of every figure; a change recomputes', { skip, timeout: 90_000 }, async (t) => {
  if (!accountsSupported()) {
    t.skip('this build of cgt has no accounts argument yet');
    return;
  }
  const page = await newPage();
  await open(page);
  await choose(page, [exportFile, example]);
  const name = 'kapji_2024_transactions.csv';
  const select = `select[data-account-for="${name}"]`;
  assert.deepEqual(await page.$$eval(`${select} option`, (os) => os.map((o) => o.value)), ['', 'ISA', 'LISA', 'JISA', 'SIPP', 'GIA']);
  assert.equal(await page.locator('select[data-account-for="portfolio.cgt"]').count(), 1);
  const before = await pageYears(page);
  assertSameFigures(before, cli(exportFile, example));

  const { states } = await settle(page, () => page.selectOption(select, 'ISA'));
  assert.ok(states.includes('working'), `a change did not recompute: ${states}`);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  const isa = cli(exportFile, example, `accounts=${name}=ISA:ISA`);
  const after = await pageYears(page);
  assertSameFigures(after, isa);
  const withoutExport = cli(example);
  for (const y of after) {
    const ty = withoutExport.data.tax_years.find((x) => x.period === y.period);
    if (ty) assert.equal(y.taxable_gain, ty.taxable_gain, `${y.period}: the ISA's rows still count`);
  }
  // The downloaded ledger says so: read back, the same figures.
  const ledger = await download(page, '#download-ledger', 'isa.cgt');
  assertSameFigures(after, cli(ledger));

  // Back to "not declared": the rows count again.
  await settle(page, () => page.selectOption(select, ''));
  assertSameFigures(await pageYears(page), cli(exportFile, example));

  // A name with the accounts argument's own characters (a comma, glob characters) is declared
  // just the same.
  const odd = 'isa [2024], t212*.csv';
  await settle(page, () => page.setInputFiles('#files', [{ name: odd, mimeType: 'text/csv', buffer: readFileSync(exportFile) }, { name: 'portfolio.cgt', mimeType: 'text/plain', buffer: readFileSync(example) }]));
  await settle(page, () => page.selectOption(`select[data-account-for="${odd}"]`, 'ISA'));
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  assertSameFigures(await pageYears(page), isa);
  await page.context().close();
});

// rateFile writes an HMRC monthly rate file for June 2024 with a made-up USD rate, so that the
// figures of a June 2024 sale in dollars show whether it was used.
function rateFile() {
  const file = join(tmp, 'exrates-monthly-0624.xml');
  execFileSync('sh', ['-c', `cat > '${file}' <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<exchangeRateMonthList Period="01/Jun/2024 to 30/Jun/2024">
  <exchangeRate><countryName>USA</countryName><countryCode>US</countryCode><currencyName>Dollar</currencyName><currencyCode>USD</currencyCode><rateNew>1.1000</rateNew></exchangeRate>
  <exchangeRate><countryName>Eurozone</countryName><countryCode>EU</countryCode><currencyName>Euro</currencyName><currencyCode>EUR</currencyCode><rateNew>1.1800</rateNew></exchangeRate>
</exchangeRateMonthList>
X`]);
  return file;
}

test('an HMRC rate file among the files is used for its month', { skip, timeout: 60_000 }, async () => {
  const rates = rateFile();
  const page = await newPage();
  await open(page);
  await page.fill('#year', '2024');
  await choose(page, [example, rates]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  assert.match(await page.textContent('#file-list'), /exrates-monthly-0624\.xml .*HMRC exchange rates/);
  assert.equal(await page.locator('select[data-account-for="exrates-monthly-0624.xml"]').count(), 0, 'a rate file has no account');
  const withRates = cli(example, `rates=${rates}`, 'year=2024');
  assertSameFigures(await pageYears(page), withRates);
  const without = cli(example, 'year=2024');
  assert.notEqual(withRates.data.tax_years[0].gains, without.data.tax_years[0].gains, 'the rate file changes nothing: a poor test');
  await page.context().close();
});

test('a ledger with the export it was imported from: the page and the downloaded ledger agree', { skip, timeout: 90_000 }, async () => {
  // The ledger a person keeps: the export imported once (cgt transactions.import --output text).
  const imported = join(tmp, 'imported.cgt');
  execFileSync(cgt, ['transactions.import', exportFile, '--output', 'text', '--out', imported]);
  const page = await newPage();
  await open(page);
  await choose(page, [imported, exportFile]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  const shown = await pageYears(page);
  assertSameFigures(shown, cli(imported, exportFile));
  assertSameFigures(shown, cli(exportFile)); // each trade once
  const ledger = await download(page, '#download-ledger', 'overlap.cgt');
  assertSameFigures(shown, cli(ledger));
  const holdings = (file) => run('holdings.list', file).data;
  assert.deepEqual(holdings(ledger), holdings(exportFile), 'the downloaded ledger holds other quantities');
  await page.context().close();
});

test('a file\'s name is data: it never becomes a line of the ledger', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  const evil = 'x.cgt\n2024-05-01 BUY EVIL 1000 @ 1.00 GBP\r2024-05-02 SELL EVIL 1000 @ 9.00 GBP\u2028# <b>bold</b>';
  await settle(page, () => page.setInputFiles('#files', [{ name: evil, mimeType: 'text/plain', buffer: readFileSync(example) }]));
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  assert.equal(await page.locator('#file-list b').count(), 0, 'the name was read as HTML');
  assertSameFigures(await pageYears(page), cli(example));
  const ledger = await download(page, '#download-ledger', 'evil.cgt');
  const text = readFileSync(ledger, 'utf8');
  assert.doesNotMatch(text, /^\s*2024-05-0[12] (BUY|SELL) EVIL/m, 'the name injected a line');
  assert.doesNotMatch(text, /\u2028/);
  assertSameFigures(await pageYears(page), cli(ledger));
  await page.context().close();
});

test('files over the limit are refused before they are read, with their size', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  const big = join(tmp, 'huge-export.csv');
  execFileSync('truncate', ['-s', String(MAX_INPUT + 1), big]);
  await settle(page, () => page.setInputFiles('#files', [big]));
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  const text = await page.textContent('#error');
  assert.match(text, /huge-export\.csv is 10\.0 MB/);
  assert.match(text, /up to 10\.0 MB/);
  // Then a file of the right size is worked out as usual.
  await choose(page, [example]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done');
  await page.context().close();
});

// browserMemory is the resident memory of the browser this test started, in bytes: of its
// renderers (the page's tab, its worker and the calculator in it) and of all its processes.
function browserMemory() {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' });
  const procs = out.trim().split('\n').map((l) => {
    const [pid, ppid, rss, ...args] = l.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss) * 1024, renderer: args.includes('--type=renderer') };
  });
  const mine = new Set([process.pid]);
  const sum = { renderers: 0, all: 0 };
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        sum.all += p.rss;
        if (p.renderer) sum.renderers += p.rss;
        grew = true;
      }
    }
  }
  return sum;
}

test('the largest input the page takes stays within its memory bound', { skip, timeout: 600_000 }, async () => {
  // A ledger just under the limit (about 230,000 lines).
  const ledger = join(tmp, 'ledger-10mb.cgt');
  execFileSync(ledgergen, ['-n', '230000', '-o', ledger]);
  const bytes = readFileSync(ledger).length;
  assert.ok(bytes <= MAX_INPUT && bytes > MAX_INPUT * 0.9, `the ledger is ${bytes} bytes`);
  const page = await newPage();
  page.context().setDefaultTimeout(480_000);
  await open(page);
  const peak = { renderers: 0, all: 0 };
  const sample = () => {
    const m = browserMemory();
    peak.renderers = Math.max(peak.renderers, m.renderers);
    peak.all = Math.max(peak.all, m.all);
  };
  sample();
  const sampler = setInterval(sample, 250);
  const mb = (n) => `${(n / 1048576).toFixed(0)} MB`;
  try {
    const { ms } = await choose(page, [ledger]);
    assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
    console.log(`# ${bytes}-byte ledger: file chosen → done ${ms} ms; the page's memory at most ${mb(peak.renderers)} (the whole browser's ${mb(peak.all)})`);
    const ledgerCopy = await download(page, '#download-ledger', 'big.cgt');
    await download(page, '#download-report', 'big.html');
    assert.ok(readFileSync(ledgerCopy).length > bytes / 2, 'the downloaded ledger is short');
    sample();
    console.log(`# with both downloads: the page's memory at most ${mb(peak.renderers)} (the whole browser's ${mb(peak.all)})`);
  } finally {
    clearInterval(sampler);
  }
  assert.ok(peak.renderers <= MEMORY_MAX, `the page used ${mb(peak.renderers)} for a ${bytes}-byte ledger`);
  assertSameFigures(await pageYears(page), cli(ledger, 'detail=summary'));
  await page.context().close();
});

// A ledger of securities with long made-up names: what a phone has to show.
function longNamesLedger() {
  const file = join(tmp, 'long-names.cgt');
  const lines = [];
  ['AVERYLONGMADEUPTICKERNAMEXYZ1234', 'ANOTHERQUITELONGMADEUPNAME.LSE', 'SHORT'].forEach((tk, i) => {
    lines.push(`2023-0${i + 1}-10 BUY ${tk} 1000 @ 12.3456 FEES 9.95`);
    lines.push(`2024-0${i + 5}-20 SELL ${tk} 999 @ 1234.5678 FEES 9.95`);
    lines.push(`2024-1${i}-02 SELL ${tk} 1 @ 0.5 FEES 0.5`);
  });
  execFileSync('sh', ['-c', `cat > '${file}'`], { input: `${lines.join('\n')}\n` });
  return file;
}

test('390 px wide: no sideways scroll, every disposal\'s date and gain on screen', { skip, timeout: 60_000 }, async () => {
  const page = await newPage({ width: 390, height: 844 });
  await open(page);
  await choose(page, [longNamesLedger(), example]);
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  assert.ok((await overflow(page)) <= 1, `the page scrolls sideways at 390px by ${await overflow(page)}px`);
  const cells = await page.$$eval('table.disposals tbody tr', (rows) => rows.map((r) => ['date', 'gain'].map((col) => {
    const c = r.querySelector(`td[data-col=${col}]`).getBoundingClientRect();
    return { col, left: c.left, right: c.right, width: c.width };
  })));
  assert.ok(cells.length >= 6, `${cells.length} disposals shown`);
  for (const [i, row] of cells.entries()) {
    for (const c of row) {
      assert.ok(c.left >= 0 && c.right <= 390, `disposal ${i}: its ${c.col} is off the screen (${c.left}–${c.right})`);
      assert.ok(c.width >= 60, `disposal ${i}: its ${c.col} is ${c.width}px wide`);
    }
  }
  // Every text of a disposal is inside the screen too (a long name wraps).
  const outside = await page.$$eval('table.disposals td', (tds) => tds.filter((td) => td.getBoundingClientRect().right > 391).length);
  assert.equal(outside, 0);
  await page.screenshot({ path: join(resultsDir, 'phone-390.png'), fullPage: false });
  await page.locator('section[data-period="2024/25"]').screenshot({ path: join(resultsDir, 'phone-390-year.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('section[data-period="2024/25"]').screenshot({ path: join(resultsDir, 'desktop-year.png') });
  await page.context().close();
});

test('planning: allowance and harvest views from one prices field, as the CLI works them out', { skip, timeout: 90_000 }, async (t) => {
  const planning = join(repo, 'examples', 'planning.cgt');
  const page = await newPage();
  await open(page);
  if (!(await page.locator('#plan-allowance').isVisible())) {
    t.skip('this build has no plan.allowance');
    await page.context().close();
    return;
  }
  await choose(page, [planning]);
  const date = '2026-11-26';
  const prices = 'VWRL=98.20, AAPL=230 USD, VOD.L=0.72, LGEN=2.55';
  await page.fill('#allowance-date', date);
  await page.fill('#harvest-date', date);
  await settle(page, async () => {
    await page.fill('#prices', prices);
    await page.press('#prices', 'Enter');
  });
  await page.waitForSelector('#plan-harvest [data-plan-figure=net_gain_after]');
  await page.waitForFunction(() => /Gain if all sold/.test(document.querySelector('#plan-allowance').textContent) && !/give a price/.test(document.querySelector('#plan-allowance').textContent));
  const allowance = run('plan.allowance', planning, `date=${date}`, `prices=${prices}`);
  const harvest = run('plan.harvest', planning, `date=${date}`, `prices=${prices}`);
  assert.ok(allowance.ok && harvest.ok, JSON.stringify([allowance.error, harvest.error]));
  assert.equal(await page.getAttribute('#plan-allowance [data-plan-figure=exempt_left]', 'data-value'), allowance.data.exempt_left);
  assert.equal(await page.getAttribute('#plan-harvest [data-plan-figure=net_gain_after]', 'data-value'), harvest.data.after.net_gain);
  for (const s of harvest.data.sales) assert.match(await page.textContent('#plan-harvest'), new RegExp(s.ticker.replace('.', '\\.')));
  // Every warning of the plans is shown, and each once on the whole page.
  const shown = await warningsShown(page);
  assert.deepEqual(shown, [...new Set(shown)], 'a warning is shown twice');
  for (const w of [...allowance.warnings, ...harvest.warnings]) {
    assert.ok(shown.includes(w.replaceAll(`${dirname(planning)}/`, '')), `not shown: ${w}`);
  }
  // The button works it out again, and so does a change of date.
  await settle(page, () => page.click('#prices-run'));
  assert.equal(await page.getAttribute('body', 'data-state'), 'done');
  await settle(page, async () => { await page.fill('#allowance-date', '2027-03-20'); await page.press('#allowance-date', 'Enter'); });
  const later = run('plan.allowance', planning, 'date=2027-03-20', `prices=${prices}`);
  await page.waitForFunction((v) => document.querySelector('#plan-allowance [data-plan-figure=exempt_left]')?.dataset.value === v, later.data.exempt_left);
  await page.locator('#plan').screenshot({ path: join(resultsDir, 'planning-ok.png') });
  // A price that is not a number: the error in the view.
  await settle(page, async () => { await page.fill('#prices', 'AAPL=abc'); await page.press('#prices', 'Enter'); });
  await page.waitForSelector('#plan-harvest .error, #plan-allowance .error');
  // Try a sale stays.
  for (const id of ['#plan-ticker', '#plan-quantity', '#plan-price', '#plan-run', '#plan-out']) assert.equal(await page.locator(id).count(), 1, id);
  await page.locator('#plan').screenshot({ path: join(resultsDir, 'planning.png') });
  await page.context().close();
});

test('the app links to the broker download guides', { skip, timeout: 30_000 }, async () => {
  const page = await newPage();
  await open(page);
  const href = await page.getAttribute('a[href*="guides/brokers"]', 'href');
  assert.ok(href, 'no link to the broker guides');
  await page.context().close();
});

test('privacy: no request leaves the page\'s server, nothing is stored, the policy forbids it', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  await open(page);
  await choose(page, [example]);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  for (const part of ["default-src 'self'", "connect-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"]) {
    assert.ok(csp.includes(part), `the policy lacks ${part}: ${csp}`);
  }
  assert.match(await page.textContent('#privacy'), /nothing is uploaded/);
  // The policy is enforced: a request to another origin (here another loopback address) is
  // refused by the browser before it is sent.
  const blocked = await page.evaluate(async (port) => {
    try {
      await fetch(`http://127.0.0.2:${port}/`);
      return false;
    } catch {
      return true;
    }
  }, server.address().port);
  assert.ok(blocked, 'a request to another origin was not refused');
  const stored = await page.evaluate(async () => ({
    local: localStorage.length,
    session: sessionStorage.length,
    cookies: document.cookie,
    databases: indexedDB.databases ? (await indexedDB.databases()).length : 0,
    caches: (await caches.keys()).length,
  }));
  assert.deepEqual(stored, { local: 0, session: 0, cookies: '', databases: 0, caches: 0 });
  assert.deepEqual((await page.context().cookies()), []);
  await page.context().close();

  // Every request of every test so far went to the page's own server (or stayed in the page).
  const away = requests.filter((u) => !u.startsWith(`${baseURL}/`) && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(away, [], 'requests left the page\'s server');
  assert.ok(requests.some((u) => u.endsWith('/cgt.wasm')), 'the record of requests is empty');
  assert.deepEqual(pageErrors, [], 'script errors on the page');
});
