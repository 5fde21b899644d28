// The pieces of the Flying Bombers family drawn as SVG symbols (100x100),
// one per piece name; app.js places them with <use>. Each symbol's body
// takes the piece's colour (fill) and outline (stroke) from the <use>,
// its details the contrasting colour (currentColor), so one drawing serves
// White and Black.
'use strict';

// B: a body path (the side's colour, outlined); D: a detail path (the
// contrasting colour); C: a detail drawn as a line (stroke currentColor).
const PIECE_ART = {
  king: [
    'B:M46 6h8v8h8v8h-8v8h-8v-8h-8v-8h8z',
    'B:M50 34c-18 0-30 8-30 20 0 9 6 15 8 24h44c2-9 8-15 8-24 0-12-12-20-30-20z',
    'B:M24 80h52v10H24z',
    'C:M30 66h40',
  ],
  queen: [
    'B:M24 78l-8-48 17 20 7-30 10 26 10-26 7 30 17-20-8 48z',
    'B:M16 20a5 5 0 1 0 .1 0zM40 10a5 5 0 1 0 .1 0zM60 10a5 5 0 1 0 .1 0zM84 20a5 5 0 1 0 .1 0z',
    'B:M22 80h56v10H22z',
    'C:M26 70h48',
  ],
  rook: [
    'B:M24 80h52v10H24z',
    'B:M32 80l3-38h30l3 38z',
    'B:M26 42h48V16h-9v9h-9v-9H44v9h-9v-9h-9z',
    'C:M35 50h30',
  ],
  bishop: [
    'B:M50 6a6 6 0 1 0 .1 0z',
    'B:M50 16c-16 10-22 26-17 42h34c5-16-1-32-17-42z',
    'B:M32 62h36v8H32z',
    'B:M24 80c10 0 16-4 20-10h12c4 6 10 10 20 10v10H24z',
    'C:M58 28L46 46M44 38h12',
  ],
  knight: [
    'B:M28 90h50c0-26-4-46-16-60l4-14-11 8-9-6v12C38 38 26 50 22 64l9 6 12-9c2 7-2 12-9 16-6 4-8 8-6 13z',
    'D:M50 34a4 4 0 1 0 .1 0z',
    'C:M26 64l2-1',
  ],
  pawn: [
    'B:M50 14a13 13 0 1 0 .1 0z',
    'B:M38 42h24l-5 6c9 7 13 18 15 32H28c2-14 6-25 15-32z',
    'B:M24 80h52v10H24z',
  ],
  'ninja pawn': [
    'B:M50 14a13 13 0 1 0 .1 0z',
    'B:M38 42h24l-5 6c9 7 13 18 15 32H28c2-14 6-25 15-32z',
    'B:M24 80h52v10H24z',
    'D:M37 22h26v8H37z',
    'C:M62 24l12-6M62 28l12 2',
  ],
  'sliding pawn': [
    'B:M50 14a13 13 0 1 0 .1 0z',
    'B:M38 42h24l-5 6c9 7 13 18 15 32H28c2-14 6-25 15-32z',
    'B:M24 80h52v10H24z',
    'C:M34 70h32M34 70l5-4M34 70l5 4M66 70l-5-4M66 70l-5 4',
  ],
  // The flying bomber: a bat carrying a bomb, as the author describes it.
  'flying bomber': [
    'B:M50 28c-5 0-7 4-7 7l-3-9-2 10C30 26 16 22 4 26c8 4 12 11 12 19 6-4 13-4 17 1 3-6 9-7 13-3 2 4 4 10 4 16 0-6 2-12 4-16 4-4 10-3 13 3 4-5 11-5 17-1 0-8 4-15 12-19-12-4-26 0-34 10l-2-10-3 9c0-3-2-7-7-7z',
    'D:M45 38a2.5 2.5 0 1 0 .1 0zM55 38a2.5 2.5 0 1 0 .1 0z',
    'B:M50 70a11 11 0 1 0 .1 0z',
    'C:M50 70v-6M50 64c3-3 6-2 8-4',
  ],
  // The diagonal bomber: an aircraft banked along a diagonal.
  'diagonal bomber': [
    'B:M50 8c4 0 6 6 6 14v16l32 18v9l-32-10v20l11 8v7l-17-5-17 5v-7l11-8V55L12 65v-9l32-18V22c0-8 2-14 6-14z|rotate(45 50 50)',
    'D:M47 20h6v14h-6z|rotate(45 50 50)',
  ],
  // The ninja guard: a hooded head with the eyes' slit, on shoulders.
  'ninja guard': [
    'B:M50 10c-15 0-24 11-24 25 0 9 4 16 10 20-10 4-18 14-20 25h68c-2-11-10-21-20-25 6-4 10-11 10-20 0-14-9-25-24-25z',
    'D:M30 28h40v11H30z',
    'B:M40 31a3 3 0 1 0 .1 0zM60 31a3 3 0 1 0 .1 0z',
    'B:M16 80h68v10H16z',
    'C:M70 30l14-6M70 36l14 4',
  ],
  // The leaping ninja guard: the guard with a leap's arc over it.
  'leaping ninja guard': [
    'B:M50 18c-13 0-21 10-21 22 0 8 3 14 9 18-9 4-16 12-18 22h60c-2-10-9-18-18-22 6-4 9-10 9-18 0-12-8-22-21-22z',
    'D:M32 33h36v10H32z',
    'B:M41 36a3 3 0 1 0 .1 0zM59 36a3 3 0 1 0 .1 0z',
    'B:M18 80h64v10H18z',
    'C:M14 30C24 2 76 2 86 30M86 30l-8-2M86 30l1-8',
  ],
  // The queen-guard: a crowned shield.
  'queen-guard': [
    'B:M50 34l28 8c0 24-10 40-28 48-18-8-28-24-28-48z',
    'B:M30 32l-4-22 12 10 12-14 12 14 12-10-4 22z',
    'C:M50 46v32M36 58h28',
  ],
  // The insane ninja knight: a masked horse's head with a wild mane.
  'insane ninja knight': [
    'B:M28 90h50c0-26-4-46-16-60l4-14-11 8-9-6v12C38 38 26 50 22 64l9 6 12-9c2 7-2 12-9 16-6 4-8 8-6 13z',
    'D:M36 32l28-4 2 9-28 4z',
    'B:M52 33a3 3 0 1 0 .1 0z',
    'C:M66 46l12-4M68 56l12 0M68 66l12 4',
  ],
  // The super jump knight: the knight with a leap's star.
  'super jump knight': [
    'B:M28 90h50c0-26-4-46-16-60l4-14-11 8-9-6v12C38 38 26 50 22 64l9 6 12-9c2 7-2 12-9 16-6 4-8 8-6 13z',
    'D:M50 34a4 4 0 1 0 .1 0z',
    'D:M80 8l3 8 8 3-8 3-3 8-3-8-8-3 8-3z',
  ],
};
PIECE_ART['grand pawn'] = PIECE_ART.pawn;

