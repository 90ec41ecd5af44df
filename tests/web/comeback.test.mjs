// comeback.test.mjs - coming back to games, in headless Chromium against a real crown
// serve: a clock counting down on the page until its flag falls, the tab title on your
// turn (and the home page's, counting the games that wait), the sound on the opponent's
// move, a browser notification while the tab is hidden, the home page's list of this browser's games,
// taking an open seat from the home page, the spectator link, what the copy buttons copy,
// a takeback asked on one page and answered on the other; an account made at /login
// and this browser's games claimed on /account, its pages in German, a mail's links
// landing there; the e-mail section against a local SMTP server (smtp.mjs): an address
// confirmed by its link, a mail asked for, a password reset by mail;
// screenshots at 1280x800 and 390x844, no sideways scroll at 390 px, and an axe-core
// audit of what these pages add. Every wait is on a condition of the page, bounded; none is a sleep.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api, startServer } from './server.mjs';
import { startSink } from './smtp.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 15000 };
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let browser;

browserSuite({
  before, after, shots: SHOTS,
  ready(s) {
    ({ srv, browser } = s);
  },
});

// A page in a context of its own (its own localStorage); axe is injected, so the page's
// script policy is bypassed for this test's own script only.
async function newPage(viewport = WIDE) {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  return openPage(context);
}

async function create(body) {
  const r = await api(srv, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

// Both sizes, with no sideways scroll at the phone's: of the whole page, or where the
// page holds others' parts too (the home page's new-game form), of `part` alone.
async function shoot(page, name, part) {
  for (const [size, vp] of [['1280', WIDE], ['390', PHONE]]) {
    await page.setViewportSize(vp);
    await page.screenshot({ path: join(SHOTS, `comeback-${name}-${size}.png`), fullPage: true });
    if (size === '390') {
      const wide = await page.evaluate((sel) => {
        if (!sel) return document.documentElement.scrollWidth;
        const e = document.querySelector(sel);
        return Math.max(e.getBoundingClientRect().right, e.scrollWidth);
      }, part);
      assert.ok(wide <= 390, `${part || name} is wider than 390 px (${wide} px)`);
    }
  }
  await page.setViewportSize(WIDE);
}

// No serious or critical axe-core violations in the parts given.
async function audit(page, include) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async (inc) => {
    const r = await window.axe.run({ include: inc }, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, include);
  assert.deepEqual(found, [], `axe on ${include.join(', ')}`);
}

test('a clock counts down on the page, the title says your turn, and the flag falls', async () => {
  // Eight seconds: long enough that a loaded machine sees the clock run before the flag
  // falls (with two, a CI run saw the flag fall first), short enough to wait for it.
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 8, increment: 0 } });
  const first = await newPage();
  const second = await newPage();
  await first.goto(`${srv.url}${g.seats[0].url}`);
  await second.goto(`${srv.url}${g.seats[1].url}`);
  await first.waitForSelector('#clocks .clock time', WAIT);
  assert.equal(await first.title(), '● Your turn - crown');
  assert.equal(await second.title(), 'crown');
  await first.check('#sound-toggle');
  await second.check('#sound-toggle');
  // The first player moves; the second's clock runs on both screens, and the second,
  // with sound on, hears the opponent's move.
  await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[0].token, body: { move: g.state.legal[0].text } });
  await second.waitForFunction(() => document.title === '● Your turn - crown', null, WAIT);
  await second.waitForFunction(() => document.body.dataset.beeps === '1', null, WAIT);
  await first.waitForSelector('#clocks .clock.p1.running', WAIT);
  const shown = await second.textContent('#clocks .clock.p1 time');
  assert.match(shown, /^0:0[0-8]$/);
  await shoot(second, 'clock');
  await audit(second, ['#clocks', '#share', '.sound-toggle']);
  // Nobody moves: the server's flag falls and both pages say so.
  await second.waitForFunction(() => document.querySelector('#result')?.textContent === 'You lost on time', null, WAIT);
  await first.waitForFunction(() => document.querySelector('#result')?.textContent === 'You won on time', null, WAIT);
  assert.equal(await second.textContent('#clocks .clock.p1 time'), '0:00');
  assert.equal(await second.title(), 'crown');
  // Sound is on for the first player, but only an opponent's move sounds: none came.
  assert.equal(await first.evaluate(() => document.body.dataset.beeps || '0'), '0');

  // Home: the first player's browser lists the game with its result, said to them
  // (issue 32: it said "first player wins: the second player ran out of time").
  await first.goto(`${srv.url}/`);
  await first.waitForSelector('#my-games[data-loaded]', WAIT);
  const row = first.locator(`#my-games li[data-id="${g.id}"]`);
  assert.equal(await row.locator('.turn').textContent(), 'You won on time');
  assert.deepEqual(first.errors, []);
  assert.deepEqual(second.errors, []);
  await first.context().close();
  await second.context().close();
});

