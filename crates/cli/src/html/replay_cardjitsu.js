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

  // The chart's x is the round's index (round - 1), so that its axis
  // starts at round 1, as the page numbers rounds.
  const latSeries = [0, 1].map((s) => {
    const ys = ((rec.timing || {}).latency_us || [])[s] || [];
    return { name: `player ${s + 1}`, colour: PC[s], xs: ys.map((_, i) => i), ys };
  });
  // The answers with the start-up allowance (the game's first, and a
  // restarted process's first): records from before they were listed had
  // only each seat's first.
  const startups = (s) => ((rec.timing || {}).startup_answers || [])[s] || [0];
  const marks = [0, 1].flatMap((s) => startups(s).filter((i) => i < N).map((i) => ({ x: i, colour: PC[s],
    title: `player ${s + 1}, round ${i + 1}: a start-up answer (a new process: the start-up allowance is added to the move limit)` })));
  // A move timeout waits out the move limit: the first timed-out answer
  // without the start-up allowance shows where the limit lies.
  const timedOut = [0, 1].flatMap((s) => rounds.map((r, i) => (r.faults[s] === 'timeout' && !startups(s).includes(i) ? lat(s, i) : null)))
    .filter((v) => v != null);
  const limit = timedOut.length ? Math.min(...timedOut) : null;
  const hlines = limit == null ? [] : [{ y: limit, colour: '#c0392b', label: `move limit (a timeout at ${fmtUs(limit)})` }];
  let step;
  const latChart = latencyChart(latSeries, Math.max(N - 1, 1), (x) => step.set(x + 1), 'round', 560,
    { markers: marks, hlines, xLabel: (v) => `round ${fmt(v + 1)}` });
  step = stepper(Math.max(N, 1), (t) => { show(t); if (latChart.setCursor) latChart.setCursor(t - 1); }, {
    unit: 'round', min: 1, start: N ? N : 1, bigStep: 10, speed: 2,
    speeds: [[0.5, '1 round / 2 s'], [1, '1 round/s'], [2, '2 rounds/s'], [5, '5 rounds/s'], [20, '20 rounds/s']],
    label: (t) => `Round ${fmt(t)} / ${fmt(N)}`,
  });

  const faultRounds = rounds.filter((r) => r.faults.some((f) => f));
  app.append(
    h('h1', {}, `CardJitsu · ${name(0)} vs ${name(1)}`),
    h('p', { class: 'sub' }, `${rec.rules} rules · seed ${rec.seed} · round cap ${fmt(rec.max_rounds)} · decks: ${rec.decks.join(', ')}`),
    resultBlock(view, result, cls,
      o && o.winning_cards ? h('span', { id: 'triple', style: 'margin-left:10px' }, o.winning_cards.map((c) => card(c, 'small win'))) : null),
    h('div', { class: 'panel' }, step.el, strip, h('div', { class: 'hint' }, 'Rounds above: ', h('span', { style: `color:${PC[0]}` }, '■ player 1'), ' ', h('span', { style: `color:${PC[1]}` }, '■ player 2'), ' ', h('span', { style: 'color:#cfcabf' }, '■ stalemate'), ' · red dot: a fault')),
    h('div', { class: 'panel' }, roundEl, stderrEl),
    h('div', { class: 'panel' }, h('h2', {}, 'Won cards (winning triple outlined in gold on the last round)'), pilesEl),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow' }, h('h2', {}, 'Answer time per round'), legend([[`player 1 (${name(0)})`, PC[0]], [`player 2 (${name(1)})`, PC[1]]]), latChart,
        marks.length ? h('div', { class: 'hint', id: 'startup-answers' }, '▼ above the chart: a start-up answer (the game’s first, or a restarted process’s first), held to the move limit plus the start-up allowance') : null),
      h('div', { class: 'panel grow' }, h('h2', {}, `Faults (${faultRounds.length} round${faultRounds.length === 1 ? '' : 's'})`),
        faultRounds.length ? h('ul', { class: 'faultlist', id: 'faults' }, faultRounds.map((r) => h('li', { onclick: () => step.set(r.round) },
          `round ${r.round}: ` + r.faults.map((f, s) => f ? `player ${s + 1} ${f} → random card ${r.cards[s]}` : null).filter(Boolean).join('; '))))
          : h('p', { class: 'muted', style: 'margin:0' }, 'No card was lost to a fault.'))),
    seatsPanel(view, (s, i) => h('span', {}, h('span', { class: 'dot', style: `background:${PC[i]}` }), `player ${i + 1}`)));
  step.init();
}

REPLAY_PAGES.cardjitsu = cardjitsuPage;
