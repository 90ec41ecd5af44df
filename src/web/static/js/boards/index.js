// index.js - which drawer draws which game. A game without a drawer is still playable:
// the page then shows the server's text drawing of the board and the legal moves as
// buttons. Adding a game's board is one module with draw(state, marks) -> <svg> whose
// cells carry data-cell="NAME" (the names move_cells gives), and one line here.
import * as kingsvalley from './kingsvalley.js';
import * as kingsguard from './kingsguard.js';
import * as kingscastle from './kingscastle.js';
import * as kingdown from './kingdown.js';
import * as kingofthevalley from './kingofthevalley.js';

const DRAWERS = [
  [/^(kings-valley|retrieve-the-king)/, kingsvalley],
  [/^kings-guard/, kingsguard],
  [/^kings-castle/, kingscastle],
  [/^king-down/, kingdown],
  [/^king-of-the-valley/, kingofthevalley],
];

export function drawerFor(game) {
  for (const [re, mod] of DRAWERS) if (re.test(game)) return mod;
  return null;
}
