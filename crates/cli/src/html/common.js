'use strict';
// Shared helpers: element builders, number formats, a small SVG line chart
// that doubles as a scrubber, and the page's start-up.

const SVG_NS = 'http://www.w3.org/2000/svg';

// Text a bot controls (its name and directory, description, stderr, an
// answer, a reason, a command) as the page shows it: Unicode's
// bidirectional formatting characters (the marks U+061C, U+200E, U+200F,
// the embeddings and overrides U+202A to U+202E, the isolates U+2066 to
// U+2069) as escapes, `\u{202e}`, as on the terminal
// (render/untrusted.rs). Obeyed, a right-to-left override makes a
// directory `U+202E yp-modnar` read as `random-py`, and a stderr line
// ending `U+202E gnp.exe` read as `exe.png`. Everything else, right-to-
// left letters too, is left as it is. The page's own text holds none of
// them, so build() passes all the text it puts in the page through this:
// no call site can forget it.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const escapeBidi = (text) => String(text).replace(BIDI_CONTROLS, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
// The attributes whose text is shown (as a tooltip, or read aloud).
const SHOWN_ATTRS = new Set(['title', 'aria-label', 'alt', 'placeholder']);

// h('div', {class: 'x', onclick: f}, child, 'text', [more]) -> element.
// Text (kids, `text`, the attributes of SHOWN_ATTRS) goes in through
// escapeBidi(); other attributes (a `data-dir`, a `value`) as they are.
function build(el, attrs, kids) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = escapeBidi(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, SHOWN_ATTRS.has(k) ? escapeBidi(v) : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid == null || kid === false) continue;
    el.append(kid instanceof Node ? kid : escapeBidi(kid));
  }
  return el;
}
const h = (tag, attrs, ...kids) => build(document.createElement(tag), attrs, kids);
const svg = (tag, attrs, ...kids) => build(document.createElementNS(SVG_NS, tag), attrs, kids);

const fmt = (n) => Number(n).toLocaleString('en-US');
const fmt1 = (n) => Number(n).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
// An Elo difference with its sign, to one decimal: +12.3, -4.0, 0.0.
const signed = (v) => { const x = Math.round(v * 10) / 10; return (x > 0 ? '+' : '') + (x === 0 ? '0.0' : x.toFixed(1)); };
function fmtUs(us) {
  if (us == null) return '–';
  if (us >= 1e6) return (us / 1e6).toFixed(2) + ' s';
  if (us >= 1000) return (us / 1000).toFixed(us >= 1e5 ? 0 : 1) + ' ms';
  return us + ' µs';
}
const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));
// The width in pixels of `text` in the page's font at `size` px and
// `weight`, measured on a canvas that is never shown.
let measurer = null;
function textWidth(text, size, weight) {
  measurer = measurer || document.createElement('canvas').getContext('2d');
  measurer.font = `${weight} ${size}px ${getComputedStyle(document.body).fontFamily}`;
  return measurer.measureText(text).width;
}
// A name cut to fit `px` pixels (in the font at `size` px and `weight`),
// an ellipsis for its middle. Not its end: the bots of a league often
// share a long start (contestant-with-long-name-01, -02, ...) and only
// their ends tell them apart. Where it is cut, the full name goes in a
// tooltip.
function cutMiddle(raw, px, size, weight) {
  // Cut what is shown, escapes included, so that what is shown fits.
  const name = escapeBidi(raw);
  if (textWidth(name, size, weight) <= px) return name;
  const chars = [...name];
  for (let keep = chars.length - 1; keep > 1; keep--) {
    const tail = Math.floor(keep / 2);
    const cut = chars.slice(0, keep - tail).join('') + '…' + chars.slice(chars.length - tail).join('');
    if (textWidth(cut, size, weight) <= px) return cut;
  }
  return chars[0] + '…';
}
const TEAM = { R: 'Rock', P: 'Paper', S: 'Scissors' };
const TEAM_COLOUR = { R: '#d55e00', P: '#0072b2', S: '#009e73' };

// A wide table in a box of its own that scrolls sideways, so that on a
// narrow screen (a phone) the table scrolls, not the whole page.
const scrollBox = (table) => h('div', { class: 'scroll-x' }, table);

// A copyable command line.
function command(label, text) {
  const code = h('code', {}, text);
  const copy = h('button', {
    title: 'Copy to the clipboard',
    onclick: () => {
      const done = () => { copy.textContent = 'Copied'; setTimeout(() => { copy.textContent = 'Copy'; }, 1200); };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => selectText(code));
      else selectText(code);
    },
  }, 'Copy');
  return h('div', { class: 'cmd' }, h('span', { class: 'label' }, label), code, copy);
}
function selectText(el) {
  const r = document.createRange();
  r.selectNodeContents(el);
  const s = getSelection();
  s.removeAllRanges();
  s.addRange(r);
}

