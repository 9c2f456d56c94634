// The league report page: standings with intervals, head-to-head heat map,
// ratings over games played, faults, settings, move times against the
// limit, and every game with its replay (packed in the page, unpacked only
// when opened).

const BOT_COLOURS = ['#3d5a80', '#d55e00', '#009e73', '#cc79a7', '#0072b2', '#e69f00', '#56b4e9', '#8a5cb8', '#7a7a7a', '#b5523b', '#2a9d8f', '#9c6644'];
const FAULT_KINDS = [['timeout', '#c0392b'], ['crash', '#7b2d26'], ['invalid', '#e67e22'], ['limit', '#6c3483'], ['restart', '#95a5a6']];
const REASON = { triple: 'triple', round_cap: 'round cap', one_sign_left: 'one sign left', already_won: 'already won', no_signs: 'no signs', stalled: 'stalled' };

// How the page says to finish an incomplete league: the command with
// the league's directory where the writer gave it.
function resumeWith(view) {
  return view.resume ? `${view.resume} finishes it` : 'resume with --resume';
}

// A bot's faults by kind, spelled out, only the kinds it had ("3 timeout,
// 1 restart"); "none" when it had none. A row of 32 "0 / 0 / 0 / 0 / 0"
// said nothing until the reader had decoded the header's letters.
function faultsText(faults) {
  const had = FAULT_KINDS.filter(([k]) => faults[k]).map(([k]) => `${fmt(faults[k])} ${k}`);
  return had.length ? had.join(', ') : 'none';
}
// The games a bot was faulty in under the league's fault policy, and
// what they cost it: under forfeit, lost (drawn where every side was).
function faultyGames(rep, s) {
  if (!s.faulty_games) return null;
  const forfeit = rep.conditions.faults.rule !== 'fallback';
  return h('div', { class: 'hint faulty-games', title: forfeit ? 'lost by forfeit under the league’s fault policy (drawn where every side was faulty)' : 'not forfeited: under the fallback fault policy the board decided' },
    `faulty in ${fmt(s.faulty_games)} of ${fmt(s.games)} games${forfeit ? ', lost by forfeit' : ''}`);
}
const FAULTS_TITLE = 'timeouts, crashes, invalid answers, limits hit, and restarts (a new process after a fault: a consequence, not a fault of its own)';

// Interval bars share one scale: from the lowest lower end to the highest
// upper end of the bots that are not FAULTY. A faulty bot's rating says
// little, and one far off (a crasher's 549 to 609 beside 1648 to 1721)
// would shrink every other bar to a tick: its bar is cut at the scale's
// edge instead, with an arrow, and said under the table.
function standingsPanel(rep, view) {
  const st = rep.standings;
  // A bot yet to play (a live page) has no score nor interval to show.
  const played = st.filter((s) => s.games > 0);
  const scaled = played.some((s) => !s.flagged) ? played.filter((s) => !s.flagged) : played.length ? played : st;
  const lo = Math.min(...scaled.map((s) => s.rating_lo)), hi = Math.max(...scaled.map((s) => s.rating_hi));
  const span = hi - lo || 1;
  const at = (v) => `${(((clamp(v, lo, hi) - lo) / span) * 100).toFixed(2)}%`;
  const cutOf = (s) => [s.rating_lo < lo - 0.5 ? 'below' : null, s.rating_hi > hi + 0.5 ? 'above' : null].filter(Boolean);
  const cut = st.filter((s) => s.games && cutOf(s).length);
  const arrow = (side) => h('span', { class: `cut ${side}`, title: `cut at the axis's ${side === 'below' ? 'low' : 'high'} end` }, side === 'below' ? '◀' : '▶');
  const anchor = rep.anchor;
  const rows = st.map((s) => h('tr', { 'data-bot': s.name },
    h('td', { class: 'num' }, s.rank),
    h('td', { class: 'name' }, s.name, s.name === anchor ? h('span', { class: 'hint' }, ' (anchor)') : null,
      s.flagged ? [' ', faultyBadge()] : null),
    h('td', { class: 'num' }, h('b', {}, s.games ? fmt(Math.round(s.rating)) : '–')),
    h('td', {}, s.games ? h('div', { class: 'bar', title: `95% interval ${Math.round(s.rating_lo)} to ${Math.round(s.rating_hi)}${cutOf(s).length ? ', past the axis' : ''}` },
      h('span', { class: 'rng', style: `left:${at(s.rating_lo)};width:calc(${at(s.rating_hi)} - ${at(s.rating_lo)})` }),
      s.rating >= lo && s.rating <= hi ? h('span', { class: 'pt', style: `left:${at(s.rating)}` }) : null,
      cutOf(s).map(arrow)) : null),
    h('td', { class: 'num interval mono' }, s.games ? `${Math.round(s.rating_lo)} – ${Math.round(s.rating_hi)}` : '–'),
    h('td', { class: 'num' }, fmt(s.games)),
    h('td', { class: 'num' }, `${s.wins} / ${s.draws} / ${s.losses}`),
    h('td', { class: 'num' }, s.games ? fmt1(s.score_pct) + '%' : '–'),
    h('td', { class: 'num faults' }, faultsText(s.faults), faultyGames(rep, s))));
  const flagged = st.filter((s) => s.flagged).map((s) => s.name);
  return h('div', { class: 'panel stand' }, h('h2', {}, 'Standings'),
    scrollBox(h('table', { id: 'standings' },
      h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, 'Bot'), h('th', { class: 'num' }, 'Elo'), h('th', {}, `95% interval (${Math.round(lo)} to ${Math.round(hi)})`), h('th', { class: 'num' }, 'range'),
        h('th', { class: 'num' }, 'Games'), h('th', { class: 'num' }, 'W / D / L'), h('th', { class: 'num' }, 'Score'), h('th', { class: 'num', title: FAULTS_TITLE }, 'Faults')),
      rows)),
    h('p', { class: 'hint', style: 'margin:8px 0 0' }, rep.game === 'royale'
      ? 'Royale: a win beats both other teams, the two losers draw; score baseline is about 33%. Bars: 95% bootstrap interval, tick: rating.'
      : 'Bars: 95% bootstrap interval over seat-swapped pairs, tick: rating.'),
    h('p', { class: 'hint', id: 'fault-policy', style: 'margin:4px 0 0' }, `Fault policy: ${view.fault_policy}.`),
    cut.length ? h('p', { class: 'hint', id: 'standings-cut', style: 'margin:4px 0 0' },
      `The interval axis spans the bots that are not FAULTY; ${cut.map((s) => `${s.name}’s (${Math.round(s.rating_lo)} to ${Math.round(s.rating_hi)})`).join(', ')} ${cut.length === 1 ? 'is' : 'are'} cut at its edge (arrow).`) : null,
    flagged.length ? h('p', { class: 'hint', id: 'faulty-bots', style: 'margin:4px 0 0' },
      `FAULTY: ${flagged.join(', ')}: ${flagged.length === 1 ? 'its' : 'their'} rating says little; see its first fault under “First faults” and its stderr log in the league directory.`) : null,
    // One bot's faults falling on one opponent (report.json's
    // concentrated_faults): the pattern of a sacrificial second entry.
    (rep.concentrated_faults || []).length ? h('p', { class: 'hint', id: 'concentrated-faults', style: 'margin:4px 0 0;color:#8e2419' },
      (rep.concentrated_faults || []).map((c) => `${c.bot} was faulty in ${fmt(c.faulty)} of its ${fmt(c.games)} games against ${c.opponent} and in ${fmt(c.faulty_elsewhere)} of its ${fmt(c.games_elsewhere)} others: faults that fall on one opponent hand it those games (two entries of one author can collude so).`).join(' ')) : null,
    // --replace: the standings count the new version's games only.
    (rep.replaced || []).length ? h('p', { class: 'hint', id: 'replaced-bots', style: 'margin:4px 0 0' },
      (rep.replaced || []).map((r) => `${r.name} was replaced by a new version; ${fmt(r.retired_games)} games of the old one are kept in games.jsonl, retired, and count nowhere.`).join(' ')) : null);
}

