// index.js - which drawer draws which game, by the game's family (its GameOps record,
// through catalog.js), so that a game's variants share their drawer. A game without a
// drawer is still playable: the page then shows the server's text drawing of the board
// and the legal moves as buttons. Adding a game's board is one module with
// draw(state, marks) -> <svg> whose cells carry data-cell="NAME" (the names move_cells
// gives), and one line here.
import { gameInfo } from '../catalog.js';
import * as kingsvalley from './kingsvalley.js';
import * as kingsguard from './kingsguard.js';
import * as kingscastle from './kingscastle.js';
import * as kingdown from './kingdown.js';
import * as kingofthevalley from './kingofthevalley.js';

const DRAWERS = {
  'kings-valley': kingsvalley,
  'kings-guard': kingsguard,
  'kings-castle': kingscastle,
  'king-down': kingdown,
  'king-of-the-valley': kingofthevalley,
};

export function drawerFor(game) {
  const info = gameInfo(game);
  return (info && DRAWERS[info.family]) || null;
}