// Keeps at most `max` points of a series, each the largest of its bucket
// (spikes stay visible), as [x, y] pairs.
function thin(xs, ys, max) {
  if (xs.length <= max) return xs.map((x, i) => [x, ys[i]]);
  const out = [];
  const per = xs.length / max;
  for (let b = 0; b < max; b++) {
    const from = Math.floor(b * per), to = Math.floor((b + 1) * per);
    let best = from;
    for (let i = from; i < to; i++) if (ys[i] > ys[best]) best = i;
    out.push([xs[best], ys[best]]);
  }
  return out;
}

// A line chart: series [{name, colour, xs, ys, dash}], x from 0 to xMax.
// Options: width, height, yMin, yMax, yLabel(v), xLabel(v), ticks [{value,
// label}] (the value axis's ticks, as the page data gives them; else the
// ends and the middle, labelled by yLabel), areas [{xs, lo, hi, colour}],
// bands [{from, to, colour}], hlines [{y, colour, label, below}] (with
// labelsOutside, their labels go in the right margin, clear of the
// series, which often ends on such a line), markers
// [{x, colour, title}], clips [{x, above, label, title}] (an arrow at the
// top or bottom edge where what is drawn goes past the axis, with its
// label), onPick(x) (click or drag picks an x: the chart is a scrubber).
// Returns the SVG element with setCursor(x).
// A chart drawn W units wide, in its box: it fills the box's width, but
// not below MIN_CHART_SCALE pixels a unit, so its labels (11 units) stay
// about 9 px or more; a narrower box (a phone) scrolls sideways inside
// itself instead of shrinking the chart (its labels were about 4 px).
// The box carries the chart's setCursor.
const MIN_CHART_SCALE = 0.8;
function chartBox(el, W) {
  el.style.minWidth = `${Math.ceil(W * MIN_CHART_SCALE)}px`;
  const box = h('div', { class: 'chart-box scroll-x' }, el);
  box.setCursor = el.setCursor;
  return box;
}