// The entries of the bots folder that the league does not play, with why
// (report.json's `excluded`): every error of a bot.toml, the end of a
// failed build's output, the head of a failed smoke start's stderr.
const ENTRY_STATUS = { 'bad-name': 'bad name', 'bad-manifest': 'bad manifest', 'over-limits': 'over the limits', 'no-manifest': 'no manifest', 'wrong-game': 'wrong game', 'build-failed': 'build failed', 'smoke-failed': 'failed smoke start' };
function excludedPanel(rep) {
  const ex = rep.excluded || [];
  if (!ex.length) return null;
  return h('div', { class: 'panel', id: 'excluded' }, h('h2', {}, `Excluded: ${ex.length} ${ex.length === 1 ? 'entry' : 'entries'} of the bots folder not played`),
    scrollBox(h('table', { class: 'stack' },
      h('tr', { class: 'head' }, h('th', {}, 'Entry'), h('th', {}, 'Status'), h('th', {}, 'Why')),
      ex.map((e) => h('tr', { 'data-dir': e.dir },
        h('td', { class: 'name' }, e.dir, e.name !== e.dir ? h('span', { class: 'hint' }, ` (bot ${e.name})`) : null),
        h('td', { style: 'white-space:nowrap' }, h('span', { class: 'badge fault' }, ENTRY_STATUS[e.status] || e.status)),
        h('td', {}, e.reason, e.details && e.details.length ? h('div', { class: 'stderr' }, e.details.join('\n')) : null))))));
}

// A gauntlet's stop rule: NEW's test against each opponent, with where its
// log-likelihood ratio stands between the bounds.
const SPRT_STATE = {
  h1: ['passes', 'H1 accepted', 'win'],
  h0: ['worse', 'H0 accepted', 'fault'],
  inconclusive: ['inconclusive', 'the game limit came first', 'draw'],
  open: ['open', 'not decided: --resume to go on', 'draw'],
};
function sprtPanel(rep) {
  const t = rep.sprt;
  if (!t) return null;
  const p = t.params;
  const llrBar = (o) => {
    const span = o.upper - o.lower || 1;
    const at = (v) => `${(clamp((v - o.lower) / span, 0, 1) * 100).toFixed(2)}%`;
    return h('div', { class: 'bar', title: `LLR ${o.llr.toFixed(2)} between ${o.lower.toFixed(2)} (H0) and ${o.upper.toFixed(2)} (H1)` },
      h('span', { class: 'rng', style: 'left:0;width:100%;background:linear-gradient(90deg,#e8b4ad,#ece9e1,#a9d2b8)' }),
      h('span', { class: 'zero', style: `left:${at(0)}` }),
      h('span', { class: 'pt', style: `left:${at(o.llr)}` }));
  };
  return h('div', { class: 'panel', id: 'sprt' }, h('h2', {}, `Gauntlet SPRT: ${t.new} against each opponent`),
    h('p', { class: 'hint', style: 'margin:0 0 8px' },
      `One test per opponent: H0 ${signed(p.elo0)} against H1 ${signed(p.elo1)} Elo (${String(p.model).toLowerCase()}), α ${p.alpha}, β ${p.beta}. Elo is ${t.new} minus the opponent.`),
    scrollBox(h('table', { id: 'sprt-tests' },
      h('tr', {}, h('th', {}, 'Opponent'), h('th', {}, 'Verdict'), h('th', { class: 'num' }, 'Elo'), h('th', { class: 'num' }, '95% interval'),
        h('th', {}, 'LLR from H0 to H1 bound'), h('th', { class: 'num' }, 'LLR'), h('th', { class: 'num' }, 'Pairs'), h('th', { class: 'num' }, 'Score')),
      t.opponents.map((o) => {
        const [word, why, cls] = SPRT_STATE[o.state] || [o.state, '', 'draw'];
        return h('tr', { 'data-bot': o.opponent, 'data-state': o.state },
          h('td', { class: 'name' }, o.opponent),
          h('td', {}, h('span', { class: `badge ${cls}`, title: why }, word)),
          h('td', { class: 'num' }, h('b', {}, signed(o.elo.elo))),
          h('td', { class: 'num mono' }, `${signed(o.elo.lo)} – ${signed(o.elo.hi)}`),
          h('td', { style: 'min-width:140px' }, llrBar(o)),
          h('td', { class: 'num mono' }, `${o.llr.toFixed(2)} [${o.lower.toFixed(2)}, ${o.upper.toFixed(2)}]`),
          h('td', { class: 'num' }, fmt(o.pairs)),
          h('td', { class: 'num' }, fmt1(100 * o.new_score) + '%'));
      }))));
}

