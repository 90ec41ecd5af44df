// accountform.js - the parts the account pages' forms are made of (account.js,
// accountmail.js): a labelled field, a password input, and a form whose submit runs an
// action and shows its outcome, or the server's refusal, in a status line of its own.
import { h } from './dom.js';

export function field(label, input) {
  return h('label', { class: 'field' }, h('span', { class: 'name' }, label), input);
}

export function passwordInput(name, autocomplete) {
  return h('input', { type: 'password', name, autocomplete, required: true, minlength: 8, maxlength: 128 });
}

export function accountForm(cls, children, act) {
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
