// The replay page: a stepper shared by both games, then one view each.

// A position in 0..=last with step, jump, play/pause, speed and keys.
// `show(t, big)` draws position t; big is true for jumps (redraw all).
function stepper(last, show, opts) {
  // A standalone replay opens at #turn-N when the address says so.
  const asked = /^#turn-(\d+)$/.exec(location.hash);
  let t = asked ? clamp(Number(asked[1]), opts.min ?? 0, last) : opts.start ?? 0, timer = null, carry = 0, lastTime = 0;
  const speeds = opts.speeds;
  const speed = h('select', { title: 'Speed' }, speeds.map(([v, label]) => h('option', { value: v }, label)));
  speed.value = String(opts.speed);
  const range = h('input', { type: 'range', min: opts.min ?? 0, max: last, value: t, 'aria-label': opts.unit });
  const input = h('input', { type: 'number', min: opts.min ?? 0, max: last, value: t, style: 'width:84px', 'aria-label': 'Jump to ' + opts.unit });
  const label = h('span', { class: 'turn', id: 'turn' });
  const play = h('button', { class: 'primary', id: 'play', onclick: () => toggle() }, 'Play');
  const set = (n, big) => {
    n = clamp(n, opts.min ?? 0, last);
    if (n === t && !big) return;
    // Several steps at once (playing fast) still draw only what changed;
    // the board redraws whole only for jumps.
    const jump = big;
    t = n;
    range.value = t;
    if (document.activeElement !== input) input.value = t;
    label.dataset.turn = t;
    label.textContent = opts.label(t);
    show(t, jump);
    if (t >= last && timer) toggle(false);
  };
  const frame = (now) => {
    // Stop when the replay was closed (the report swaps replays in and out).
    if (!timer || !label.isConnected) { timer = null; return; }
    carry += ((now - lastTime) / 1000) * Number(speed.value);
    lastTime = now;
    const steps = Math.floor(carry);
    carry -= steps;
    if (steps > 0) set(t + steps, false);
    if (timer) timer = requestAnimationFrame(frame);
  };
  const toggle = (on = !timer) => {
    if (on && !timer) {
      if (t >= last) set(opts.min ?? 0, true);
      lastTime = performance.now();
      carry = 0;
      timer = requestAnimationFrame(frame);
      play.textContent = 'Pause';
    } else if (!on && timer) {
      cancelAnimationFrame(timer);
      timer = null;
      play.textContent = 'Play';
    }
  };
  range.addEventListener('input', () => set(Number(range.value), true));
  input.addEventListener('change', () => set(Number(input.value), true));
  setKeys((ev) => {
    if (ev.target.closest && ev.target.closest('input[type=number], input[type=search], select')) return;
    const big = ev.shiftKey ? opts.bigStep : 1;
    const keys = {
      ArrowRight: () => set(t + big, big > 1), ArrowLeft: () => set(t - big, big > 1),
      ' ': () => toggle(), Home: () => set(opts.min ?? 0, true), End: () => set(last, true),
    };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  const btn = (text, title, f) => h('button', { title, onclick: f }, text);
  const el = h('div', {},
    h('div', { class: 'controls' },
      btn('|◀', 'First (Home)', () => set(opts.min ?? 0, true)),
      btn('◀', 'Back (←; Shift+← ' + opts.bigStep + ')', () => set(t - 1, false)),
      play,
      btn('▶', 'Forward (→; Shift+→ ' + opts.bigStep + ')', () => set(t + 1, false)),
      btn('▶|', 'Last (End)', () => set(last, true)),
      h('span', { style: 'flex:1' }),
      speed),
    h('div', { class: 'controls', style: 'margin-top:8px' }, label, h('span', { style: 'flex:1' }), h('label', { class: 'hint' }, 'go to ', input)),
    h('div', { style: 'margin-top:8px' }, range),
    h('div', { class: 'hint' }, h('kbd', {}, '←'), ' ', h('kbd', {}, '→'), ' step, ', h('kbd', {}, 'Shift'), '+arrows ', opts.bigStep, ', ',
      h('kbd', {}, 'Space'), ' play/pause, ', h('kbd', {}, 'Home'), ' ', h('kbd', {}, 'End'), ' first/last'));
  return { el, set: (n) => set(n, true), now: () => t, init: () => set(t, true) };
}

// Seats, bots, commands, conduct: the same table for both games.
function seatsPanel(view, who) {
  const rec = view.record;
  const rows = rec.seats.map((s, i) => {
    const c = (rec.conduct || [])[i] || {};
    const faults = ['timeout', 'crash', 'invalid', 'restart'].filter((k) => c[k]).map((k) => `${c[k]} ${k}`).join(', ');
    return h('tr', {},
      h('td', {}, who(s, i)),
      h('td', { class: 'name' }, h('b', {}, s.bot)),
      h('td', {}, h('code', {}, (s.command || []).join(' '))),
      h('td', {}, c.mode || ''),
      h('td', {}, faults ? h('span', { class: 'badge fault' }, faults) : h('span', { class: 'muted' }, 'none')));
  });
  return h('div', { class: 'panel' },
    h('h2', {}, 'Seats'),
    h('table', {}, h('tr', {}, ['Seat', 'Bot', 'Command', 'Mode', 'Faults'].map((x) => h('th', {}, x))), rows),
    h('div', { style: 'margin-top:12px' },
      view.commands.rerun ? command('check', view.commands.rerun) : h('p', { class: 'hint' }, 'Save the record with --json to check it again with dojo replay --rerun.'),
      command('play', view.commands.match)));
}

// Latency per prompt of each seat, on a shared x axis (turn or round).
function latencyChart(series, xMax, onPick, xName, width) {
  if (!series.some((s) => s.ys.length)) return h('p', { class: 'muted' }, 'No latencies recorded.');
  const chart = lineChart({ series, xMax, height: 110, yLabel: (v) => fmtUs(Math.round(v)), xLabel: (v) => `${xName} ${fmt(v)}`, onPick, width });
  return chart;
}

function stderrBlock(text) {
  return text ? h('pre', { class: 'stderr' }, text) : null;
}

PAGES.replay = (view, app) => (view.record.game === 'royale' ? royalePage : cardjitsuPage)(view, app);

// ---------------------------------------------------------------- royale

const TILE_CODE = { '.': 0, '#': 1, R: 2, P: 3, S: 4 };
const TILE_FILL = ['#e9e6de', '#3b4049', '#d55e00', '#0072b2', '#009e73'];

function royaleResult(rec) {
  const o = rec.outcome;
  if (!o) return ['Unfinished', 'draw'];
  const s = rec.settings;
  if (o.winner && o.reason === 'already_won') return [`${TEAM[o.winner]} wins: the board held only its sign before any turn`, 'win'];
  if (o.winner) return [`${TEAM[o.winner]} wins in round ${fmt(o.rounds)}: the only sign left on the board`, 'win'];
  return [{
    round_cap: `Draw: the round cap of ${fmt(s.max_rounds)} was reached`,
    stalled: `Draw: no tile changed for ${fmt(s.stall_rounds)} whole rounds (after round ${fmt(o.rounds)})`,
    no_signs: 'Draw: the board holds no sign',
  }[o.reason] || `Draw (${o.reason})`, 'draw'];
}

// The count chart starts at 0 unless every count stays high, where a 0
// axis would flatten the whole game into one line.
function countFloor(counts) {
  let lo = Infinity, hi = 0;
  for (const c of counts) for (const n of c) { lo = Math.min(lo, n); hi = Math.max(hi, n); }
  return lo > 0.4 * hi ? Math.floor((lo * 0.9) / 10) * 10 : 0;
}

function royalePage(view, app) {
  const rec = view.record, W = view.width, H = view.height, acts = rec.actions, N = acts.length;
  const nSeats = rec.players.length;
  const team = (seat) => (rec.players.find((p) => p.seat === seat) || {}).team;
  const bot = (seat) => (rec.seats[seat] || {}).bot || '?';

  // The board as tile codes, and each seat's position before every move
  // (so stepping back is as cheap as stepping forward).
  const grid = new Uint8Array(W * H);
  rec.board.forEach((row, y) => { for (let x = 0; x < W; x++) grid[y * W + x] = TILE_CODE[row[x]] ?? 1; });
  const start = rec.players.map((p) => p.start.slice());
  const pos = start.map((p) => p.slice());
  const before = new Array(N);
  {
    const at = start.map((p) => p.slice());
    acts.forEach((a, i) => {
      if (a.effect && a.effect.kind === 'moved') { before[i] = at[a.seat]; at[a.seat] = a.effect.at; }
    });
  }
  const apply = (a) => {
    const e = a.effect;
    if (!e) return;
    if (e.kind === 'converted') grid[e.at[1] * W + e.at[0]] = TILE_CODE[e.to];
    else if (e.kind === 'moved') pos[a.seat] = e.at;
  };
  const undo = (a, i) => {
    const e = a.effect;
    if (!e) return;
    if (e.kind === 'converted') grid[e.at[1] * W + e.at[0]] = TILE_CODE[e.from];
    else if (e.kind === 'moved') pos[a.seat] = before[i];
  };

  // Canvas: the cell size fits the board beside the side panel (at most
  // 760x560 CSS pixels), so a laptop screen shows both.
  const room = clamp((app.clientWidth || 1200) - 390, 240, 760);
  const cell = clamp(Math.floor(Math.min(room / W, 560 / H)), 3, 36);
  const dpr = window.devicePixelRatio || 1;
  const canvas = h('canvas', { class: 'board', id: 'board', width: W * cell * dpr, height: H * cell * dpr, style: `width:${W * cell}px;height:${H * cell}px`, 'data-cell': cell * dpr });
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  // Players go on a layer of their own above the board, so their markers
  // can be bigger than a tile on large boards without hiding any tile.
  const layer = h('canvas', { id: 'players', width: W * cell * dpr, height: H * cell * dpr, style: `position:absolute;left:0;top:0;width:${W * cell}px;height:${H * cell}px` });
  const pctx = layer.getContext('2d');
  pctx.scale(dpr, dpr);
  const gap = cell >= 8 ? 1 : 0;
  const drawTile = (x, y) => {
    ctx.fillStyle = '#fbfaf7';
    ctx.fillRect(x * cell, y * cell, cell, cell);
    ctx.fillStyle = TILE_FILL[grid[y * W + x]];
    ctx.fillRect(x * cell, y * cell, cell - gap, cell - gap);
  };
  let mover = -1;
  const drawPlayers = () => {
    pctx.clearRect(0, 0, W * cell, H * cell);
    const r = Math.max(cell * 0.36, 5.5), line = Math.max(cell * 0.14, 2);
    pos.forEach((p, seat) => {
      const cx = p[0] * cell + (cell - gap) / 2, cy = p[1] * cell + (cell - gap) / 2;
      if (seat === mover) {
        pctx.beginPath();
        pctx.arc(cx, cy, r + line + 2.5, 0, 2 * Math.PI);
        pctx.fillStyle = 'rgba(29,33,39,0.35)';
        pctx.fill();
      }
      pctx.beginPath();
      pctx.arc(cx, cy, r, 0, 2 * Math.PI);
      pctx.fillStyle = '#ffffff';
      pctx.fill();
      pctx.lineWidth = line;
      pctx.strokeStyle = TEAM_COLOUR[team(seat)] || '#000';
      pctx.stroke();
      pctx.beginPath();
      pctx.arc(cx, cy, r + line / 2, 0, 2 * Math.PI);
      pctx.lineWidth = 1;
      pctx.strokeStyle = '#1d2127';
      pctx.stroke();
    });
  };
  const drawAll = () => {
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) drawTile(x, y);
    drawPlayers();
  };

  let shown = 0;
  const dirty = [];
  // Brings the board from `shown` turns to `t` turns, redrawing only the
  // tiles that changed (and those under the players) unless `big`.
  const moveTo = (t, big) => {
    while (shown < t) { const a = acts[shown]; if (a.effect && a.effect.kind === 'converted') dirty.push(a.effect.at); apply(a); shown++; }
    while (shown > t) { shown--; const a = acts[shown]; if (a.effect && a.effect.kind === 'converted') dirty.push(a.effect.at); undo(a, shown); }
    mover = t > 0 ? acts[t - 1].seat : -1;
    if (big || dirty.length > 2000) drawAll();
    else { for (const [x, y] of dirty) drawTile(x, y); drawPlayers(); }
    dirty.length = 0;
  };

  // Side panel: counts, the turn's action, stderr.
  const countsEl = h('div', { class: 'counts', id: 'counts' });
  const actionEl = h('div', { class: 'action', id: 'action' });
  const stderrEl = h('div', {});
  const effectText = (a) => {
    const e = a.effect;
    if (!e) return 'nothing changed';
    if (e.kind === 'moved') return `moved to (${e.at[0]}, ${e.at[1]})`;
    return `converted (${e.at[0]}, ${e.at[1]}) ${TEAM[e.from] || e.from} → ${TEAM[e.to] || e.to}`;
  };
  const seatLabel = (seat) => h('span', { class: 'team-' + team(seat) }, h('span', { class: 'dot', style: `background:${TEAM_COLOUR[team(seat)]}` }), `seat ${seat} · ${TEAM[team(seat)]} · ${bot(seat)}`);
  const latency = (i) => (((rec.timing || {}).latency_us || [])[acts[i].seat] || [])[view.prompts[i]];
  const showSide = (t) => {
    const c = view.counts[t];
    countsEl.replaceChildren(...['R', 'P', 'S'].map((k, j) => h('span', { class: 'team-' + k }, h('b', {}, fmt(c[j])), ' ', TEAM[k])));
    if (t === 0) {
      actionEl.replaceChildren(h('span', { class: 'muted' }, 'Before any turn. Seats play in the order ' + rec.turn_order.join(', ') + ' every round.'));
      stderrEl.replaceChildren();
      return;
    }
    const a = acts[t - 1];
    const lat = latency(t - 1);
    actionEl.replaceChildren(
      h('div', {}, seatLabel(a.seat)),
      h('div', {}, h('code', {}, a.action), ' → ', effectText(a),
        a.fault ? [' ', h('span', { class: 'badge fault' }, `${a.fault}: played as a pass`)] : null,
        lat != null ? h('span', { class: 'muted' }, ` · answered in ${fmtUs(lat)}`) : null));
    const err = ((rec.stderr || [])[a.seat] || [])[view.prompts[t - 1]];
    stderrEl.replaceChildren(...(err ? [h('div', { class: 'hint', style: 'margin-top:8px' }, `stderr of seat ${a.seat} this turn`), stderrBlock(err)] : []));
  };

  // Charts: tiles per team over turns (a scrubber), latency per seat.
  const faults = [];
  acts.forEach((a, i) => { if (a.fault) faults.push(i + 1); });
  let step;
  const pick = (t) => step.set(t);
  const countChart = lineChart({
    series: ['R', 'P', 'S'].map((k, j) => ({ name: TEAM[k], colour: TEAM_COLOUR[k], xs: view.counts.map((_, i) => i), ys: view.counts.map((c) => c[j]) })),
    xMax: N, height: 170, xLabel: (v) => `turn ${fmt(v)}`, onPick: pick, yMin: countFloor(view.counts),
    markers: faults.map((t) => ({ x: t, title: `turn ${t}: ${acts[t - 1].fault}` })),
  });
  const latSeries = rec.players.map((p) => ({ name: `seat ${p.seat}`, colour: TEAM_COLOUR[p.team], xs: [], ys: [] }));
  acts.forEach((a, i) => { const l = latency(i); if (l != null && latSeries[a.seat]) { latSeries[a.seat].xs.push(i + 1); latSeries[a.seat].ys.push(l); } });
  const latChart = latencyChart(latSeries, N, pick, 'turn');

  const rounds = (t) => (t === 0 ? 0 : acts[t - 1].round);
  step = stepper(N, (t, big) => {
    moveTo(t, big);
    showSide(t);
    countChart.setCursor(t);
    if (latChart.setCursor) latChart.setCursor(t);
  }, {
    unit: 'turn', bigStep: nSeats, speed: Math.max(10, Math.round(N / 30)),
    speeds: [[3, '3 turns/s'], [10, '10 turns/s'], [30, '30 turns/s'], [100, '100 turns/s'], [300, '300 turns/s'], [1000, '1000 turns/s'], [Math.max(10, Math.round(N / 30)), 'whole game in 30 s']],
    label: (t) => `Turn ${fmt(t)} / ${fmt(N)} · round ${fmt(rounds(t))}`,
  });

  const [result, cls] = royaleResult(rec);
  const faultItems = faults.map((t) => { const a = acts[t - 1]; return h('li', { onclick: () => step.set(t) }, `turn ${fmt(t)} · seat ${a.seat} (${bot(a.seat)}): ${a.fault}${a.fault === 'illegal' ? ' ' + a.action : ''} → pass`); });
  app.append(
    h('h1', {}, `Royale on ${rec.board_file}`),
    h('p', { class: 'sub' }, `${W}×${H} board · seed ${rec.seed} · ${fmt(N)} turns in ${fmt(rec.outcome ? rec.outcome.rounds : rounds(N))} rounds · round cap ${fmt(rec.settings.max_rounds)}, stall limit ${fmt(rec.settings.stall_rounds)}`),
    h('div', { class: 'result', id: 'result' }, h('span', { class: 'badge ' + cls }, cls === 'win' ? 'Win' : 'Draw'), ' ', result),
    h('div', { class: 'row' },
      h('div', { class: 'board-wrap' }, h('div', { style: 'position:relative' }, canvas, layer),
        legend([['Rock', TEAM_COLOUR.R], ['Paper', TEAM_COLOUR.P], ['Scissors', TEAM_COLOUR.S], ['wall', TILE_FILL[1]], ['empty', TILE_FILL[0]], ['player (ring: team)', '#fff', '#1d2127']])),
      h('div', { class: 'grow' },
        h('div', { class: 'panel' }, step.el, countsEl, actionEl, stderrEl),
        h('div', { class: 'panel' }, h('h2', {}, `Faults (${faults.length})`),
          faults.length ? h('ul', { class: 'faultlist', id: 'faults' }, faultItems) : h('p', { class: 'muted', style: 'margin:0' }, 'No turn was lost to a fault.')))),
    h('div', { class: 'panel' }, h('h2', {}, 'Tiles per team (click or drag to jump; ▼ marks a fault)'), legend(['R', 'P', 'S'].map((k) => [TEAM[k], TEAM_COLOUR[k]])), countChart),
    h('div', { class: 'panel' }, h('h2', {}, 'Answer time per turn'), legend(rec.players.map((p) => [`seat ${p.seat} (${bot(p.seat)})`, TEAM_COLOUR[p.team]])), latChart),
    seatsPanel(view, (s) => h('span', { class: 'team-' + s.team }, h('span', { class: 'dot', style: `background:${TEAM_COLOUR[s.team]}` }), `${s.seat} · ${TEAM[s.team] || '?'}`)));
  drawAll();
  step.init();
  window.dojoReplay = { positions: () => pos.map((p) => p.slice()) };
}

// ------------------------------------------------------------- cardjitsu

const ELEMENT = { F: 'Fire', W: 'Water', S: 'Snow' };
const COLOUR = { r: 'red', b: 'blue', g: 'green', y: 'yellow', o: 'orange', p: 'purple' };
const ICON = {
  F: (c) => svg('svg', { viewBox: '0 0 24 24' }, svg('path', { d: 'M12 2c.6 3.4 5.5 6 5.5 11.4A5.5 5.5 0 0 1 6.5 13.6c0-2.8 1.7-4.2 2.5-6.1 1.3 1.4 1.8 2.8 1.8 4.3C12.6 9.6 13 6 12 2z', fill: c })),
  W: (c) => svg('svg', { viewBox: '0 0 24 24' }, svg('path', { d: 'M12 2.5C9.2 7 6 10.4 6 14.5a6 6 0 0 0 12 0c0-4.1-3.2-7.5-6-12z', fill: c })),
  S: (c) => svg('svg', { viewBox: '0 0 24 24' }, svg('path', { d: 'M12 2v20M3.3 7l17.4 10M3.3 17 20.7 7M9.5 3.5 12 6l2.5-2.5M9.5 20.5 12 18l2.5 2.5', stroke: c, 'stroke-width': 2, fill: 'none', 'stroke-linecap': 'round' })),
};

// A card: colour as background, element as an icon, number, and the code
// (so colour-blind readers have the letters too).
function card(code, cls) {
  const el = code[0], col = code[1], val = parseInt(code.slice(2), 16);
  const light = col === 'y' || col === 'o';
  return h('span', {
    class: `card c-${col}${light ? ' light' : ''} ${cls || ''}`,
    'data-code': code,
    title: `${ELEMENT[el] || el}, ${COLOUR[col] || col}, ${Number.isNaN(val) ? code.slice(2) : val} (${code})`,
  },
  ICON[el] ? ICON[el](light ? '#1d2127' : '#fff') : el,
  h('span', { class: 'val' }, Number.isNaN(val) ? code.slice(2) : val),
  h('span', { class: 'code' }, code));
}

function cardjitsuPage(view, app) {
  const rec = view.record, rounds = rec.rounds, N = rounds.length, o = rec.outcome;
  const name = (s) => (rec.seats[s] || {}).bot || `player ${s + 1}`;
  const lat = (s, i) => (((rec.timing || {}).latency_us || [])[s] || [])[i];
  const PC = ['#3d5a80', '#b5523b'];

  let result = 'Unfinished', cls = 'draw';
  if (o && o.winner) { result = `Player ${o.winner} (${name(o.winner - 1)}) wins in ${fmt(o.rounds)} round${o.rounds === 1 ? '' : 's'} with a winning triple`; cls = 'win'; }
  else if (o && o.reason === 'round_cap') result = `Draw: nobody completed a triple in ${fmt(o.rounds)} rounds`;
  else if (o) result = `Draw after ${fmt(o.rounds)} rounds`;

  const roundEl = h('div', { id: 'round' });
  const pilesEl = h('div', { class: 'piles', id: 'piles' });
  const stderrEl = h('div', {});
  const strip = h('div', { class: 'strip', title: 'Rounds: colour = winner, grey = stalemate, dot = fault' },
    rounds.map((r, i) => h('div', {
      class: r.faults.some((f) => f) ? 'f' : null,
      style: `background:${r.winner ? PC[r.winner - 1] : '#cfcabf'}`,
      title: `round ${r.round}: ${r.winner ? 'player ' + r.winner : 'stalemate'}${r.reverse ? ', Reverse' : ''}`,
      onclick: () => step.set(i + 1),
    })));

  const pileView = (seat, t) => {
    const won = view.piles[seat].filter((c) => c.round < t);
    const done = view.triple && view.triple[0] === seat && t >= N;
    const win = new Set(done ? view.triple[1] : []);
    const byEl = { F: [], W: [], S: [] };
    won.forEach((c, i) => (byEl[c.card[0]] || (byEl[c.card[0]] = [])).push(card(c.card, 'small' + (win.has(i) ? ' win' : ''))));
    return h('div', { class: 'pile', id: 'pile' + (seat + 1) },
      h('h3', {}, h('span', { class: 'dot', style: `background:${PC[seat]}` }), `Player ${seat + 1} · ${name(seat)} `, h('span', { class: 'muted' }, `(${won.length} won)`),
        done ? [' ', h('span', { class: 'badge win' }, 'winning triple')] : null),
      Object.entries(byEl).map(([el, cards]) => h('div', { class: 'el' }, h('span', { class: 'lab', title: ELEMENT[el] }, ICON[el] ? ICON[el]('#646b75') : el), cards)));
  };

  const show = (t) => {
    const r = rounds[t - 1];
    if (!r) { roundEl.replaceChildren(h('p', { class: 'muted' }, 'No round was played.')); return; }
    const hand = (s) => h('div', { class: 'hand' },
      h('div', { class: 'who' }, h('span', { class: 'dot', style: `background:${PC[s]}` }), `Player ${s + 1}`, h('small', {}, name(s))),
      h('div', {}, r.hands[s].map((c, i) => card(c, i === r.choices[s] ? 'chosen' : 'dim'))),
      r.faults[s] ? h('span', { class: 'badge fault' }, `${r.faults[s]}: random card played`) : null,
      lat(s, t - 1) != null ? h('span', { class: 'hint' }, fmtUs(lat(s, t - 1))) : null);
    const outcome = r.winner ? `Player ${r.winner} (${name(r.winner - 1)}) wins the round` : 'Stalemate: nobody wins the round';
    roundEl.replaceChildren(
      h('div', { style: 'display:flex;gap:10px;align-items:center' }, h('h2', { style: 'margin:0' }, `Round ${r.round}`),
        r.reverse ? h('span', { class: 'badge rev', id: 'reverse', title: 'Reverse: the lower number wins between cards of the same element' }, '⇄ Reverse') : null),
      hand(0),
      h('div', { class: 'duel' }, card(r.cards[0], 'big'), h('span', { class: 'vs' }, 'vs'), card(r.cards[1], 'big'),
        h('span', { class: 'outcome', id: 'winner', style: r.winner ? `color:${PC[r.winner - 1]}` : '' }, outcome)),
      hand(1));
    pilesEl.replaceChildren(pileView(0, t), pileView(1, t));
    strip.querySelectorAll('.cur').forEach((d) => d.classList.remove('cur'));
    if (strip.children[t - 1]) strip.children[t - 1].classList.add('cur');
    const errs = [0, 1].map((s) => ((rec.stderr || [])[s] || [])[t - 1]).map((e, s) => e ? [h('div', { class: 'hint', style: 'margin-top:8px' }, `stderr of player ${s + 1} this round`), stderrBlock(e)] : null);
    stderrEl.replaceChildren(...errs.flat().filter(Boolean));
  };

  const latSeries = [0, 1].map((s) => {
    const ys = ((rec.timing || {}).latency_us || [])[s] || [];
    return { name: `player ${s + 1}`, colour: PC[s], xs: ys.map((_, i) => i + 1), ys };
  });
  let step;
  const latChart = latencyChart(latSeries, Math.max(N, 1), (x) => step.set(Math.max(1, x)), 'round', 560);
  step = stepper(Math.max(N, 1), (t) => { show(t); if (latChart.setCursor) latChart.setCursor(t); }, {
    unit: 'round', min: 1, start: N ? N : 1, bigStep: 10, speed: 2,
    speeds: [[0.5, '1 round / 2 s'], [1, '1 round/s'], [2, '2 rounds/s'], [5, '5 rounds/s'], [20, '20 rounds/s']],
    label: (t) => `Round ${fmt(t)} / ${fmt(N)}`,
  });

  const faultRounds = rounds.filter((r) => r.faults.some((f) => f));
  app.append(
    h('h1', {}, `CardJitsu · ${name(0)} vs ${name(1)}`),
    h('p', { class: 'sub' }, `${rec.rules} rules · seed ${rec.seed} · round cap ${fmt(rec.max_rounds)} · decks: ${rec.decks.join(', ')}`),
    h('div', { class: 'result', id: 'result' }, h('span', { class: 'badge ' + cls }, cls === 'win' ? 'Win' : 'Draw'), ' ', result,
      o && o.winning_cards ? h('span', { id: 'triple', style: 'margin-left:10px' }, o.winning_cards.map((c) => card(c, 'small win'))) : null),
    h('div', { class: 'panel' }, step.el, strip, h('div', { class: 'hint' }, 'Rounds above: ', h('span', { style: `color:${PC[0]}` }, '■ player 1'), ' ', h('span', { style: `color:${PC[1]}` }, '■ player 2'), ' ', h('span', { style: 'color:#cfcabf' }, '■ stalemate'), ' · red dot: a fault')),
    h('div', { class: 'panel' }, roundEl, stderrEl),
    h('div', { class: 'panel' }, h('h2', {}, 'Won cards (winning triple outlined in gold on the last round)'), pilesEl),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow' }, h('h2', {}, 'Answer time per round'), legend([[`player 1 (${name(0)})`, PC[0]], [`player 2 (${name(1)})`, PC[1]]]), latChart),
      h('div', { class: 'panel grow' }, h('h2', {}, `Faults (${faultRounds.length} round${faultRounds.length === 1 ? '' : 's'})`),
        faultRounds.length ? h('ul', { class: 'faultlist', id: 'faults' }, faultRounds.map((r) => h('li', { onclick: () => step.set(r.round) },
          `round ${r.round}: ` + r.faults.map((f, s) => f ? `player ${s + 1} ${f} → random card ${r.cards[s]}` : null).filter(Boolean).join('; '))))
          : h('p', { class: 'muted', style: 'margin:0' }, 'No card was lost to a fault.'))),
    seatsPanel(view, (s, i) => h('span', {}, h('span', { class: 'dot', style: `background:${PC[i]}` }), `player ${i + 1}`)));
  step.init();
}