// Score of the row bot against the column bot, coloured from red (0%) through white (50%) to green (100%).
// A cell shows its whole percent from the view's `head_to_head` (the two
// cells of a pair add up to 100), its title the report's exact score.
// From WIDE_BOTS bots on, the table gets the page's whole width (half a
// page holds about six columns of cells); from DENSE_BOTS on, its cells
// shrink too, so that 32 columns fit without a scrollbar.
const WIDE_BOTS = 7, DENSE_BOTS = 13;
// The room in pixels for a name in a column's header, and its font size
// (`.heat th.col > span` in style.css); the header's tooltip has the
// whole name.
const COLUMN_LABEL = { wide: [128, 12], dense: [112, 11.5] };
function heatPanel(rep, order, shown) {
  const wide = order.length >= WIDE_BOTS, dense = order.length >= DENSE_BOTS;
  const cell = {};
  rep.pairs.forEach((p, i) => {
    cell[p.a + '\u0000' + p.b] = [p.score_a_pct, p.results, shown[i][0]];
    cell[p.b + '\u0000' + p.a] = [100 - p.score_a_pct, p.results, shown[i][1]];
  });
  const mix = (a, b, t) => a.map((x, i) => Math.round(x + (b[i] - x) * t));
  const colour = (s) => {
    const t = Math.min(Math.abs(s - 50) / 50, 1);
    const c = mix([250, 249, 245], s >= 50 ? [47, 125, 91] : [192, 57, 43], t * 0.85);
    return `rgb(${c.join(',')})`;
  };
  return h('div', { class: `panel heat${wide ? ' wide' : ' grow'}${dense ? ' dense' : ''}`, id: 'head-to-head' }, h('h2', {}, 'Head to head (row bot’s score against column bot)'),
    scrollBox(h('table', { id: 'heat', style: wide ? 'width:100%' : 'width:auto' },
      // A column's header is narrow: a long name is cut (see COLUMN_LABEL).
      h('tr', {}, h('th', {}), order.map((b) => h('th', { class: 'col', title: b }, h('span', {}, cutMiddle(b, ...(dense ? COLUMN_LABEL.dense : COLUMN_LABEL.wide), 600))))),
      order.map((a) => h('tr', {}, h('th', {}, a), order.map((b) => {
        if (a === b) return h('td', { class: 'cell', style: 'background:#f0eee8' }, '');
        const c = cell[a + '\u0000' + b];
        if (!c) return h('td', { class: 'cell muted' }, '–');
        return h('td', { class: 'cell', style: `background:${colour(c[0])};color:${Math.abs(c[0] - 50) > 30 ? '#fff' : 'inherit'}`, title: `${a} vs ${b}: ${fmt1(c[0])}% of ${c[1]} results` }, c[2] + '%');
      }))))));
}

// Each bot's colour on the page (rating lines, move times). Every bot has
// its own while the palette lasts. Past it colours would repeat (at 32
// bots alice, ivan and spawner were one navy), and no reader tells 32
// lines apart anyway: the TOP_LINES leading bots by rating keep a colour
// each, the others are grey, and the chart's picker brings out any one.
const TOP_LINES = 8, OTHERS = '#c3bfb5';
function botColours(view, order) {
  const many = view.names.length > BOT_COLOURS.length;
  const colours = new Map(many
    ? order.map((n, i) => [n, i < TOP_LINES ? BOT_COLOURS[i] : OTHERS])
    : view.names.map((n, i) => [n, BOT_COLOURS[i]]));
  return { many, colourOf: (n) => colours.get(n) || OTHERS };
}

function historyPanel(view, order, colours, wide) {
  const hist = view.history;
  const cls = wide ? 'panel' : 'panel grow';
  if (hist.length < 2) return h('div', { class: cls }, h('h2', {}, 'Rating over games played'), h('p', { class: 'muted' }, 'Too few games for a history.'));
  const { many, colourOf } = colours;
  const xs = hist.map((p) => p.games);
  const line = (n) => ({ name: n, colour: colourOf(n), xs, ys: hist.map((p) => p.elo[view.names.indexOf(n)]) });
  // The grey lines first, so the coloured ones are drawn over them.
  const series = [...order].reverse().map(line);
  let yMin = Infinity, yMax = -Infinity;
  for (const s of series) for (const y of s.ys) { yMin = Math.min(yMin, y); yMax = Math.max(yMax, y); }
  const pad = (yMax - yMin) * 0.08 || 10;
  const chart = (picked) => {
    const shown = series.map((s) => (s.colour === OTHERS ? { ...s, width: 1 } : s));
    if (picked) shown.push({ ...line(picked), colour: '#1d2127', width: 3 });
    const el = lineChart({ series: shown, xMax: xs[xs.length - 1], yMin: yMin - pad, yMax: yMax + pad, width: wide ? 1200 : 620, height: wide ? 300 : 260, xLabel: (v) => `${fmt(v)} games` });
    el.id = 'rating-history';
    return el;
  };
  let drawn = chart(null);
  const picker = many ? h('select', { id: 'history-pick', onchange: (ev) => { const next = chart(ev.target.value || null); drawn.replaceWith(next); drawn = next; } },
    h('option', { value: '' }, 'bring out a bot…'), order.map((n) => h('option', { value: n }, n))) : null;
  const keys = many
    ? [...order.slice(0, TOP_LINES).map((n) => [n, colourOf(n)]), [`the other ${order.length - TOP_LINES}`, OTHERS]]
    : view.names.map((n) => [n, colourOf(n)]);
  return h('div', { class: cls, id: 'history' }, h('h2', {}, 'Rating over games played (point estimates)'),
    h('div', { class: 'legend-row' }, legend(keys), picker),
    drawn);
}