// PIECE_BY_LETTER names the family's pieces by letter, for a piece a
// variant file leaves unnamed (the superpower option's F).
const PIECE_BY_LETTER = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn', F: 'flying bomber',
  D: 'diagonal bomber', G: 'ninja guard', J: 'ninja pawn', M: 'queen-guard', I: 'insane ninja knight' };

// pieceArtKey names the drawing of a piece by its name (or, unnamed, by
// its letter), or "" for an unknown piece (drawn as a lettered disc).
function pieceArtKey(name, letter) {
  let n = (name || '').toLowerCase();
  if (!n || n === (letter || '').toLowerCase()) n = PIECE_BY_LETTER[(letter || '').toUpperCase()] || '';
  return Object.prototype.hasOwnProperty.call(PIECE_ART, n) ? n.replace(/ /g, '-') : '';
}

// pieceDefs fills the hidden svg host with a <symbol> per drawing.
function pieceDefs(host) {
  const NS = 'http://www.w3.org/2000/svg';
  const defs = document.createElementNS(NS, 'defs');
  for (const name of Object.keys(PIECE_ART)) {
    const sym = document.createElementNS(NS, 'symbol');
    sym.setAttribute('id', 'pc-' + name.replace(/ /g, '-'));
    sym.setAttribute('viewBox', '0 0 100 100');
    for (const part of PIECE_ART[name]) {
      const [kind, rest] = [part[0], part.slice(2)];
      const [d, transform] = rest.split('|');
      const p = document.createElementNS(NS, 'path');
      p.setAttribute('d', d);
      if (transform) p.setAttribute('transform', transform);
      if (kind === 'B') { p.setAttribute('stroke-width', '3'); p.setAttribute('stroke-linejoin', 'round'); }
      if (kind === 'D') { p.setAttribute('fill', 'currentColor'); p.setAttribute('stroke', 'none'); }
      if (kind === 'C') { p.setAttribute('fill', 'none'); p.setAttribute('stroke', 'currentColor'); p.setAttribute('stroke-width', '3'); p.setAttribute('stroke-linecap', 'round'); }
      sym.appendChild(p);
    }
    defs.appendChild(sym);
  }
  host.appendChild(defs);
}
