// account.js - accounts in the web app, all optional: the header's account menu (the
// name, a link to the player's ratings and Sign out, or Sign in), the sign-in page at
// /login (sign in or create an account, or reset a forgotten password by mail), and the
// account page at /account: the e-mail address and the mails asked for, the games this browser holds put in the
// account in one click, the password, signing out everywhere, the account's data as a
// JSON file, and deleting the account. Passkeys' parts of both pages are passkeys.js's;
// a mail's links land here too (accountmail.js).
import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { myGames } from './mygames.js';
import { accountForm as form, field, passwordInput } from './accountform.js';
import { emailSection, forgotSection, linkToken, mailLanding, resetSection } from './accountmail.js';
import { passkeySection, passkeySignIn } from './passkeys.js';

// The header: who is signed in, or a way to sign in.
export async function showAccountMenu(nav) {
  let who = { signed_in: false };
  try {
    who = await api.me();
  } catch {
    // No answer: the menu stays empty, play goes on without it.
    return;
  }
  if (!who.signed_in) {
    nav.replaceChildren(h('a', { href: '/login', class: 'account-signin' }, t('account.sign-in')));
    return;
  }
  const out = h('button', { type: 'button', class: 'account-signout' }, t('account.sign-out'));
  out.addEventListener('click', async () => {
    await api.logout().catch(() => {});
    location.assign('/');
  });
  // The player's own ratings (profile.js) beside the account's page.
  nav.replaceChildren(h('a', { href: '/account', class: 'account-name' }, who.name),
    h('a', { href: `/u/${encodeURIComponent(who.name)}`, class: 'account-profile' }, t('account.ratings')), out);
}

export function showLogin(root) {
  const reset = linkToken('reset');
  if (reset) {
    root.replaceChildren(h('section', { class: 'account-page' }, h('h1', {}, t('account.sign-in')),
      resetSection(reset), h('p', {}, h('a', { href: '/login' }, t('account.to-sign-in')))));
    return;
  }
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]+' });
  const f = form('login-form', [
    field(t('account.name'), name),
    field(t('account.password'), passwordInput('password', 'current-password')),
    h('div', { class: 'account-buttons' },
      h('button', { type: 'submit', value: 'login' }, t('account.sign-in')),
      h('button', { type: 'submit', value: 'signup', class: 'account-create' }, t('account.create'))),
  ], async (data, submitter) => {
    const create = submitter && submitter.value === 'signup';
    const user = String(data.get('name')), pass = String(data.get('password'));
    await (create ? api.signup(user, pass) : api.login(user, pass));
    location.assign('/account');
    return t(create ? 'account.created' : 'account.signed-in');
  });
  root.replaceChildren(h('section', { class: 'account-page' },
    h('h1', {}, t('account.sign-in')),
    h('p', {}, t('account.why'), ' ', t('account.rules')),
    f, forgotSection(), passkeySignIn()));
  name.focus();
}

function claimSection() {
  const held = myGames();
  const button = h('button', { type: 'submit', disabled: held.length === 0 }, t('account.claim', { count: held.length }));
  return h('section', {}, h('h2', {}, t('account.games')),
    form('claim-form', [
      h('p', {}, held.length ? t('account.held', { count: held.length }) : t('account.held-none')),
      button,
    ], async () => {
      const r = await api.claimGames(held.map(({ id, token }) => ({ id, token })));
      return r.refused.length
        ? t('account.claimed-some', { count: r.claimed.length, refused: r.refused.length, why: r.refused[0].error })
        : t('account.claimed', { count: r.claimed.length });
    }));
}

function passwordSection() {
  return h('section', {}, h('h2', {}, t('account.password')),
    form('password-form', [
      field(t('account.current-password'), passwordInput('password', 'current-password')),
      field(t('account.new-password'), passwordInput('new_password', 'new-password')),
      h('button', { type: 'submit' }, t('account.change-password')),
    ], async (data) => {
      await api.changePassword(String(data.get('password')), String(data.get('new_password')));
      return t('account.password-changed');
    }));
}

function sessionsSection() {
  return h('section', {}, h('h2', {}, t('account.sessions')),
    form('sessions-form', [
      h('div', { class: 'account-buttons' },
        h('button', { type: 'submit', value: 'export' }, t('account.export')),
        h('button', { type: 'submit', value: 'everywhere' }, t('account.everywhere'))),
    ], async (data, submitter) => {
      if (submitter && submitter.value === 'everywhere') {
        await api.logoutAll();
        location.assign('/');
        return t('account.signed-out-everywhere');
      }
      const mine = await api.exportAccount();
      const url = URL.createObjectURL(new Blob([JSON.stringify(mine, null, 2)], { type: 'application/json' }));
      const a = h('a', { href: url, download: `crown-${mine.name}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      return t('account.exported');
    }));
}

function deleteSection() {
  return h('section', {}, h('h2', {}, t('account.delete-title')),
    form('delete-form', [
      h('p', {}, t('account.delete-help')),
      field(t('account.password'), passwordInput('password', 'current-password')),
      h('button', { type: 'submit', class: 'account-delete' }, t('account.delete')),
    ], async (data) => {
      await api.deleteAccount(String(data.get('password')));
      location.assign('/');
      return t('account.deleted');
    }));
}

export async function showAccount(root) {
  // A mail's link works in any browser, signed in or not: its outcome first.
  const landing = await mailLanding();
  const who = await api.me().catch(() => ({ signed_in: false }));
  if (!who.signed_in) {
    if (landing) root.replaceChildren(h('section', { class: 'account-page' }, h('h1', {}, t('mail.title')), landing));
    else location.replace('/login');
    return;
  }
  root.replaceChildren(h('section', { class: 'account-page' },
    h('h1', {}, who.name), landing,
    h('p', {}, h('a', { href: `/u/${encodeURIComponent(who.name)}`, class: 'account-public' }, t('account.public-page'))),
    await emailSection(), claimSection(), passwordSection(), passkeySection(), sessionsSection(), deleteSection()));
}