function faultsPanel(rep) {
  const st = rep.standings;
  // Timeouts, crashes, invalid answers and limits hit, as the text report
  // counts them; restarts are their consequences, drawn but not added.
  const total = (s) => FAULT_KINDS.filter(([k]) => k !== 'restart').reduce((n, [k]) => n + (s.faults[k] || 0), 0);
  const drawn = (s) => total(s) + (s.faults.restart || 0);
  const most = Math.max(1, ...st.map(drawn));
  return h('div', { class: 'panel grow', id: 'faults-per-bot' }, h('h2', {}, 'Faults per bot (restarts apart)'),
    legend(FAULT_KINDS),
    scrollBox(h('table', {}, st.map((s) => h('tr', {},
      // The badge beside the name, as in the standings: beside the
      // count it wrapped under it.
      h('td', { class: 'name', style: 'width:150px' }, s.name, s.flagged ? [' ', faultyBadge()] : null),
      h('td', {}, h('div', { style: 'display:flex;height:14px;border-radius:3px;overflow:hidden;background:#f0eee8' },
        FAULT_KINDS.map(([k, c]) => (s.faults[k] ? h('span', { title: `${s.faults[k]} ${k}`, style: `width:${(100 * s.faults[k]) / most}%;background:${c}` }) : null))),
        s.faults.limit ? h('div', { class: 'hint limits-hit' }, limitsHit(s.faults)) : null),
      h('td', { class: 'num', style: 'width:60px' }, fmt(total(s))))))));
}

// The mark of a bot the standings call FAULTY.
function faultyBadge() {
  return h('span', { class: 'badge fault faulty', title: 'faulted at least once a game on average: its results say more about its faults than its play' }, 'FAULTY');
}

// Each faulty bot's first crash (else its first fault of another kind),
// with the last lines it wrote to stderr in that game: report.json's
// standings[].first_fault, as `dojo match` explains a faulty seat. The
// game links to its replay when the page holds the games.
function firstFaultsPanel(rep, linked) {
  const st = rep.standings.filter((s) => s.first_fault);
  if (!st.length) return null;
  return h('div', { class: 'panel', id: 'first-faults' }, h('h2', {}, 'First faults'),
    h('p', { class: 'hint', style: 'margin:0 0 8px' }, 'Each faulty bot’s first crash (else its first fault; for an invalid answer, what it answered), with the last lines it wrote to stderr in that game up to that fault.'),
    st.map((s) => {
      const f = s.first_fault;
      const game = linked ? h('a', { href: `#game-${f.game}` }, `game ${f.game}`) : `game ${f.game}`;
      return h('div', { class: 'first-fault', 'data-bot': s.name, style: 'margin:0 0 10px' },
        h('div', {}, h('b', { class: 'name' }, s.name), ': ', h('span', { class: 'badge fault' }, `first ${f.kind}`), ' ', game, f.round != null ? `, round ${f.round}` : ''),
        f.invalid ? h('div', { class: 'invalid-answer' }, 'Its answer: ', h('code', {}, f.invalid), h('span', { class: 'hint' }, ' (a bot writes only its answers to stdout: logs go to stderr)')) : null,
        f.stderr_tail.length
          ? h('pre', { class: 'stderr' }, f.stderr_tail.join('\n'))
          : h('div', { class: 'hint' }, 'It wrote nothing to stderr in that game.'));
    }));
}

