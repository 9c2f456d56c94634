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
    scrollBox(h('table', {}, h('tr', {}, ['Seat', 'Bot', 'Command', 'Mode', 'Faults'].map((x) => h('th', {}, x))), rows)),
    h('div', { style: 'margin-top:12px' },
      view.commands.rerun ? command('check', view.commands.rerun) : h('p', { class: 'hint' }, 'Save the record with --json to check it again with dojo replay --rerun.'),
      command('play', view.commands.match)));
}

// Latency per prompt of each seat, on a shared x axis (turn or round).
// `more`: further lineChart options (marks, lines, the x axis's words).
function latencyChart(series, xMax, onPick, xName, width, more) {
  if (!series.some((s) => s.ys.length)) return h('p', { class: 'muted' }, 'No latencies recorded.');
  const chart = lineChart({ series, xMax, height: 110, yLabel: (v) => fmtUs(Math.round(v)), xLabel: (v) => `${xName} ${fmt(v)}`, onPick, width, ...more });
  return chart;
}

// The game's result: the board's (`board`, a win or a draw as `cls`,
// `extra` beside it), or for a league game a forfeit decided the result
// the league counted (what its standings and games list say), with the
// board's end below it.
function resultBlock(view, board, cls, extra) {
  const badge = (c) => h('span', { class: 'badge ' + c }, c === 'win' ? 'Win' : 'Draw');
  const f = view.forfeit;
  if (!f) return h('div', { class: 'result', id: 'result' }, badge(cls), ' ', board, extra);
  return h('div', {},
    h('div', { class: 'result', id: 'result' }, badge(f.win ? 'win' : 'draw'), ' ', f.text),
    h('div', { class: 'hint', id: 'board-result', style: 'margin:-10px 0 16px' }, 'on the board: ', board, extra));
}

function stderrBlock(text) {
  return text ? h('pre', { class: 'stderr' }, text) : null;
}

// Each game's replay script adds its page here under the game's name (the
// record's `game`), so this file names no game.
const REPLAY_PAGES = {};
PAGES.replay = (view, app) => REPLAY_PAGES[view.record.game](view, app);
