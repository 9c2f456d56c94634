// The compare page: the verdict, the LLR trace against its bounds (as they
// stood after each block), the Elo estimate with its interval over blocks
// played, and the blocks by NEW's points (the pentanomial counts for pairs).

// The badge of each verdict; the sentence beside it is the text summary's
// (view.text), so the page and the terminal word it the same.
const VERDICT = {
  h1: ['NEW passes', 'win'],
  h0: ['NEW is worse', 'fault'],
  inconclusive: ['Inconclusive', 'draw'],
  cancelled: ['Interrupted', 'draw'],
  broken: ['No verdict', 'fault'],
};

// Half points as text: 0, ½, 1, 1½, ...
const halves = (k) => (k % 2 ? (k > 1 ? `${(k - 1) / 2}½` : '½') : String(k / 2));

PAGES.compare = (view, app) => {
  const r = view.report, p = r.settings.sprt, b = view.bots;
  const tr = [{ blocks: 0, llr: 0, lower: r.trace.length ? r.trace[0].lower : r.bounds.lower, upper: r.trace.length ? r.trace[0].upper : r.bounds.upper, elo: null }].concat(r.trace);
  const unit = r.model.unit === 'block' ? 'block' : 'pair';
  const units = unit + 's';
  const xs = tr.map((t) => t.blocks);
  const last = Math.max(1, xs[xs.length - 1]);
  const llrs = tr.map((t) => t.llr);
  const la = view.llr_axis;
  const llrChart = lineChart({
    series: [
      { name: 'LLR', colour: '#3d5a80', xs, ys: llrs, width: 2.2 },
      { name: 'upper bound (accept H1)', colour: '#2f7d5b', xs, ys: tr.map((t) => t.upper), dash: '6 4', width: 1.5 },
      { name: 'lower bound (accept H0)', colour: '#c0392b', xs, ys: tr.map((t) => t.lower), dash: '6 4', width: 1.5 },
    ],
    xMax: last, yMin: la.min, yMax: la.max, ticks: la.ticks, height: 240, xLabel: (v) => `${fmt(v)} ${v === 1 ? unit : units}`,
    hlines: [
      { y: r.bounds.upper, colour: '#2f7d5b', label: `accept H1 (${r.bounds.upper.toFixed(2)})` },
      { y: r.bounds.lower, colour: '#c0392b', label: `accept H0 (${r.bounds.lower.toFixed(2)})`, below: true },
      { y: 0, colour: '#cfcabf' },
    ],
  });
  llrChart.id = 'llr-chart';
  // The axis holds every interval but the widest early ones, which it
  // cuts: each run of those gets an arrow at the edge, the furthest one
  // per side its bound printed, here and in the hint below.
  const est = tr.filter((t) => t.elo);
  const ea = view.elo_axis, cut = ea.clipped;
  const c = (v) => clamp(v, ea.axis.min, ea.axis.max);
  const exs = est.map((t) => t.blocks);
  const unitAt = (k) => `${unit} ${fmt(k)}`;
  const span = (x) => (x.from === x.to ? unitAt(x.from) : `${units} ${fmt(x.from)}–${fmt(x.to)}`);
  const far = (x) => (x.bound == null ? (x.above ? Infinity : -Infinity) : x.bound);
  const furthest = (above) => cut.filter((x) => x.above === above).reduce((a, x) => (!a || (above ? far(x) > far(a) : far(x) < far(a)) ? x : a), null);
  const widest = [furthest(true), furthest(false)].filter(Boolean);
  const bound = (x) => (x.bound == null ? (x.above ? '+∞' : '−∞') : signed(x.bound));
  const clips = cut.map((x) => ({ x: x.at, above: x.above, label: widest.includes(x) ? bound(x) : null,
    title: `the interval reaches ${bound(x)} at ${unitAt(x.at)}, past the axis over ${span(x)}` }));
  const clipNote = widest.length
    ? ` The axis cuts the widest intervals (arrows): ${widest.map((x) => `${x.above ? 'up' : 'down'} to ${bound(x)} at ${unitAt(x.at)}`).join(', ')}.`
    : '';
  const eloChart = est.length ? lineChart({
    series: [{ name: 'Elo estimate (fixed sample)', colour: '#3d5a80', xs: exs, ys: est.map((t) => c(t.elo.elo)), width: 2.2 }],
    areas: [{ xs: exs, lo: est.map((t) => c(t.elo.lo)), hi: est.map((t) => c(t.elo.hi)), colour: 'rgba(61,90,128,0.16)' }],
    clips,
    xMax: last, yMin: ea.axis.min, yMax: ea.axis.max, ticks: ea.axis.ticks, width: 720, height: 240, labelsOutside: true, xLabel: (v) => `${fmt(v)} ${v === 1 ? unit : units}`,
    hlines: [{ y: p.elo1, colour: '#2f7d5b', label: `elo1 ${p.elo1}` }, { y: p.elo0, colour: '#c0392b', label: `elo0 ${p.elo0}`, below: true }, { y: 0, colour: '#cfcabf' }],
  }) : h('p', { class: 'muted' }, 'No block was played.');
  eloChart.id = 'elo-chart';
  const counts = r.outcomes.counts, most = Math.max(1, ...counts), n = counts.length - 1;
  const colour = (k) => { const t = k / n; return t < 0.5 ? `rgba(192,57,43,${1 - t * 1.6})` : t > 0.5 ? `rgba(47,125,91,${(t - 0.5) * 1.6 + 0.2})` : '#b8b2a6'; };
  const outcomes = h('div', { id: 'outcomes', style: 'display:flex;gap:10px;align-items:flex-end;height:170px;padding-top:10px' },
    counts.map((k, i) => h('div', { style: 'flex:1;text-align:center', 'data-count': k },
      h('div', { class: 'hint' }, fmt(k)),
      h('div', { style: `height:${(120 * k) / most}px;background:${colour(i)};border-radius:4px 4px 0 0` }),
      h('div', { style: 'font-weight:600;margin-top:4px' }, halves(i)))));
  const faults = (f, faulty) => [...['timeout', 'crash', 'invalid', 'limit', 'restart'].filter((k) => f[k]).map((k) => `${f[k]} ${k}`),
    faulty ? `faulty in ${fmt(faulty)} of ${fmt(r.games_played)} games` : null].filter(Boolean).join(', ') || 'none';
  const item = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
  // A broken bot's first crash (else fault), as a league's page shows it:
  // its answer if invalid, and what it wrote to stderr up to it.
  const brokenFault = (br) => {
    const f = br && br.first_fault;
    if (!f) return '';
    const role = br.role.toUpperCase();
    return h('div', { class: 'panel', id: 'broken-fault' },
      h('h2', {}, `Why ${role} is broken: its first ${f.kind}, game ${f.game}${f.round != null ? `, round ${f.round}` : ''}`),
      f.invalid ? h('div', {}, 'Its answer: ', h('code', {}, f.invalid), h('span', { class: 'hint' }, ' (a bot writes only its answers to stdout: logs go to stderr)')) : null,
      f.stderr_tail.length
        ? h('pre', { class: 'stderr' }, f.stderr_tail.join('\n'))
        : h('div', { class: 'hint' }, 'It wrote nothing to stderr in that game.'));
  };
  // The game of each faulty bot's first fault with the `dojo match`
  // command that plays it on its own, as the text summary gives them.
  const firstFaults = (list) => (list && list.length ? h('div', { class: 'panel', id: 'first-faults' },
    h('h2', {}, 'Playing a faulty game again'),
    h('p', { class: 'hint', style: 'margin:0 0 6px' }, 'Run the command from the directory the comparison ran in.'),
    list.map((g) => h('div', { class: 'first-fault', 'data-role': g.role },
      h('div', {}, h('b', {}, g.role.toUpperCase()), `: its first ${g.fault.kind} in game ${g.fault.game}${g.fault.round != null ? `, round ${g.fault.round}` : ''} (seats: ${g.seats.map((s) => s.toUpperCase()).join(', ')}; seed ${g.seed}${g.board ? `; board ${g.board}` : ''})`),
      g.command ? command('match', g.command) : null))) : '');
  const [word, cls] = VERDICT[r.verdict] || [r.verdict, 'draw'];
  const t = view.text;
  app.append(
    h('h1', {}, `${b.new.name} (NEW) vs ${b.base.name} (BASE)`),
    h('p', { class: 'sub' }, `${r.settings.game} · ${fmt(r.games_played)} games in ${fmt(r.blocks_played)} ${unit === 'pair' ? (r.blocks_played === 1 ? 'seat-swapped pair' : 'seat-swapped pairs') : (r.blocks_played === 1 ? 'block' : 'blocks') + ' of ' + r.model.games_per_unit} · seed ${r.settings.seed}`),
    h('div', { class: 'result', id: 'result' }, h('span', { class: `badge ${cls}`, id: 'verdict' }, word), ' ', h('span', { id: 'claim' }, t.verdict),
      h('span', { class: 'muted' }, ' · LLR '), h('span', { id: 'llr' }, r.llr.toFixed(3))),
    t.next ? h('p', { id: 'next' }, t.next) : '',
    t.note ? h('p', { class: 'hint', id: 'note' }, `Note: ${t.note}.`) : '',
    t.nondeterministic ? h('p', { class: 'panel', id: 'nondeterministic' }, t.nondeterministic.replace(/^note: /, 'Note: ')) : '',
    brokenFault(r.broken),
    firstFaults(r.first_faults),
    h('div', { class: 'panel' }, h('h2', {}, `Log-likelihood ratio after each ${unit}`), llrChart,
      h('p', { class: 'hint', style: 'margin:4px 0 0' }, `H0: NEW − BASE = ${p.elo0} Elo, H1: = ${p.elo1} Elo (${p.model || 'logistic'}), α = ${p.alpha}, β = ${p.beta}. `,
        `Dashed: the bounds in force after each ${unit}; ${t.bounds}.`)),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow' }, h('h2', {}, 'Elo estimate (NEW − BASE) with 95% interval'), eloChart,
        h('p', { class: 'hint', style: 'margin:4px 0 0' }, `Line: the fixed-sample estimate after each ${unit}. Final median-unbiased estimate ${signed(r.elo.elo)} [${signed(r.elo.lo)}, ${signed(r.elo.hi)}]; fixed-sample ${signed(r.elo_naive.elo)} [${signed(r.elo_naive.lo)}, ${signed(r.elo_naive.hi)}].`, h('span', { id: 'elo-clipped' }, clipNote))),
      h('div', { class: 'panel', style: 'flex:0 1 380px' }, h('h2', {}, `${unit === 'pair' ? 'Pairs' : 'Blocks'} by NEW’s points (of ${r.outcomes.games_per_block})`), outcomes,
        h('p', { class: 'hint', style: 'margin:8px 0 0' }, `NEW scores ${fmt1(100 * r.new_score)}% per game.`))),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow', id: 'bots' }, h('h2', {}, 'Bots'),
        scrollBox(h('table', {}, h('tr', {}, h('th', {}, 'Role'), h('th', {}, 'Bot'), h('th', {}, 'Command'), h('th', {}, 'Faults')), [['NEW', b.new], ['BASE', b.base], b.third ? ['third', b.third] : null].filter(Boolean).map(([role, x]) => h('tr', {},
          h('td', { class: 'muted' }, role), h('td', { class: 'name' }, x.name), h('td', {}, h('code', {}, x.command.join(' '))),
          h('td', { class: 'muted' }, role === 'NEW' ? faults(r.faults.new, r.faults.new_faulty_games) : role === 'BASE' ? faults(r.faults.base, r.faults.base_faulty_games) : r.faults.third ? faults(r.faults.third, r.faults.third_faulty_games) : '')))))),
      h('div', { class: 'panel grow' }, h('h2', {}, 'Settings'),
        h('dl', { class: 'kv' }, item('game limit', fmt(r.settings.games)), item('time per move', `${fmt(b.timeout_ms)} ms (+${fmt(b.startup_ms)} ms at start-up)`),
          item('jobs', b.jobs), item('fault policy', view.fault_policy), r.settings.boards.length ? item('boards', r.settings.boards.join(', ')) : null),
        h('div', { style: 'margin-top:10px' }, command('run', view.command)))));
};
