// slowloris.test.mjs - clients that open connections and never finish them cannot lock
// others out (issue 29, item 1): an address (and an IPv6 /64) may have only
// --heads-per-ip connections waiting for a request head, a head must be in within
// --head-timeout of the accept however slowly it trickles, and a request body must come
// at a minimum rate. At the scale of seconds: the full-scale attack is
// bench/slowloris.mjs (docs/DEPLOY.md has its figures).
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { request, withServer } from './server.mjs';

const ATTACKER = '127.0.0.2';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Opens a connection from `from` that writes `bytes` and then nothing; resolves to
// { closed(), closedAt, sock } once connected.
function holdOpen(srv, from, bytes) {
  const u = new URL(srv.url);
  return new Promise((resolve) => {
    const held = { closedAt: null, closed: () => held.closedAt !== null };
    const sock = net.connect({ port: Number(u.port), host: u.hostname, localAddress: from }, () => {
      sock.write(bytes);
      resolve(held);
    });
    held.sock = sock;
    sock.on('data', () => {});
    sock.on('error', () => {});
    sock.on('close', () => { held.closedAt = Date.now(); });
  });
}

async function until(pred, what, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (pred()) return;
    await sleep(25);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('slow clients', () => {
  test('unfinished heads: a few per address, each for --head-timeout; others are answered', async () => {
    await withServer(['--head-timeout', '2', '--heads-per-ip', '4'], async (srv) => {
      const start = Date.now();
      const held = [];
      for (let i = 0; i < 40; i++) held.push(await holdOpen(srv, ATTACKER, 'GET /api/games HTTP/1.1\r\nHost: '));
      // Beyond the four the gate may hold for that address, each is closed at once.
      await until(() => held.filter((h) => h.closed()).length >= 36, 'the heads beyond the cap to be closed', 3000);
      assert.ok(held.filter((h) => !h.closed()).length <= 4);
      // Meanwhile everyone else is answered at once.
      const t0 = Date.now();
      const r = await request(srv, 'GET', '/api/games');
      assert.equal(r.status, 200);
      assert.ok(Date.now() - t0 < 1500, `an honest request took ${Date.now() - t0} ms`);
      // And the held ones go when their time is up, however long the server runs.
      await until(() => held.every((h) => h.closed()), 'every unfinished head to be closed', 6000);
      const last = Math.max(...held.map((h) => h.closedAt)) - start;
      assert.ok(last < 4500, `the last unfinished head was closed after ${last} ms`);
    });
  });

  test('a head trickled byte by byte is cut at --head-timeout; a slow but whole one is answered', async () => {
    await withServer(['--head-timeout', '2'], async (srv) => {
      const trickle = await holdOpen(srv, ATTACKER, 'G');
      const start = Date.now();
      const text = 'ET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ' + 'a'.repeat(200);
      let i = 0;
      const timer = setInterval(() => { if (!trickle.closed() && i < text.length) trickle.sock.write(text[i++]); }, 100);
      await until(() => trickle.closed(), 'the trickled head to be cut', 6000);
      clearInterval(timer);
      const after = Date.now() - start;
      assert.ok(after >= 1500 && after < 4000, `cut after ${after} ms`);
      // A head in three pieces within the time is answered as usual.
      const u = new URL(srv.url);
      const answer = await new Promise((resolve) => {
        let out = '';
        const sock = net.connect(Number(u.port), u.hostname, async () => {
          for (const part of ['GET /api/ga', 'mes HTTP/1.1\r\nHost: 127.0.0.1', '\r\n\r\n']) {
            sock.write(part);
            await sleep(200);
          }
        });
        sock.setEncoding('latin1');
        sock.on('data', (d) => { out += d; });
        sock.on('close', () => resolve(out));
        sock.on('error', () => resolve(out));
      });
      assert.match(answer, /^HTTP\/1\.1 200 /);
    });
  });

  test('a request body must keep coming: a trickled one is cut off', async () => {
    await withServer(['--head-timeout', '1'], async (srv) => {
      const body = JSON.stringify({ game: 'kings-valley', pad: 'x'.repeat(300) });
      const head = `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const slow = await holdOpen(srv, ATTACKER, head);
      const start = Date.now();
      let i = 0;
      const timer = setInterval(() => { if (!slow.closed() && i < body.length) slow.sock.write(body[i++]); }, 200);
      await until(() => slow.closed(), 'the trickled body to be cut off', 8000);
      clearInterval(timer);
      const after = Date.now() - start;
      assert.ok(i < body.length, 'the body was not all sent');
      assert.ok(after < 4000, `cut after ${after} ms`);
    });
  });
});
