// learn-pages.js - the rules of every game in the project's own words (paraphrased from
// docs/games/*.md and their Rulings, never the rulebooks' text), as data for learn.js:
// sections of paragraphs (an `army` section is one of King Down's armies) with small
// live boards (a position, the piece whose moves they highlight, `only` to keep one
// power's moves, and the game when it is another than the page's), and the tutorials'
// guided positions. The games' names are words.js's. Every board is read by the server
// (POST /api/observe), so a position here that a game stops accepting shows as an error
// on its page and fails the browser tests.

const KV_START = 'sskss/5/5/5/SSKSS 1 0';

const KV_COMMON = [
  {
    h: 'The goal',
    p: ['Two players each have a king and a row of soldiers. The square in the middle of the board is the Valley. The first player whose king stops on the Valley wins.',
      'There is no capturing: pieces only block each other.'],
  },
  {
    h: 'Every move slides as far as it can',
    p: ['Pick one of your pieces, king or soldier, and a direction: straight or diagonal, eight in all. The piece slides until the next square is the edge of the board or holds another piece. It cannot stop half way, and it must move at least one square.',
      'Click a piece on the board to see where it would land: the green squares.'],
    boards: [{ game: 'kings-valley', position: KV_START, select: 'b1', caption: 'The soldier on b1 lands on b4, e4 or a2: nothing else.' }],
  },
  {
    h: 'Only a king may stop on the Valley',
    p: ['Any piece may slide over the Valley. A soldier whose slide would end on it simply has no move that way: it does not stop short.'],
    boards: [
      { game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSSKS 1 2', select: 'c1', caption: 'This soldier cannot go up: it would stop on the Valley.' },
      { game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSKSS 1 2', select: 'c1', caption: 'This king goes up and stops on the Valley, stopped by the other king: it wins.' },
    ],
  },
  {
    h: 'The first move',
    p: ['The game opens with a soldier: the first player may not move his king on the very first move of the game, so nobody wins before the other side has moved. From the second move on, kings and soldiers are free alike (an option of the new-game form lets the king open too).'],
  },
  {
    h: 'A king that cannot move',
    p: ['If your turn begins and every square around your king is the edge, a piece or a pillar, you lose (an option can turn this off). Reaching the Valley wins even if the same move shuts a king in.',
      'Endless games are drawn: after a set number of moves, or when the same position comes back a third time.'],
  },
];

const PAGES = {
  'kings-valley': {
    intro: 'Slide your king into the Valley in the middle of a 5 by 5 board before your opponent does.',
    sections: KV_COMMON,
    tutorial: 'kings-valley',
  },
  'retrieve-the-king': {
    intro: "King's Valley with the kings starting on the wrong side: each king begins in the middle of the opponent's row.",
    sections: [{
      h: 'The kings start among the enemy',
      p: ['Everything else is as in King\'s Valley: slides to the end, only a king may stop on the Valley, no captures.'],
      boards: [{ position: 'ssKss/5/5/5/SSkSS 1 0', select: 'a1', caption: 'The start: your king (the light one with the crown) is on c5.' }],
    }, ...KV_COMMON],
  },
  'kings-valley-7x7': {
    intro: 'The bigger board: seven columns, six soldiers a side, and a rule against walling a king off.',
    sections: [...KV_COMMON, {
      h: 'The trap rule',
      p: ['On 7x7 a move is allowed only if, after it, each king could still reach the Valley within four moves of its own side if the other side stood still (an option limits this to the opponent\'s king, or turns it off).',
        'A move that puts your king on the Valley is always allowed, and if the rule would forbid every move you have, it does not apply that turn.'],
      boards: [{ position: 'sssksss/7/7/7/7/7/SSSKSSS 1 0', select: 'c1', caption: 'The start on 7x7: the Valley is d4.' },
        { position: '5Sk/5S1/S3s2/2s4/6s/7/1S1K3 1 20', select: 'b1', caption: 'The soldier on b1 could slide up the diagonal to g6, but g6 is not green: there it would close the last gap around the enemy king on g7, which could then never reach the Valley, so the trap rule forbids it.' }],
    }],
  },
  'kings-valley-labyrinth': {
    intro: 'King\'s Valley on 7x7 with four pillars that never move.',
    sections: [...KV_COMMON, {
      h: 'Pillars',
      p: ['Pillars stand on b3, f3, b5 and f5. They block slides like pieces do, and nothing can stand on them.'],
      boards: [{ position: 'sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0', select: 'b1', caption: 'The soldier on b1 stops on b2, in front of the pillar.' }],
    }],
  },
  'kings-guard': {
    intro: 'Move pieces off stacks and bury the enemy king under any piece.',
    sections: [],
  },
  'kings-guard-8x8': {
    intro: "King's Guard on an 8 by 8 board, with towers of at most four.",
    sections: [],
  },
  'king-down': {
    intro: 'Chess with five new pieces, a back row drawn at random, and optional armies with powers.',
    sections: [
      {
        h: 'Chess, with more pieces',
        p: ['Pawns, knights, bishops, rooks, queens and kings move as in chess. A move may not leave your own king attacked; in check with no legal move is checkmate and loses; no legal move without check is a stalemate and a draw.',
          'Five new pieces join them. Click a piece on each board to see its moves.'],
      },
      {
        h: 'Archer (A)',
        p: ['Moves one square straight, to an empty square. It shoots without moving: it captures an enemy on a square diagonally next to it, or exactly two squares away in a straight line, whatever stands between. It gives check the same way.'],
        boards: [{ position: '4k3/8/8/4p3/1n1A4/8/8/4K3 w - - 0 1', rules: { setup: 'classic' }, select: 'd4', caption: 'The archer on d4 can shoot the pawn on e5 and the knight on b4, and step one square straight.' }],
      },
      {
        h: 'Paladin (L)',
        p: ['Moves like a queen and may pass over its own pieces, but not enemy ones. It may capture the first enemy on its line, and then leaves the board together with its victim. It never captures a king, so it never gives check.'],
        boards: [{ position: 'r3k3/8/8/8/8/8/P7/L3K3 w - - 0 1', rules: { setup: 'classic' }, select: 'a1', caption: 'The paladin passes over its own pawn and its own king; taking the rook costs it its life.' }],
      },
      {
        h: 'Guard (G)',
        p: ['Steps one square in any direction to an empty square. It never captures and never gives check, and only a king can capture it.'],
        boards: [{ position: '4k3/8/8/4r3/3G4/8/8/4K3 w - - 0 1', rules: { setup: 'classic' }, select: 'd4', caption: 'The white king on e1 is in check from the rook on e5, so the guard may only step in between, to e4 or e3. The guard cannot take the rook, and the rook cannot take it.' }],
      },
      {
        h: 'Maester (M)',
        p: ['Steps one square in any direction: onto an enemy it captures, onto one of its own pieces it changes places with it. While it and its king both stand on their first row, they may change places from any distance.'],
        boards: [{ position: '4k3/8/8/8/8/8/8/M3K3 w - - 0 1', rules: { setup: 'classic' }, select: 'a1', caption: 'The maester on a1 may change places with its king on e1.' }],
      },
      {
        h: 'Beast (E)',
        p: ['Steps one square straight ahead to an empty square (never two, and it never promotes). It captures on the seven other squares around it, and after a capture it may capture again from where it stands, as long as there is prey; it may stop after any capture.'],
        boards: [{ position: '4k3/8/1p6/2p5/3E4/8/8/4K3 w - - 0 1', rules: { setup: 'classic' }, select: 'd4', caption: 'The beast takes c5, and may then go on to take b6.' }],
      },
      {
        h: 'Check with the new pieces',
        p: ['A king is in check when an enemy piece could take it right now, and no move may leave your own king in check. Among the new pieces, an archer checks on its eight shooting squares, a maester on the eight squares around it, and a beast on the squares around it except the one straight ahead. A paladin and a guard never give check, so a king may stand on a paladin\'s line.',
          'Powers that cost tokens never count for check, and a turn that spends one may not end with the enemy king in check.'],
        boards: [{ position: '8/8/8/8/4k3/8/4A3/4K3 b - - 0 1', rules: { setup: 'classic' }, select: 'e4', caption: 'The archer on e2 checks the king on e4, two squares away in a straight line: the king must step off its shooting squares.' }],
      },
      {
        h: 'Set-ups and promotion',
        p: ['Behind the pawns, the king and seven pieces drawn from a pool (a queen, a paladin and two of each other piece) are shuffled along the first row; Black gets the mirror image. The new-game form can ask for the chess row instead, or a numbered set-up.',
          'A pawn reaching the last row becomes any piece but a king, new pieces included.'],
      },
      {
        h: 'Armies and their powers',
        p: ['With armies on, each player first picks a king (the two kings differ), then one of that king\'s two powers. A power with tokens may be used that many times, at most one token a turn, and a turn that spends a token may not end with the enemy king in check. The other powers always apply. The choices are buttons under the board, each with its explanation.'],
      },
      {
        h: 'Frost',
        army: true,
        p: ['Freeze (2 tokens): before your move, name an enemy piece other than the king; it cannot move or capture in your opponent\'s next turn, though it still checks.',
          'Ice Wall (2 tokens): before your move, name one of your pieces other than the king; nothing can capture it in your opponent\'s next turn, even if you move it now.'],
        boards: [
          { position: '4k3/8/8/3n4/8/8/3P4/4K3 w - - 0 1 armies:frost/spirit powers:freeze/mercy tokens:2/0', rules: { armies: 'on' }, only: 'freeze', all: true, caption: 'Before: White holds Freeze, and the black knight on d5 (highlighted) is the piece it may freeze.' },
          { position: '4k3/8/8/3n4/8/8/3P4/4K3 b - - 0 1 armies:frost/spirit powers:freeze/mercy tokens:1/0 frozen:d5', rules: { armies: 'on' }, select: 'd5', caption: 'After: the frozen knight (ringed in blue) has no move in Black\'s turn; only the king moves.' },
          { position: '4k3/8/8/8/2n5/8/3B4/4K3 b - - 0 1 armies:frost/spirit powers:ice-wall/mercy tokens:1/0 iced:d2', rules: { armies: 'on' }, select: 'c4', caption: 'Ice Wall on the bishop on d2: the knight on c4 may go anywhere it could, except onto d2.' },
        ],
      },
      {
        h: 'Flame',
        army: true,
        p: ['Strike (1 token): for one move, a piece of yours other than the king moves and captures like a queen. A guard still cannot be taken, and a paladin that strikes survives.',
          'Haste (1 token): one piece, the king too, makes two ordinary moves in this turn; each of them on its own must leave your king safe.'],
        boards: [
          { position: '4k3/8/8/8/8/8/1N6/4K3 w - - 0 1 armies:flame/spirit powers:strike/mercy tokens:1/0', rules: { armies: 'on' }, only: 'strike', select: 'b2', caption: 'Strike: the knight on b2 goes where a queen would. The squares from which the knight would check the king are left out: a power never gives check.' },
          { position: '4k3/8/8/8/8/5N2/8/4K3 w - - 0 1 armies:flame/spirit powers:haste/mercy tokens:0/0 stage:haste2/f3', rules: { armies: 'on' }, select: 'f3', caption: 'Haste: the knight has already made its first move, g1 to f3 (ringed); in the same turn it moves again, and no other piece may.' },
        ],
      },
      {
        h: 'Stratus',
        army: true,
        p: ['Flight (1 token): a piece of yours other than the king flies to any empty square of your own half of the board.',
          'Sacrifice (1 token): one of your pawns leaves the board and a piece you lost earlier (not a pawn) comes back in its place.'],
        boards: [
          { position: '4k3/8/8/8/8/8/8/R3K3 w - - 0 1 armies:stratus/spirit powers:flight/mercy tokens:1/0', rules: { armies: 'on' }, only: 'flight', select: 'a1', caption: 'Flight: the rook on a1 may land on any empty square of ranks 1 to 4, White\'s half.' },
          { position: '4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 armies:stratus/spirit powers:sacrifice/mercy tokens:1/0 captured:R', rules: { armies: 'on' }, only: 'sacrifice', all: true, caption: 'Sacrifice, before: White has lost a rook, and the pawn on d2 (highlighted) may give its square back to it.' },
          { position: '4k3/8/8/8/8/8/3R4/4K3 b - - 0 1 armies:stratus/spirit powers:sacrifice/mercy tokens:0/0', rules: { armies: 'on' }, caption: 'Sacrifice, after: the rook stands on d2 where the pawn was, and the token is spent.' },
        ],
      },
      {
        h: 'Mud',
        army: true,
        p: ['March (3 tokens): a pawn anywhere on the board steps two squares forward, both of them empty; no en passant follows.',
          'Leap (3 tokens): a queen, rook or bishop makes a move that passes over your own pawns, which would normally block it.'],
        boards: [
          { position: '4k3/8/8/8/8/3P4/8/4K3 w - - 0 1 armies:mud/spirit powers:march/mercy tokens:3/0', rules: { armies: 'on' }, only: 'march', select: 'd3', caption: 'March: the pawn on d3, far from its first step, still goes two squares, to d5.' },
          { position: '4k3/8/8/8/8/8/3P4/3RK3 w - - 0 1 armies:mud/spirit powers:leap/mercy tokens:3/0', rules: { armies: 'on' }, only: 'leap', select: 'd1', caption: 'Leap: the rook on d1 passes over its own pawn on d2, up to d7 (d8 would check the king).' },
        ],
      },
      {
        h: 'Spirit',
        army: true,
        p: ['Holy Light (always on): enemy pawns can neither capture nor check your king, and your king in turn cannot capture pawns.',
          'Mercy (always on): your king may go one or two squares in a straight line, jumping over one of its own pieces if needed, but it never captures and so never checks.'],
        boards: [{ position: '4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1 armies:spirit/frost powers:mercy/freeze tokens:0/2', rules: { armies: 'on' }, select: 'e1', caption: 'With Mercy the king on e1 also reaches c1, g1, g3, and c3 and e3 over its own pawns.' }],
      },
      {
        h: 'Shadow',
        army: true,
        p: ['Death Touch (always on): your king may capture an enemy piece next to it, a guard included, without leaving its square.',
          'Darkness (always on): your pawns move the other way round: one square diagonally forward to an empty square, and they capture one square straight ahead. They never step two squares.'],
        boards: [{ position: '4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1 armies:shadow/frost powers:darkness/freeze tokens:0/2', rules: { armies: 'on' }, select: 'd2', caption: 'With Darkness the pawn on d2 steps to c3 or e3, or takes the pawn in front of it on d3.' }],
      },
    ],
    tutorial: 'king-down',
  },
  'kings-castle': {
    intro: 'Place men round the Castle in the middle of a hexagonal city, march lines of them through its doors, and put a man on the Throne.',
    sections: [
      {
        h: 'The city and the Castle',
        p: ['The board is a city of hexagonal cells. In its middle stands the Castle: the Throne, the six cells around it, and six entrance cells one step further out. Walls close the Castle all round, except that each entrance cell has two doors to the cells outside it.',
          'Nothing crosses a wall: two cells with a wall between them are not neighbours, and men on either side of it are not in line. A door joins its two cells like any other edge.'],
      },
      {
        h: 'Placing and the swap',
        p: ['The board starts empty. On your turn you either place a man or move. A man is placed on any empty cell outside the Castle that is not next to one of your own men.',
          'White places first. Black\'s first move may instead be the swap: White\'s man becomes Black\'s and White plays again. The swap is a button under the board.'],
        boards: [{ position: '6/7/8/9/10/11/10/9/8/7/6 w 0', caption: 'The empty city: every highlighted cell is a place White may put a man.', all: true }],
      },
      {
        h: 'Singles and the overhead throw',
        p: ['A man with no man of yours next to it is a single. It moves any distance along one of the six lines through empty cells, never through a wall, never from outside into the Castle.',
          'If the cell just beyond where a single stops holds an enemy man, that man is thrown over it onto the last cell the single crossed. The throw is compulsory and is not a capture.'],
        boards: [{ position: '6/7/8/9/10/11/10/9/8/7/W2B2 w 2', select: 'a1', caption: 'The single on a1 may stop on b1 or c1 along its row: stopping on c1 throws the black man on d1 over it onto b1.' }],
      },
      {
        h: 'Phalanxes, doors and captures',
        p: ['Two or more of your men in an unbroken straight line form a phalanx. It moves along its own line by up to as many cells as it has men; an end part of two or more may split off and move away from the rest.',
          'The Castle has walls all round, with two doors on each of its six entrance cells: a phalanx enters only through a door. A phalanx may run into a line of enemy men shorter than itself and removes every man on a cell its front enters.'],
        boards: [{ position: '6/7/8/9/10/11/10/9/2WW4/7/6 w 2', select: 'c3', caption: 'A phalanx of two on c3 and d3.' }],
      },
      {
        h: 'The Throne',
        p: ['When the Throne in the middle is empty and you hold both cells of an opposite pair around it, one of your men goes onto the Throne at once. Capturing a man of the pair that holds the Throne removes the man from it.',
          'If your own man is on the Throne when your turn begins, you win. A player with no legal move loses.'],
      },
    ],
  },
  'king-of-the-valley': {
    intro: 'A tile game for 2 to 4 players: move your king across a valley of tiles, gather subjects into your castle and score the most reputation.',
    sections: [
      {
        h: 'The table',
        p: ['A 5 by 5 valley of tiles, a hill of two columns of six tiles with a price per row, and a castle of six columns per player: queens, dukes, countesses, knights, farmers and farmers\' wives. Each player starts with 2 gold and first places his king on a valley tile.'],
        boards: [{ position: null, caption: 'A table at the start, dealt from seed 1.' }],
      },
      {
        h: 'The phases of a turn',
        p: ['1. Recruit: buy a subject from the hill for the price of its row, or pass (not in the first round).',
          '2. Summon: your king moves any distance in one of eight directions, and either stops on a tile and takes it, or takes two or three identical tiles it passes and stops just beyond the last. A priest met on the way is paid one gold and the king moves on from there.',
          '3. Kingdom bonus: once a turn, turn a face-up queen, duke, countess, knight and farmer (or wife) face down for 5 gold and a kingdom token; or pass.',
          '4. Refill: pick a hill column; its bottom tiles fill the valley\'s empty squares, then chance refills the hill.'],
      },
      {
        h: 'Characters',
        p: ['Subjects go face up into their castle column. A jester goes into a column you choose and counts as that subject, but scores nothing. A wizard swaps a face-up subject of your castle with any subject on the hill. A tax collector pays gold, and if he needs subjects, turns that many face-up tiles of one column face down and leaves a tax token there.',
          'Every choice is a button with its explanation, or a click on the table.'],
      },
      {
        h: 'Bonuses',
        p: ['The kingdom bonus, in phase 3: when your castle shows a face-up queen, duke, countess and knight and a face-up farmer or farmer\'s wife, you may turn those five face down for 5 gold at once and a kingdom token, worth 5 reputation at the end. Jesters count as the column they sit in.',
          'At the end: each order of knights you hold three, four or five times is worth 3, 5 or 8, and each pair of a farmer and a farmer\'s wife is worth 2.'],
      },
      {
        h: 'The end and the score',
        p: ['When the hill cannot be refilled in full the end is near: the round is finished so that everybody has had as many turns.',
          'Reputation is the influence of every subject in your castle (face up or down), plus 5 per kingdom token, plus 3, 5 or 8 for each order of knights held 3, 4 or 5 times, plus 2 per farmer-and-wife couple, plus 1 per gold. The most reputation wins; influence breaks ties. The result shows the breakdown.'],
      },
    ],
  },
};

const KG_SECTIONS = (size) => [
  {
    h: 'The goal',
    p: ['Each side has a king behind a V of guards. You win by putting any piece, yours or one of the enemy\'s you control, on top of the enemy king.'],
  },
  {
    h: 'Stacks',
    p: ['Pieces pile up into stacks. Whoever owns the top piece controls the whole stack, enemy pieces inside it included. Nothing ever leaves the board: a piece under another is only buried until the pieces above it move away.'],
  },
  {
    h: 'A turn: carrying pieces off a stack',
    p: ['Pick a square whose top piece is yours. Move its top piece, then if you like the next one down, and so on: stop whenever you want after the first ("end" is the button that stops).',
      'Each piece walks as many steps as its height in the stack when the turn began (the bottom piece 1, the next 2, ...), each step to a neighbouring square, and every square before the last must be empty. It may land on an empty square or on any stack, as long as the stack stays within the height limit.'],
    boards: [{ position: size === 8 ? 'g3k2g/1g4g1/2g2g2/3gg3/3(GG)G3/5G2/1G4G1/G3K2G 1 0 d4:0' : 'g3k3g/1g5g1/2g3g2/3g1g3/4g4/3(GG)G4/9/2G3G2/1G5G1/G3K3G 1 0 d5:0', select: size === 8 ? 'd4' : 'd5', caption: 'A turn started from this stack of two: its top piece walks up to two steps, onto empty squares or stacks.' }],
  },
  {
    h: 'Towers and dismantling',
    p: [`A stack of ${size === 8 ? 'four' : 'five'} is a full tower: nothing can be put on it, so a king on top of a full tower cannot be captured.`,
      'If a full tower has your piece on top when your turn begins, you must dismantle it: your turn must start from such a tower, unless none of them can move. A player with no legal turn loses; endless games are drawn.'],
    boards: size === 8 ? [{ position: 'g3k2g/1g4g1/2g2g2/3gg3/3(GGGG)4/8/1G4G1/G3K2G 1 0', all: true, caption: 'The full tower on d4 is yours: this turn must start from it (highlighted).' }] : [],
  },
];
PAGES['kings-guard'].sections = KG_SECTIONS(10);
PAGES['kings-guard-8x8'].sections = KG_SECTIONS(8);

// Guided positions: the player must find the move from `from` to `to` (to any square
// when `to` is absent).
const TUTORIALS = {
  'kings-valley': [
    { position: 'ss1ss/2k2/5/5/SSKSS 1 2', from: 'c1', to: 'c3', prompt: 'Win in one: slide your king into the Valley.', right: 'The other king stops your slide right on the Valley.' },
    { position: 'ssks1/3s1/5/5/KSSSS 1 2', from: 'a1', to: 'c3', prompt: 'Win in one again: this time the way is diagonal.', right: 'The soldier on d4 stops your king on c3.' },
    { position: 'sskss/5/5/2S2/SSK1S 1 2', from: 'c2', prompt: 'Defend: the other king threatens to slide down and stop on the Valley against your soldier on c2. Stop it.', right: 'With c2 empty, their king would slide past the Valley.' },
  ],
  'king-down': [
    { position: '4k3/8/8/8/1n1A4/8/8/4K3 w - - 0 1', rules: { setup: 'classic' }, from: 'd4', to: 'b4', prompt: 'Your archer shoots without moving. Take the knight.', right: 'Two squares away in a straight line: the archer stays on d4.' },
    { position: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', rules: { setup: 'classic' }, from: 'a1', to: 'a8', prompt: 'Checkmate in one, as in chess.', right: 'The king is shut in by its own pawns.' },
    { position: '4k3/8/1p6/2p5/3E4/8/8/4K3 w - - 0 1', rules: { setup: 'classic' }, from: 'd4', to: 'c5', prompt: 'Your beast captures on any neighbouring square but straight ahead. Start a chain of captures.', right: 'From c5 it may go on and take b6 in the same turn.' },
  ],
};

export { PAGES, TUTORIALS };