test('a takeback between two people: asked, declined, asked again and accepted on the pages', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const first = await newPage();
  const second = await newPage();
  await first.goto(`${srv.url}${g.seats[0].url}`);
  await second.goto(`${srv.url}${g.seats[1].url}`);
  await first.waitForSelector('#takeback:disabled', WAIT); // nothing of his to take back yet
  assert.equal(await first.isVisible('#undo'), false, 'undo is for games against the AI');
  const st = (await api(srv, 'GET', `/api/games/${g.id}`, { token: g.seats[0].token })).body;
  await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[0].token, body: { move: st.legal[0].text } });
  await first.click('#takeback:enabled', WAIT);
  await first.waitForSelector('#takeback-note:has-text("waiting for your opponent")', WAIT);
  await second.waitForSelector('#takeback-request:visible', WAIT);
  assert.match(await second.textContent('#takeback-request'), /first player asks to take back/);
  await second.click('#decline-takeback');
  await first.waitForSelector('#takeback-note:has-text("declined")', WAIT);
  await second.waitForSelector('#takeback-request', { ...WAIT, state: 'hidden' });
  await first.click('#takeback');
  await second.click('#accept-takeback', WAIT);
  await first.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Your move')
    && !document.querySelector('#moves li'), null, WAIT);
  await first.waitForSelector('#takeback-note', { ...WAIT, state: 'hidden' });
  assert.equal(await second.isVisible('#takeback-request'), false);
  await first.waitForSelector('#takeback:disabled', WAIT); // back to no move of his
  await shoot(first, 'takeback');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await first.context().close();
  await second.context().close();
});

// The Notification API stubbed as granted, and the tab's visibility in the test's hands:
// headless Chromium shows no notification, and a page under test is never hidden.
function stubNotifications() {
  window.notes = [];
  window.tabHidden = false;
  window.Notification = class {
    // The browser remembers its leave across loads, as a real one does.
    static get permission() { return localStorage.getItem('test.granted') ? 'granted' : 'default'; }
    static requestPermission() { localStorage.setItem('test.granted', '1'); return Promise.resolve('granted'); }
    constructor(title, options) { window.notes.push({ title, ...options }); }
    close() {}
  };
  Object.defineProperty(document, 'visibilityState', { get: () => (window.tabHidden ? 'hidden' : 'visible') });
}

