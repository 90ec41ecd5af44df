// account.js - accounts in the web app, all optional: the header's account menu (the
// name, a link to the player's ratings and Sign out, or Sign in), the sign-in page at /login (sign in or create an
// account), and the account page at /account: the games this browser holds put in the
// account in one click, the password, signing out everywhere, the account's data as a
// JSON file, and deleting the account. Passkeys' parts of both pages are passkeys.js's.
import * as api from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { myGames } from './mygames.js';
import { passkeySection, passkeySignIn } from './passkeys.js';

function field(label, input) {
  return h('label', { class: 'field' }, h('span', { class: 'name' }, label), input);
}

function passwordInput(name, autocomplete) {
  return h('input', { type: 'password', name, autocomplete, required: true, minlength: 8, maxlength: 128 });
}

// A form whose submit runs act() and shows its outcome (or the server's refusal) in a
// status line of its own.
function form(cls, children, act) {
  const status = h('p', { class: 'status', role: 'status' });
  const f = h('form', { class: `account-form ${cls}` }, ...children, status);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.textContent = '';
    try {
      status.textContent = (await act(new FormData(f), e.submitter)) || '';
    } catch (err) {
      status.textContent = err.message;
    }
  });
  return f;
}

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
    nav.replaceChildren(h('a', { href: '/login', class: 'account-signin' }, 'Sign in'));
    return;
  }
  const out = h('button', { type: 'button', class: 'account-signout' }, 'Sign out');
  out.addEventListener('click', async () => {
    await api.logout().catch(() => {});
    location.assign('/');
  });
  // The player's own ratings (profile.js) beside the account's page.
  nav.replaceChildren(h('a', { href: '/account', class: 'account-name' }, who.name),
    h('a', { href: `/u/${encodeURIComponent(who.name)}`, class: 'account-profile' }, t('account.ratings')), out);
}

export function showLogin(root) {
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]+' });
  const f = form('login-form', [
    field('Name', name),
    field('Password', passwordInput('password', 'current-password')),
    h('div', { class: 'account-buttons' },
      h('button', { type: 'submit', value: 'login' }, 'Sign in'),
      h('button', { type: 'submit', value: 'signup', class: 'account-create' }, 'Create account')),
  ], async (data, submitter) => {
    const create = submitter && submitter.value === 'signup';
    const user = String(data.get('name')), pass = String(data.get('password'));
    await (create ? api.signup(user, pass) : api.login(user, pass));
    location.assign('/account');
    return create ? 'Account created.' : 'Signed in.';
  });
  root.replaceChildren(h('section', { class: 'account-page' },
    h('h1', {}, 'Sign in'),
    h('p', {}, 'An account is optional: it puts your name beside the board, keeps your games on every browser you sign in from, and lets you play rated games. ',
      'A new name has 3 to 20 letters, digits, _ or -; a password at least 8 characters.'),
    f, passkeySignIn()));
  name.focus();
}

function claimSection() {
  const held = myGames();
  const button = h('button', { type: 'submit', disabled: held.length === 0 },
    held.length === 1 ? 'Add this browser\'s game to my account' : `Add this browser's ${held.length} games to my account`);
  return h('section', {}, h('h2', {}, 'Games in this browser'),
    form('claim-form', [
      h('p', {}, held.length ? `This browser holds ${held.length} game${held.length === 1 ? '' : 's'} you play.` : 'This browser holds no games of yours.'),
      button,
    ], async () => {
      const r = await api.claimGames(held.map(({ id, token }) => ({ id, token })));
      return `${r.claimed.length} game${r.claimed.length === 1 ? '' : 's'} added to your account` +
        (r.refused.length ? `; ${r.refused.length} not (${r.refused[0].error})` : '') + '.';
    }));
}

function passwordSection() {
  return h('section', {}, h('h2', {}, 'Password'),
    form('password-form', [
      field('Current password', passwordInput('password', 'current-password')),
      field('New password', passwordInput('new_password', 'new-password')),
      h('button', { type: 'submit' }, 'Change password'),
    ], async (data) => {
      await api.changePassword(String(data.get('password')), String(data.get('new_password')));
      return 'Password changed; your other sessions are signed out.';
    }));
}

function sessionsSection() {
  return h('section', {}, h('h2', {}, 'Sessions and data'),
    form('sessions-form', [
      h('div', { class: 'account-buttons' },
        h('button', { type: 'submit', value: 'export' }, 'Download my data'),
        h('button', { type: 'submit', value: 'everywhere' }, 'Sign out everywhere')),
    ], async (data, submitter) => {
      if (submitter && submitter.value === 'everywhere') {
        await api.logoutAll();
        location.assign('/');
        return 'Signed out everywhere.';
      }
      const mine = await api.exportAccount();
      const url = URL.createObjectURL(new Blob([JSON.stringify(mine, null, 2)], { type: 'application/json' }));
      const a = h('a', { href: url, download: `crown-${mine.name}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      return 'Your data was downloaded.';
    }));
}

function deleteSection() {
  return h('section', {}, h('h2', {}, 'Delete the account'),
    form('delete-form', [
      h('p', {}, 'Your name, password and ratings are erased; your games stay, shown as a deleted player\'s.'),
      field('Password', passwordInput('password', 'current-password')),
      h('button', { type: 'submit', class: 'account-delete' }, 'Delete my account'),
    ], async (data) => {
      await api.deleteAccount(String(data.get('password')));
      location.assign('/');
      return 'Account deleted.';
    }));
}

export async function showAccount(root) {
  const who = await api.me().catch(() => ({ signed_in: false }));
  if (!who.signed_in) {
    location.replace('/login');
    return;
  }
  root.replaceChildren(h('section', { class: 'account-page' },
    h('h1', {}, who.name),
    h('p', {}, h('a', { href: `/u/${encodeURIComponent(who.name)}`, class: 'account-public' }, t('account.public-page'))),
    claimSection(), passwordSection(), passkeySection(), sessionsSection(), deleteSection()));
}