// How close each bot runs to its move time limit: per bot on one log
// scale, its moves' wall times (dot: median, bar: median to 95th
// percentile, whisker: to the slowest move), the CPU time of its slowest
// move (hollow tick) and its limit (red dashed tick: its own where its
// bot.toml has one); its memory peak beside, against its memory limit.
// report.json's standings[].moves and peak_memory_mib; reports from before
// them have none, and the panel is left out.
function movesPanel(rep, colourOf) {
  const st = rep.standings.filter((s) => s.moves);
  if (!st.length) return null;
  const c = rep.conditions || {};
  const own = (name) => (c.bots || []).find((b) => b.name === name);
  const limitOf = (name) => { const b = own(name); return (b ? b.time : c.time || {}).timeout_ms; };
  // Answers that had the start-up allowance are not among the moves: they
  // are held against the move time plus the allowance, and said apart.
  const startupOf = (name) => { const b = own(name); return (b ? b.time : c.time || {}).startup_ms; };
  const starts = st.some((s) => s.startup_answers);
  const memLimitOf = (name) => { const b = own(name); return (b ? b.limits : c.limits || {}).memory_mib; };
  const values = st.flatMap((s) => [s.moves.wall_ms.p50, s.moves.wall_ms.max, limitOf(s.name)]).filter((v) => v > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.max(Math.min(...values), 0.001))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values) * 1.05)));
  const W = 1000, L = 150, R = 330, row = starts ? 38 : 26, T = 18, B = 24, H = T + row * st.length + B;
  const X = (v) => L + (Math.log10(clamp(v, lo, hi) / lo) / Math.log10(hi / lo)) * (W - L - R);
  const msText = (v) => (v >= 1000 ? `${(v / 1000).toFixed(v >= 1e4 ? 0 : 2)} s` : v >= 10 ? `${Math.round(v)} ms` : v >= 1 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
  const el = svg('svg', { class: 'chart', id: 'move-times', viewBox: `0 0 ${W} ${H}` });
  for (let d = lo; d <= hi * 1.0001; d *= 10) {
    el.append(svg('line', { class: 'axis', x1: X(d), x2: X(d), y1: T - 6, y2: H - B, 'stroke-dasharray': d === lo ? null : '3 4' }));
    el.append(svg('text', { x: X(d), y: H - 8, 'text-anchor': 'middle' }, msText(d)));
  }
  st.forEach((s, i) => {
    const m = s.moves, y = T + row * i + row / 2, colour = colourOf(s.name), limit = limitOf(s.name);
    const share = limit ? m.wall_ms.max / limit : null;
    const sa = s.startup_answers, allowed = limit != null && startupOf(s.name) != null ? limit + startupOf(s.name) : null;
    const startShare = sa && allowed ? sa.wall_ms.max / allowed : null;
    const g = svg('g', { class: 'move-row', 'data-bot': s.name },
      svg('title', {}, `${s.name}: ${fmt(m.count)} moves; wall p50 ${msText(m.wall_ms.p50)}, p95 ${msText(m.wall_ms.p95)}, max ${msText(m.wall_ms.max)}` +
        (m.cpu_ms ? `; CPU p50 ${msText(m.cpu_ms.p50)}, p95 ${msText(m.cpu_ms.p95)}, max ${msText(m.cpu_ms.max)}` : '') + (limit ? `; limit ${msText(limit)}` : '') +
        (sa ? `; ${fmt(sa.count)} first answers, its start included (not among the moves): max ${msText(sa.wall_ms.max)}` + (allowed ? ` of ${msText(allowed)} allowed` : '') : '')),
      // Its end at the plot: a long name is cut to what the margin holds
      // (the row's tooltip above starts with the whole name).
      svg('text', { x: L - 10, y: y + 4, 'text-anchor': 'end', style: 'font-size:12.5px;fill:var(--ink);font-weight:600' }, cutMiddle(s.name, L - 14, 12.5, 600)),
      svg('line', { x1: X(m.wall_ms.p95), x2: X(m.wall_ms.max), y1: y, y2: y, stroke: colour, 'stroke-width': 1.5 }),
      svg('line', { x1: X(m.wall_ms.max), x2: X(m.wall_ms.max), y1: y - 5, y2: y + 5, stroke: colour, 'stroke-width': 1.5 }),
      svg('rect', { x: X(m.wall_ms.p50), y: y - 5, width: Math.max(2, X(m.wall_ms.p95) - X(m.wall_ms.p50)), height: 10, rx: 2, fill: colour, opacity: 0.45 }),
      svg('circle', { cx: X(m.wall_ms.p50), cy: y, r: 4, fill: colour }),
      m.cpu_ms ? svg('line', { class: 'cpu-max', x1: X(m.cpu_ms.max), x2: X(m.cpu_ms.max), y1: y - 8, y2: y + 8, stroke: colour, 'stroke-width': 1, 'stroke-dasharray': '2 2' }) : null,
      limit ? svg('line', { class: 'limit', x1: X(limit), x2: X(limit), y1: y - 10, y2: y + 10, stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '4 3' }) : null,
      svg('text', { class: 'move-max', x: W - R + 12, y: y + (sa ? -2 : 4), style: share != null && share >= 0.5 ? 'fill:#8e2419;font-weight:600' : null },
        `max ${msText(m.wall_ms.max)}` + (limit ? ` / ${msText(limit)} (${Math.round(100 * share)}%)` : '') +
        (s.peak_memory_mib != null ? ` · ${fmt1(s.peak_memory_mib)}${memLimitOf(s.name) ? ` / ${fmt(memLimitOf(s.name))}` : ''} MiB` : '')),
      sa ? svg('text', { class: 'startup-max', x: W - R + 12, y: y + 12, style: `font-size:11px;${startShare != null && startShare >= 0.5 ? 'fill:#8e2419;font-weight:600' : 'fill:var(--muted)'}` },
        `first answers: max ${msText(sa.wall_ms.max)}` + (allowed ? ` / ${msText(allowed)} (${Math.round(100 * startShare)}%)` : '')) : null);
    el.append(g);
  });
  return h('div', { class: 'panel', id: 'moves-per-bot' }, h('h2', {}, 'Move times against the limit (wall clock, log scale)'),
    h('div', { class: 'legend' },
      h('span', {}, h('i', { style: 'background:#3d5a80;border-radius:50%' }), 'median'),
      h('span', {}, h('i', { style: 'background:#3d5a80;opacity:.45' }), 'median to 95th percentile'),
      h('span', {}, h('i', { style: 'background:none;border-left:2px solid #3d5a80;border-radius:0;width:2px' }), 'slowest move'),
      h('span', {}, h('i', { style: 'background:none;border-left:1px dashed #3d5a80;border-radius:0;width:2px' }), 'CPU time of the slowest'),
      h('span', {}, h('i', { style: 'background:none;border-left:2px dashed #c0392b;border-radius:0;width:2px' }), 'move time limit')),
    chartBox(el, W),
    h('p', { class: 'hint', style: 'margin:6px 0 0' }, 'Right: the slowest move against the move limit; under it, the slowest first answer (of a game, or of a bot started again after a fault: its start included), against the move limit plus the start-up allowance; and the memory peak (the bot’s box, all its processes) against the memory limit, in MiB. Measured, so they differ between runs of the same games.'));
}

// Which limits a bot's processes ran into: `memory 2, cpu 1`.
function limitsHit(faults) {
  const hit = Object.entries(faults.limits_hit || {}).filter(([, n]) => n > 0);
  return hit.length ? 'limits: ' + hit.map(([k, n]) => `${k} ${fmt(n)}`).join(', ') : '';
}

