// smtp.mjs - a local SMTP server for the tests that read mail (mail.test.mjs,
// comeback.test.mjs): smtp-sink.py under Debian's python3 (with python3-aiosmtpd),
// its messages collected as they come, and a wait for the n-th one to an address.
import { spawn } from 'node:child_process';

// Debian's python3, where python3-aiosmtpd is (a python3 earlier in PATH may lack it).
const PYTHON = process.env.CROWN_TEST_PYTHON || '/usr/bin/python3';

// Resolves to { port, mails: [{ from, to, data }], mail(to, n), stop() } once it listens;
// it refuses its first `refuse` messages with a temporary error.
export function startSink(refuse = 0) {
  return new Promise((resolve, reject) => {
    const proc = spawn(PYTHON, [new URL('./smtp-sink.py', import.meta.url).pathname, String(refuse)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const sink = {
      proc, mails: [], port: 0, err: '',
      // The mails to `to` so far.
      to: (to) => sink.mails.filter((m) => m.to.includes(to)),
      // The n-th mail to `to` (1-based), waited for up to timeoutMs.
      async mail(to, n = 1, timeoutMs = 15000) {
        const end = Date.now() + timeoutMs;
        while (Date.now() < end) {
          const got = sink.to(to);
          if (got.length >= n) return got[n - 1];
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no mail ${n} to ${to}; received: ${JSON.stringify(sink.mails.map((m) => m.to))}`);
      },
      // Its standard input closed: it stops.
      stop() { proc.removeAllListeners('exit'); proc.stdin.end(); },
    };
    let buf = '';
    proc.stderr.on('data', (d) => { sink.err += d; });
    proc.stdout.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('port ')) { sink.port = Number(line.slice(5)); resolve(sink); } else if (line) sink.mails.push(JSON.parse(line));
      }
    });
    proc.on('exit', (code) => reject(new Error(`the SMTP sink exited (${code}): ${sink.err}`)));
  });
}
