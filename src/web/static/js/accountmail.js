// accountmail.js - e-mail on the account pages (docs/API.md, "E-mail"): the address and
// the mails asked for on /account; a mail's links landing on /account?verify=T,
// /account?unsubscribe=T and /login?reset=T, which work signed in or not; and "forgot
// your password?" on /login. account.js places these; a server without --smtp says so.
import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { accountForm, field, passwordInput } from './accountform.js';

const KINDS = ['moves', 'challenges', 'timeouts'];

// The token a mail's link brought, for `what` ("verify", "unsubscribe", "reset"), taken
// out of the address bar so a reload or a shared screen does not show it again.
export function linkToken(what) {
  const token = new URLSearchParams(location.search).get(what);
  if (!token) return null;
  history.replaceState(null, '', location.pathname);
  return token;
}

// /account?verify=T or ?unsubscribe=T: the link's outcome, signed in or not; null when
// the page was opened without one.
export async function mailLanding() {
  const verify = linkToken('verify');
  const unsubscribe = verify ? null : linkToken('unsubscribe');
  if (!verify && !unsubscribe) return null;
  let text;
  try {
    await (verify ? api.verifyEmail(verify) : api.unsubscribe(unsubscribe));
    text = t(verify ? 'mail.verified' : 'mail.unsubscribed');
  } catch (e) {
    text = e.message;
  }
  return h('p', { class: 'mail-landing', role: 'status' }, text);
}

function addressState(s) {
  if (!s.address) return t('mail.none');
  return s.verified ? t('mail.confirmed', { address: s.address }) : t('mail.waiting', { address: s.address });
}

// The account page's e-mail section: the address, and the mails asked for once it is
// confirmed.
export async function emailSection() {
  const section = h('section', { class: 'mail-section' }, h('h2', {}, t('mail.title')));
  let s;
  try {
    s = await api.emailSettings();
  } catch (e) {
    section.append(h('p', {}, e.message));
    return section;
  }
  if (!s.mail) {
    section.append(h('p', { class: 'mail-off' }, t('mail.off')));
    return section;
  }
  const state = h('p', { class: 'mail-state' }, addressState(s));
  const address = h('input', { type: 'email', name: 'address', autocomplete: 'email', required: true, maxlength: 254, value: s.address || '' });
  const boxes = KINDS.map((k) => {
    const box = h('input', { type: 'checkbox', name: k, id: `mail-${k}` });
    box.checked = s.notify[k];
    box.disabled = !s.verified;
    return box;
  });
  const show = (next) => {
    s = next;
    state.textContent = addressState(s);
    boxes.forEach((b, i) => { b.checked = s.notify[KINDS[i]]; b.disabled = !s.verified; });
  };
  const addressForm = accountForm('mail-form', [
    state,
    field(t('mail.address'), address),
    h('div', { class: 'account-buttons' },
      h('button', { type: 'submit', value: 'save' }, t('mail.save')),
      h('button', { type: 'submit', value: 'remove', formnovalidate: true }, t('mail.remove'))),
  ], async (data, submitter) => {
    if (submitter && submitter.value === 'remove') {
      show(await api.removeEmail());
      address.value = '';
      return t('mail.removed');
    }
    show(await api.setEmail(String(data.get('address'))));
    // The confirmed address saved again stays as it was: no link was mailed.
    return s.verified ? t('mail.notify-saved') : t('mail.sent', { address: s.address });
  });
  const notifyForm = accountForm('mail-notify-form', [
    h('fieldset', {}, h('legend', {}, t('mail.notify')),
      ...boxes.map((b, i) => h('label', { class: 'mail-kind', for: b.id }, b, ` ${t(`mail.kind.${KINDS[i]}`)}`))),
    h('button', { type: 'submit' }, t('mail.notify-save')),
  ], async () => {
    show(await api.setMailNotify(Object.fromEntries(KINDS.map((k, i) => [k, boxes[i].checked]))));
    return t('mail.notify-saved');
  });
  section.append(addressForm, notifyForm);
  return section;
}

// /login's "forgot your password?": the same words whether the name is known or not.
export function forgotSection() {
  const who = h('input', { type: 'text', name: 'who', autocomplete: 'username', required: true, maxlength: 254 });
  return h('section', { class: 'forgot' }, h('h2', {}, t('mail.forgot')),
    accountForm('forgot-form', [
      h('p', {}, t('mail.forgot-help')),
      field(t('mail.forgot-who'), who),
      h('button', { type: 'submit' }, t('mail.forgot-send')),
    ], async (data) => {
      await api.forgotPassword(String(data.get('who')));
      return t('mail.forgot-sent');
    }));
}

// /login?reset=T: a new password for the account the link was mailed for.
export function resetSection(token) {
  return h('section', { class: 'reset' }, h('h2', {}, t('mail.reset')),
    accountForm('reset-form', [
      field(t('mail.reset-password'), passwordInput('password', 'new-password')),
      h('button', { type: 'submit' }, t('mail.reset-save')),
    ], async (data) => {
      await api.resetPassword(token, String(data.get('password')));
      return t('mail.reset-done');
    }));
}
