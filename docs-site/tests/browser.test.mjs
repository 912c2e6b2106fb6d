// Browser test of the built site: serves dist/ on 127.0.0.1 and drives Debian's Chromium
// headless through playwright-core. Run after `npm run build`:  npm run test:browser
//
// Without /usr/bin/chromium the test is skipped, except under CI=true where it fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const siteDir = resolve(fileURLToPath(new URL('..', import.meta.url)));
const distDir = join(siteDir, 'dist');
const resultsDir = join(siteDir, 'test-results');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const inCI = process.env.CI === 'true';

// The command page the test opens; `cgt gen` always writes it (report.calculate is a registry command).
const commandTitle = 'report.calculate';
const commandHref = '/commands/report-calculate/';

const chromiumMissing = !existsSync(chromiumPath);
if (chromiumMissing && inCI) {
  throw new Error(`${chromiumPath} not found and CI=true: install it with "apt-get install -y chromium"`);
}
const skip = chromiumMissing
  ? `${chromiumPath} not found: install Debian's chromium ("apt-get install -y chromium") to run the browser test`
  : false;
if (skip) console.log(`# skipped: ${skip}`);

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.zip': 'application/zip',
  '.xml': 'application/xml',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pagefind': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

// resolveFile maps a URL path to a file in dist/, as a static host would: "/a/" and "/a" serve
// "/a/index.html". It never leaves dist/.
function resolveFile(urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const file = normalize(join(distDir, path));
  if (file !== distDir && !file.startsWith(distDir + sep)) return null;
  for (const candidate of [file, join(file, 'index.html')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

function startServer() {
  const server = createServer(async (req, res) => {
    const file = resolveFile(new URL(req.url, 'http://127.0.0.1').pathname);
    if (!file) {
      const notFound = join(distDir, '404.html');
      res.writeHead(404, { 'content-type': contentTypes['.html'] });
      res.end(existsSync(notFound) ? await readFile(notFound) : 'not found');
      return;
    }
    res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
    res.end(await readFile(file));
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise(server));
  });
}

let server;
let baseURL;
let context;
let userDataDir;
const pageErrors = [];
const failedRequests = [];

before(async () => {
  if (skip) return;
  assert.ok(
    existsSync(join(distDir, 'index.html')),
    `${distDir}/index.html is missing: run "npm run build" before the browser test`,
  );
  server = await startServer();
  baseURL = `http://127.0.0.1:${server.address().port}`;

  const { chromium } = await import('playwright-core');
  userDataDir = mkdtempSync(join(tmpdir(), 'cgt-docs-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
  });
  context.setDefaultTimeout(20_000);
  context.on('response', (response) => {
    if (response.url().startsWith(baseURL) && response.status() >= 400) {
      failedRequests.push(`${response.status()} ${response.url()}`);
    }
  });
});

after(async () => {
  await context?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

test('home page, a command page from the sidebar, and tools.json', { skip, timeout: 120_000 }, async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(`${page.url()}: ${err.message}`));

  // Home page: the site title and the overview.
  const home = await page.goto(`${baseURL}/`);
  assert.equal(home.status(), 200);
  assert.match(await page.title(), /\bcgt\b/);
  assert.equal((await page.locator('main h1').first().textContent()).trim(), 'Overview');
  const sidebar = page.locator('#starlight__sidebar');
  for (const group of ['Start', 'Guides', 'Reference', 'Commands', 'Contract files']) {
    assert.ok(
      (await sidebar.getByText(group, { exact: true }).count()) > 0,
      `sidebar group "${group}" is missing`,
    );
  }
  mkdirSync(resultsDir, { recursive: true });
  await page.screenshot({ path: join(resultsDir, 'home.png'), fullPage: true });

  // A command page, reached by clicking its sidebar link.
  const commandLink = sidebar.getByRole('link', { name: commandTitle, exact: true });
  assert.equal(await commandLink.getAttribute('href'), commandHref);
  await Promise.all([page.waitForURL(`${baseURL}${commandHref}`), commandLink.click()]);
  assert.equal((await page.locator('main h1').first().textContent()).trim(), commandTitle);
  const content = page.locator('main .sl-markdown-content');

  const argumentTable = content.locator('table', {
    has: page.locator('thead th', { hasText: /^\s*(argument|name)\s*$/i }),
  });
  assert.equal(await argumentTable.count(), 1, 'the command page has no argument table');
  assert.ok((await argumentTable.locator('tbody tr').count()) > 0, 'the argument table is empty');

  const exampleBlocks = content.locator('pre', { hasText: `cgt ${commandTitle}` });
  assert.ok((await exampleBlocks.count()) > 0, `no example block running "cgt ${commandTitle}"`);

  // The tools.json link in the sidebar serves the catalog.
  const toolsLink = sidebar.getByRole('link', { name: 'tools.json', exact: true });
  assert.equal(await toolsLink.getAttribute('href'), '/tools.json');
  const [toolsResponse] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${baseURL}/tools.json`),
    toolsLink.click(),
  ]);
  assert.equal(toolsResponse.status(), 200);
  const catalog = JSON.parse(await toolsResponse.text());
  assert.ok(Array.isArray(catalog.commands), 'tools.json has no "commands" array');
  assert.ok(
    catalog.commands.some((c) => c.name === commandTitle),
    `tools.json lists no "${commandTitle}" command`,
  );

  assert.deepEqual(pageErrors, [], 'script errors on the pages');
  assert.deepEqual(failedRequests, [], 'requests that failed');
});

test('the pages for people: start here, filing the SA108, the FAQ, before 5 April; tables fit a phone', { skip, timeout: 120_000 }, async () => {
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(`${page.url()}: ${err.message}`));
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, heading, text] of [
    ['/people/start-here/', 'Start here', 'taxable_income'],
    ['/people/filing-sa108/', 'Filing the SA108 step by step', 'Box 51 for 2024/25'],
    ['/people/faq/', 'FAQ', 'ISA'],
    ['/people/before-5-april/', 'Before 5 April', 'bed and breakfast'],
    ['/commands/report-calculate/', 'report.calculate', 'taxable_income'],
  ]) {
    const response = await page.goto(`${baseURL}${path}`);
    assert.equal(response.status(), 200, path);
    assert.equal((await page.locator('main h1').first().textContent()).trim(), heading);
    assert.ok((await page.locator('main').textContent()).includes(text), `${path} lacks "${text}"`);
    // Nothing makes the page wider than the screen: wide tables scroll inside themselves.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${path} is ${overflow}px wider than a phone screen`);
  }
  const source = page.locator('a[href="https://github.com/cgt-tools/cgt"]');
  assert.ok((await source.count()) > 0, 'no link to the source repository');
  mkdirSync(resultsDir, { recursive: true });
  await page.goto(`${baseURL}/people/filing-sa108/`);
  await page.screenshot({ path: join(resultsDir, 'filing-sa108-phone.png'), fullPage: true });
  await page.close();
  assert.deepEqual(pageErrors, [], 'script errors on the pages');
});

