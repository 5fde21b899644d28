// bomberzero's page: plain JavaScript over the JSON API (docs/serve.md).
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 60, MARGIN = 22;

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

async function api(path, body, signal) {
  const opt = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  if (signal) opt.signal = signal;
  const r = await fetch('/api/' + path, opt);
  const j = await r.json().catch(() => ({ error: 'bad answer from the server (' + r.status + ')' }));
  if (!r.ok) { const e = new Error(j.error || ('status ' + r.status)); e.status = r.status; throw e; }
  return j;
}

// The game: a variant, a start position, the moves, and the ply on view.
const G = {
  variant: 'fbgc', info: null, start: '', moves: [], ply: 0, state: null,
  flipped: false, selected: null, handSel: null, human: 'white', opponent: 'random',
  mode: 'play', busy: false, analysis: null, abort: null, seed: 1,
  // clock: null (untimed) or the clock (clocks below); end: how the game
  // ended outside the rules ({result, termination, why}); evals: the
  // engine's score of each ply's position, White's view ({cp} or {mate}).
  clock: null, end: null, evals: [], game: 0,
};

function setStatus(text, cls) {
  const s = $('status');
  s.textContent = text;
  s.className = 'status' + (cls ? ' ' + cls : '');
}

// ---- geometry -------------------------------------------------------------
function sqName(f, r) { return String.fromCharCode(97 + f) + r; }
function sqParse(n) { return { f: n.charCodeAt(0) - 97, r: parseInt(n.slice(1), 10) }; }
function cellXY(n) {
  const { f, r } = sqParse(n), v = G.info;
  const col = G.flipped ? v.files - 1 - f : f;
  const row = G.flipped ? r - v.first_rank : v.first_rank + v.ranks - 1 - r;
  return { x: MARGIN + col * CELL, y: row * CELL };
}
function center(n) { const p = cellXY(n); return { x: p.x + CELL / 2, y: p.y + CELL / 2 }; }

// ---- pieces ---------------------------------------------------------------
function pieceInfo(letter) {
  const up = letter.toUpperCase();
  return (G.info.pieces || []).find((p) => p.letter === up) || { letter: up, name: up };
}
// drawPiece draws a piece's picture (pieces.js), or a lettered disc for a
// piece without one, centred on x, y in a square of side size.
function drawPiece(parent, letter, x, y, size) {
  const white = letter === letter.toUpperCase();
  const info = pieceInfo(letter), key = pieceArtKey(info.name, info.letter);
  const g = el('g', { class: 'piece-art', 'data-art': key || 'letter' }, parent);
  if (key) {
    const s = size * 0.86;
    el('use', { href: '#pc-' + key, x: x - s / 2, y: y - s / 2 + size * 0.02, width: s, height: s, fill: 'rgba(0,0,0,.22)', stroke: 'none', color: 'transparent', transform: `translate(${size * 0.02},${size * 0.03})` }, g);
    el('use', { href: '#pc-' + key, x: x - s / 2, y: y - s / 2, width: s, height: s, fill: white ? '#fbf8f0' : '#2e2b27', stroke: white ? '#2e2b27' : '#0d0c0a', color: white ? '#2e2b27' : '#f1e6cf' }, g);
  } else {
    const r = size * 0.42;
    el('circle', { cx: x, cy: y + size * 0.03, r: r, fill: 'rgba(0,0,0,.25)' }, g);
    el('circle', { cx: x, cy: y, r: r, fill: white ? '#fbf8f0' : '#2e2b27', stroke: white ? '#6b5a43' : '#0f0e0c', 'stroke-width': 2 }, g);
    const t = el('text', { x: x, y: y, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: white ? '#2e2b27' : '#f5efe2',
      'font-family': 'DejaVu Sans, sans-serif', 'font-weight': 700, 'font-size': size * 0.4 }, g);
    t.textContent = letter.toUpperCase();
  }
  const title = el('title', {}, g);
  title.textContent = (white ? 'White ' : 'Black ') + (key ? key.replace(/-/g, ' ') : info.name || letter);
  return g;
}

// ---- board ----------------------------------------------------------------
function drawBoard() {
  const v = G.info, st = G.mode === 'edit' && E.state ? E.state : G.state, svg = $('board');
  if (!v || !st) return;
  const W = MARGIN + v.files * CELL + 4, H = v.ranks * CELL + MARGIN;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.style.setProperty('--aspect', (W / H).toFixed(4));
  svg.textContent = '';
  const holes = new Set(v.holes);
  const last = st.last;
  const lastSq = new Set(last ? [last.from, last.to] : []);
  const sel = G.selected;
  for (let f = 0; f < v.files; f++) {
    for (let r = v.first_rank; r < v.first_rank + v.ranks; r++) {
      const n = sqName(f, r), p = cellXY(n);
      if (holes.has(n)) {
        el('rect', { x: p.x, y: p.y, width: CELL, height: CELL, class: 'hole', 'data-hole': n }, svg);
        if (v.transparent) el('rect', { x: p.x + 6, y: p.y + 6, width: CELL - 12, height: CELL - 12, rx: 6, fill: 'none', stroke: '#8c7a62', 'stroke-dasharray': '4 4', 'pointer-events': 'none' }, svg);
        continue;
      }
      const dark = (f + r + (v.first_rank === 0 ? 1 : 0)) % 2 === 0;
      el('rect', { x: p.x, y: p.y, width: CELL, height: CELL, fill: dark ? 'var(--dark)' : 'var(--light)', class: 'sq', 'data-sq': n }, svg);
      if (lastSq.has(n)) el('rect', { x: p.x, y: p.y, width: CELL, height: CELL, fill: 'var(--last)', 'pointer-events': 'none' }, svg);
      if (sel === n) el('rect', { x: p.x, y: p.y, width: CELL, height: CELL, fill: 'var(--sel)', 'pointer-events': 'none' }, svg);
    }
  }
  for (const side of [0, 1]) for (const n of (v.scepter[side] || [])) {
    const p = cellXY(n);
    el('rect', { x: p.x + 3, y: p.y + 3, width: CELL - 6, height: CELL - 6, fill: 'none', stroke: side ? '#222' : '#fff', 'stroke-width': 2, 'stroke-dasharray': '6 3', 'pointer-events': 'none' }, svg);
  }
  // coordinates
  for (let r = v.first_rank; r < v.first_rank + v.ranks; r++) {
    const p = cellXY(sqName(0, r));
    el('text', { x: MARGIN / 2, y: p.y + CELL / 2 + 4, 'text-anchor': 'middle', class: 'coord' }, svg).textContent = r;
  }
  for (let f = 0; f < v.files; f++) {
    const p = cellXY(sqName(f, v.first_rank));
    el('text', { x: p.x + CELL / 2, y: v.ranks * CELL + 15, 'text-anchor': 'middle', class: 'coord' }, svg).textContent = String.fromCharCode(97 + f);
  }
  // the last move's flight path and the pieces it removed
  if (last) {
    const mover = st.board.find((p) => p.square === last.to);
    const flew = last.removed.some((r) => r.square !== last.to) || (mover && 'FD'.includes(mover.piece.toUpperCase()));
    if (last.path.length && flew) {
      const a = center(last.from), b = center(last.to);
      el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'path', 'data-path': last.path.join(' ') }, svg);
      for (const n of last.path) { const c = center(n); el('circle', { cx: c.x, cy: c.y, r: 5, class: 'pathdot' }, svg); }
    }
  }
  // pieces
  for (const pc of st.board) {
    const c = center(pc.square);
    const g = el('g', { class: 'piece', 'data-sq': pc.square, 'data-piece': pc.piece }, svg);
    drawPiece(g, pc.piece, c.x, c.y, CELL);
  }
  if (last) {
    for (const rm of last.removed) {
      const c = center(rm.square), onTo = rm.square === last.to;
      const g = el('g', { class: 'removed', 'data-removed': rm.square }, svg);
      const dx = onTo ? CELL * 0.28 : 0, dy = onTo ? -CELL * 0.28 : 0, s = onTo ? 0.45 : 0.8;
      const art = drawPiece(g, rm.piece, c.x + dx, c.y + dy, CELL * s);
      art.setAttribute('opacity', '0.55');
      const k = CELL * s * 0.3;
      el('path', { d: `M${c.x + dx - k},${c.y + dy - k}L${c.x + dx + k},${c.y + dy + k}M${c.x + dx + k},${c.y + dy - k}L${c.x + dx - k},${c.y + dy + k}`, stroke: '#d2462f', 'stroke-width': 4, 'stroke-linecap': 'round' }, g);
    }
  }
  // legal targets of the selection
  for (const m of targets()) {
    const c = center(m.to);
    const occupied = st.board.some((p) => p.square === m.to) || m.removed.length;
    if (occupied) el('circle', { cx: c.x, cy: c.y, r: CELL * 0.44, class: 'capture-target', 'data-target': m.to }, svg);
    else el('circle', { cx: c.x, cy: c.y, r: CELL * 0.14, class: 'target', 'data-target': m.to }, svg);
  }
  drawArrows(svg);
  drawHands();
}

// fitBoard sizes the board so that the column under it (hands, clocks,
// the graph) fits the window's height, between 300 and 640 pixels wide.
function fitBoard() {
  const svg = $('board'), col = svg.closest('.board-col');
  if (!G.info || !col.offsetParent) return;
  const b = svg.getBoundingClientRect(), c = col.getBoundingClientRect();
  const others = c.height - b.height, top = c.top + window.scrollY;
  const vb = svg.viewBox.baseVal, aspect = vb && vb.height ? vb.width / vb.height : 1;
  const h = window.innerHeight - top - others - 12;
  const w = Math.round(Math.max(300, Math.min(640, h * aspect))) + 'px';
  if (svg.style.width === w) return;
  svg.style.width = w;
  if (!$('graph-card').hidden) drawGraph(); // the graph takes the board's width
}

// drawLegend lists the variant's pieces, each with its picture and name.
function drawLegend() {
  const box = $('legend');
  box.textContent = '';
  for (const p of G.info.pieces) {
    const item = document.createElement('li');
    item.dataset.letter = p.letter;
    const s = document.createElementNS(SVG, 'svg');
    s.setAttribute('viewBox', '0 0 40 40');
    s.setAttribute('aria-hidden', 'true');
    drawPiece(s, p.letter, 20, 20, 40);
    item.appendChild(s);
    const key = pieceArtKey(p.name, p.letter);
    item.appendChild(document.createTextNode(`${p.letter} ${key ? key.replace(/-/g, ' ') : p.name || p.letter}`));
    box.appendChild(item);
  }
}

