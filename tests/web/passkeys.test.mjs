// passkeys.test.mjs - passkeys in headless Chromium with its virtual authenticator
// (the DevTools protocol's WebAuthn domain: an internal CTAP2 authenticator holding
// discoverable credentials and verifying its user): an account made at /login adds a
// passkey on /account, names it, signs out, and signs in again with the passkey alone;
// then removes it. The pages served as http://localhost:PORT, since WebAuthn takes a
// name, not an address, for the site. Screenshots and axe-core audits of the sign-in
// and account pages with their passkey parts at 1280 and 390 px, no sideways scroll.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, openPage } from './browser.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 15000 };
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let browser;
let base;

browserSuite({
  before, after, shots: SHOTS, args: ['--password-cost', 'low'],
  ready(s) {
    ({ srv, browser } = s);
    base = `http://localhost:${new URL(srv.url).port}`;
  },
});

// Both sizes: a screenshot, no sideways scroll at the phone's, and the audit.
async function check(page, name) {
  for (const [size, vp] of [['1280', WIDE], ['390', PHONE]]) {
    await page.setViewportSize(vp);
    await page.screenshot({ path: join(SHOTS, `passkeys-${name}-${size}.png`), fullPage: true });
    await assertAccessible(page, `the ${name} page at ${size} px`);
    if (size === '390') {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `the ${name} page is ${wide} px wide at 390`);
    }
  }
  await page.setViewportSize(WIDE);
}

test('a passkey added on /account signs in alone after signing out, then is removed', async () => {
  const context = await browser.newContext({ viewport: WIDE });
  const page = await openPage(context);
  const errors = page.errors;
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true,
    },
  });
  try {
    // An account, made as a new player makes it.
    await page.goto(`${base}/login`);
    await page.waitForSelector('.login-form', WAIT);
    await page.fill('.login-form input[name=name]', 'Keyholder');
    await page.fill('.login-form input[name=password]', 'a-first-password');
    await page.click('.login-form .account-create');
    await page.waitForURL(/\/account$/, WAIT);
    await page.waitForSelector('.passkeys .passkey-none', WAIT);
    // A passkey added under a name of the player's choosing.
    await page.fill('.passkey-add input[name=name]', 'Work laptop');
    await page.click('.passkey-add button[type=submit]');
    await page.waitForSelector('.passkey-item input[value="Work laptop"]', WAIT);
    assert.equal(await page.textContent('.passkeys .status'), 'Passkey added.');
    const held = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    assert.equal(held.length, 1);
    assert.equal(held[0].isResidentCredential, true);
    // Renamed in place.
    await page.fill('.passkey-item input[name=name]', 'Laptop');
    await page.click('.passkey-item button[type=submit]');
    await page.waitForSelector('.passkeys .status:text("Passkey renamed.")', WAIT);
    await check(page, 'account');
    // Signed out; signed in again with the passkey: no name, no password.
    await page.click('.account-menu .account-signout');
    await page.waitForSelector('.account-menu .account-signin', WAIT);
    await page.goto(`${base}/login`);
    await page.waitForSelector('.passkey-login .passkey-signin', WAIT);
    await check(page, 'login');
    await page.click('.passkey-login .passkey-signin');
    await page.waitForURL(/\/account$/, WAIT);
    await page.waitForSelector('.account-menu .account-name', WAIT);
    assert.equal(await page.textContent('.account-menu .account-name'), 'Keyholder');
    await page.waitForSelector('.passkey-item .passkey-dates:text("last used")', WAIT);
    const after = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    assert.ok(after[0].signCount > held[0].signCount, 'the counter went up');
    // Removed: the list says so, and the passkey signs nobody in any more.
    await page.click('.passkey-item .account-delete');
    await page.waitForSelector('.passkeys .passkey-none', WAIT);
    assert.match(await page.textContent('.passkeys .status'), /Passkey Laptop removed\./);
    await page.click('.account-menu .account-signout');
    await page.waitForSelector('.account-menu .account-signin', WAIT);
    await page.goto(`${base}/login`);
    await page.click('.passkey-login .passkey-signin', WAIT);
    await page.waitForSelector('.passkey-login .status:text("belongs to no account")', WAIT);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
