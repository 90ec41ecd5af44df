// lab.test.mjs - the Lab page in headless Chromium against a real `crown serve --lab DIR`:
// a tiny study of random players set up in the form, its progress shown until it is
// done, and its report opened from the list of studies; the page is audited with
// axe-core at 1280 and 390 px (a server without --lab is the API tests' to check). A
// study set up while another runs shows as queued with its place, is removed by its
// Remove button, and a refusal past the address's limit shows the server's words.
// Every wait is on a condition of the page; none is a sleep.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { launch, openPage } from './browser.mjs';
import { api, tempDir, withServer } from './server.mjs';

const WAIT = { timeout: 15000 };

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

test('a study set up, watched and its report opened from the Lab page', async () => {
  await withServer(['--lab', join(tempDir('crown-lab-'), 'lab')], async (srv) => {
    const page = await openPage(browser);
    const errors = page.errors;
    await page.goto(`${srv.url}/`);
    // The header links to the Lab on a server that runs it (home.test.mjs: not otherwise).
    await page.waitForSelector('a.lab-link', { state: 'visible', ...WAIT });
    await page.click('a.lab-link');
    await page.waitForURL(`${srv.url}/lab`, WAIT);
    await page.selectOption('#lab-game', 'kings-valley-7x7');
    assert.equal(await page.inputValue('#lab-players'), 'random,random');
    await page.fill('#lab-compare', 'trap=off');
    await page.fill('#lab-games', '3');
    await page.click('#lab-run');
    await page.waitForSelector('.lab-status:has-text("started")', WAIT);
    const row = page.locator('tr.lab-study').first();
    await row.locator('a.lab-report').waitFor(WAIT);
    assert.match(await row.textContent(), /kings-valley-7x7.*random,random.*baseline \| trap=off/);
    await page.waitForSelector('.lab-status:has-text("done")', WAIT);
    // The page with its list of studies, audited at both sizes.
    await assertAccessible(page, 'the Lab page at 1280 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await assertAccessible(page, 'the Lab page at 390 px');
    await page.setViewportSize({ width: 1280, height: 800 });
    const [report] = await Promise.all([page.waitForEvent('popup', WAIT), row.locator('a.lab-report').click()]);
    await report.waitForLoadState();
    // The served report names its game as the pages do (the file on disk keeps the id).
    assert.match(await report.textContent('h1'), /King's Valley 7x7/);
    assert.deepEqual(errors, []);
  });
});

test('a study queued behind another shows its place, is removed, and a 429 is explained', async () => {
  await withServer(['--lab', join(tempDir('crown-lab-'), 'lab')], async (srv) => {
    // A long study of King Down at ai:4, whose moves are quick, started beside the page.
    const long = await api(srv, 'POST', '/api/lab', { body: { game: 'king-down', players: 'ai:4,ai:4', games: 200, seed: 1 } });
    assert.equal(long.status, 201, JSON.stringify(long.body));
    const page = await openPage(browser);
    const errors = page.errors;
    await page.goto(`${srv.url}/lab`);
    await page.fill('#lab-games', '2');
    await page.click('#lab-run');
    await page.waitForSelector('.lab-status:has-text("queued: place 1")', WAIT);
    const row = page.locator('tr.lab-study.lab-queued');
    await row.waitFor(WAIT);
    assert.match(await row.locator('.lab-state').textContent(), /queued, place 1/);
    await assertAccessible(page, 'the Lab page with a study queued');
    // This address now has two studies: a third is refused, in the server's words.
    await page.click('#lab-run');
    await page.waitForSelector('.lab-status:has-text("2 studies running or queued")', WAIT);
    await row.locator('button.lab-stop').click();
    await page.waitForSelector('.lab-status:has-text("left the queue")', WAIT);
    await page.waitForSelector('tr.lab-study.lab-queued', { state: 'detached', ...WAIT });
    const stop = await api(srv, 'POST', `/api/lab/${long.body.id}/stop`, { body: { token: long.body.owner_token } });
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    assert.deepEqual(errors, []);
  });
});
