// reconnect.test.mjs - a game page whose event stream is refused, in headless Chromium
// against a real `crown serve`: the browser's EventSource gives up for good on a 429, so
// the page (api.js watch) tries a new stream after a back-off, and once one is admitted
// the moves reach the page again without a reload. Every wait is on a condition of the
// page, bounded by a timeout; none is a sleep.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api, openStream } from './server.mjs';

const WAIT = { timeout: 20000 };

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';

let srv;
let browser;

// One stream per address: a stream of this test's own (the page's address too) keeps
// the page's refused.
browserSuite({
  before, after, shots: SHOTS, args: ['--streams-per-ip', '1'],
  ready(s) { srv = s.srv; browser = s.browser; },
});

test('a refused event stream is tried again with back-off, and then the moves come', async () => {
  const g = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } })).body;
  const blocker = await openStream(srv, g.id);
  assert.equal(blocker.status, 200);
  const page = await openPage(browser, { width: 1200, height: 900 });
  try {
    await page.goto(srv.url + g.seats[0].url);
    await page.waitForSelector('#board[data-stream="down"]', WAIT);
    assert.match(await page.textContent('#message'), /Live updates are paused; trying again in \d+ s/);
    blocker.close();
    await page.waitForSelector('#board[data-stream="open"]', WAIT);
    assert.equal(await page.textContent('#message'), '');
    // A move made elsewhere (the other seat's token, through the API) reaches the page.
    const st = (await api(srv, 'GET', `/api/games/${g.id}`, { token: g.seats[0].token })).body;
    const r = await api(srv, 'POST', `/api/games/${g.id}/moves`,
      { token: g.seats[0].token, body: { move: st.legal[0].text, ply: st.ply } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await page.waitForSelector('#board[data-ply="1"]', WAIT);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.close();
  }
});