function targets() {
  const st = G.state;
  if (!st || G.busy || G.mode === 'edit') return [];
  if (G.handSel) return st.legal.filter((m) => m.drop);
  if (G.selected) return st.legal.filter((m) => !m.drop && m.from === G.selected);
  return [];
}

function drawHands() {
  const st = G.mode === 'edit' && E.state ? E.state : G.state, v = G.info;
  const top = $('hand-top'), bottom = $('hand-bottom');
  top.textContent = ''; bottom.textContent = '';
  if (!v.drop) return;
  for (const side of [0, 1]) {
    const color = side === 0 ? 'white' : 'black';
    const host = (side === 0) !== G.flipped ? bottom : top;
    const n = st.hands[side][v.drop] || 0;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'token' + (G.handSel === color ? ' sel' : '');
    b.dataset.hand = color;
    b.setAttribute('aria-label', `${color}'s ${pieceInfo(v.drop).name || v.drop} in hand: ${n}; choose it, then a square`);
    b.setAttribute('aria-pressed', G.handSel === color ? 'true' : 'false');
    const s = document.createElementNS(SVG, 'svg');
    s.setAttribute('viewBox', '0 0 40 40');
    drawPiece(s, side === 0 ? v.drop : v.drop.toLowerCase(), 20, 20, 40);
    b.appendChild(s);
    b.appendChild(document.createTextNode('× ' + n));
    b.addEventListener('click', () => {
      if (st.side !== color || n === 0 || !canMove()) return;
      G.handSel = G.handSel ? null : color; G.selected = null; drawBoard();
    });
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = color + ' in hand';
    host.appendChild(b); host.appendChild(label);
  }
}

function drawArrows(svg) {
  const a = G.analysis;
  if (!a || !G.state || G.mode === 'edit' || a.position !== G.state.position) return;
  const total = a.top.reduce((s, m) => s + m.visits, 0) || 1;
  el('defs', {}, svg).innerHTML = '<marker id="ah" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#2f6fb5"/></marker>';
  a.top.slice(0, 4).forEach((m, i) => {
    const mv = G.state.legal.find((x) => x.text === m.move);
    if (!mv) return;
    const from = center(mv.from), to = center(mv.to);
    const w = m.score ? (i === 0 ? 9 : 5) : 3 + 9 * m.visits / total;
    const dx = to.x - from.x, dy = to.y - from.y, len = Math.hypot(dx, dy) || 1;
    const ex = to.x - dx / len * 12, ey = to.y - dy / len * 12;
    if (mv.drop) el('circle', { cx: to.x, cy: to.y, r: 12, class: 'arrow', 'data-arrow': m.move }, svg);
    else el('line', { x1: from.x, y1: from.y, x2: ex, y2: ey, 'stroke-width': w, class: 'arrow', 'marker-end': 'url(#ah)', 'data-arrow': m.move, opacity: i === 0 ? 0.85 : 0.5 }, svg);
    const t = el('text', { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2, 'text-anchor': 'middle', class: 'arrow-label' }, svg);
    t.textContent = m.score ? scoreLabel(m.score) : m.visits;
  });
}

// ---- moving ---------------------------------------------------------------
function canMove() {
  const st = G.state;
  if (!st || st.over || G.busy || G.mode === 'edit' || (G.end && G.ply === G.moves.length)) return false;
  if (G.mode === 'analyse' || G.opponent === 'human') return true;
  return st.side === G.human && G.ply === G.moves.length;
}

function ownPiece(n) {
  const pc = G.state.board.find((p) => p.square === n);
  if (!pc) return false;
  return (pc.piece === pc.piece.toUpperCase()) === (G.state.side === 'white');
}

function clickSquare(n) {
  if (!canMove()) return;
  const ts = targets().filter((m) => m.to === n);
  if (ts.length) { choose(ts); return; }
  if (ownPiece(n)) { G.selected = G.selected === n ? null : n; G.handSel = null; drawBoard(); return; }
  if (G.selected || G.handSel) {
    // Not a legal target: let the rules say why.
    const text = G.handSel ? '~' + G.info.drop + '-' + n : G.selected + '-' + n;
    G.selected = null; G.handSel = null;
    tryMove(text);
  }
}

function choose(ms) {
  if (ms.length === 1) { tryMove(ms[0].text); return; }
  const pk = $('picker');
  pk.textContent = '';
  for (const m of ms) {
    const b = document.createElement('button');
    b.textContent = m.promotion ? '=' + m.promotion + '  ' + m.text : (m.castle ? 'castle ' : '') + m.text;
    b.dataset.move = m.text;
    b.onclick = () => { pk.hidden = true; tryMove(m.text); };
    pk.appendChild(b);
  }
  const c = document.createElement('button');
  c.textContent = 'cancel';
  c.onclick = () => { pk.hidden = true; };
  pk.appendChild(c);
  pk.hidden = false;
}

async function tryMove(text) {
  try {
    const game = G.game;
    const st = await api('move', req({ move: text }));
    if (game !== G.game || (G.end && G.mode === 'play')) return;
    if (G.ply < G.moves.length) { G.end = null; G.clock = null; } // a new line from an earlier ply: untimed, not over
    // A move from an earlier ply goes into the tree: the line it starts
    // (or the one it is already on) is put on view.
    const prefix = G.moves.slice(0, G.ply), played = st.moves[st.moves.length - 1];
    setLine(prefix.concat([played], mainAfter(treeAdd(prefix, played))));
    G.ply = prefix.length + 1;
    punchClock();
    show(G.end ? await api('game', req()) : st);
    maybeAgent();
  } catch (e) {
    drawBoard();
    setStatus('Illegal: ' + e.message, 'err');
  }
}

function req(extra) {
  const names = G.opponent === 'human' ? ['human', 'human'] : (G.human === 'white' ? ['human', G.opponent] : [G.opponent, 'human']);
  const q = { variant: G.variant, start: G.start, moves: G.moves.slice(0, G.ply), white: names[0], black: names[1] };
  if (G.clock) {
    q.time_control = G.clock.tc;
    q.clocks = G.clock.times.slice(0, G.ply);
  }
  if (G.end && G.ply === G.moves.length) q.end = { result: G.end.result, termination: G.end.termination };
  return Object.assign(q, extra || {});
}

