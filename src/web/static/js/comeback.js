// comeback.js - what brings a player back to a game, on its page: the clocks, the tab
// title and sound on his turn, and the links to share. game.js places `el` in its panel
// and hands every state to update().
import { createClocks } from './clockview.js';
import { createNotifier } from './notify.js';
import { createShare } from './share.js';
import { h } from './dom.js';

export function createComeback(id) {
  const clocks = createClocks();
  const notifier = createNotifier();
  const share = createShare(id);
  return {
    clocks: clocks.el,
    el: h('div', { class: 'comeback' }, share.el, notifier.el),
    update(st) {
      clocks.update(st);
      notifier.update(st);
      share.update(st);
    },
  };
}