// The clock, the containment in force and each bot's limits and time;
// a bot's own values (from its bot.toml) are marked.
const LIMIT_COLUMNS = [['memory_mib', 'memory', ' MiB'], ['processes', 'processes', ''], ['files', 'files', ''], ['file_size_mib', 'file size', ' MiB'], ['cpu_s', 'CPU', ' s']];
const TIME_COLUMNS = [['timeout_ms', 'move', ' ms'], ['startup_ms', 'start-up', ' ms'], ['overage_ms', 'overage', ' ms'], ['game_ms', 'per game', ' ms']];
function conditionsPanel(rep) {
  const c = rep.conditions;
  if (!c || !c.bots) return null;
  const t = c.time;
  const item = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
  const ms = (v) => (v === null || v === undefined ? 'unlimited' : `${fmt(v)} ms`);
  const ct = rep.timing && rep.timing.containment;
  const value = (v, unit) => (v === null || v === undefined ? 'unlimited' : `${fmt(v)}${unit}`);
  const cell = (b, section, [key, , unit]) => {
    const own = b.own.includes(`${section}.${key}`);
    return h('td', { class: own ? 'num own' : 'num', title: own ? 'from the bot’s bot.toml' : 'the league’s' }, value(b[section][key], unit), own ? ' ✱' : '');
  };
  // No bot.toml raises or lowers anything: one line instead of a table of
  // identical rows (32 of them in a 32-bot league).
  const shown = (b) => JSON.stringify([LIMIT_COLUMNS.map(([k]) => b.limits[k] ?? null), TIME_COLUMNS.map(([k]) => b.time[k] ?? null)]);
  const same = c.bots.length > 0 && c.bots.every((b) => !b.own.length && shown(b) === shown(c.bots[0]));
  return h('div', { class: 'panel grow', id: 'conditions' }, h('h2', {}, 'Time controls and limits'),
    h('dl', { class: 'kv' },
      item('clock', t.mode === 'cpu' ? `CPU time of the bot’s process tree (wall-clock backstop ${t.wall_backstop ?? 4}×)` : 'wall-clock time'),
      item('per move', ms(t.timeout_ms)),
      item('start-up', `+${ms(t.startup_ms)} for a fresh process`),
      item('overage bank', t.overage_ms ? `${ms(t.overage_ms)} per game` : 'none'),
      item('per game', ms(t.game_ms)),
      item('pinning', t.pin ? 'each game on its own core' : 'off'),
      item('raises in bot.toml', { allow: 'allowed (printed at the start)', cap: 'capped at the league’s values', refuse: 'refused' }[c.raises] || c.raises),
      item('containment', ct ? `--sandbox ${ct.mode}: ${ct.layers.length ? ct.layers.join(', ') : 'no layers'}` : 'not recorded')),
    same
      ? h('p', { id: 'bot-limits-all', style: 'margin:10px 0 0' }, h('b', {}, 'every bot: '),
        [...LIMIT_COLUMNS.map(([key, label, unit]) => `${label} ${value(c.bots[0].limits[key], unit)}`),
          ...TIME_COLUMNS.map(([key, label, unit]) => `${label} ${value(c.bots[0].time[key], unit)}`)].join(' · '))
      : scrollBox(h('table', { id: 'bot-limits' },
        h('tr', {}, h('th', {}, 'Bot'), LIMIT_COLUMNS.map(([, l]) => h('th', { class: 'num' }, l)), TIME_COLUMNS.map(([, l]) => h('th', { class: 'num' }, l))),
        c.bots.map((b) => h('tr', { 'data-bot': b.name }, h('td', { class: 'name' }, b.name),
          LIMIT_COLUMNS.map((col) => cell(b, 'limits', col)), TIME_COLUMNS.map((col) => cell(b, 'time', col)))))),
    c.bots.some((b) => b.own.length) ? h('p', { class: 'hint', style: 'margin:8px 0 0' }, '✱ the bot’s own value, from its bot.toml.') : null);
}

// Where a bot was found: a bot given by name (its command is its name)
// is the directory of that name in the league's bots directory.
function foundAt(view, b) {
  return b.command === b.name && view.bots_dir ? `${view.bots_dir.replace(/\/$/, '')}/${b.name}` : b.command;
}

function settingsPanel(view) {
  const rep = view.report, s = rep.settings;
  const item = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
  // The controls and raises are the conditions panel's, the fault policy has its own line.
  const extra = Object.entries(s).filter(([k]) => !['game', 'bots', 'games', 'seed', 'boards', 'controls', 'raises', 'anchor', 'anchor_elo', 'shard', 'faults'].includes(k));
  return h('div', { class: 'panel grow' }, h('h2', {}, 'Settings'),
    h('dl', { class: 'kv' },
      item('game', s.game), item('seed', s.seed),
      item(s.game === 'royale' ? 'games per trio' : 'games per pair', s.games),
      s.boards && s.boards.length ? item('boards', s.boards.join(', ')) : null,
      s.anchor ? item('anchor', `${s.anchor} = ${s.anchor_elo ?? 1500}`) : null,
      item('fault policy', view.fault_policy),
      // Nested settings (the per-game `play` options) are shown key by key;
      // unset values (null) are left out rather than printed.
      extra.flatMap(([k, v]) => v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v).filter(([, x]) => x !== null).map(([kk, x]) => item(kk.replace(/_/g, ' '), Array.isArray(x) ? x.join(', ') : String(x)))
        : v === null ? [] : [item(k, typeof v === 'object' ? JSON.stringify(v) : String(v))]),
      item('games', `${fmt(rep.games_played)} of ${fmt(rep.games_scheduled)} played${rep.complete || playing(view) ? '' : ` (incomplete: ${resumeWith(view)})`}`),
      item('results', `${fmt(rep.totals.decisive)} decisive, ${fmt(rep.totals.drawn)} drawn${rep.totals.split ? `, ${fmt(rep.totals.split)} where the others drew and a faulty side lost` : ''}`),
      rep.timing && rep.timing.wall_ms ? item('last run', `${fmt(rep.timing.games_this_run)} games in ${fmt1(rep.timing.wall_ms / 1000)} s`) : null),
    h('h2', { style: 'margin-top:14px' }, 'Bots'),
    scrollBox(h('table', { id: 'settings-bots' }, s.bots.map((b) => h('tr', {}, h('td', { class: 'name' }, b.name), h('td', {}, h('code', {}, foundAt(view, b))), h('td', { class: 'muted' }, b.fixed_team ? `always ${TEAM[b.fixed_team]}` : ''))))),
    h('div', { style: 'margin-top:12px' }, command('league', view.command)));
}