async function maybeAgent() {
  const st = G.state;
  if (G.mode !== 'play' || G.opponent === 'human' || st.over || G.end || st.side === G.human || G.ply !== G.moves.length) return;
  G.busy = true;
  const game = G.game;
  setStatus(G.opponent + ' is thinking…');
  try {
    let move, state;
    if (isEngine(G.opponent)) {
      // The alpha-beta engine searches for a time its clock allows (or
      // the time a move chosen), and its score is kept for the graph.
      let rep;
      for (;;) { // every search slot busy: ask again while its clock runs
        try { rep = await api('analyse', req({ model: G.opponent, movetime_ms: engineMoveTime(), top: 1 })); break; } catch (e) {
          if (e.status !== 503 || game !== G.game || G.end) throw e;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      if (game !== G.game || G.end) return;
      G.evals[G.ply] = whiteScore(rep.score, G.ply);
      state = await api('move', req({ move: rep.best }));
      move = state.moves[state.moves.length - 1];
    } else {
      const out = await api('agent', req({ player: G.opponent, seed: G.seed++ }));
      move = out.move.text; state = out.state;
    }
    if (game !== G.game || G.end) return;
    treeAdd(G.moves, move);
    G.moves.push(move);
    G.ply = G.moves.length;
    G.busy = false;
    punchClock();
    show(G.end ? await api('game', req()) : state);
  } catch (e) {
    if (game !== G.game) return;
    G.busy = false;
    setStatus('Agent: ' + e.message, 'err');
  } finally {
    if (game === G.game) G.busy = false;
  }
}

// ---- clocks ---------------------------------------------------------------
// The clock is the page's: base and increment from the play panel, the
// side to move's time running from the position's arrival. Each move
// charges its mover the time since and adds the increment; the mover's
// time left after each move goes to the server with the game (its record
// keeps them). A clock at zero ends the game: the flag's side loses.
const ENGINE = 'engine';
function readClock() {
  const base = Number($('base').value), inc = Number($('inc').value);
  if (!Number.isFinite(base) || base < 0 || base > 180) throw new Error(`clock minutes ${$('base').value}: want 0 to 180`);
  if (!Number.isInteger(inc) || inc < 0 || inc > 600) throw new Error(`clock increment ${$('inc').value}: want 0 to 600 whole seconds`);
  const secs = Math.round(base * 60);
  if (base > 0 && secs < 1) throw new Error(`clock minutes ${$('base').value}: want at least a second`);
  if (secs === 0) return null;
  return { tc: secs + '+' + inc, base: secs * 1000, inc: inc * 1000, left: { white: secs * 1000, black: secs * 1000 },
    times: [], since: performance.now(), running: null };
}
function sideAt(ply) {
  const black = !!G.start && G.start.split(' ')[1] === 'b';
  return (ply % 2 === 0) !== black ? 'white' : 'black';
}
function other(side) { return side === 'white' ? 'black' : 'white'; }
function clockLeft(side) {
  const c = G.clock;
  return c.left[side] - (c.running === side ? performance.now() - c.since : 0);
}
// punchClock charges the move just played to its mover.
function punchClock() {
  const c = G.clock;
  if (!c || G.end) return;
  const mover = sideAt(G.moves.length - 1);
  const left = clockLeft(mover);
  if (left <= 0) { flag(mover); return; }
  c.left[mover] = left + c.inc;
  c.times[G.moves.length - 1] = Math.round(c.left[mover]);
  c.since = performance.now();
  c.running = other(mover);
}
function flag(side) {
  G.clock.left[side] = 0;
  G.clock.running = null;
  endGame(side === 'white' ? '0-1' : '1-0', 'forfeit', `${side === 'white' ? 'White' : 'Black'}'s flag fell`);
}
function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = ms / 1000;
  if (s < 10) return '0:0' + s.toFixed(1);
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return (m >= 60 ? Math.floor(m / 60) + ':' + String(m % 60).padStart(2, '0') : m) + ':' + String(r).padStart(2, '0');
}
function tickClock() {
  const c = G.clock;
  for (const id of ['clock-top', 'clock-bottom']) $(id).hidden = !c || G.mode !== 'play';
  if (!c) return;
  if (c.running && !G.end && clockLeft(c.running) <= 0) flag(c.running);
  for (const side of ['white', 'black']) {
    const box = $((side === 'white') !== G.flipped ? 'clock-bottom' : 'clock-top');
    const left = clockLeft(side);
    box.textContent = fmtClock(left);
    box.dataset.side = side;
    box.dataset.ms = Math.round(left);
    box.setAttribute('aria-label', side + "'s clock " + fmtClock(left));
    box.className = 'clock' + (c.running === side ? ' run' : '') + (left <= 0 ? ' flag' : left < 10000 ? ' low' : '');
  }
}
// engineTime is the engine's time for its move: a thirtieth of its clock
// and most of the increment, at most a quarter of its clock; untimed, a
// second. Never over the server's limit.
function engineTime() {
  const cap = Math.floor((G.limits.max_time_ms || 10000) * 0.9);
  if (!G.clock) return Math.min(1000, cap);
  const left = clockLeft(sideAt(G.ply));
  return Math.max(10, Math.min(cap, Math.floor(Math.min(left / 30 + G.clock.inc * 0.8, left / 4))));
}
// ENGINE_TIMES are the engine opponents by time a move, named as the
// command line's player spec names them (so records and PGN name them so).
const ENGINE_TIMES = ['engine:movetime=100ms', 'engine:movetime=1s', 'engine:movetime=5s'];
// isEngine says whether a player or model spec is the alpha-beta engine:
// engine, engine:movetime=1s, engine:eval=models/fbgc.nnue...
function isEngine(spec) { return spec === ENGINE || spec.startsWith(ENGINE + ':'); }
// MOVETIME reads the time a move of an engine spec (engine:movetime=1s...).
const MOVETIME = /^engine:movetime=(\d+)(ms|s)(?::|$)/;
// engineMoveTime is the engine opponent's time for its move: its clock's
// share (engineTime), or the time a move its name sets, within the clock's
// share in a timed game and the server's limit always.
function engineMoveTime() {
  const m = MOVETIME.exec(G.opponent);
  if (!m) return engineTime();
  const cap = Math.floor((G.limits.max_time_ms || 10000) * 0.9);
  const t = Math.min(cap, parseInt(m[1], 10) * (m[2] === 's' ? 1000 : 1));
  return G.clock ? Math.min(t, engineTime()) : t;
}
// whiteScore turns an engine score ("cp 35", "mate -2", the side to
// move's) at ply into White's view.
function whiteScore(score, ply) {
  const [kind, n] = (score || 'cp 0').split(' ');
  const v = parseInt(n, 10) * (sideAt(ply) === 'white' ? 1 : -1);
  return kind === 'mate' ? { mate: v } : { cp: v };
}

// endGame ends the game outside the rules and has the server record it.
async function endGame(result, termination, why) {
  if (G.end) return;
  if (G.clock) {
    if (G.clock.running) G.clock.left[G.clock.running] = clockLeft(G.clock.running);
    G.clock.running = null;
  }
  G.end = { result, termination, why };
  G.game++;
  G.busy = false;
  G.ply = G.moves.length;
  try { show(await api('game', req())); } catch (e) { setStatus(e.message, 'err'); }
}
function humanSide() {
  return G.opponent === 'human' ? G.state.side : G.human;
}
function resign() {
  if (!G.state || G.state.over || G.end) return;
  const side = humanSide();
  endGame(side === 'white' ? '0-1' : '1-0', 'resignation', `${side === 'white' ? 'White' : 'Black'} resigned`);
}
// DRAW_MOVES and DRAW_MARGIN_CP: the engine accepts a draw from move 30 on
// when its score is within a quarter pawn of equal.
const DRAW_MOVES = 30, DRAW_MARGIN_CP = 25;
async function offerDraw() {
  if (!G.state || G.state.over || G.end) return;
  if (G.opponent === 'human') { endGame('1/2-1/2', 'agreement', 'draw agreed'); return; }
  G.ply = G.moves.length;
  const moveNo = parseInt(G.state.position.trim().split(/\s+/).pop(), 10) || Math.floor(G.moves.length / 2) + 1;
  if (moveNo <= DRAW_MOVES) { setStatus(`${G.opponent} declines the draw: not before move ${DRAW_MOVES} (this is move ${moveNo}).`, 'err'); return; }
  const game = G.game;
  setStatus(`${G.opponent} considers the draw…`);
  try {
    const rep = await api('analyse', req({ model: isEngine(G.opponent) ? G.opponent : ENGINE, movetime_ms: Math.min(500, engineTime()), top: 1 }));
    if (game !== G.game) return;
    const s = whiteScore(rep.score, G.ply);
    if (s.cp !== undefined && Math.abs(s.cp) <= DRAW_MARGIN_CP) { endGame('1/2-1/2', 'agreement', 'draw agreed'); return; }
    setStatus(`${G.opponent} declines the draw: it scores the position ${scoreLabel(rep.score)} for ${G.state.side}.`, 'err');
  } catch (e) { setStatus('Draw offer: ' + e.message, 'err'); }
}

function show(st) {
  G.state = st; G.selected = null; G.handSel = null;
  $('fen').value = st.position;
  drawBoard();
  drawMoves();
  if (st.over && G.end && G.ply === G.moves.length) setStatus(`Game over: ${st.result} · ${G.end.why}`, 'over');
  else if (st.over) setStatus(`Game over: ${st.result} (${st.termination})`, 'over');
  else setStatus(`${st.side === 'white' ? 'White' : 'Black'} to move${st.in_check ? ' · check' : ''}` + (G.mode === 'analyse' ? ` · ply ${G.ply} of ${G.moves.length}` : ''));
  if (st.over && G.clock && G.clock.running && G.ply === G.moves.length) { G.clock.left[G.clock.running] = clockLeft(G.clock.running); G.clock.running = null; }
  $('resign').disabled = $('draw').disabled = st.over || !!G.end;
  tickClock();
  drawGraph();
  fitBoard();
  if (G.mode === 'analyse' && G.abort) restartAnalysis();
}

// ---- the variation tree ---------------------------------------------------
// Every line played from the game's start is kept in a tree: a node is a
// move and the moves played after it, the first of them the main line and
// the others its variations. G.moves is the line on view: the path to a
// node and the main line after it. A move played from an earlier ply that
// is not already there starts a variation rather than overwriting the line.
function treeFrom(moves) {
  const root = { move: null, kids: [] };
  let n = root;
  for (const m of moves) { const k = { move: m, kids: [] }; n.kids.push(k); n = k; }
  return root;
}
// treeNode is the node the first n moves of line lead to (null if none).
function treeNode(line, n) {
  let node = G.tree;
  for (let i = 0; i < n && node; i++) node = node.kids.find((k) => k.move === line[i]) || null;
  return node;
}
// treeAdd adds move after the line prefix (every move of it added too).
function treeAdd(prefix, move) {
  let node = G.tree;
  for (const m of prefix.concat([move])) {
    let k = node.kids.find((x) => x.move === m);
    if (!k) { k = { move: m, kids: [] }; node.kids.push(k); }
    node = k;
  }
  return node;
}
// mainAfter is the main line after node.
function mainAfter(node) {
  const out = [];
  for (let n = node; n && n.kids.length; n = n.kids[0]) out.push(n.kids[0].move);
  return out;
}
// setLine puts line on view, keeping the scores of the positions it
// shares with the line before.
function setLine(line) {
  let k = 0;
  while (k < line.length && k < G.moves.length && line[k] === G.moves[k]) k++;
  G.evals.length = Math.min(G.evals.length, k + 1);
  G.moves = line;
}
// goLine goes to the node prefix leads to, on the line through it.
async function goLine(prefix) {
  if (G.busy) return;
  const node = treeNode(prefix, prefix.length);
  if (!node) return;
  setLine(prefix.concat(mainAfter(node)));
  G.ply = prefix.length;
  await load();
}
// branchAt is the ply of the deepest move at or before ply on the line on
// view that is not its parent's main line (0: the line is the main line
// up to there).
function branchAt(ply) {
  let node = G.tree, at = 0;
  for (let i = 0; i < ply && node; i++) {
    const k = node.kids.find((x) => x.move === G.moves[i]);
    if (!k) break;
    if (node.kids[0] !== k) at = i + 1;
    node = k;
  }
  return at;
}
// promoteLine makes the line on view the main line.
function promoteLine() {
  let node = G.tree;
  for (const m of G.moves) {
    const i = node.kids.findIndex((x) => x.move === m);
    if (i < 0) break;
    const k = node.kids[i];
    node.kids.splice(i, 1); node.kids.unshift(k);
    node = k;
  }
  drawMoves();
}
// deleteVariation deletes the variation holding the ply on view and goes
// to the move it branched from.
async function deleteVariation() {
  const at = branchAt(G.ply);
  if (!at) return;
  const parent = treeNode(G.moves, at - 1), k = treeNode(G.moves, at);
  parent.kids.splice(parent.kids.indexOf(k), 1);
  await goLine(G.moves.slice(0, at - 1));
}

// mainRequest is the game request of the main line to its end, with the
// game's clock times and ending when that line is the game played; played
// says whether it is.
function mainRequest() {
  const main = mainAfter(G.tree);
  const played = main.length === G.moves.length && main.every((m, i) => m === G.moves[i]);
  const ply = G.ply;
  G.ply = G.moves.length;
  const q = req();
  G.ply = ply;
  if (!played) { q.moves = main; delete q.clocks; delete q.time_control; delete q.end; }
  return { q, played };
}

// mainRecord is the record of the game's main line: the project's record
// format holds one line, so variations are left out (mainPGN keeps them).
async function mainRecord() {
  const { q, played } = mainRequest();
  if (played && G.ply === G.moves.length) return G.state.record;
  return (await api('game', q)).record;
}

// treeVars is the variations of the line after node (record.Variation's
// JSON): each side line off its main line, at the index of the move it
// replaces, with the side lines off it in turn.
function treeVars(node) {
  const out = [];
  let i = 0;
  for (let n = node; n.kids.length; n = n.kids[0], i++) {
    for (const alt of n.kids.slice(1)) {
      out.push({ at: i, moves: [alt.move].concat(mainAfter(alt)), variations: treeVars(alt).map((v) => ({ ...v, at: v.at + 1 })) });
    }
  }
  return out;
}

// mainPGN is the game as PGN: the main line and every variation of the tree.
async function mainPGN() {
  const { q } = mainRequest();
  q.variations = treeVars(G.tree);
  return (await api('pgn', q)).pgn;
}

function drawMoves() {
  const ol = $('moves');
  ol.textContent = '';
  if (!G.tree) G.tree = treeFrom(G.moves);
  if (G.moves.length) treeAdd(G.moves.slice(0, -1), G.moves[G.moves.length - 1]);
  const startBlack = !!G.start && G.start.split(' ')[1] === 'b';
  const cur = treeNode(G.moves, G.ply);
  const white = (ply) => (ply % 2 === 1) !== startBlack; // ply counts from 1
  const number = (ply) => Math.floor((ply - 1 + (startBlack ? 1 : 0)) / 2) + 1;
  const span = (node, ply, path, variation) => {
    const s = document.createElement('span');
    s.className = 'mv';
    s.textContent = node.move;
    s.dataset.ply = ply;
    if (variation) s.dataset.var = '1';
    if (node === cur) s.classList.add('cur');
    s.onclick = () => goLine(path);
    return s;
  };
  const text = (parent, t, cls) => { const s = document.createElement('span'); s.className = cls; s.textContent = t; parent.appendChild(s); };
  // inline writes the line starting at node (a variation) into box, with
  // the variations inside it in parentheses.
  const inline = (box, node, ply, prefix) => {
    let first = true, parent = null;
    for (let n = node, p = ply, path = prefix; n; parent = n, n = n.kids[0], p++) {
      path = path.concat([n.move]);
      if (white(p) || first) text(box, number(p) + (white(p) ? '.' : '…'), 'vnum');
      box.appendChild(span(n, p, path, true));
      first = false;
      if (parent && parent.kids.length > 1) {
        for (const alt of parent.kids.slice(1)) {
          text(box, ' (', 'paren');
          inline(box, alt, p, path.slice(0, -1));
          text(box, ')', 'paren');
        }
        first = true;
      }
      if (!n.kids.length) break;
    }
  };
  let li = null, node = G.tree, ply = 0, path = [];
  const row = (p) => {
    li = document.createElement('li');
    const num = document.createElement('span'); num.className = 'num'; num.textContent = number(p) + '.';
    li.appendChild(num);
    if (!white(p)) { const s = document.createElement('span'); s.className = 'mv'; s.textContent = '…'; li.appendChild(s); }
    ol.appendChild(li);
  };
  while (node.kids.length) {
    const main = node.kids[0];
    ply++;
    path = path.concat([main.move]);
    if (!li || white(ply)) row(ply);
    li.appendChild(span(main, ply, path, false));
    if (node.kids.length > 1) {
      if (white(ply)) { const s = document.createElement('span'); s.className = 'mv'; s.textContent = '…'; li.appendChild(s); }
      const vars = document.createElement('li');
      vars.className = 'vars';
      for (const alt of node.kids.slice(1)) {
        text(vars, '(', 'paren');
        inline(vars, alt, ply, path.slice(0, -1));
        text(vars, ')', 'paren');
      }
      ol.appendChild(vars);
      li = null;
    } else if (!white(ply)) li = null;
    node = main;
  }
  const inVar = branchAt(G.ply) > 0;
  $('promote').hidden = $('delvar').hidden = !inVar;
  const c = ol.querySelector('.cur');
  if (c) c.scrollIntoView({ block: 'nearest' }); else ol.scrollTop = ol.scrollHeight;
}

async function load() {
  try {
    show(await api('game', req()));
  } catch (e) { setStatus(e.message, 'err'); }
}

async function goTo(ply) {
  if (G.busy || !Number.isFinite(ply)) return;
  G.ply = Math.max(0, Math.min(ply, G.moves.length));
  await load();
}

async function newGame(variant, start, moves, clock) {
  G.variant = variant; G.start = start || ''; G.moves = moves || []; G.ply = G.moves.length; G.analysis = null;
  G.tree = treeFrom(G.moves);
  G.end = null; G.evals = []; G.game++; G.busy = false; G.clock = clock || null;
  if (G.clock) { G.clock.since = performance.now(); G.clock.running = sideAt(G.ply); }
  G.info = await api('variants/' + encodeURIComponent(variant));
  $('variant').value = variant;
  fillPlayers();
  drawLegend();
  await load();
  if (G.mode === 'edit') editSetup();
  document.body.dataset.game = G.game; // the game on view (tests wait for it)
  maybeAgent();
}

// ---- drag -----------------------------------------------------------------
function svgPoint(evt) {
  const svg = $('board'), pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}
function squareAt(p) {
  const v = G.info;
  const col = Math.floor((p.x - MARGIN) / CELL), row = Math.floor(p.y / CELL);
  if (col < 0 || col >= v.files || row < 0 || row >= v.ranks) return null;
  const f = G.flipped ? v.files - 1 - col : col;
  const r = G.flipped ? row + v.first_rank : v.first_rank + v.ranks - 1 - row;
  return sqName(f, r);
}
let drag = null;
function setupInput() {
  const svg = $('board');
  svg.addEventListener('pointerdown', (e) => {
    const n = squareAt(svgPoint(e));
    if (!n) return;
    if (G.mode === 'edit') {
      const g = svg.querySelector(`g.piece[data-sq="${n}"]`);
      if (!g) { editSquare(n); return; }
      svg.appendChild(g); drag = { g, from: n, start: svgPoint(e), moved: false, edit: true }; svg.setPointerCapture(e.pointerId);
      return;
    }
    if (canMove() && ownPiece(n) && !targets().some((m) => m.to === n)) {
      G.selected = n; G.handSel = null; drawBoard();
      const g = svg.querySelector(`g.piece[data-sq="${n}"]`);
      if (g) { svg.appendChild(g); drag = { g, from: n, start: svgPoint(e), moved: false }; svg.setPointerCapture(e.pointerId); }
      return;
    }
    clickSquare(n);
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const p = svgPoint(e), dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (Math.hypot(dx, dy) > 4) drag.moved = true;
    drag.g.setAttribute('transform', `translate(${dx},${dy})`);
  });
  svg.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const d = drag; drag = null;
    const n = squareAt(svgPoint(e));
    if (d.edit) { // the editor: a piece dragged moves, one clicked is edited
      if (!d.moved || n === d.from) { editSquare(d.from); return; }
      if (n && G.info.holes.includes(n)) { editDraw(); $('edit-error').textContent = `${n} is a hole: no piece can stand there.`; return; }
      const pc = E.board.get(d.from);
      E.board.delete(d.from);
      if (n) E.board.set(n, pc); // dropped off the board: taken off
      editChanged();
      return;
    }
    if (!d.moved || !n || n === d.from) { drawBoard(); return; }
    clickSquare(n);
  });
}

