// The compare page: the verdict, the LLR trace against its bounds, the Elo
// estimate with its interval over pairs played, and the pentanomial counts.

const VERDICT = {
  h1: ['NEW passes', 'H1 accepted: the data favour elo1 over elo0', 'win'],
  h0: ['NEW is worse', 'H0 accepted: the data favour elo0 over elo1', 'fault'],
  inconclusive: ['Inconclusive', 'the game limit was reached before either bound', 'draw'],
  cancelled: ['Interrupted', 'stopped before a decision', 'draw'],
};

PAGES.compare = (view, app) => {
  const r = view.report, p = r.settings.sprt, tr = view.trace, b = view.bots;
  const [word, why, cls] = VERDICT[r.verdict] || [r.verdict, '', 'draw'];
  const xs = tr.map((t) => t.pairs);
  const last = Math.max(1, xs[xs.length - 1] || 0);
  const llrs = tr.map((t) => t.llr);
  const lo = Math.min(r.bounds.lower, ...llrs), hi = Math.max(r.bounds.upper, ...llrs);
  const pad = (hi - lo) * 0.08;
  const llrChart = lineChart({
    series: [{ name: 'LLR', colour: '#3d5a80', xs, ys: llrs, width: 2.2 }],
    xMax: last, yMin: lo - pad, yMax: hi + pad, height: 240, yLabel: (v) => v.toFixed(2), xLabel: (v) => `${fmt(v)} pairs`,
    hlines: [
      { y: r.bounds.upper, colour: '#2f7d5b', label: `accept H1 (${r.bounds.upper.toFixed(2)})` },
      { y: r.bounds.lower, colour: '#c0392b', label: `accept H0 (${r.bounds.lower.toFixed(2)})`, below: true },
      { y: 0, colour: '#a8a39a' },
    ],
  });
  // Early estimates can be very wide; the chart is clipped to a readable range.
  const cap = Math.max(4 * Math.max(Math.abs(p.elo0), Math.abs(p.elo1), 10), Math.abs(r.elo.lo), Math.abs(r.elo.hi)) * 1.1;
  const c = (v) => clamp(v, -cap, cap);
  const eloLo = Math.min(...tr.map((t) => c(t.lo)), p.elo0), eloHi = Math.max(...tr.map((t) => c(t.hi)), p.elo1);
  const eloChart = lineChart({
    series: [{ name: 'Elo estimate', colour: '#3d5a80', xs, ys: tr.map((t) => c(t.elo)), width: 2.2 }],
    areas: [{ xs, lo: tr.map((t) => c(t.lo)), hi: tr.map((t) => c(t.hi)), colour: 'rgba(61,90,128,0.16)' }],
    xMax: last, yMin: eloLo, yMax: eloHi, width: 720, height: 240, yLabel: (v) => (v > 0 ? '+' : '') + v.toFixed(0), xLabel: (v) => `${fmt(v)} pairs`,
    hlines: [{ y: p.elo1, colour: '#2f7d5b', label: `elo1 ${p.elo1}` }, { y: p.elo0, colour: '#c0392b', label: `elo0 ${p.elo0}`, below: true }, { y: 0, colour: '#a8a39a' }],
  });
  const most = Math.max(1, ...r.pentanomial);
  const penta = h('div', { id: 'pentanomial', style: 'display:flex;gap:14px;align-items:flex-end;height:170px;padding-top:10px' },
    r.pentanomial.map((n, i) => h('div', { style: 'flex:1;text-align:center', 'data-count': n },
      h('div', { class: 'hint' }, fmt(n)),
      h('div', { style: `height:${(120 * n) / most}px;background:${['#c0392b', '#e08e79', '#b8b2a6', '#7fb89a', '#2f7d5b'][i]};border-radius:4px 4px 0 0` }),
      h('div', { style: 'font-weight:600;margin-top:4px' }, ['0', '½', '1', '1½', '2'][i]))));
  const faults = (f) => ['timeout', 'crash', 'invalid', 'restart'].filter((k) => f[k]).map((k) => `${f[k]} ${k}`).join(', ') || 'none';
  const item = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
  const sign = (v) => (v > 0 ? '+' : '') + v.toFixed(1);
  app.append(
    h('h1', {}, `${b.new.name} (NEW) vs ${b.base.name} (BASE)`),
    h('p', { class: 'sub' }, `${r.settings.game} · ${fmt(r.games_played)} games in ${fmt(r.pairs_played)} seat-swapped pairs · seed ${r.settings.seed}`),
    h('div', { class: 'result', id: 'result' }, h('span', { class: `badge ${cls}`, id: 'verdict' }, word), ' ', why,
      h('span', { class: 'muted' }, ` · Elo ${sign(r.elo.elo)} [${sign(r.elo.lo)}, ${sign(r.elo.hi)}] · LLR `), h('span', { id: 'llr' }, r.llr.toFixed(3))),
    h('div', { class: 'panel' }, h('h2', {}, 'Log-likelihood ratio after each pair'), llrChart,
      h('p', { class: 'hint', style: 'margin:4px 0 0' }, `H0: NEW − BASE = ${p.elo0} Elo, H1: = ${p.elo1} Elo, α = ${p.alpha}, β = ${p.beta}${p.model ? `, ${p.model} model` : ''}. The test stops when the line leaves the band.`)),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow' }, h('h2', {}, 'Elo estimate (NEW − BASE) with 95% interval'), eloChart),
      h('div', { class: 'panel', style: 'flex:0 1 360px' }, h('h2', {}, 'Pairs by NEW’s points (of 2)'), penta,
        h('p', { class: 'hint', style: 'margin:8px 0 0' }, `NEW scores ${fmt1(100 * r.new_score)}% per game.`))),
    h('div', { class: 'row' },
      h('div', { class: 'panel grow' }, h('h2', {}, 'Bots'),
        h('table', {}, [['NEW', b.new], ['BASE', b.base], b.third ? ['third', b.third] : null].filter(Boolean).map(([role, x]) => h('tr', {},
          h('td', { class: 'muted' }, role), h('td', { class: 'name' }, x.name), h('td', {}, h('code', {}, x.command.join(' '))),
          h('td', { class: 'muted' }, role === 'NEW' ? faults(r.faults.new) : role === 'BASE' ? faults(r.faults.base) : ''))))),
      h('div', { class: 'panel grow' }, h('h2', {}, 'Settings'),
        h('dl', { class: 'kv' }, item('game limit', fmt(r.settings.games)), item('time per move', `${fmt(b.timeout_ms)} ms (+${fmt(b.startup_ms)} ms at start-up)`),
          item('jobs', b.jobs), r.settings.boards.length ? item('boards', r.settings.boards.join(', ')) : null),
        h('div', { style: 'margin-top:10px' }, command('run', view.command)))));
};