function lineChart(o) {
  const W = o.width || 1000, H = o.height || 150, L = 60, B = 22;
  const R = o.labelsOutside ? 16 + Math.max(0, ...(o.hlines || []).map((l) => (l.label ? textWidth(l.label, 11, 400) : 0))) : 12;
  const T = o.markers && o.markers.length ? 20 : 10;
  const xMax = Math.max(o.xMax, 1);
  let yMin = o.yMin ?? 0, yMax = o.yMax;
  if (yMax == null) {
    yMax = 0;
    for (const s of o.series) for (const y of s.ys) if (y > yMax) yMax = y;
    for (const l of o.hlines || []) yMax = Math.max(yMax, l.y);
    yMax = yMax * 1.05 || 1;
  }
  const X = (x) => L + (x / xMax) * (W - L - R);
  const Y = (y) => T + (1 - (y - yMin) / (yMax - yMin || 1)) * (H - T - B);
  const el = svg('svg', { class: 'chart' + (o.onPick ? ' scrub' : ''), viewBox: `0 0 ${W} ${H}` });
  for (const a of o.areas || []) {
    const top = a.xs.map((x, i) => `${X(x).toFixed(1)},${Y(a.hi[i]).toFixed(1)}`);
    const bottom = a.xs.map((x, i) => `${X(x).toFixed(1)},${Y(a.lo[i]).toFixed(1)}`).reverse();
    el.append(svg('polygon', { points: top.concat(bottom).join(' '), fill: a.colour }));
  }
  for (const b of o.bands || []) {
    el.append(svg('rect', { x: L, width: W - L - R, y: Y(b.to), height: Math.max(0, Y(b.from) - Y(b.to)), fill: b.colour }));
  }
  const yl = o.yLabel || ((v) => fmt(Math.round(v)));
  const ticks = o.ticks || [yMin, (yMin + yMax) / 2, yMax].map((v) => ({ value: v, label: yl(v) }));
  for (const t of ticks) {
    const v = t.value;
    el.append(svg('line', { class: 'axis', x1: L, x2: W - R, y1: Y(v), y2: Y(v), 'stroke-dasharray': v === yMin ? null : '3 4' }));
    el.append(svg('text', { class: 'tick', x: L - 6, y: Y(v) + 4, 'text-anchor': 'end' }, t.label));
  }
  const xl = o.xLabel || fmt;
  el.append(svg('text', { x: L, y: H - 6 }, xl(0)));
  el.append(svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end' }, xl(xMax)));
  for (const l of o.hlines || []) {
    el.append(svg('line', { x1: L, x2: W - R, y1: Y(l.y), y2: Y(l.y), stroke: l.colour, 'stroke-width': 1.5, 'stroke-dasharray': '6 4', 'vector-effect': 'non-scaling-stroke' }));
    if (!l.label) continue;
    const side = o.labelsOutside ? { x: W - R + 6, y: Y(l.y) + (l.below ? 9 : -1), 'text-anchor': 'start' } : { x: W - R - 4, y: Y(l.y) + (l.below ? 13 : -4), 'text-anchor': 'end' };
    el.append(svg('text', { class: 'hline-label', ...side, fill: l.colour }, l.label));
  }
  for (const s of o.series) {
    const pts = thin(s.xs, s.ys, 1200).map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(' ');
    el.append(svg('polyline', { points: pts, fill: 'none', stroke: s.colour, 'stroke-width': s.width || 1.8, 'stroke-dasharray': s.dash, 'vector-effect': 'non-scaling-stroke', 'stroke-linejoin': 'round' }, svg('title', {}, s.name)));
  }
  for (const m of o.markers || []) {
    el.append(svg('path', { d: `M${X(m.x)},${T - 4} l-4,-8 h8 z`, fill: m.colour || '#c0392b' }, svg('title', {}, m.title || '')));
  }
  for (const c of o.clips || []) {
    // Pointing out of the plot, its tip on the edge; the label beside it,
    // on the side with room, past the arrows of the same edge it would
    // cover (the cut runs of the first few blocks are close together).
    const x = X(c.x), edge = c.above ? T : H - B, dir = c.above ? 1 : -1, right = x < W / 2;
    let lx = x + (right ? 8 : -8);
    if (c.label) {
      const w = textWidth(c.label, 11, 400);
      const others = o.clips.filter((d) => d !== c && d.above === c.above).map((d) => X(d.x)).sort((a, b) => (right ? a - b : b - a));
      for (const ox of others) {
        if (right ? ox + 5 >= lx && ox - 5 <= lx + w : ox - 5 <= lx && ox + 5 >= lx - w) lx = ox + (right ? 8 : -8);
      }
    }
    el.append(svg('g', { class: 'clip', fill: '#3d5a80' },
      svg('path', { d: `M${x},${edge} l-5,${8 * dir} h10 z` }, svg('title', {}, c.title || '')),
      c.label ? svg('text', { x: lx, y: edge + (c.above ? 9 : -2), 'text-anchor': right ? 'start' : 'end' }, c.label) : null));
  }
    const cursor = svg('line', { class: 'cursor', y1: T, y2: H - B, 'vector-effect': 'non-scaling-stroke', visibility: 'hidden' });
  el.append(cursor);
  el.setCursor = (x) => {
    cursor.setAttribute('x1', X(x));
    cursor.setAttribute('x2', X(x));
    cursor.setAttribute('visibility', 'visible');
  };
  if (o.onPick) {
    const pick = (ev) => {
      const r = el.getBoundingClientRect();
      const vx = ((ev.clientX - r.left) / r.width) * W;
      o.onPick(clamp(Math.round(((vx - L) / (W - L - R)) * xMax), 0, xMax));
    };
    el.addEventListener('pointerdown', (ev) => { el.setPointerCapture(ev.pointerId); pick(ev); });
    el.addEventListener('pointermove', (ev) => { if (el.hasPointerCapture(ev.pointerId)) pick(ev); });
  }
  return chartBox(el, W);
}

function legend(items) {
  return h('div', { class: 'legend' }, items.map(([name, colour, ring]) => h('span', {}, h('i', { style: ring ? `border:2px solid ${ring};border-radius:50%;background:${colour}` : `background:${colour}` }), name)));
}

// One keyboard handler at a time (the report swaps replays in and out).
let keyHandler = null;
const setKeys = (f) => { keyHandler = f; };
document.addEventListener('keydown', (ev) => { if (keyHandler) keyHandler(ev); });

// Pages register here; the data block's `page` picks one.
const PAGES = {};
function start() {
  const block = document.getElementById('dojo-data');
  const data = JSON.parse(block.textContent);
  // A replay's title names its bots, as its record gives them.
  document.title = escapeBidi(document.title);
  const app = document.getElementById('app');
  app.textContent = '';
  PAGES[data.page](data, app);
}
document.addEventListener('DOMContentLoaded', start);
