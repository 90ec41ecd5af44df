// browser.mjs - launches Debian's Chromium for the end-to-end tests through
// playwright-core (Playwright's own browser download does not work here): headless,
// without a sandbox (the tests may run as root), with a fresh profile, and with every
// background connection off, since the machine has no network beyond loopback.
// Playwright gives every launch a fresh empty profile folder of its own; the browser's
// other leavings (PulseAudio's pulse-* folder, which Chromium makes under TMPDIR and never
// removes) go to a temporary folder of each launch's own, removed when it closes.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server.mjs';

// Chromium's headless shell (Debian's chromium-headless-shell, what Playwright itself
// runs headless) before the full browser: a page opened costs it half the processor time.
export const CHROMIUM = process.env.CHROMIUM_BIN ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

export async function launch() {
  if (!CHROMIUM) throw new Error('Chromium is not installed (apt-get install chromium-headless-shell)');
  const scratch = mkdtempSync(join(tmpdir(), 'crown-chromium-'));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  // A test file that fails before closing its browser still leaves nothing behind.
  process.once('exit', removeScratch);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, TMPDIR: scratch, XDG_RUNTIME_DIR: scratch },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-proxy-server',
    ],
  });
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    try {
      await close(...args);
    } finally {
      removeScratch();
    }
  };
  return browser;
}

// The frame of a browser test file: before its tests, a server (server.mjs), a browser and
// the screenshot folder, then ready({ srv, browser }) for the file's own set-up; after
// them, both stopped, the server cleanly. args: the server's options, or a function
// that makes what they name and returns them, called first in the set-up.
export function browserSuite({ before, after, shots, ready, args = [] }) {
  const suite = { srv: null, browser: null };
  before(async () => {
    mkdirSync(shots, { recursive: true });
    suite.srv = await startServer({ args: typeof args === 'function' ? args() : args });
    suite.browser = await launch();
    if (ready) await ready(suite);
  });
  after(async () => {
    if (suite.browser) await suite.browser.close();
    if (suite.srv) {
      const { code } = await suite.srv.stop();
      assert.equal(code, 0, suite.srv.stderr());
    }
  });
}

// Where the pages say things to their user (the game, analysis, puzzle, import, lobby
// and seek pages, the position editor, and any status or alert region): what a failed
// wait reports.
const SAID = ['#message', '#analysis-message', '#puzzle-message', '#import-message', '#lobby-message',
  '#seek-message', '#editor-status', '[role="status"]', '[role="alert"]'].join(', ');

// A page of `target` (the browser or a context) at `viewport` that collects the page's
// uncaught script errors in page.errors. A wait that runs out says where the page was
// and what it said then, since a log is all a failed run elsewhere leaves.
export async function openPage(target, viewport) {
  const page = await target.newPage(viewport ? { viewport } : undefined);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  // The requests still out and the last that failed, so that a wait on an answer that
  // never came names the request that holds it (the page's or the server's side).
  const inFlight = new Map();
  const failed = [];
  page.on('request', (r) => inFlight.set(r, { at: Date.now(), status: null }));
  page.on('response', (r) => { const o = inFlight.get(r.request()); if (o) o.status = r.status(); });
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => {
    inFlight.delete(r);
    failed.push(`${r.method()} ${r.url()} (${r.failure()?.errorText ?? 'failed'})`);
    if (failed.length > 5) failed.shift();
  });
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    consoleErrors.push(m.text());
    if (consoleErrors.length > 5) consoleErrors.shift();
  });
  page.forgetReports = () => { errors.length = 0; failed.length = 0; consoleErrors.length = 0; };
  for (const name of ['waitForFunction', 'waitForSelector']) {
    const wait = page[name].bind(page);
    page[name] = async (...args) => {
      try {
        return await wait(...args);
      } catch (e) {
        if (e.name === 'TimeoutError' && !page.isClosed()) {
          const said = await page.$$eval(SAID, (es) => es.map((x) => `${x.id || x.getAttribute('role')}: ${x.textContent.trim()}`)
            .filter((l) => !/: $/.test(l))).catch(() => []);
          e.message += `\n  at ${page.url()}\n  the page said: ${said.join(' | ') || '(nothing)'}` +
            `${errors.length ? `\n  script errors: ${errors.join(' | ')}` : ''}` +
            `${inFlight.size ? `\n  requests still out: ${[...inFlight].map(([r, o]) =>
              `${r.method()} ${r.url()} (${Date.now() - o.at} ms, ${o.status ? `answered ${o.status}, body not read yet` : 'no answer'})`).join(' | ')}` : ''}` +
            `${failed.length ? `\n  requests that failed: ${failed.join(' | ')}` : ''}` +
            `${consoleErrors.length ? `\n  console errors: ${consoleErrors.join(' | ')}` : ''}`;
        }
        throw e;
      }
    };
  }
  return page;
}

// A file's one page, opened on first use in `target` (the browser or a context) and
// handed to each test again at the viewport it asks for, its errors cleared: every test
// starts with a navigation, and a new page costs Chromium a renderer process (about
// 1.5 CPU-seconds), more than most tests' own work. A test that closes it gets a new one.
export function pageReuser(target, viewport) {
  let page = null;
  return async (size = viewport) => {
    if (!page || page.isClosed()) {
      page = await openPage(await (typeof target === 'function' ? target() : target), size);
    } else {
      await page.setViewportSize(size);
      page.forgetReports();
    }
    return page;
  };
}