test('a browser notification tells of the turn while the tab is hidden, once asked for', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const page = await newPage();
  await page.addInitScript(stubNotifications);
  await page.goto(`${srv.url}${g.seats[1].url}`);
  await page.waitForSelector('#board svg', WAIT);
  assert.equal(await page.isChecked('#notify-toggle'), false);
  await page.check('#notify-toggle');
  for (const vp of [PHONE, WIDE]) {
    await page.setViewportSize(vp);
    await audit(page, ['.notify']);
  }
  // A turn that comes while the page is looked at is told by the page alone.
  const move = async (seat) => {
    const token = g.seats[seat].token;
    const st = (await api(srv, 'GET', `/api/games/${g.id}`, { token })).body;
    const r = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token, body: { move: st.legal[0].text } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  await move(0);
  await page.waitForFunction(() => document.title === '● Your turn - crown', null, WAIT);
  assert.equal(await page.evaluate(() => window.notes.length), 0);
  await page.evaluate(() => { window.tabHidden = true; });
  await move(1);
  await page.waitForFunction(() => document.title === 'crown', null, WAIT);
  await move(0);
  await page.waitForFunction(() => document.body.dataset.notified === '1', null, WAIT);
  assert.deepEqual(await page.evaluate(() => window.notes), [{ title: 'Your turn in crown', body: 'King\'s Valley', tag: `crown-${g.id}` }]);
  // The choice is remembered: a reload finds it on.
  await page.reload();
  await page.waitForSelector('#board svg', WAIT);
  assert.equal(await page.isChecked('#notify-toggle'), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the home page lists this browser\'s games, your turn first', async () => {
  const page = await newPage();
  const waiting = await create({ game: 'kings-guard', seats: ['human', 'human'] });
  const theirs = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const moved = await api(srv, 'POST', `/api/games/${theirs.id}/moves`, { token: theirs.seats[0].token, body: { move: theirs.state.legal[0].text } });
  assert.equal(moved.status, 200);
  // Visiting a seat's link is what puts a game in the list.
  for (const link of [theirs.seats[0].url, waiting.seats[0].url]) {
    await page.goto(`${srv.url}${link}`);
    await page.waitForSelector('#board svg', WAIT);
  }
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#my-games[data-loaded]', WAIT);
  const rows = await page.$$eval('#my-games li', (ls) => ls.map((l) => ({ id: l.dataset.id, text: l.textContent, mine: l.classList.contains('your-turn') })));
  assert.equal(rows.length, 2);
  assert.deepEqual(rows.map((r) => r.id), [waiting.id, theirs.id]);
  assert.ok(rows[0].mine && /Your turn/.test(rows[0].text));
  assert.match(rows[1].text, /second player to move/);
  assert.match(rows[1].text, /vs second: human · last move just now/);
  assert.equal(await page.title(), '(1) Your turn - crown');
  await page.waitForSelector('#open-games[data-loaded]', WAIT);
  await shoot(page, 'home', '#lobby');
  await audit(page, ['#lobby']);
  // Forget removes a game from the list for good.
  await page.click(`#my-games li[data-id="${theirs.id}"] .forget`);
  await page.reload();
  await page.waitForSelector('#my-games[data-loaded]', WAIT);
  assert.equal(await page.locator('#my-games li[data-id]').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an open seat is taken from the home page; the spectator link watches', async () => {
  const host = await newPage();
  const g = await create({ game: 'kings-valley', seats: ['human', 'open'], clock: { initial: 300, increment: 3 } });
  await host.goto(`${srv.url}${g.seats[0].url}`);
  await host.waitForSelector('#board svg', WAIT);

  const guest = await newPage(PHONE);
  await guest.goto(`${srv.url}/`);
  await guest.waitForSelector(`#open-games li[data-id="${g.id}"] .take`, WAIT);
  assert.match(await guest.textContent(`#open-games li[data-id="${g.id}"]`), /5 min \+ 3 s/);
  await shoot(guest, 'open', '#lobby');
  await Promise.all([guest.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), guest.click(`#open-games li[data-id="${g.id}"] .take`)]);
  await guest.waitForSelector('#board svg', WAIT);
  assert.equal(await guest.$eval('#board', (b) => b.dataset.you), '1');
  // The seat is gone from the list, and the game is in the guest's own list.
  await guest.goto(`${srv.url}/`);
  await guest.waitForSelector('#open-games[data-loaded]', WAIT);
  assert.equal(await guest.locator(`#open-games li[data-id="${g.id}"]`).count(), 0);
  assert.equal(await guest.locator(`#my-games li[data-id="${g.id}"]`).count(), 1);

  // The host's spectator link shows the game to a third browser, which cannot move.
  const watch = await host.inputValue('#share-watch');
  assert.equal(watch, `${srv.url}/g/${g.id}`);
  await host.click('[data-copy="watch"]');
  const viewer = await newPage();
  await viewer.goto(watch);
  await viewer.waitForSelector('#board svg', WAIT);
  assert.equal(await viewer.$eval('#board', (b) => b.dataset.you), '');
  assert.equal(await viewer.locator('#board .cell.movable').count(), 0);
  assert.equal(await viewer.title(), 'crown');
  await shoot(viewer, 'spectator');
  for (const p of [host, guest, viewer]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('the copy buttons put on the clipboard the very links they show', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const page = await newPage();
  // The links the new-game form would have kept, and a clipboard that tells what it got.
  await page.addInitScript(([id, links]) => {
    localStorage.setItem(`crown.links.${id}`, JSON.stringify(links));
    window.copied = [];
    Object.defineProperty(navigator.clipboard, 'writeText', { value: async (text) => { window.copied.push(text); } });
  }, [g.id, g.seats.map((s) => s.url)]);
  await page.goto(`${srv.url}${g.seats[0].url}`);
  await page.waitForSelector('#share-seat-1', WAIT);
  for (const [key, url] of [['seat-1', `${srv.url}${g.seats[1].url}`], ['watch', `${srv.url}/g/${g.id}`]]) {
    assert.equal(await page.inputValue(`#share-${key}`), url);
    await page.click(`[data-copy="${key}"]`);
    await page.waitForSelector(`[data-copy="${key}"]:text("Copied")`, WAIT);
    assert.equal(await page.evaluate(() => window.copied.at(-1)), url, `the ${key} button's copy`);
  }
  assert.equal(await page.evaluate(() => window.copied.length), 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The account pages' audit at both sizes: the phone's layout is a layout of its own.
async function auditBoth(page) {
  for (const vp of [WIDE, PHONE]) {
    await page.setViewportSize(vp);
    await audit(page, ['.account-page', '.top']);
  }
  await page.setViewportSize(WIDE);
}

test('an account: signed up at /login, the games this browser holds claimed in one click', async () => {
  const t0 = Date.now();
  const g1 = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const g2 = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
  const page = await newPage();
  // Two games played here before any account: this browser holds their seats' tokens,
  // as their pages keep them (mygames.js).
  await page.addInitScript((mine) => {
    if (!localStorage.getItem('crown.mine')) localStorage.setItem('crown.mine', JSON.stringify(mine));
  }, [g1, g2].map((g) => ({ id: g.id, token: g.seats[0].token })));
  await page.goto(`${srv.url}/`);
  await page.click('.account-menu .account-signin', WAIT);
  await page.waitForSelector('.login-form', WAIT);
  await shoot(page, 'login');
  await auditBoth(page);
  await page.fill('.login-form input[name=name]', 'Newcomer');
  await page.fill('.login-form input[name=password]', 'a-first-password');
  await page.click('.login-form .account-create');
  await page.waitForURL(/\/account$/, WAIT);
  await page.waitForSelector('.claim-form button:not([disabled])', WAIT);
  assert.equal(await page.textContent('.account-menu .account-name'), 'Newcomer');
  await page.click('.claim-form button');
  await page.waitForFunction(() => /2 games added/.test(document.querySelector('.claim-form .status').textContent), null, WAIT);
  // This server sends no mail: the e-mail section says so.
  assert.match(await page.textContent('.mail-section .mail-off'), /sends no e-mail/);
  await shoot(page, 'account');
  await auditBoth(page);
  for (const g of [g1, g2]) assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.accounts[0], 'Newcomer');
  // A mail's links land on these pages, signed in or not: the token leaves the address
  // bar, and the server's answer shows (here a link that is no longer good).
  await page.goto(`${srv.url}/account?unsubscribe=${'f'.repeat(64)}`);
  await page.waitForSelector('.mail-landing', WAIT);
  assert.match(await page.textContent('.mail-landing'), /unknown or expired/);
  assert.equal(new URL(page.url()).search, '');
  await page.goto(`${srv.url}/login?reset=${'e'.repeat(64)}`);
  await page.fill('.reset-form input[name=password]', 'another-password');
  await page.click('.reset-form button');
  await page.waitForFunction(() => /used or expired/.test(document.querySelector('.reset-form .status').textContent), null, WAIT);
  await auditBoth(page);
  // The pages speak the chosen language.
  await page.evaluate(() => localStorage.setItem('crown.lang', 'de'));
  await page.goto(`${srv.url}/account`);
  await page.waitForSelector('.mail-section h2', WAIT);
  assert.equal(await page.textContent('.mail-section h2'), 'E-Mail');
  assert.equal(await page.textContent('.account-menu .account-signout'), 'Abmelden');
  await page.evaluate(() => localStorage.setItem('crown.lang', 'en'));
  // The game's page names the seat by its account.
  await page.goto(`${srv.url}${g2.seats[0].url}`);
  await page.waitForSelector('.seat.p0 .seat-account:text("Newcomer")', WAIT);
  await page.click('.account-menu .account-signout');
  await page.waitForSelector('.account-menu .account-signin', WAIT);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  console.log(`# account browser test: ${Date.now() - t0} ms`);
});

test('e-mail on the account page: an address confirmed by its link, a mail asked for', async () => {
  const sink = await startSink();
  const mailer = await startServer({ args: ['--password-cost', 'low', '--smtp', `smtp://127.0.0.1:${sink.port}`, '--smtp-from', 'crown@example.org'] });
  const page = await newPage();
  try {
    await page.goto(`${mailer.url}/login`);
    await page.fill('.login-form input[name=name]', 'Mailreader');
    await page.fill('.login-form input[name=password]', 'a-mail-password');
    await page.click('.login-form .account-create');
    await page.waitForSelector('.mail-form', WAIT);
    assert.equal(await page.isDisabled('#mail-moves'), true); // until the address is confirmed
    await page.fill('.mail-form input[name=address]', 'reader@example.org');
    await page.click('.mail-form button[value=save]');
    await page.waitForFunction(() => /was mailed to reader@example.org/.test(document.querySelector('.mail-form .status').textContent), null, WAIT);
    const verify = (await sink.mail('reader@example.org')).data.match(/(http:\S+\/account\?verify=[0-9a-f]{64})/)[1];
    await page.goto(verify);
    await page.waitForSelector('.mail-landing', WAIT);
    assert.equal(await page.textContent('.mail-landing'), 'Your e-mail address is confirmed.');
    assert.match(await page.textContent('.mail-state'), /Confirmed: reader@example.org/);
    await page.check('#mail-moves');
    await page.click('.mail-notify-form button');
    await page.waitForFunction(() => document.querySelector('.mail-notify-form .status').textContent === 'Saved.', null, WAIT);
    await shoot(page, 'account-mail');
    for (const vp of [WIDE, PHONE]) {
      await page.setViewportSize(vp);
      await audit(page, ['.account-page']);
    }
    await page.setViewportSize(WIDE);
    // Signed out, "forgot your password?" mails a link to the confirmed address.
    await page.click('.account-menu .account-signout');
    await page.waitForSelector('.account-menu .account-signin', WAIT); // signed out, home
    await page.goto(`${mailer.url}/login`);
    await page.fill('.forgot-form input[name=who]', 'Mailreader');
    await page.click('.forgot-form button');
    await page.waitForFunction(() => /a link is on its way/.test(document.querySelector('.forgot-form .status').textContent), null, WAIT);
    const reset = (await sink.mail('reader@example.org', 2)).data.match(/(http:\S+\/login\?reset=[0-9a-f]{64})/)[1];
    await page.goto(reset);
    await page.fill('.reset-form input[name=password]', 'the-new-password');
    await page.click('.reset-form button');
    await page.waitForFunction(() => /Password set/.test(document.querySelector('.reset-form .status').textContent), null, WAIT);
    assert.equal((await api(mailer, 'POST', '/api/login', { body: { name: 'Mailreader', password: 'the-new-password' } })).status, 200);
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
    assert.equal((await mailer.stop()).code, 0);
    sink.stop();
  }
});
