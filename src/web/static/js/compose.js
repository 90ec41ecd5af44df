// compose.js - a turn of several actions put together on the page before anything is
// sent (King's Guard: pick up a stack, place its pieces one by one, end), so that the
// first click on a stack only selects it. The page still decides nothing: each step is
// played by the server on a copy (POST /api/games/ID/preview), whose observation and
// legal actions the board shows next; the turn goes to the server whole at the end, and
// dropping it (Escape, a click elsewhere) costs nothing.
import * as api from './api.js';

export class Composer {
  constructor(id) {
    this.id = id;
    this.acts = [];
    this.view = null; // the preview after acts: {observation, legal, turn_over}
  }

  get active() { return this.acts.length > 0; }

  clear() {
    this.acts = [];
    this.view = null;
  }

  // Adds one action, once the server has played the ones so far and it on a copy.
  async add(text) {
    const acts = [...this.acts, text];
    const view = await api.preview(this.id, acts.join('; '));
    this.acts = acts;
    this.view = view;
    return view;
  }

  // The whole turn as one text, with a last action (end) if given.
  text(last) {
    return [...this.acts, ...(last ? [last] : [])].join('; ');
  }

  // The state to draw: the server's, with the preview's position and actions.
  shown(state) {
    return this.active ? { ...state, observation: this.view.observation, legal: this.view.legal } : state;
  }
}
