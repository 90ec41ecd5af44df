// import.js - the page at /import: a crown game record (core/record.h's text, as the
// review's "Download the record" or `crown play`'s save writes it), pasted or read from
// a file, becomes a game on the server to review. The server stays the referee: it reads
// the record whole (POST /api/import), chance draws included, and either makes the game,
// every seat a person's, or says which line is wrong and makes nothing; then the page
// opens the review.
import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

async function importRecord(text) {
  const made = await api.importRecord(text);
  localStorage.setItem(`crown.links.${made.id}`, JSON.stringify(made.seats.map((s) => s.url)));
  return made;
}

export function showImport(root) {
  const text = h('textarea', { id: 'import-text', rows: 12, spellcheck: false, 'aria-describedby': 'import-help' });
  const file = h('input', { id: 'import-file', type: 'file', accept: '.txt,.crown,text/plain' });
  const go = h('button', { id: 'import-go', type: 'submit' }, t('import.go'));
  const message = h('p', { id: 'import-message', class: 'message', role: 'alert' });
  const form = h('form', { id: 'import', class: 'new-game import' },
    h('label', { for: 'import-text' }, t('import.paste')), text,
    h('p', { id: 'import-help', class: 'help' }, t('import.help')),
    h('label', { for: 'import-file' }, `${t('import.file')} `), file,
    h('p', {}, go), message);
  root.replaceChildren(h('section', { class: 'intro' }, h('h1', {}, t('import.title'))), form);

  file.addEventListener('change', async () => {
    if (file.files.length) text.value = await file.files[0].text();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.textContent = '';
    go.disabled = true;
    try {
      const made = await importRecord(text.value);
      location.assign(`${made.seats[0].url}&review`);
    } catch (err) {
      message.textContent = err.message;
      go.disabled = false;
    }
  });
}
