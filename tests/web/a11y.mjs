// a11y.mjs - the accessibility audit of the browser tests: runs axe-core (npm, the
// version of package-lock.json) in a page and fails on its serious or critical
// violations, each named with the rule, what it asks and the elements at fault, so that
// a failure says what to fix. Use: await assertAccessible(page, 'the new-game form').
// axe is evaluated through the DevTools protocol rather than added as a <script>, which
// the server's Content-Security-Policy (no inline scripts) would rightly refuse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BLOCKING = new Set(['serious', 'critical']);

// The serious and critical violations on the page as it is now: [{id, impact, help,
// targets}], for tests that want to look at them themselves.
export async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => BLOCKING.has(v.impact));
}

export async function assertAccessible(page, what) {
  const bad = await violations(page);
  const lines = bad.map((v) => `  ${v.impact} ${v.id}: ${v.help} (at ${v.targets.join(', ')})`);
  assert.equal(bad.length, 0, `accessibility of ${what}:\n${lines.join('\n')}`);
}
