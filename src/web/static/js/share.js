// share.js - a game's links to hand out, with copy buttons: the spectator link, and the
// seat links this browser created (kept in localStorage by the new-game form) for the
// other people's seats. They name the address other machines reach (GET /api/info:
// --public-url, or the machine's address when crown serve listens on every address).
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';

let base = null;
async function baseUrl() {
  if (base === null) {
    try {
      const r = await fetch('/api/info');
      base = r.ok ? (await r.json()).url : location.origin;
    } catch {
      base = location.origin;
    }
  }
  return base;
}

async function copy(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    ok = false;
  }
  button.textContent = t(ok ? 'share.copied' : 'share.select');
  setTimeout(() => { button.textContent = t('share.copy'); }, 1500);
}

// `name` says the link in the copy button's label ("Copy the spectator link").
function linkRow(label, name, url, key) {
  const input = h('input', { class: 'share-url', id: `share-${key}`, readonly: true, value: url, onclick: (e) => e.target.select() });
  const button = h('button', { type: 'button', class: 'copy', 'data-copy': key, 'aria-label': t('share.copy-label', { link: name }) }, t('share.copy'));
  button.addEventListener('click', () => { input.select(); copy(url, button); });
  return h('div', { class: 'share-row' }, h('label', { for: `share-${key}` }, label), h('div', { class: 'share-line' }, input, button));
}

export function createShare(id) {
  const el = h('div', { id: 'share', class: 'share' });
  let shown = '';

  async function update(st) {
    let links = null;
    try { links = JSON.parse(localStorage.getItem(`crown.links.${id}`) || 'null'); } catch { links = null; }
    const others = st.seats.filter((s) => !s.ai && s.seat !== st.you && links && links[s.seat]);
    const key = `${others.map((s) => s.seat).join(',')}|${st.status}|${(st.open_seats || []).join(',')}`;
    if (key === shown) return;
    shown = key;
    const root = await baseUrl();
    const rows = others.filter(() => st.status === 'playing').map((s) => {
      const label = t((st.open_seats || []).includes(s.seat) ? 'share.invite-open' : 'share.invite', { seat: seatWords(s.seat) });
      return linkRow(label, label, root + links[s.seat], `seat-${s.seat}`);
    });
    rows.push(linkRow(t('share.watch'), t('share.watch-link'), `${root}/g/${id}`, 'watch'));
    el.replaceChildren(h('h2', {}, t('share.share')), ...rows);
  }

  return { el, update };
}