test('the browser app is served at /app/ and linked from the sidebar', { skip, timeout: 60_000 }, async () => {
  for (const [name, type] of [['app/', 'text/html'], ['app/cgt.wasm', 'application/wasm'], ['app/wasm_exec.js', 'text/javascript'], ['app/app.js', 'text/javascript']]) {
    const response = await fetch(`${baseURL}/${name}`);
    assert.equal(response.status, 200, `/${name}`);
    assert.ok(response.headers.get('content-type').startsWith(type), `/${name}: ${response.headers.get('content-type')}`);
  }
  const page = await context.newPage();
  await page.goto(`${baseURL}/people/in-your-browser/`);
  assert.equal(await page.locator('#starlight__sidebar a[data-app="cgt"]').getAttribute('href'), '/app/');
  await page.close();
});

test('every contract file linked from the site is served', { skip, timeout: 60_000 }, async () => {
  for (const name of ['tools.json', 'openapi.json', 'llms.txt', 'llms-full.txt', 'cgt-tools.schema.json', 'cgt-skills.zip']) {
    const response = await fetch(`${baseURL}/${name}`);
    assert.equal(response.status, 200, `/${name}`);
    const body = Buffer.from(await response.arrayBuffer());
    assert.ok(body.length > 0, `/${name} is empty`);
    if (name.endsWith('.json')) JSON.parse(body.toString('utf8'));
    if (name.endsWith('.zip')) assert.equal(body.subarray(0, 2).toString('latin1'), 'PK', `/${name} is not a zip`);
  }
});