// ---- analysis -------------------------------------------------------------
function startAnalysis() {
  stopAnalysis();
  const ctl = new AbortController();
  G.abort = ctl;
  $('go').disabled = true; $('stop').disabled = false;
  const st = G.state;
  if (!st || st.over) { $('analysis').innerHTML = '<p class="muted">The game is over here.</p>'; stopAnalysis(); return; }
  const model = $('model').value;
  const at = G.moves.slice(0, G.ply); // the line to the position searched
  (async () => {
    let sims = 200;
    while (!ctl.signal.aborted) {
      try {
        const rep = await api('analyse', req({ model, sims, movetime_ms: 3000, top: 8 }), ctl.signal);
        if (ctl.signal.aborted) return;
        rep.at = at;
        G.analysis = rep;
        if (rep.score) G.evals[G.ply] = whiteScore(rep.score, G.ply);
        drawAnalysis(rep);
        drawGraph();
        drawBoard();
        if (isEngine(model) || rep.proven || sims >= G.limits.max_sims) break; // the engine's one search uses its time
        sims = Math.min(sims * 2, G.limits.max_sims);
      } catch (e) {
        if (ctl.signal.aborted) return;
        if (e.status === 503) { await new Promise((r) => setTimeout(r, 500)); continue; }
        $('analysis').innerHTML = '';
        setStatus('Analysis: ' + e.message, 'err');
        break;
      }
    }
    if (G.abort === ctl) { $('go').disabled = false; $('stop').disabled = true; G.abort = null; }
  })();
}
function stopAnalysis() {
  if (G.abort) G.abort.abort();
  G.abort = null;
  $('go').disabled = false; $('stop').disabled = true;
}
function restartAnalysis() { G.analysis = null; startAnalysis(); }

// whiteScoreText turns a score for the side to move into White's view.
function whiteScoreText(score) {
  const [kind, n] = score.split(' ');
  return kind + ' ' + (G.state.side === 'white' ? 1 : -1) * parseInt(n, 10);
}
// scoreLabel writes an engine score ("cp 35", "mate -2") short: +0.35, #-2.
function scoreLabel(score) {
  const [kind, n] = score.split(' ');
  const v = parseInt(n, 10);
  return kind === 'mate' ? '#' + v : (v >= 0 ? '+' : '') + (v / 100).toFixed(2);
}

