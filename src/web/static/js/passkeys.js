// passkeys.js - passkeys (WebAuthn) in the web app: on the sign-in page, a button that
// signs in with a passkey this device or a phone holds for the site, no name asked; on
// the account page, the account's passkeys listed, named and removed, and a new one
// added. The server gives the options and checks the answers (docs/API.md, "Passkeys");
// here they are only carried between it and navigator.credentials, binary values as
// base64url on the wire.
import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

function fromB64(text) {
  const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

function toB64(buffer) {
  let s = '';
  for (const byte of new Uint8Array(buffer)) s += String.fromCharCode(byte);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function passkeysSupported() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

// The words for a failure: the browser's refusal (cancelled, timed out, not allowed
// here) in the page's language, else the server's explanation.
function failure(err) {
  if (err && err.name === 'NotAllowedError') return t('passkey.cancelled');
  if (err && err.name === 'InvalidStateError') return t('passkey.already');
  if (err && err.name === 'SecurityError') return t('passkey.insecure');
  return err && err.message ? err.message : String(err);
}

// Signs in with a passkey; resolves to the account's name.
async function signIn() {
  const o = await api.passkeyLoginOptions();
  const cred = await navigator.credentials.get({
    publicKey: { challenge: fromB64(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification },
  });
  const r = cred.response;
  const who = await api.passkeyLogin({
    id: cred.id,
    client_data: toB64(r.clientDataJSON),
    authenticator_data: toB64(r.authenticatorData),
    signature: toB64(r.signature),
  });
  return who.name;
}

// The sign-in page's part: a button and its status line.
export function passkeySignIn() {
  const status = h('p', { class: 'status', role: 'status' });
  const button = h('button', { type: 'button', class: 'passkey-signin' }, t('passkey.sign-in'));
  button.addEventListener('click', async () => {
    if (!passkeysSupported()) {
      status.textContent = t('passkey.unsupported');
      return;
    }
    status.textContent = t('passkey.waiting');
    button.disabled = true;
    try {
      await signIn();
      status.textContent = t('passkey.signed-in');
      location.assign('/account');
    } catch (err) {
      status.textContent = failure(err);
    } finally {
      button.disabled = false;
    }
  });
  return h('section', { class: 'passkey-login' },
    h('h2', {}, t('passkey.title')),
    h('p', {}, t('passkey.sign-in-help')),
    button, status);
}

// Makes a passkey for the signed-in account, called `name`.
async function register(name) {
  const o = await api.passkeyRegisterOptions();
  const publicKey = {
    ...o,
    challenge: fromB64(o.challenge),
    user: { ...o.user, id: fromB64(o.user.id) },
    excludeCredentials: o.excludeCredentials.map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const cred = await navigator.credentials.create({ publicKey });
  await api.passkeyRegister({
    name,
    client_data: toB64(cred.response.clientDataJSON),
    attestation_object: toB64(cred.response.attestationObject),
  });
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || undefined);
}

// One passkey: its name to change, when it was made and last used, and its removal.
function passkeyItem(p, status, redraw) {
  const name = h('input', { type: 'text', name: 'name', value: p.name, required: true, maxlength: 40, 'aria-label': t('passkey.name-of', { name: p.name }) });
  const rename = h('button', { type: 'submit' }, t('passkey.rename'));
  const remove = h('button', { type: 'button', class: 'account-delete' }, t('passkey.remove'));
  const f = h('form', { class: 'passkey-item' },
    name, rename, remove,
    h('span', { class: 'passkey-dates' }, p.last_used
      ? t('passkey.dates-used', { created: when(p.created), used: when(p.last_used) })
      : t('passkey.dates', { created: when(p.created) })));
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api.passkeyRename(p.id, name.value);
      status.textContent = t('passkey.renamed');
    } catch (err) {
      status.textContent = failure(err);
    }
  });
  remove.addEventListener('click', async () => {
    try {
      await api.passkeyDelete(p.id);
      status.textContent = t('passkey.removed', { name: p.name });
      await redraw();
    } catch (err) {
      status.textContent = failure(err);
    }
  });
  return h('li', {}, f);
}

// The account page's section.
export function passkeySection() {
  const status = h('p', { class: 'status', role: 'status' });
  const list = h('ul', { class: 'passkey-list' });
  const redraw = async () => {
    try {
      const { passkeys } = await api.passkeys();
      list.replaceChildren(...(passkeys.length ? passkeys.map((p) => passkeyItem(p, status, redraw))
        : [h('li', { class: 'passkey-none' }, t('passkey.none'))]));
    } catch (err) {
      status.textContent = failure(err);
    }
  };
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 40, value: t('passkey.default-name') });
  const add = h('form', { class: 'account-form passkey-add' },
    h('label', { class: 'field' }, h('span', { class: 'name' }, t('passkey.new-name')), name),
    h('button', { type: 'submit' }, t('passkey.add')));
  add.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!passkeysSupported()) {
      status.textContent = t('passkey.unsupported');
      return;
    }
    status.textContent = t('passkey.waiting');
    try {
      await register(name.value);
      status.textContent = t('passkey.added');
      await redraw();
    } catch (err) {
      status.textContent = failure(err);
    }
  });
  redraw();
  return h('section', { class: 'passkeys' },
    h('h2', {}, t('passkey.title')),
    h('p', {}, t('passkey.about')),
    list, add, status);
}
