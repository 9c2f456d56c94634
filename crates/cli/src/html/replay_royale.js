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
  // Seats are shown 1-based, as `DOJO_SEAT` gives them to the bot (the
  // record's indices are 0-based).
  const no = (seat) => seat + 1;

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
  // 760x560 CSS pixels), so a laptop screen shows both. On a narrow screen
  // the side panel goes below the board, which gets the page's width (less
  // its box's padding and border): a 120-wide board at the smallest cell
  // of a wide screen ran past a phone's edge. Should it still not fit,
  // its box scrolls (.board-wrap).
  const cs = getComputedStyle(app);
  const inner = (app.clientWidth || 1200) - (parseFloat(cs.paddingLeft) || 0) - (parseFloat(cs.paddingRight) || 0);
  const narrow = inner < 700;
  const room = narrow ? inner - 22 : clamp(inner - 390, 240, 760);
  const cell = clamp(Math.floor(Math.min(room / W, 560 / H)), narrow ? 2 : 3, 36);
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
  const seatLabel = (seat) => h('span', { class: 'team-' + team(seat) }, h('span', { class: 'dot', style: `background:${TEAM_COLOUR[team(seat)]}` }), `seat ${no(seat)} · ${TEAM[team(seat)]} · ${bot(seat)}`);
  const latency = (i) => (((rec.timing || {}).latency_us || [])[acts[i].seat] || [])[view.prompts[i]];
  const showSide = (t) => {
    const c = view.counts[t];
    countsEl.replaceChildren(...['R', 'P', 'S'].map((k, j) => h('span', { class: 'team-' + k }, h('b', {}, fmt(c[j])), ' ', TEAM[k])));
    if (t === 0) {
      // A game over before its first turn (a board holding one sign) has
      // no order of play to speak of.
      actionEl.replaceChildren(h('span', { class: 'muted' }, N === 0
        ? 'No turn was played: the game was over before the first.'
        : 'Before any turn. Seats play in the order ' + rec.turn_order.map(no).join(', ') + ' every round.'));
      stderrEl.replaceChildren();
      return;
    }
    const a = acts[t - 1];
    const lat = latency(t - 1);
    actionEl.replaceChildren(
      h('div', {}, seatLabel(a.seat)),
      h('div', {}, h('code', {}, a.action), ' → ', effectText(a),
        a.fault ? [' ', h('span', { class: 'badge fault' }, `${a.fault === 'illegal' ? 'illegal move' : a.fault}: played as a pass`)] : null,
        lat != null ? h('span', { class: 'muted' }, ` · answered in ${fmtUs(lat)}`) : null));
    const err = ((rec.stderr || [])[a.seat] || [])[view.prompts[t - 1]];
    stderrEl.replaceChildren(...(err ? [h('div', { class: 'hint', style: 'margin-top:8px' }, `stderr of seat ${no(a.seat)} this turn`), stderrBlock(err)] : []));
  };

  // Charts: tiles per team over turns (a scrubber), latency per seat.
  // A bot's faults (timeout, crash, invalid answer, limit) are what the
  // standings count; an illegal move (a well-formed action the board
  // forbids, such as a step into a wall) is the game's rule, not a fault,
  // and is listed apart. Both are played as a pass.
  const faults = [];
  const illegal = [];
  acts.forEach((a, i) => { if (a.fault) (a.fault === 'illegal' ? illegal : faults).push(i + 1); });
  let step;
  const pick = (t) => step.set(t);
  const countChart = lineChart({
    series: ['R', 'P', 'S'].map((k, j) => ({ name: TEAM[k], colour: TEAM_COLOUR[k], xs: view.counts.map((_, i) => i), ys: view.counts.map((c) => c[j]) })),
    xMax: N, height: 170, xLabel: (v) => `turn ${fmt(v)}`, onPick: pick, yMin: countFloor(view.counts),
    markers: faults.concat(illegal).map((t) => ({ x: t, title: `turn ${t}: ${acts[t - 1].fault === 'illegal' ? 'illegal move' : acts[t - 1].fault}` })),
  });
  const latSeries = rec.players.map((p) => ({ name: `seat ${no(p.seat)}`, colour: TEAM_COLOUR[p.team], xs: [], ys: [] }));
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
  const turnItems = (turns, what) => turns.map((t) => { const a = acts[t - 1]; return h('li', { onclick: () => step.set(t) }, `turn ${fmt(t)} · seat ${no(a.seat)} (${bot(a.seat)}): ${what(a)} → pass`); });
  const faultItems = turnItems(faults, (a) => a.fault);
  const illegalItems = turnItems(illegal, (a) => a.action);
  app.append(
    h('h1', {}, `Royale on ${rec.board_file}`),
    h('p', { class: 'sub' }, `${W}×${H} board · seed ${rec.seed} · ${fmt(N)} turns in ${fmt(rec.outcome ? rec.outcome.rounds : rounds(N))} rounds · round cap ${fmt(rec.settings.max_rounds)}, stall limit ${fmt(rec.settings.stall_rounds)}`),
    resultBlock(view, result, cls, null),
    h('div', { class: 'row' },
      h('div', { class: 'board-wrap' }, h('div', { style: 'position:relative' }, canvas, layer),
        legend([['Rock', TEAM_COLOUR.R], ['Paper', TEAM_COLOUR.P], ['Scissors', TEAM_COLOUR.S], ['wall', TILE_FILL[1]], ['empty', TILE_FILL[0]], ['player (ring: team)', '#fff', '#1d2127']])),
      h('div', { class: 'grow' },
        h('div', { class: 'panel' }, step.el, countsEl, actionEl, stderrEl),
        h('div', { class: 'panel' }, h('h2', { id: 'faults-title' }, `Faults (${faults.length})`),
          faults.length ? h('ul', { class: 'faultlist', id: 'faults' }, faultItems) : h('p', { class: 'muted', style: 'margin:0' }, 'No turn was lost to a fault.')),
        h('div', { class: 'panel' }, h('h2', { id: 'illegal-title' }, `Illegal moves (${illegal.length})`),
          illegal.length ? h('ul', { class: 'faultlist', id: 'illegal' }, illegalItems) : h('p', { class: 'muted', style: 'margin:0' }, 'No move was illegal.')))),
    // Without a turn there is nothing to chart: the counts are the board's.
    ...(N === 0 ? [] : [h('div', { class: 'panel' }, h('h2', {}, 'Tiles per team (click or drag to jump; ▼ marks a fault or an illegal move)'), legend(['R', 'P', 'S'].map((k) => [TEAM[k], TEAM_COLOUR[k]])), countChart)]),
    h('div', { class: 'panel' }, h('h2', {}, 'Answer time per turn'), legend(rec.players.map((p) => [`seat ${no(p.seat)} (${bot(p.seat)})`, TEAM_COLOUR[p.team]])), latChart),
    seatsPanel(view, (s) => h('span', { class: 'team-' + s.team }, h('span', { class: 'dot', style: `background:${TEAM_COLOUR[s.team]}` }), `${no(s.seat)} · ${TEAM[s.team] || '?'}`)));
  drawAll();
  step.init();
  window.dojoReplay = { positions: () => pos.map((p) => p.slice()) };
}

REPLAY_PAGES.royale = royalePage;