function drawAnalysis(rep) {
  const white = G.state.side === 'white' ? rep.value : -rep.value;
  $('evalfill').style.height = (50 + 50 * white) + '%';
  // The bar's number is the engine's score in pawns when it gives one (as
  // its lines do), else the network's value; both in White's view.
  $('evaltext').textContent = rep.score ? scoreLabel(whiteScoreText(rep.score)) : (white >= 0 ? '+' : '') + white.toFixed(2);
  if (rep.score) {
    // The alpha-beta engine: its best lines, each with its score.
    const lines = rep.top.map((m, i) => `<tr><td class="mv">${esc(m.move)}</td><td>${esc(scoreLabel(m.score))}</td><td style="text-align:left">${pvLinks(m.pv || [], i)}</td></tr>`).join('');
    $('analysis').innerHTML = `<div class="headline">${esc(rep.best)} <span class="muted">${esc(scoreLabel(rep.score))} for ${G.state.side}</span></div>
    <div class="muted">${esc(rep.model)} · depth ${rep.depth} · ${rep.nodes} nodes · ${rep.elapsed_ms} ms</div>
    <table><thead><tr><th>move</th><th>score</th><th>line</th></tr></thead><tbody>${lines}</tbody></table>`;
    return;
  }
  const rows = rep.top.map((m) => `<tr><td>${esc(m.move)}</td><td>${m.visits}</td><td>${(100 * m.prior).toFixed(1)}%</td><td>${m.q === null ? '–' : (m.q >= 0 ? '+' : '') + m.q.toFixed(3) + (m.proven ? '!' : '')}</td></tr>`).join('');
  $('analysis').innerHTML = `<div class="headline">${esc(rep.best)} <span class="muted">value ${(rep.value >= 0 ? '+' : '') + rep.value.toFixed(3)} for ${G.state.side}${rep.proven ? ' (proven)' : ''}</span></div>
    <div class="muted">${esc(rep.model)} · ${rep.sims} playouts · ${rep.elapsed_ms} ms</div>
    <table><thead><tr><th>move</th><th>visits</th><th>prior</th><th>q</th></tr></thead><tbody>${rows}</tbody></table>
    <div class="pv"><b>PV</b> ${pvLinks(rep.pv, -1)}</div>`;
}
// pvLinks writes a line's moves, each a link that enters the line up to it
// (line: its row in the analysis's lines, -1 for the network's PV).
function pvLinks(pv, line) {
  return pv.map((m, k) => `<a href="#" class="pvm" data-line="${line}" data-k="${k}">${esc(m)}</a>`).join(' ');
}
// enterPV plays the moves of an analysis line up to the one clicked from
// the position searched, in the variation tree like moves played there.
async function enterPV(a) {
  const rep = G.analysis;
  if (!rep || !rep.at || G.busy) return;
  const line = parseInt(a.dataset.line, 10), k = parseInt(a.dataset.k, 10);
  const pv = line < 0 ? rep.pv : (rep.top[line] || {}).pv;
  if (!pv || !(k < pv.length)) return;
  const moves = pv.slice(0, k + 1);
  const n = treeAdd(rep.at.concat(moves.slice(0, -1)), moves[moves.length - 1]);
  G.end = null; G.clock = null; // a line entered from the analysis is untimed, not over
  setLine(rep.at.concat(moves, mainAfter(n)));
  G.ply = rep.at.length + moves.length;
  await load();
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

// ---- the evaluation graph --------------------------------------------------
// The engine's score of every position it searched (G.evals, White's
// view), in pawns clipped at ±10, a mate at the edge; a click on it goes
// to the ply under the pointer.
const GRAPH_H = 120, GRAPH_CLIP = 10;
// graphW is the graph's width in its own units: its box's aspect times
// GRAPH_H, so that it fills the width under the board, whatever the
// board's, with round points and upright text.
let graphW = 640;
function evalPawns(e) {
  return e.mate !== undefined ? (e.mate > 0 ? GRAPH_CLIP : -GRAPH_CLIP) : Math.max(-GRAPH_CLIP, Math.min(GRAPH_CLIP, e.cp / 100));
}
function graphX(ply) { return 6 + ply * (graphW - 12) / Math.max(1, G.moves.length); }
function drawGraph() {
  const svg = $('evalgraph'), n = G.moves.length;
  const pts = [];
  for (let p = 0; p <= n; p++) if (G.evals[p]) pts.push([p, G.evals[p]]);
  const was = $('graph-card').hidden;
  $('graph-card').hidden = !pts.length || G.mode === 'edit';
  if (was !== !pts.length) fitBoard();
  svg.textContent = '';
  if (!pts.length) return;
  const box = svg.getBoundingClientRect();
  if (box.width > 0 && box.height > 0) graphW = Math.round(box.width * GRAPH_H / box.height);
  svg.setAttribute('viewBox', `0 0 ${graphW} ${GRAPH_H}`);
  // The scale is logarithmic in pawns (the middle pawns spread out, so an
  // opening's half-pawn edge shows; ±10 at the edges), gridlines at ±1 and ±3.
  const Y = (v) => GRAPH_H / 2 - Math.sign(v) * Math.log1p(Math.abs(v)) / Math.log1p(GRAPH_CLIP) * (GRAPH_H / 2 - 6);
  el('rect', { x: 0, y: 0, width: graphW, height: GRAPH_H, class: 'bg' }, svg);
  const line = pts.map(([p, e]) => graphX(p).toFixed(1) + ',' + Y(evalPawns(e)).toFixed(1));
  // White's share, below the line, held level before the first score and
  // after the last across the whole game.
  const y0 = Y(evalPawns(pts[0][1])).toFixed(1), y1 = Y(evalPawns(pts[pts.length - 1][1])).toFixed(1);
  el('polygon', { points: `${graphX(0)},${GRAPH_H} ${graphX(0)},${y0} ${line.join(' ')} ${graphX(n)},${y1} ${graphX(n)},${GRAPH_H}`, class: 'area' }, svg);
  for (const g of [-3, -1, 1, 3]) {
    el('line', { x1: 0, x2: graphW, y1: Y(g), y2: Y(g), class: 'grid' }, svg);
    el('text', { x: graphW - 4, y: Y(g) + 3, 'text-anchor': 'end', class: 'tick' }, svg).textContent = (g > 0 ? '+' : '−') + Math.abs(g);
  }
  el('line', { x1: 0, x2: graphW, y1: Y(0), y2: Y(0), class: 'zero' }, svg);
  el('polyline', { points: line.join(' '), class: 'line' }, svg);
  el('line', { x1: graphX(G.ply), x2: graphX(G.ply), y1: 0, y2: GRAPH_H, class: 'cur' }, svg);
  for (const [p, e] of pts) {
    const c = el('circle', { cx: graphX(p), cy: Y(evalPawns(e)), r: 3.5, class: 'pt' + (e.mate !== undefined ? ' mate' : ''), 'data-ply': p }, svg);
    el('title', {}, c).textContent = `ply ${p}: ` + (e.mate !== undefined ? '#' + e.mate : (e.cp >= 0 ? '+' : '') + (e.cp / 100).toFixed(2));
  }
  el('text', { x: 4, y: 11, class: 'tick' }, svg).textContent = '+' + GRAPH_CLIP;
  el('text', { x: 4, y: GRAPH_H - 3, class: 'tick' }, svg).textContent = '−' + GRAPH_CLIP;
}
function graphClick(evt) {
  const svg = $('evalgraph'), pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const x = pt.matrixTransform(svg.getScreenCTM().inverse()).x;
  const ply = Math.round((x - 6) / ((graphW - 12) / Math.max(1, G.moves.length)));
  goTo(Math.max(0, Math.min(G.moves.length, ply)));
}
// graphEngine is the engine that scores the graph: the one analysing (in
// Analyse) or played (in Play), so that a learned net's scores are not
// mixed with the classical evaluation's; else the classical engine.
function graphEngine() {
  const m = G.mode === 'analyse' ? $('model').value : G.opponent;
  return isEngine(m) ? m : ENGINE; // the request's movetime_ms is the search's time
}
// evalGame has the engine search every position of the game it has not
// scored yet, a short search each, and draws the graph as it goes.
const GRAPH_MS = 150, GRAPH_MAX_PLIES = 600;
async function evalGame() {
  const game = G.game, n = Math.min(G.moves.length, GRAPH_MAX_PLIES);
  $('graph').disabled = true;
  try {
    for (let p = 0; p <= n && game === G.game; p++) {
      if (G.evals[p]) continue;
      const q = req({ model: graphEngine(), movetime_ms: GRAPH_MS, top: 1 });
      q.moves = G.moves.slice(0, p);
      delete q.end;
      if (q.clocks) q.clocks = q.clocks.slice(0, p);
      let rep;
      try { rep = await api('analyse', q); } catch (e) {
        if (e.status === 503) { await new Promise((r) => setTimeout(r, 300)); p--; continue; }
        if (e.status === 422 && p === G.moves.length) { // the game's end: a mate scores at the edge
          const st = await api('game', Object.assign(q, { moves: G.moves.slice(0, p) }));
          if (st.result === '1-0' || st.result === '0-1') G.evals[p] = { mate: st.result === '1-0' ? 1 : -1 };
          break;
        }
        throw e;
      }
      if (game !== G.game) return;
      G.evals[p] = whiteScore(rep.score, p);
      drawGraph();
    }
    setStatus('Evaluated ' + (n + 1) + ' positions.');
  } catch (e) { setStatus('Eval graph: ' + e.message, 'err'); }
  finally { $('graph').disabled = false; drawGraph(); }
}

// ---- games ----------------------------------------------------------------
async function showGames() {
  const tb = $('games-table').querySelector('tbody');
  tb.innerHTML = '<tr><td colspan="8" class="muted">Loading…</td></tr>';
  try {
    const j = await api('games');
    tb.textContent = '';
    if (!j.games.length) tb.innerHTML = '<tr><td colspan="8" class="muted">No games yet: run match, play or train, or import a PGN file.</td></tr>';
    for (const g of j.games) {
      const t = g.tags, tr = document.createElement('tr');
      tr.dataset.id = g.id;
      for (const x of [g.id.split('/').pop().replace(/\.(txt|pgn)$/, ''), t.Variant || 'fbgc', t.White || t.Model || '?', t.Black || t.Model || '?', t.Result || '*', t.Termination || '', t.Plies || '']) {
        const td = document.createElement('td'); td.textContent = x; tr.appendChild(td);
      }
      const td = document.createElement('td'), a = document.createElement('a');
      a.href = '/api/games/pgn?id=' + encodeURIComponent(g.id); a.textContent = 'PGN'; a.className = 'pgn-export';
      a.onclick = (e) => e.stopPropagation();
      td.appendChild(a); tr.appendChild(td);
      tr.onclick = () => openGame(g.id);
      tb.appendChild(tr);
    }
  } catch (e) { tb.innerHTML = `<tr><td colspan="8">${esc(e.message)}</td></tr>`; }
}
// importPGN sends a chosen PGN file to the server, which saves its games
// among the saved games, and lists the games again.
async function importPGN(file) {
  const st = $('pgn-status');
  st.textContent = 'Importing…';
  try {
    const j = await api('games/import', { pgn: await file.text() });
    st.textContent = `Imported ${j.ids.length} game${j.ids.length === 1 ? '' : 's'}.`;
  } catch (e) { st.textContent = e.message; }
  $('pgn-file').value = '';
  await showGames();
}
async function openGame(id) {
  const g = await api('games/record?id=' + encodeURIComponent(id));
  location.hash = '#analyse';
  await newGame(g.variant, g.start, g.moves);
  treeAddVars([], g.moves, g.variations || []);
  await goTo(0);
}
// treeAddVars adds to the tree the variations vars (record.Variation's
// JSON, an imported PGN's) of line, the moves played after prefix: each
// replaces the line's move at, with its own variations in turn.
function treeAddVars(prefix, line, vars) {
  for (const v of vars) {
    const base = prefix.concat(line.slice(0, v.at));
    v.moves.forEach((m, i) => treeAdd(base.concat(v.moves.slice(0, i)), m));
    treeAddVars(base, v.moves, v.variations || []);
  }
}

// ---- the board editor -----------------------------------------------------
// The editor holds a position of the current variant as the squares'
// pieces, the side to move, the castling rights and the pieces in hand; it
// writes the position text from them as it changes, and the server checks
// the text with the rules' own parser (its error is shown beside the
// field). A text typed into the field is read back through the server too.
const E = { board: new Map(), side: 'w', castling: '', hands: [0, 0], nums: '0 1', tool: null, text: '', ok: false, check: 0, state: null, timer: null, pending: null };

// editRights is the variant's castling letters (those of its start).
function editRights() { const f = (G.info.start || '').split(/\s+/)[2]; return f && f !== '-' ? f : ''; }

// editText writes the editor's position as the position text.
function editText() {
  const v = G.info, holes = new Set(v.holes), rows = [];
  for (let r = v.first_rank + v.ranks - 1; r >= v.first_rank; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < v.files; f++) {
      const n = sqName(f, r), pc = E.board.get(n);
      if (!holes.has(n) && !pc) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += holes.has(n) ? '*' : pc;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let text = rows.join('/');
  if (v.drop) text += '[' + v.drop.repeat(E.hands[0]) + v.drop.toLowerCase().repeat(E.hands[1]) + ']';
  const rights = editRights().split('').filter((c) => E.castling.includes(c)).join('');
  return `${text} ${E.side} ${rights || '-'} - ${E.nums}`; // an en passant square only typed
}

// editNums is a position text's half-move clock and move number.
function editNums(text) {
  const f = text.trim().split(/\s+/);
  return (f[4] || '0') + ' ' + (f[5] || '1');
}

// editDraw draws the editor's position (a state without moves).
function editDraw() {
  const hands = [{}, {}];
  if (G.info.drop) { hands[0][G.info.drop] = E.hands[0]; hands[1][G.info.drop] = E.hands[1]; }
  E.state = { board: [...E.board].map(([square, piece]) => ({ square, piece })), hands, last: null, legal: [], side: E.side === 'w' ? 'white' : 'black', position: E.text };
  drawBoard();
  for (const b of $('palette').querySelectorAll('button')) {
    const on = b.dataset.piece === E.tool;
    b.classList.toggle('sel', on); b.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  $('edit-side').value = E.side;
  for (const c of $('edit-castling').querySelectorAll('input')) c.checked = E.castling.includes(c.value);
  $('edit-hand-w').value = E.hands[0]; $('edit-hand-b').value = E.hands[1];
}

// editChanged writes the text of the editor's position and checks it.
function editChanged() {
  E.text = editText();
  $('edit-fen').value = E.text;
  editDraw();
  editCheck(E.text, false);
}

// editCheck has the server read text; with adopt, a text it accepts
// replaces the editor's position (a typed text).
// editCheck has the server read text; E.pending is the check in flight,
// which Play and Analyse wait for (a click while it runs is not lost).
function editCheck(text, adopt) {
  E.pending = editCheckNow(text, adopt);
  return E.pending;
}
async function editCheckNow(text, adopt) {
  const n = ++E.check, box = $('edit-error');
  E.ok = false;
  try {
    const st = await api('game', { variant: G.variant, start: text, moves: [] });
    if (n !== E.check) return;
    E.ok = true; E.text = text;
    box.textContent = `Legal: ${st.side} to move${st.in_check ? ', in check' : ''}${st.over ? `, the game is over (${st.result}, ${st.termination})` : ''}.`;
    box.className = 'edit-error ok';
    if (adopt) {
      E.board = new Map(st.board.map((p) => [p.square, p.piece]));
      E.side = st.side === 'white' ? 'w' : 'b';
      const f = text.trim().split(/\s+/)[2];
      E.castling = f && f !== '-' ? f : '';
      E.nums = editNums(text);
      if (G.info.drop) E.hands = [st.hands[0][G.info.drop] || 0, st.hands[1][G.info.drop] || 0];
      editDraw();
    }
  } catch (e) {
    if (n !== E.check) return;
    box.textContent = e.message;
    box.className = 'edit-error';
  }
}

// editLoad sets the editor to a position text the server accepted.
function editLoad(st) {
  E.board = new Map(st.board.map((p) => [p.square, p.piece]));
  E.side = st.side === 'white' ? 'w' : 'b';
  const f = st.position.split(/\s+/)[2];
  E.castling = f && f !== '-' ? f : '';
  E.nums = editNums(st.position);
  E.hands = G.info.drop ? [st.hands[0][G.info.drop] || 0, st.hands[1][G.info.drop] || 0] : [0, 0];
  editChanged();
}

// editSetup draws the palette and the castling boxes of the variant and
// loads the position on view.
function editSetup() {
  const pal = $('palette');
  pal.textContent = '';
  // White's pieces on a row, Black's on the next, then the eraser.
  const rows = [G.info.pieces.map((p) => p.letter), G.info.pieces.map((p) => p.letter.toLowerCase()), ['']];
  for (const tools of rows) {
    const rowBox = document.createElement('div');
    rowBox.className = 'prow';
    pal.appendChild(rowBox);
    for (const t of tools) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.piece = t;
      if (t) {
        const s = document.createElementNS(SVG, 'svg');
        s.setAttribute('viewBox', '0 0 40 40');
        drawPiece(s, t, 20, 20, 40);
        b.appendChild(s);
        b.title = (t === t.toUpperCase() ? 'White ' : 'Black ') + (pieceInfo(t).name || t);
      } else { b.className = 'eraser'; b.textContent = '⌫'; b.title = 'eraser: empties a square'; }
      b.setAttribute('aria-label', b.title);
      b.addEventListener('pointerdown', (e) => { E.tool = t; E.paletteDrag = e.pointerId; editDraw(); });
      rowBox.appendChild(b);
    }
  }
  const cb = $('edit-castling');
  cb.textContent = '';
  for (const c of editRights()) {
    const l = document.createElement('label'), i = document.createElement('input');
    i.type = 'checkbox'; i.value = c;
    i.onchange = () => { E.castling = i.checked ? E.castling + c : E.castling.replace(c, ''); editChanged(); };
    l.appendChild(i); l.appendChild(document.createTextNode({ K: 'White O-O', Q: 'White O-O-O', k: 'Black O-O', q: 'Black O-O-O' }[c] || c));
    cb.appendChild(l);
  }
  if (!editRights()) cb.textContent = 'No castling in this variant.';
  $('edit-hands').hidden = !G.info.drop;
  E.variant = G.variant;
  if (G.state) editLoad(G.state);
}

// editSquare puts the chosen piece on square n (or empties it with the
// eraser; the same piece again takes it off).
function editSquare(n) {
  if (G.info.holes.includes(n)) { $('edit-error').textContent = `${n} is a hole: no piece can stand there.`; $('edit-error').className = 'edit-error'; return; }
  if (E.tool === null) { $('edit-error').textContent = 'Choose a piece or the eraser first.'; $('edit-error').className = 'edit-error'; return; }
  if (E.tool === '' || E.board.get(n) === E.tool) E.board.delete(n); else E.board.set(n, E.tool);
  editChanged();
}

function editEnter() {
  if (E.variant !== G.variant || !$('palette').querySelector('button')) editSetup();
  else if (G.state) editLoad(G.state);
  setStatus('Set up a position, then play or analyse it.');
}

async function editStart(view) {
  if (!E.ok && E.pending) await E.pending;
  if (!E.ok) { $('edit-error').className = 'edit-error'; if (!$('edit-error').textContent) $('edit-error').textContent = 'The position is not checked yet.'; return; }
  let clock = null;
  if (view === 'play') { try { clock = readClock(); } catch (e) { clock = null; } }
  location.hash = '#' + view;
  route();
  await newGame(G.variant, E.text, [], clock);
}

function editInit() {
  $('edit-side').onchange = () => { E.side = $('edit-side').value; editChanged(); };
  for (const [i, id] of [[0, 'edit-hand-w'], [1, 'edit-hand-b']]) {
    $(id).onchange = () => { E.hands[i] = Math.max(0, Math.min(20, parseInt($(id).value, 10) || 0)); editChanged(); };
  }
  $('edit-fen').addEventListener('input', () => {
    clearTimeout(E.timer);
    E.ok = false;
    E.timer = setTimeout(() => editCheck($('edit-fen').value.trim(), true), 250);
  });
  $('edit-start').onclick = async () => { editLoad(await api('game', { variant: G.variant, start: '', moves: [] })); };
  $('edit-clear').onclick = () => { E.board.clear(); E.castling = ''; E.hands = [0, 0]; E.nums = '0 1'; editChanged(); };
  $('edit-play').onclick = () => editStart('play');
  $('edit-analyse').onclick = () => editStart('analyse');
  // A piece dragged from the palette lands where the pointer is let go.
  document.addEventListener('pointerup', (e) => {
    if (E.paletteDrag !== e.pointerId) return;
    E.paletteDrag = null;
    if (G.mode !== 'edit' || !$('board').contains(document.elementFromPoint(e.clientX, e.clientY))) return;
    const n = squareAt(svgPoint(e));
    if (n) editSquare(n);
  });
}

// ---- training -------------------------------------------------------------
// Okabe and Ito's colour-blind-safe palette, darkest first (metrics/plot draws the same).
const COLORS = ['#0072b2', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#000000', '#f0e442'];
let runTimer = null, runName = null, overlayName = '';
async function showRuns() {
  const box = $('runs');
  try {
    const j = await api('runs');
    box.textContent = '';
    if (!j.runs.length) box.innerHTML = '<p class="muted">No runs in --runs yet.</p>';
    for (const r of j.runs) {
      const b = document.createElement('button');
      b.dataset.run = r.name;
      b.innerHTML = `${esc(r.name)}<small>${esc(runCardText(r))}</small>`;
      if (r.name === runName) b.classList.add('sel');
      b.onclick = () => openRun(r.name);
      box.appendChild(b);
    }
    // The second run to draw over the charts: any other run.
    const sel = $('overlay');
    sel.innerHTML = '<option value="">none</option>' + j.runs.map((r) => `<option value="${esc(r.name)}">${esc(r.name)}</option>`).join('');
    sel.value = overlayName;
    if (!runName && j.runs.length) openRun(j.runs[0].name);
  } catch (e) { box.innerHTML = `<p class="muted">${esc(e.message)}</p>`; }
}
// runCardText is a run card's line: its generations and games, and how
// many of those the Games page lists (the records in its games/).
function runCardText(r) {
  const games = r.games ? `${r.games} games` + (r.records < r.games ? ` (${r.records} in Games)` : '') : 'no games yet';
  return `${r.generations} generation${r.generations === 1 ? '' : 's'} · ${games}`;
}
// refreshCards rewrites the run cards' lines as their runs go on.
async function refreshCards() {
  let j;
  try { j = await api('runs'); } catch (e) { return; }
  for (const r of j.runs) {
    const small = $('runs').querySelector(`button[data-run="${CSS.escape(r.name)}"] small`);
    if (small) small.textContent = runCardText(r);
  }
}
async function openRun(name) {
  runName = name;
  if (overlayName === name) { overlayName = ''; $('overlay').value = ''; }
  for (const b of $('runs').children) b.classList.toggle('sel', b.dataset.run === name);
  for (const o of $('overlay').options) o.disabled = o.value === name;
  $('run').hidden = false;
  $('run-title').textContent = name;
  try { $('config').textContent = (await api(`runs/${encodeURIComponent(name)}/config`)).config; } catch (e) { $('config').textContent = e.message; }
  await refreshRun();
  clearInterval(runTimer);
  runTimer = setInterval(refreshRun, G.poll);
}
// runCharts is the charts of a run's metrics records: [id, title, x
// label, series], each series [name, points].
function runCharts(R) {
  const gen = (f) => R.map((r) => [r.generation, f(r)]).filter((p) => p[1] !== undefined && p[1] !== null);
  const tr = (k) => gen((r) => r.train && r.train[k]);
  const sp = (k) => gen((r) => r.selfplay && r.selfplay[k]);
  const share = (k) => gen((r) => { const s = r.selfplay; if (!s) return undefined; const n = (s.white_wins || 0) + (s.draws || 0) + (s.black_wins || 0); return n ? (s[k] || 0) / n : undefined; });
  // Generation 0's games are the teacher's, played far faster than
  // self-play: once self-play has begun they are left out of the speed
  // chart (and named in its title), so that they do not flatten it.
  let gph = sp('games_per_hour'), gphTitle = 'Self-play games per hour';
  const teacher = gph.find((p) => p[0] === 0);
  if (teacher && gph.some((p) => p[0] > 0)) {
    gph = gph.filter((p) => p[0] > 0);
    gphTitle += ` (generation 0, the teacher's: ${fmt(teacher[1])}/h, left out)`;
  }
  const elo = R.map((r) => { const l = (r.ladder || []).find((x) => x.player === r.model); return l ? [r.elapsed_s / 3600, l.elo, l.low, l.high] : null; }).filter(Boolean);
  return [
    ['losses', 'Losses', 'generation', [['policy', tr('policy_loss')], ['value', tr('value_loss')], ['total', tr('loss')]]],
    ['accuracy', 'Policy accuracy', 'generation', [['accuracy', tr('policy_accuracy')]]],
    ['elo', 'Elo (ladder, 95% interval)', 'hours', [['Elo', elo]]],
    ['gph', gphTitle, 'generation', [['games/h', gph]]],
    ['results', 'Self-play results', 'generation', [['white wins', share('white_wins')], ['draws', share('draws')], ['black wins', share('black_wins')]]],
    ['length', 'Mean game length (plies)', 'generation', [['plies', sp('mean_plies')]]],
  ];
}
// drawTeacher shows a run's teacher round (its games so far of the
// round's): in place of the charts while they have no generation yet,
// above them in a later round.
function drawTeacher(tp, empty) {
  const box = $('teacher');
  box.hidden = !tp;
  $('charts').hidden = !!tp && empty;
  if (!tp) return;
  const pct = tp.total ? Math.min(100, 100 * tp.games / tp.total) : 0;
  const round = tp.rounds > 1 ? ` (round ${tp.round} of ${tp.rounds})` : '';
  box.innerHTML = `<h3>Generation ${tp.generation}: the ${esc(tp.player)} teacher is playing${round}</h3>
    <progress max="${tp.total}" value="${Math.min(tp.games, tp.total)}"></progress>
    <p><b data-teacher-games>${tp.games}</b> of ${tp.total} games (${pct.toFixed(0)}%) · ${tp.chunks} data chunk${tp.chunks === 1 ? '' : 's'} in the run.
    ${empty ? 'The charts begin when generation 0 ends: the network then trains on these games.' : `The network trains on the round's games when generation ${tp.generation} ends.`}</p>`;
}
async function refreshRun() {
  if (!runName || G.view !== 'training') return;
  let j, k = null;
  try { j = await api(`runs/${encodeURIComponent(runName)}/metrics`); } catch (e) { return; }
  if (overlayName) { try { k = await api(`runs/${encodeURIComponent(overlayName)}/metrics`); } catch (e) { k = null; } }
  const R = j.records;
  refreshCards();
  drawTeacher(j.teacher, R.length === 0);
  const charts = runCharts(R);
  const other = k ? runCharts(k.records) : null;
  const box = $('charts');
  charts.forEach(([id, title, xl, series], c) => {
    let card = box.querySelector(`[data-chart="${id}"]`);
    if (!card) {
      card = document.createElement('div'); card.className = 'card chart-card'; card.dataset.chart = id;
      box.appendChild(card);
    }
    // The second run's series are drawn dashed, each in its own series' colour.
    const all = series.map(([n, p], i) => [n, p, i, false]);
    if (other) other[c][3].forEach(([n, p], i) => all.push([n, p, i, true]));
    card.innerHTML = `<h3>${esc(title)}</h3>`;
    card.appendChild(lineChart(all, xl));
    const lg = document.createElement('div'); lg.className = 'legend';
    lg.innerHTML = series.map(([n], i) => `<span><i style="background:${COLORS[i]}"></i>${esc(n)}</span>`).join('') +
      (other ? `<span class="overlay-key"><i class="dashed" style="border-color:${COLORS[0]}"></i>dashed: ${esc(overlayName)}</span>` : '');
    card.appendChild(lg);
  });
  const last = R[R.length - 1];
  const tb = $('ladder').querySelector('tbody');
  tb.innerHTML = last && last.ladder ? last.ladder.map((l) => `<tr><td>${esc(l.player)}</td><td>${l.elo.toFixed(0)}</td><td>${l.low.toFixed(0)} – ${l.high.toFixed(0)}</td><td>${l.games}</td></tr>`).join('') : '<tr><td colspan="4" class="muted">No ladder yet.</td></tr>';
}
// lineChart draws series, each [name, points, colour index, dashed], on
// one pair of axes.
function lineChart(series, xlabel) {
  const W = 360, H = 190, L = 44, B = 26, T = 8, Rm = 10;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.style.setProperty('--aspect', (W / H).toFixed(4)); svg.setAttribute('class', 'chart');
  const pts = series.flatMap(([, p]) => p);
  svg.dataset.points = pts.length;
  if (!pts.length) { el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = 'no data yet'; return svg; }
  const xs = pts.map((p) => p[0]), ys = pts.flatMap((p) => p.length > 3 ? [p[2], p[3]] : [p[1]]);
  let x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  if (x0 === x1) { x0 -= 1; x1 += 1; }
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const pad = (y1 - y0) * 0.08, low = y0;
  y0 -= pad; y1 += pad;
  if (low >= 0 && y0 < 0) y0 = 0; // counts, rates and shares never go below 0
  // y ticks at round steps too, the axis widened to whole steps, each
  // label with as many decimals as its step needs (so no two read alike).
  const ystep = roundStep((y1 - y0) / 4);
  y0 = Math.floor(y0 / ystep + 1e-9) * ystep; y1 = Math.ceil(y1 / ystep - 1e-9) * ystep;
  const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - Rm), Y = (y) => T + (1 - (y - y0) / (y1 - y0)) * (H - T - B);
  for (let i = 0, n = Math.round((y1 - y0) / ystep); i <= n; i++) {
    const y = y0 + i * ystep;
    el('line', { x1: L, x2: W - Rm, y1: Y(y), y2: Y(y), class: 'grid' }, svg);
    el('text', { x: L - 5, y: Y(y) + 3, 'text-anchor': 'end', class: 'tick' }, svg).textContent = tickLabel(y, ystep);
  }
  el('line', { x1: L, x2: W - Rm, y1: H - B, y2: H - B, class: 'axis' }, svg);
  // x ticks at round steps (about five of them; whole numbers for
  // generations), the axis name under them.
  let step = roundStep((x1 - x0) / 5);
  if (xlabel === 'generation') step = Math.max(1, Math.round(step));
  for (let i = Math.ceil(x0 / step - 1e-9); i * step <= x1 + step * 1e-9; i++) {
    const x = i * step;
    el('line', { x1: X(x), x2: X(x), y1: T, y2: H - B, class: 'grid' }, svg);
    el('text', { x: X(x), y: H - B + 11, 'text-anchor': 'middle', class: 'tick xtick' }, svg).textContent = tickLabel(x, step);
  }
  el('text', { x: (L + W) / 2, y: H - 2, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = xlabel;
  for (const [, p, ci, dashed] of series) {
    if (!p.length) continue;
    const color = COLORS[ci];
    for (const q of p) if (q.length > 3) el('line', { x1: X(q[0]), x2: X(q[0]), y1: Y(q[2]), y2: Y(q[3]), stroke: color, 'stroke-width': 1.5, opacity: 0.5 }, svg);
    el('polyline', { points: p.map((q) => X(q[0]) + ',' + Y(q[1])).join(' '), class: 'series' + (dashed ? ' dashed' : ''), stroke: color }, svg);
    for (const q of p) el('circle', dashed ? { cx: X(q[0]), cy: Y(q[1]), r: 2.8, fill: '#fff', stroke: color, 'stroke-width': 1.5 } : { cx: X(q[0]), cy: Y(q[1]), r: 2.8, fill: color }, svg);
  }
  return svg;
}
function fmt(v) { const a = Math.abs(v); return a >= 100 ? v.toFixed(0) : a >= 1 ? v.toFixed(1) : v.toFixed(2); }
// roundStep is the smallest of 1, 2 or 5 times a power of ten that is at
// least raw: an axis step whose multiples read as round numbers.
function roundStep(raw) {
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map((k) => k * mag).find((k) => k >= raw * (1 - 1e-9));
}
// tickLabel writes v, a multiple of step, with the decimals step needs.
function tickLabel(v, step) {
  const d = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  const s = v.toFixed(d);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

// ---- players ---------------------------------------------------------------
// fillPlayers lists the opponents and the analysis models for the game's
// variant: the engine with its classical evaluation and with each learned
// net of --models and the runs trained for this variant, the other players,
// and the network checkpoints of --models and the runs trained for this
// variant (a net or checkpoint of another variant is not offered; one whose
// file does not read is listed, unplayable, with the reason). A choice
// still offered is kept; a net's engine or a checkpoint gone with its
// variant gives way to the classical engine.
function fillPlayers() {
  const ps = G.players;
  if (!ps) return;
  const ours = (x) => x.error || x.variant === G.variant;
  const engines = (ps.engines || []).filter((e) => e.net && ours(e));
  const models = (ps.models || []).filter(ours);
  const add = (sel, value, text, bad) => {
    const o = document.createElement('option'); o.value = value; o.textContent = text;
    o.title = bad || text; // the whole label where the list is narrower
    if (bad) o.disabled = true;
    sel.appendChild(o);
  };
  const timed = (label, t) => label.replace(/^engine(, | \()/, `engine, ${t} s a move$1`);
  const opp = $('opponent'), was = opp.value;
  opp.textContent = '';
  add(opp, 'human', 'a friend (both sides here)');
  add(opp, ENGINE, 'engine, classical evaluation, by its clock');
  for (const p of ENGINE_TIMES) {
    const t = MOVETIME.exec(p);
    add(opp, p, `engine, ${t[2] === 'ms' ? +t[1] / 1000 : t[1]} s a move, classical evaluation (within its clock)`);
  }
  for (const e of engines) {
    if (e.error) { add(opp, e.spec, `${e.label}: cannot be played`, e.error); continue; }
    add(opp, e.spec, e.label + ', by its clock');
    add(opp, e.spec.replace(/^engine:/, 'engine:movetime=1s:'), timed(e.label, 1) + ' (within its clock)');
  }
  for (const p of ps.players) add(opp, p, p);
  for (const m of models) add(opp, m.name + ':200', m.error ? `${m.label}: cannot be played` : m.label + ', 200 playouts', m.error);
  opp.value = was;
  if (opp.value !== was || !was) opp.value = was ? ENGINE : 'random'; // a net or checkpoint of another variant; the first filling
  G.opponent = opp.value;
  const model = $('model'), had = model.value;
  model.textContent = '';
  for (const m of ps.evaluators) add(model, m, m === ENGINE ? 'engine (classical evaluation)' : m);
  for (const e of engines) add(model, e.spec, e.error ? `${e.label}: cannot be played` : e.label, e.error);
  for (const m of models) add(model, m.name, m.error ? `${m.label}: cannot be played` : m.label, m.error);
  model.value = had;
  if (model.value !== had || !had) model.value = ENGINE;
}

// ---- views ----------------------------------------------------------------
function route() {
  const view = (location.hash || '#play').slice(1);
  G.view = view;
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === view);
  $('board-view').hidden = !(view === 'play' || view === 'analyse' || view === 'edit');
  $('games-view').hidden = view !== 'games';
  $('training-view').hidden = view !== 'training';
  $('play-panel').hidden = view !== 'play';
  $('analyse-panel').hidden = view !== 'analyse';
  $('edit-panel').hidden = view !== 'edit';
  document.body.classList.toggle('editing', view === 'edit'); // the editor hides the move box and list
  $('evalbar').style.visibility = view === 'analyse' ? 'visible' : 'hidden';
  const was = G.mode;
  G.mode = view === 'analyse' ? 'analyse' : view === 'edit' ? 'edit' : 'play';
  if (was === 'analyse' && G.mode !== 'analyse') { stopAnalysis(); G.analysis = null; }
  if (view === 'games') showGames();
  if (view === 'training') showRuns();
  if (G.state) show(G.state);
  if (G.mode === 'edit' && G.info) editEnter();
  fitBoard();
}

async function init() {
  pieceDefs($('piece-defs'));
  const params = new URLSearchParams(location.search);
  G.poll = Math.max(200, parseInt(params.get('poll') || '3000', 10));
  const [vs, ps] = await Promise.all([api('variants'), api('players')]);
  G.limits = ps.limits;
  for (const v of vs.variants) {
    const o = document.createElement('option'); o.value = v.name; o.textContent = v.name; o.title = v.description;
    $('variant').appendChild(o);
  }
  G.players = ps;
  const opp = $('opponent');
  fillPlayers();
  $('variant').onchange = () => newGame($('variant').value);
  $('pgn-file').onchange = () => { const f = $('pgn-file').files[0]; if (f) importPGN(f); };
  opp.onchange = () => { G.opponent = opp.value; maybeAgent(); };
  $('color').onchange = () => { G.human = $('color').value; G.flipped = G.human === 'black'; drawBoard(); maybeAgent(); };
  $('new').onclick = () => {
    let clock;
    try { clock = readClock(); } catch (e) { setStatus(e.message, 'err'); return; }
    newGame($('variant').value, '', [], clock);
  };
  $('resign').onclick = resign;
  $('move-input').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const text = e.target.value.trim();
    if (!text) return;
    if (!canMove()) { setStatus('Not your move now.', 'err'); return; }
    if (text.length > 40) { setStatus('Move: at most 40 characters.', 'err'); return; }
    e.target.value = '';
    tryMove(text);
  });
  $('draw').onclick = offerDraw;
  $('graph').onclick = evalGame;
  setInterval(tickClock, 100);
  $('evalgraph').addEventListener('click', graphClick);
  $('analysis').addEventListener('click', (e) => {
    const a = e.target.closest('a.pvm');
    if (!a) return;
    e.preventDefault();
    enterPV(a);
  });
  $('undo').onclick = () => {
    if (G.busy) return;
    if (G.clock || G.end) { setStatus(G.end ? 'The game is over: no takebacks.' : 'No takebacks in a timed game.', 'err'); return; }
    let n = G.ply - 1;
    if (G.mode === 'play' && G.opponent !== 'human' && n > 0 && (n % 2 === 0) !== (G.human === 'white')) n--;
    n = Math.max(0, n);
    const parent = treeNode(G.moves, n), gone = treeNode(G.moves, n + 1); // a takeback forgets the moves taken back
    if (parent && gone) parent.kids.splice(parent.kids.indexOf(gone), 1);
    G.moves = G.moves.slice(0, n); G.ply = G.moves.length; load();
  };
  $('flip').onclick = () => { G.flipped = !G.flipped; drawBoard(); };
  const download = async () => {
    let text;
    try { text = await mainRecord(); } catch (e) { setStatus('Download: ' + e.message, 'err'); return; }
    const blob = new Blob([text], { type: 'text/plain' });
    const a = document.createElement('a'); a.href = URL.createObjectURL(blob); a.download = 'bomberzero-' + G.variant + '.txt'; a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  $('download').onclick = download;
  $('download-a').onclick = download;
  const downloadPGN = async () => {
    let text;
    try { text = await mainPGN(); } catch (e) { setStatus('PGN: ' + e.message, 'err'); return; }
    const blob = new Blob([text], { type: 'application/x-chess-pgn' });
    const a = document.createElement('a'); a.href = URL.createObjectURL(blob); a.download = 'bomberzero-' + G.variant + '.pgn'; a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  $('pgn').onclick = downloadPGN;
  $('pgn-a').onclick = downloadPGN;
  $('setfen').onclick = async () => {
    const text = $('fen').value.trim();
    try { await api('game', { variant: G.variant, start: text, moves: [] }); G.start = text; G.moves = []; G.tree = treeFrom([]); G.ply = 0; await load(); maybeAgent(); } catch (e) { setStatus('Position: ' + e.message, 'err'); }
  };
  $('copyfen').onclick = () => navigator.clipboard && navigator.clipboard.writeText($('fen').value);
  $('go').onclick = startAnalysis;
  $('stop').onclick = stopAnalysis;
  $('first').onclick = () => goTo(0);
  $('prev').onclick = () => goTo(G.ply - 1);
  $('next').onclick = () => goTo(G.ply + 1);
  $('last').onclick = () => goTo(G.moves.length);
  $('promote').onclick = promoteLine;
  $('overlay').onchange = (e) => { overlayName = e.target.value; refreshRun(); };
  $('delvar').onclick = deleteVariation;
  document.addEventListener('keydown', (e) => {
    if (G.mode !== 'analyse' || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') goTo(G.ply - 1);
    if (e.key === 'ArrowRight') goTo(G.ply + 1);
  });
  window.addEventListener('hashchange', route);
  window.addEventListener('resize', fitBoard);
  setupInput();
  editInit();
  G.opponent = opp.value;
  await newGame(params.get('variant') || 'fbgc', params.get('start') || '');
  route();
  document.body.dataset.ready = '1';
}
init().catch((e) => setStatus(e.message, 'err'));