// Every game: filter by bot and result, shown a page at a time so 10,000
// games stay quick.
function gamesPanel(view, packed) {
  const royale = view.report.game === 'royale';
  // A game played in partnerships: some side holds more than one seat.
  const partners = new Set(view.sides).size < view.sides.length;
  const games = view.games;
  const bot = h('select', { id: 'filter-bot' }, h('option', { value: '' }, 'all bots'), view.names.map((n) => h('option', { value: n }, n)));
  const result = h('select', { id: 'filter-result' }, [['', 'all results'], ['win', 'won by the bot'], ['loss', 'lost by the bot'], ['draw', 'draws'], ['fault', 'with faults']].map(([v, l]) => h('option', { value: v }, l)));
  const count = h('span', { class: 'hint', id: 'games-count' });
  const body = h('tbody', {});
  const more = h('button', { onclick: () => draw(shown + 200) }, 'Show more');
  let shown = 0, list = games;
  const outcome = (g) => {
    const best = Math.max(...g.scores);
    if (g.scores.every((s) => s === best)) return 'draw';
    return 'win';
  };
  const matches = (g) => {
    const b = bot.value, r = result.value;
    const seats = b ? g.seats.map((s, i) => (s === b ? i : -1)).filter((i) => i >= 0) : [];
    if (b && !seats.length) return false;
    if (r === 'draw') return outcome(g) === 'draw';
    if (r === 'fault') return (b ? seats : g.faults.map((_, i) => i)).some((i) => g.faults[i] > 0);
    if (r === 'win' || r === 'loss') {
      if (outcome(g) === 'draw') return false;
      const won = (i) => g.scores[i] === 1;
      if (!b) return true;
      return r === 'win' ? seats.some(won) : seats.every((i) => !won(i));
    }
    return true;
  };
  const row = (g) => {
    const seatCell = g.seats.map((s, i) => [h('span', { class: g.scores[i] === 1 ? 'name' : 'muted', style: g.scores[i] === 1 ? 'font-weight:650' : '' },
      royale ? h('span', { class: 'dot', style: `background:${TEAM_COLOUR[g.teams[i]]}`, title: TEAM[g.teams[i]] }) : null, s),
      i < g.seats.length - 1 ? h('span', { class: 'muted' }, royale || partners ? ', ' : ' vs ') : null]);
    const winners = g.seats.filter((_, i) => g.scores[i] === 1);
    // No winner, yet not all drew: the others drew, a faulty side lost.
    const split = outcome(g) !== 'draw' && !g.scores.includes(1);
    const who = (keep) => g.seats.filter((_, i) => keep(g.scores[i])).join(' + ');
    const res = outcome(g) === 'draw' ? 'draw' : split ? `${who((x) => x > 0)} draw; ${who((x) => x === 0)} lost` : royale ? `${TEAM[g.teams[g.scores.indexOf(1)]]} wins` : partners ? `${winners.join(' + ')} win` : `${winners[0]} wins`;
    const faults = g.faults.reduce((a, b) => a + b, 0);
    const forfeited = (g.faulty || []).map((i) => g.seats[i]);
    return h('tr', {},
      h('td', { class: 'num mono' }, g.id),
      h('td', {}, seatCell),
      h('td', {}, res),
      // A forfeit decided the game, not the board's end (shown on hover).
      h('td', { class: 'muted', title: forfeited.length ? `the board: ${REASON[g.reason] || g.reason || ''}` : null },
        forfeited.length ? `forfeit (${forfeited.join(', ')})` : REASON[g.reason] || g.reason || ''),
      h('td', { class: 'num' }, g.rounds ?? ''),
      royale ? h('td', { class: 'muted' }, (g.board || '').replace(/^.*\//, '')) : null,
      h('td', { class: 'num' }, faults ? h('span', { class: 'badge fault', title: forfeited.length ? `faulty: ${forfeited.join(', ')}` : null }, faults) : ''),
      h('td', {}, packed ? h('a', { href: `#game-${g.id}` }, 'replay ›') : ''));
  };
  const draw = (n) => {
    const frag = document.createDocumentFragment();
    for (let i = shown; i < Math.min(n, list.length); i++) frag.append(row(list[i]));
    body.append(frag);
    shown = Math.min(n, list.length);
    count.textContent = `${fmt(list.length)} of ${fmt(games.length)} games${shown < list.length ? `, showing ${fmt(shown)}` : ''}`;
    more.hidden = shown >= list.length;
  };
  const refilter = () => { list = games.filter(matches); body.textContent = ''; shown = 0; draw(200); };
  bot.addEventListener('change', refilter);
  result.addEventListener('change', refilter);
  refilter();
  return h('div', { class: 'panel games' }, h('h2', {}, 'Games'),
    h('div', { class: 'games-tools' }, bot, result, count),
    scrollBox(h('table', { id: 'games' }, h('thead', {}, h('tr', {}, [['Game', 'num'], [royale ? 'Seats (R, P, S)' : 'Seats'], ['Result'], ['Ended by'], ['Rounds', 'num'], royale ? ['Board'] : null, ['Faults', 'num'], ['']].filter(Boolean).map(([x, c]) => h('th', { class: c }, x)))), body)),
    h('div', { style: 'margin-top:8px' }, more));
}

// Unpacks one game's replay data: base64 -> gzip -> JSON, with the
// browser's own DecompressionStream (no network, no library).
async function unpack(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}

// How current the page is: written by the running league (live, reloading
// itself), read from a directory a league runs on (a snapshot), or final.
const clock = (ms) => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });
// A page read later says the day too.
const stamp = (ms) => { const d = new Date(ms), two = (n) => String(n).padStart(2, '0'); return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${clock(ms)}`; };
function eta(secs) {
  if (secs === null || secs === undefined) return 'unknown';
  const s = Math.round(secs);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}
// The league was still being played when the page was written.
const playing = (view) => !!view.status && view.status.state !== 'final';
// A live page older than this many of its reloads is no longer being
// written: the league ended without its final page (its dojo was killed)
// or has played no game for a while (the page is written as games end).
const STALE_RELOADS = 10;
// How long ago a live page was written, in ms, when that is long enough
// to say so (against the reader's clock: a page is read where its league
// runs, or on a machine with a clock close to it); else null.
function staleFor(st) {
  if (st.state !== 'live') return null;
  const meta = document.querySelector('meta[http-equiv=refresh]');
  const secs = (meta && parseInt(meta.content, 10)) || 3;
  const age = Date.now() - st.updated_ms;
  return age > STALE_RELOADS * secs * 1000 ? age : null;
}
function statusPanel(view) {
  const st = view.status, rep = view.report;
  if (!st) return null;
  const stale = staleFor(st);
  const pct = rep.games_scheduled ? (100 * rep.games_played) / rep.games_scheduled : 100;
  const played = h('b', { id: 'status-played' }, fmt(rep.games_played));
  const of = [played, ` of ${fmt(rep.games_scheduled)} games played`];
  const bar = h('div', { class: 'progress', title: `${fmt1(pct)}%` }, h('span', { style: `width:${pct.toFixed(2)}%` }));
  const line = {
    live: stale === null
      ? [h('span', { class: 'badge live' }, 'live'), ` updated ${clock(st.updated_ms)} · `, of, ` · ETA ${eta(st.eta_secs)}`]
      : [h('span', { class: 'badge fault' }, `not updated for ${eta(stale / 1000)}`), ` last written ${stamp(st.updated_ms)} · `, of,
        h('b', { id: 'status-stale' }, ' · the league may have stopped'),
        h('span', { class: 'hint', id: 'status-resume' }, ` (this page is written again as games end; a league whose dojo was stopped or killed goes on with ${view.resume || '--resume'})`)],
    running: [h('span', { class: 'badge draw' }, 'in progress'), ` read at ${stamp(st.updated_ms)} while the league runs · `, of,
      h('span', { class: 'hint' }, ' · this page is not updated (the league’s own --html page is; or run dojo report again)')],
    final: [h('span', { class: 'badge win' }, 'final'), ` written ${stamp(st.updated_ms)} · `, of,
      rep.complete ? null : h('span', { class: 'hint' }, rep.timing && rep.timing.cancelled ? ` · stopped before the end: ${resumeWith(view)}` : ` · incomplete: ${resumeWith(view)}`)],
  }[st.state];
  return h('div', { class: 'panel status', id: 'status', 'data-state': st.state, 'data-stale': stale !== null ? 'yes' : null }, h('div', {}, line), st.state === 'final' && rep.complete ? null : bar);
}

// A live page reloads itself (the refresh in its head), keeping where the
// reader was; an open replay stops the reloading until the reader goes
// back to the report. The refresh does not reload a URL that ends in a
// fragment (`page.html#`, after a replay): a timer a second behind it
// reloads such a page instead.
function liveReload(view) {
  const meta = document.querySelector('meta[http-equiv=refresh]');
  if (!view.status || view.status.state !== 'live' || !meta) return { y: 0, pause() {}, resume() {} };
  const key = `dojo-scroll:${location.pathname}`;
  let y = 0;
  try {
    y = Number(sessionStorage.getItem(key)) || 0;
    window.addEventListener('pagehide', () => sessionStorage.setItem(key, String(window.scrollY)));
  } catch (e) { /* no storage for this page: the browser's own scroll restoring is left */ }
  const secs = parseInt(meta.content, 10) || 3;
  let timer = setTimeout(() => location.reload(), (secs + 1) * 1000);
  let paused = false;
  return {
    y,
    // window.stop() cancels the pending refresh.
    pause() {
      if (paused) return;
      paused = true;
      clearTimeout(timer);
      window.stop();
    },
    resume() {
      if (!paused) return;
      paused = false;
      timer = setTimeout(() => location.reload(), 1000);
    },
  };
}

PAGES.report = (view, app) => {
  const rep = view.report;
  const order = rep.standings.map((s) => s.name);
  const colours = botColours(view, order), colourOf = colours.colourOf;
  const block = document.getElementById('dojo-games');
  let packed = null;
  const games = () => { if (!packed) packed = JSON.parse(block.textContent); return packed; };
  const reportEl = h('div', { id: 'report' },
    h('h1', {}, `${view.title} league`),
    h('p', { class: 'sub' }, `${rep.standings.length} bots · ${fmt(rep.games_played)} ${rep.games_played === 1 ? 'game' : 'games'}${rep.complete ? '' : ` of ${fmt(rep.games_scheduled)}${playing(view) ? '' : ' (incomplete)'}`} · seed ${rep.seed}`),
    statusPanel(view),
    standingsPanel(rep, view),
    sprtPanel(rep),
    excludedPanel(rep),
    order.length >= WIDE_BOTS
      ? [heatPanel(rep, order, view.head_to_head), historyPanel(view, order, colours, true)]
      : h('div', { class: 'row' }, heatPanel(rep, order, view.head_to_head), historyPanel(view, order, colours, false)),
    h('div', { class: 'row' }, faultsPanel(rep), settingsPanel(view)),
    firstFaultsPanel(rep, block != null),
    movesPanel(rep, colourOf),
    conditionsPanel(rep),
    gamesPanel(view, block != null));
  const replayEl = h('div', { id: 'replay-view' });
  app.append(reportEl, replayEl);
  const live = liveReload(view);
  let scroll = live.y;
  const route = async () => {
    const m = /^#game-(\d+)$/.exec(location.hash);
    if (!m) {
      live.resume();
      setKeys(null);
      replayEl.textContent = '';
      reportEl.hidden = false;
      window.scrollTo(0, scroll);
      return;
    }
    const packedGame = block && games()[m[1]];
    if (!packedGame) return;
    live.pause();
    if (!reportEl.hidden) scroll = window.scrollY;
    reportEl.hidden = true;
    replayEl.textContent = '';
    const inner = h('div', {});
    replayEl.append(h('p', { class: 'back' }, h('a', { href: '#' }, '‹ back to the league report')), inner);
    const data = await unpack(packedGame);
    PAGES.replay(data, inner);
    window.scrollTo(0, 0);
  };
  window.addEventListener('hashchange', route);
  route();
};
