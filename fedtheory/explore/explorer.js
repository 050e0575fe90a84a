// fedtheory bound explorer — the page's hand-written runtime.
//
// It holds no formula of any bound: FORMULAS (each bound's value and hypotheses) and TIES are
// generated from the sympy expressions by fedtheory.explore._jsprinter and defined by the
// script before this one. This file draws the sliders and the log-log plot, finds crossovers
// (sign change of the log difference on the samples, then bisection on the formulas), and
// provides the numerical primitives the generated code calls (F.harmonic, F.factorial, F.sum,
// F.product), as Math provides Math.log.

// ------------------------------------------------------------------ error capture (tests)
const EXPLORER_ERRORS = [];
window.addEventListener("error", (event) => {
  EXPLORER_ERRORS.push(`error: ${event.message} (${event.filename}:${event.lineno})`);
});
window.addEventListener("unhandledrejection", (event) => {
  EXPLORER_ERRORS.push(`unhandled rejection: ${event.reason}`);
});
for (const level of ["error", "warn"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    EXPLORER_ERRORS.push(`console.${level}: ${args.map(String).join(" ")}`);
    original(...args);
  };
}

// ------------------------------------------------------------------ numerical primitives
const EULER_GAMMA = 0.5772156649015329;
const LOOP_LIMIT = 1e7;

function digamma(x) {
  if (Number.isNaN(x) || (x <= 0 && Math.floor(x) === x)) return NaN;
  if (x < 0) return digamma(1 - x) - Math.PI / Math.tan(Math.PI * x);
  let shift = 0;
  while (x < 10) {
    shift -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  const series =
    f * (-1 / 12 + f * (1 / 120 + f * (-1 / 252 + f * (1 / 240 + f * (-1 / 132 +
      f * (691 / 32760 + f * (-1 / 12)))))));
  return shift + Math.log(x) - 0.5 / x + series;
}

// Hurwitz zeta ζ(s, a) (s ≠ 1, a > 0): twelve terms, then Euler–Maclaurin.
const BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
  43867 / 798, -174611 / 330];
function hurwitzZeta(s, a) {
  if (!(a > 0) || s === 1) return NaN;
  const terms = 12;
  let sum = 0;
  for (let k = 0; k < terms; k++) sum += Math.pow(a + k, -s);
  const b = a + terms;
  sum += Math.pow(b, 1 - s) / (s - 1) + 0.5 * Math.pow(b, -s);
  let factorial = 1;
  let rising = s;
  let power = Math.pow(b, -s - 1);
  for (let j = 1; j <= BERNOULLI.length; j++) {
    factorial *= (2 * j - 1) * (2 * j);
    const term = (BERNOULLI[j - 1] / factorial) * rising * power;
    sum += term;
    if (Math.abs(term) <= 1e-18 * Math.abs(sum)) break;
    rising *= (s + 2 * j - 1) * (s + 2 * j);
    power /= b * b;
  }
  return sum;
}

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028,
  771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7];
function gamma(x) {
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  x -= 1;
  const t = x + 7.5;
  let a = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (x + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * a;
}

const F = {
  // generalized harmonic number H_n^(s) = Σ_{t≤n} t^(−s), as numpy evaluates it:
  // ψ(n + 1) + γ for s = 1, ζ(s) − ζ(s, n + 1) otherwise
  harmonic(n, s = 1) {
    if (s === 1) return digamma(n + 1) + EULER_GAMMA;
    return hurwitzZeta(s, 1) - hurwitzZeta(s, n + 1);
  },
  // x! (Γ(x + 1); 0 for x < 0, as scipy.special.factorial)
  factorial(x) {
    if (Number.isNaN(x)) return NaN;
    if (x < 0) return 0;
    if (Number.isInteger(x)) {
      if (x > 170) return Infinity;
      let product = 1;
      for (let k = 2; k <= x; k++) product *= k;
      return product;
    }
    return gamma(x + 1);
  },
  // Σ_{k=lo}^{hi} f(k) and Π_{k=lo}^{hi} f(k) over integers (NaN beyond LOOP_LIMIT terms)
  sum(lo, hi, f) {
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi - lo > LOOP_LIMIT) return NaN;
    let total = 0;
    for (let k = lo; k <= hi; k++) total += f(k);
    return total;
  },
  product(lo, hi, f) {
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi - lo > LOOP_LIMIT) return NaN;
    let total = 1;
    for (let k = lo; k <= hi; k++) total *= f(k);
    return total;
  },
};

// ------------------------------------------------------------------ the page
(function explorer() {
  const DATA = JSON.parse(document.getElementById("explorer-data").textContent);
  const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
  const DASHES = { upper: "", "order-upper": "", exact: "", lower: "7 4", "order-lower": "7 4" };
  const SAMPLES = 240;
  const SLIDER_STEPS = 1000;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const bounds = DATA.bounds;
  const variables = DATA.variables;
  const byKey = Object.fromEntries(variables.map((v) => [v.key, v]));
  const state = {
    axis: DATA.axis,
    values: Object.fromEntries(variables.filter((v) => v.tie === null).map((v) => [v.key, v.value])),
  };
  let last = null; // the latest computation (plotted points, crossovers, messages)

  const color = (i) => COLORS[i % COLORS.length];
  const el = (tag, attrs = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "html") node.innerHTML = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) node.append(child);
    return node;
  };
  const svg = (tag, attrs = {}) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };

  function format(value, integer = false) {
    if (value === null || value === undefined || Number.isNaN(value)) return "—";
    if (!Number.isFinite(value)) return value > 0 ? "∞" : "−∞";
    if (integer && Math.abs(value) < 1e15) return String(Math.round(value));
    const magnitude = Math.abs(value);
    if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e5)) {
      return value.toExponential(3).replace(/\.?0+e/, "e").replace("e+", "e");
    }
    return String(Number(value.toPrecision(4)));
  }

  // ---------------------------------------------------------------- evaluation
  // every value of the page: the sliders' values, then the tied symbols computed from them
  function withTies(values) {
    const full = { ...values };
    for (const [key, tie] of Object.entries(TIES)) full[key] = tie(full);
    return full;
  }
  function args(i, full) {
    return bounds[i].args.map((key) => full[key]);
  }
  function valueAt(i, full) {
    try {
      return FORMULAS[i].value(args(i, full));
    } catch (error) {
      EXPLORER_ERRORS.push(`evaluation of ${bounds[i].id}: ${error}`);
      return NaN;
    }
  }
  function domainProblem(key, value) {
    const v = byKey[key];
    if (!Number.isFinite(value)) return `${key} = ${format(value)} is not a finite number`;
    if (v.positive && !(value > 0)) return `${key} = ${format(value)} is not positive`;
    if (v.nonnegative && !(value >= 0)) return `${key} = ${format(value)} is negative`;
    if (v.integer && !Number.isInteger(value)) return `${key} = ${format(value)} is not an integer`;
    return null;
  }
  // failing hypotheses of bound i at a point: [{text, index}] (index −1: a tied symbol's domain)
  function failures(i, full, checkDomains = true) {
    const out = [];
    if (checkDomains) {
      for (const key of bounds[i].args) {
        if (byKey[key].tie === null) continue;
        const problem = domainProblem(key, full[key]);
        if (problem) out.push({ index: -1, text: `${key} = ${byKey[key].tie}: ${problem}` });
      }
    }
    const x = args(i, full);
    FORMULAS[i].hypotheses.forEach((hypothesis, index) => {
      let holds = false;
      try {
        holds = hypothesis(x) === true;
      } catch (error) {
        EXPLORER_ERRORS.push(`hypothesis of ${bounds[i].id}: ${error}`);
      }
      if (!holds) out.push({ index, text: bounds[i].hypotheses[index].text });
    });
    return out;
  }
  function dependsOnAxis(i, axis) {
    return bounds[i].args.some((key) => key === axis ||
      (byKey[key].tie !== null && TIE_SYMBOLS[key].includes(axis)));
  }
  const TIE_SYMBOLS = Object.fromEntries(variables.map((v) => [v.key, v.tieSymbols]));

  // ---------------------------------------------------------------- sampling and crossovers
  function axisSamples() {
    const v = byKey[state.axis];
    const lo = Math.log(v.low);
    const hi = Math.log(v.high);
    const xs = [];
    for (let k = 0; k < SAMPLES; k++) {
      let x = Math.exp(lo + ((hi - lo) * k) / (SAMPLES - 1));
      if (k === 0) x = v.low;
      if (k === SAMPLES - 1) x = v.high;
      if (v.integer) x = Math.max(Math.round(x), Math.ceil(v.low));
      if (!xs.length || x > xs[xs.length - 1]) xs.push(x);
    }
    return xs;
  }
  // the value of bound i at axis value x, or null where it is not drawn
  function plottedValue(i, x) {
    const full = withTies({ ...state.values, [state.axis]: x });
    if (failures(i, full, false).length) return null;
    const y = valueAt(i, full);
    return Number.isFinite(y) && y > 0 ? y : null;
  }
  function bisect(i, j, a, b) {
    const gap = (x) => {
      const yi = plottedValue(i, x);
      const yj = plottedValue(j, x);
      return yi === null || yj === null ? null : Math.log(yi) - Math.log(yj);
    };
    let ga = gap(a);
    for (let step = 0; step < 80 && b / a > 1 + 1e-13; step++) {
      const mid = Math.sqrt(a * b);
      const gm = gap(mid);
      if (gm === null) break;
      if (gm === 0) return mid;
      if (Math.sign(gm) === Math.sign(ga)) {
        a = mid;
        ga = gm;
      } else {
        b = mid;
      }
    }
    return Math.sqrt(a * b);
  }
  function crossovers(xs, curves) {
    const found = [];
    const logs = curves.map((ys) => ys.map((y) => (y === null ? null : Math.log(y))));
    for (let i = 0; i < bounds.length; i++) {
      for (let j = i + 1; j < bounds.length; j++) {
        const gaps = xs.map((_, k) => (logs[i][k] === null || logs[j][k] === null
          ? null : logs[i][k] - logs[j][k]));
        for (let k = 0; k + 1 < xs.length; k++) {
          const g0 = gaps[k];
          const g1 = gaps[k + 1];
          if (g0 === null || g1 === null || !(g0 * g1 < 0 || (g0 === 0 && k > 0 &&
            gaps[k - 1] !== null && gaps[k - 1] * g1 < 0))) continue;
          const x = g0 === 0 ? xs[k] : bisect(i, j, xs[k], xs[k + 1]);
          const yi = plottedValue(i, x);
          const yj = plottedValue(j, x);
          if (yi === null || yj === null) continue;
          const lowerBefore = (g0 === 0 ? gaps[k - 1] : g0) < 0 ? i : j;
          found.push({ a: i, b: j, x, y: Math.sqrt(yi * yj), lowerBefore });
        }
      }
    }
    return found.sort((p, q) => p.x - q.x);
  }
  function intervals(xs, flags) {
    // runs of consecutive samples with the flag set, as [first x, last x]
    const runs = [];
    let start = null;
    flags.forEach((flag, k) => {
      if (flag && start === null) start = k;
      if ((!flag || k === flags.length - 1) && start !== null) {
        const end = flag ? k : k - 1;
        runs.push([xs[start], xs[end]]);
        start = null;
      }
    });
    return runs;
  }
  function compute() {
    const xs = axisSamples();
    const curves = [];
    const messages = [];
    const axisName = state.axis;
    const integerAxis = byKey[axisName].integer;
    const span = ([a, b]) => (a === b ? `at ${axisName} = ${format(a, integerAxis)}`
      : `for ${axisName} from ${format(a, integerAxis)} to ${format(b, integerAxis)}`);
    bounds.forEach((bound, i) => {
      const ys = [];
      const reasons = [];
      for (const x of xs) {
        const full = withTies({ ...state.values, [axisName]: x });
        const failed = failures(i, full);
        if (failed.length) {
          ys.push(null);
          reasons.push(`hypothesis ${failed[0].text} fails`);
          continue;
        }
        const y = valueAt(i, full);
        if (Number.isFinite(y) && y > 0) {
          ys.push(y);
          reasons.push(null);
        } else {
          ys.push(null);
          reasons.push(Number.isNaN(y) ? "the value is not a number"
            : !Number.isFinite(y) ? "the value is not finite (float64 overflow)"
              : "the value is not positive (log scale)");
        }
      }
      curves.push(ys);
      for (const reason of [...new Set(reasons.filter((r) => r !== null))]) {
        for (const run of intervals(xs, reasons.map((r) => r === reason))) {
          messages.push({
            bound: i, kind: reason.startsWith("hypothesis") ? "hypothesis" : "value",
            text: `${bound.id} is not drawn ${span(run)}: ${reason}`,
          });
        }
      }
      // the current point
      const full = withTies(state.values);
      for (const failure of failures(i, full)) {
        messages.push({
          bound: i, kind: "current",
          text: `${bound.id}: hypothesis ${failure.text} fails at the current point`,
        });
      }
    });
    last = {
      axis: axisName,
      xs,
      curves,
      plotted: curves.map((ys) => ys.flatMap((y, k) => (y === null ? [] : [[xs[k], y]]))),
      crossings: crossovers(xs, curves),
      messages,
    };
    return last;
  }

  // ---------------------------------------------------------------- drawing
  function ticks(lo, hi) {
    // decades inside [lo, hi] (log10 values), with 2 and 5 when fewer than three decades
    const out = [];
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi - lo > 400) return out;
    const first = Math.floor(lo);
    const dense = hi - lo < 2.5;
    for (let d = first; d <= Math.ceil(hi); d++) {
      for (const m of dense ? [1, 2, 5] : [1]) {
        const t = d + Math.log10(m);
        if (t >= lo - 1e-9 && t <= hi + 1e-9) out.push({ t, major: m === 1 });
      }
    }
    const majors = out.filter((t) => t.major).length;
    const step = Math.max(1, Math.ceil(majors / 9));
    return out.filter((t) => !t.major || Math.round(t.t) % step === 0);
  }
  function tickLabel(t) {
    const value = Math.pow(10, t);
    if (Math.abs(t - Math.round(t)) < 1e-9 && (Math.round(t) < -2 || Math.round(t) > 3)) {
      return { base: "10", exp: String(Math.round(t)).replace("-", "−") };
    }
    return { base: String(Number(value.toPrecision(3))), exp: null };
  }
  function draw(result) {
    const W = 900;
    const H = 520;
    const M = { left: 74, right: 22, top: 16, bottom: 30 };
    const pw = W - M.left - M.right;
    const ph = H - M.top - M.bottom;
    const axisVar = byKey[result.axis];
    const lx0 = Math.log10(axisVar.low);
    const lx1 = Math.log10(axisVar.high);
    const all = result.plotted.flat().map((p) => p[1]);
    let ly0 = all.length ? Math.log10(Math.min(...all)) : -3;
    let ly1 = all.length ? Math.log10(Math.max(...all)) : 0;
    if (ly1 - ly0 < 1) {
      const mid = (ly0 + ly1) / 2;
      ly0 = mid - 0.5;
      ly1 = mid + 0.5;
    }
    const pad = 0.05 * (ly1 - ly0);
    ly0 -= pad;
    ly1 += pad;
    const X = (x) => M.left + ((Math.log10(x) - lx0) / (lx1 - lx0 || 1)) * pw;
    const Y = (y) => M.top + (1 - (Math.log10(y) - ly0) / (ly1 - ly0)) * ph;
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": `log-log plot of the bounds against ${result.axis}` });
    root.append(svg("rect", { x: M.left, y: M.top, width: pw, height: ph, fill: "#fff",
      stroke: "#888" }));
    const clip = svg("clipPath", { id: "plot-area" });
    clip.append(svg("rect", { x: M.left, y: M.top, width: pw, height: ph }));
    root.append(clip);
    const label = (x, y, t, anchor, cls) => {
      const node = svg("text", { x, y, "text-anchor": anchor, class: cls });
      const parts = tickLabel(t);
      node.append(document.createTextNode(parts.base));
      if (parts.exp !== null) {
        const sup = svg("tspan", { dy: "-6", "font-size": "10" });
        sup.textContent = parts.exp;
        node.append(sup);
      }
      return node;
    };
    for (const { t, major } of ticks(lx0, lx1)) {
      const x = M.left + ((t - lx0) / (lx1 - lx0 || 1)) * pw;
      root.append(svg("line", { x1: x, x2: x, y1: M.top, y2: M.top + ph,
        stroke: major ? "#e3e5e8" : "#f1f2f4" }));
      root.append(svg("line", { x1: x, x2: x, y1: M.top + ph, y2: M.top + ph + 5, stroke: "#888" }));
      root.append(label(x, M.top + ph + 20, t, "middle", "tick"));
    }
    for (const { t, major } of ticks(ly0, ly1)) {
      const y = M.top + (1 - (t - ly0) / (ly1 - ly0)) * ph;
      root.append(svg("line", { x1: M.left, x2: M.left + pw, y1: y, y2: y,
        stroke: major ? "#e3e5e8" : "#f1f2f4" }));
      root.append(svg("line", { x1: M.left - 5, x2: M.left, y1: y, y2: y, stroke: "#888" }));
      root.append(label(M.left - 8, y + 4, t, "end", "tick"));
    }
    const yLabel = svg("text", { x: 16, y: M.top + ph / 2, "text-anchor": "middle",
      class: "axis-label", transform: `rotate(-90 16 ${M.top + ph / 2})` });
    const quantities = [...new Set(bounds.map((b) => b.quantity))];
    yLabel.textContent = quantities.length === 1 ? `${quantities[0]}  (log scale)`
      : "value of each bound  (log scale)";
    root.append(yLabel);
    const plotArea = svg("g", { "clip-path": "url(#plot-area)" });
    root.append(plotArea);
    // the current value of the axis symbol
    const current = state.values[result.axis];
    if (current >= axisVar.low && current <= axisVar.high) {
      plotArea.append(svg("line", { x1: X(current), x2: X(current), y1: M.top, y2: M.top + ph,
        stroke: "#9aa0a6", "stroke-width": 1, "stroke-dasharray": "2 3" }));
      const t = svg("text", { x: X(current) + 3, y: M.top + 12, class: "current-label" });
      t.textContent = `current ${axisVar.plain}`;
      plotArea.append(t);
    }
    result.curves.forEach((ys, i) => {
      let points = [];
      const flush = () => {
        if (points.length === 1) {
          plotArea.append(svg("circle", { cx: points[0][0], cy: points[0][1], r: 2.5,
            fill: color(i), class: `curve curve-${i}` }));
        } else if (points.length > 1) {
          plotArea.append(svg("polyline", {
            points: points.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" "),
            fill: "none", stroke: color(i), "stroke-width": 2.4,
            "stroke-dasharray": DASHES[bounds[i].kind] || "", "stroke-linejoin": "round",
            class: `curve curve-${i}`,
          }));
        }
        points = [];
      };
      ys.forEach((y, k) => {
        if (y === null) flush();
        else points.push([X(result.xs[k]), Y(y)]);
      });
      flush();
    });
    result.crossings.forEach((c, n) => {
      const cx = X(c.x);
      const cy = Y(c.y);
      plotArea.append(svg("line", { x1: cx, x2: cx, y1: cy, y2: M.top + ph, stroke: "#444",
        "stroke-width": 1, "stroke-dasharray": "3 3" }));
      plotArea.append(svg("circle", { cx, cy, r: 5.5, fill: "#fff", stroke: "#111",
        "stroke-width": 2, class: "crossover" }));
      const right = cx > M.left + 0.9 * pw;
      const text = svg("text", { x: cx + (right ? -8 : 8), y: cy + (n % 2 ? 18 : -9),
        "text-anchor": right ? "end" : "start", class: "cross-label" });
      text.textContent = String(n + 1);
      plotArea.append(text);
    });
    const holder = document.getElementById("plot");
    holder.replaceChildren(root);
    const meaning = axisVar.meanings.length ? ` — ${escapeHtml(axisVar.meanings[0][0])}` : "";
    document.getElementById("x-label").innerHTML =
      `x axis: ${axisVar.label}${meaning} <span class="scale">(log scale)</span>`;
  }
  function drawLegend(result) {
    const legend = document.getElementById("legend");
    legend.replaceChildren(...bounds.map((b, i) => {
      const swatch = svg("svg", { width: 34, height: 12 });
      swatch.append(svg("line", { x1: 1, x2: 33, y1: 6, y2: 6, stroke: color(i),
        "stroke-width": 3, "stroke-dasharray": DASHES[b.kind] || "" }));
      const flat = dependsOnAxis(i, result.axis) ? "" : ` (constant in ${result.axis})`;
      return el("span", { class: "item", "data-bound": String(i) }, [swatch,
        el("code", { text: b.id }),
        el("span", { class: "what", text: `${b.relation} ${b.kind}${flat}`, title: b.quantity })]);
    }));
    const list = document.getElementById("crossover-list");
    const axisVar = byKey[result.axis];
    list.replaceChildren(...result.crossings.map((c, n) => el("li", {
      class: "crossover", "data-a": String(c.a), "data-b": String(c.b),
      html: `<b>${n + 1}</b>: <code>${escapeHtml(bounds[c.a].id)}</code> = ` +
        `<code>${escapeHtml(bounds[c.b].id)}</code> at ${axisVar.label} ≈ ${format(c.x)} ` +
        `(value ${format(c.y)}); <code>${escapeHtml(bounds[c.lowerBefore].id)}</code> is lower ` +
        "before" + (axisVar.integer ? " (between integers: the formulas' continuous extension)"
        : ""),
    })));
    if (!result.crossings.length && bounds.length > 1) {
      list.replaceChildren(el("li", { text: `no crossover in the plotted range of ${result.axis}` }));
    }
    const messages = document.getElementById("messages");
    messages.replaceChildren(...result.messages.map((m) => el("li", {
      class: m.kind === "value" ? "value" : "fail", "data-bound": String(m.bound),
      "data-kind": m.kind, text: m.text,
    })));
  }
  function updateBounds() {
    const full = withTies(state.values);
    bounds.forEach((b, i) => {
      const card = document.getElementById(`bound-${i}`);
      const failed = new Set(failures(i, full).map((f) => f.index));
      card.querySelectorAll("li[data-hypothesis]").forEach((li) => {
        li.className = failed.has(Number(li.dataset.hypothesis)) ? "fail" : "ok";
      });
      const current = card.querySelector(".current");
      const y = valueAt(i, full);
      if (failed.size) {
        current.className = "current fail";
        current.textContent = "At the current point a hypothesis fails: the bound does not apply.";
      } else {
        current.className = "current";
        current.textContent = `At the current point: ${format(y)}` +
          (Number.isFinite(y) && y > 0 ? "" : " (not drawn on the log scale)");
      }
    });
    for (const v of variables.filter((w) => w.tie !== null)) {
      const out = document.getElementById(`tie-${v.key}`);
      if (out) out.textContent = format(full[v.key], v.integer);
    }
  }
  function refresh() {
    const result = compute();
    draw(result);
    drawLegend(result);
    updateBounds();
    document.body.dataset.ready = "true";
  }

  // ---------------------------------------------------------------- controls
  const logScale = (v) => v.low > 0 && v.high / v.low >= 100;
  function toPosition(v, value) {
    const t = logScale(v) ? Math.log(value / v.low) / Math.log(v.high / v.low)
      : (value - v.low) / (v.high - v.low);
    return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
  }
  function fromPosition(v, position) {
    const t = position / SLIDER_STEPS;
    let value = logScale(v) ? v.low * Math.pow(v.high / v.low, t) : v.low + t * (v.high - v.low);
    if (v.integer) value = Math.round(value);
    return value;
  }
  function meaningText(v) {
    if (v.constantOf) return `unknown constant of ${v.constantOf} (order bound)`;
    if (v.meanings.length === 1) return v.meanings[0][0];
    return v.meanings.map(([m, ids]) => `${m} (${ids.join(", ")})`).join("; ");
  }
  function buildControls() {
    const panel = document.getElementById("controls");
    const select = el("select", { id: "axis-select" },
      DATA.axes.map((key) => el("option", { value: key,
        text: byKey[key].plain === key ? key : `${byKey[key].plain} (${key})` })));
    select.value = state.axis;
    select.addEventListener("change", () => {
      state.axis = select.value;
      markAxis();
      refresh();
    });
    panel.append(el("div", { class: "axis-row" }, [el("label", { for: "axis-select",
      text: "x axis" }), select, el("span", { class: "meaning",
      text: "log-log plot; the other symbols are fixed by their sliders" })]));
    for (const v of variables) {
      const head = el("div", { class: "var-head" }, [
        el("span", { class: "sym", html: v.label }),
        el("span", { class: "domain", text: v.tie !== null ? `= ${v.tie}` : v.domain })]);
      if (v.constantOf) {
        head.insertBefore(el("code", { class: "of", text: v.constantOf }), head.children[1]);
      } else if (v.plain !== v.key) {
        head.insertBefore(el("code", { class: "of", text: v.key }), head.children[1]);
      }
      const row = el("div", { class: "var", id: `var-${v.key}`, "data-key": v.key }, [head]);
      if (v.tie !== null) {
        head.append(el("span", { class: "badge", text: "tied" }));
        row.append(el("div", { class: "var-input" }, [el("span", { text: "value " }),
          el("output", { id: `tie-${v.key}` })]));
        row.append(el("div", { class: "meaning", text: meaningText(v) }));
        panel.append(row);
        continue;
      }
      head.append(el("span", { class: "badge axis-badge", text: "x axis" }));
      const slider = el("input", { type: "range", min: "0", max: String(SLIDER_STEPS), step: "1",
        "aria-label": `${v.key} slider`, "data-key": v.key, class: "slider" });
      const field = el("input", { type: "number", step: "any", "aria-label": `${v.key} value`,
        "data-key": v.key, class: "field" });
      const error = el("div", { class: "error" });
      const sync = () => {
        slider.value = String(toPosition(v, state.values[v.key]));
        field.value = format(state.values[v.key], v.integer).replace("−", "-");
      };
      slider.addEventListener("input", () => {
        state.values[v.key] = fromPosition(v, Number(slider.value));
        field.value = format(state.values[v.key], v.integer).replace("−", "-");
        error.textContent = "";
        refresh();
      });
      field.addEventListener("change", () => {
        const value = Number(field.value);
        const problem = field.value.trim() === "" ? `${v.key}: enter a number`
          : domainProblem(v.key, value);
        if (problem) {
          error.textContent = `${problem} (${v.key} is ${v.domain})`;
          return;
        }
        error.textContent = "";
        state.values[v.key] = value;
        v.low = Math.min(v.low, value);
        v.high = Math.max(v.high, value);
        slider.value = String(toPosition(v, value));
        refresh();
      });
      sync();
      const from = el("input", { type: "number", step: "any", value: String(v.low),
        "aria-label": `${v.key} from`, class: "axis-from" });
      const to = el("input", { type: "number", step: "any", value: String(v.high),
        "aria-label": `${v.key} to`, class: "axis-to" });
      const setRange = () => {
        const a = Number(from.value);
        const b = Number(to.value);
        if (!(a > 0 && b > a && Number.isFinite(b))) {
          error.textContent = "the plotted range needs 0 < from < to";
          return;
        }
        error.textContent = "";
        v.low = a;
        v.high = b;
        sync();
        refresh();
      };
      from.addEventListener("change", setRange);
      to.addEventListener("change", setRange);
      const range = el("div", { class: "range-row axis-only" }, [el("span", { text: "plotted from" }),
        from, el("span", { text: "to" }), to]);
      row.append(el("div", { class: "var-input" }, [slider, field]), range,
        el("div", { class: "meaning", text: meaningText(v) }), error);
      panel.append(row);
    }
    markAxis();
  }
  function markAxis() {
    for (const v of variables) {
      const row = document.getElementById(`var-${v.key}`);
      const isAxis = v.key === state.axis;
      row.classList.toggle("is-axis", isAxis);
      const badge = row.querySelector(".axis-badge");
      if (badge) badge.hidden = !isAxis;
      const range = row.querySelector(".axis-only");
      if (range) range.hidden = !isAxis;
    }
  }
  function buildBounds() {
    const section = document.getElementById("bounds");
    bounds.forEach((b, i) => {
      const hyps = el("ul", { class: "hyps" }, b.hypotheses.map((h, k) => el("li", {
        "data-hypothesis": String(k), title: h.text,
        html: `${h.mathml}${h.note ? ` <span class="hyp-note">— ${escapeHtml(h.note)}</span>` : ""}`,
      })));
      section.append(el("article", { class: "bound", id: `bound-${i}`,
        style: `border-left-color: ${color(i)}` }, [
        el("h2", { html: `${escapeHtml(b.id)} <span class="kind">${escapeHtml(b.kind)} · ` +
          `${escapeHtml(b.status)}</span>` }),
        el("div", { class: "source", text: b.source }),
        el("div", { class: "formula", html: b.mathml, title: b.text }),
        el("p", { class: "statement", html: b.statement }),
        b.hypotheses.length ? el("div", { class: "source", text: "hypotheses:" })
          : el("div", { class: "source", text: "no hypotheses" }),
        hyps,
        el("div", { class: "current" }),
      ]));
    });
  }
  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
      '"': "&quot;", "'": "&#39;" })[c]);
  }

  // ---------------------------------------------------------------- test hook and test mode
  const hook = {
    bounds: bounds.map((b) => b.id),
    variables: variables.map((v) => v.key),
    // the bound's value at values (others: the page's current values); null if not finite
    evaluate(i, values) {
      const y = valueAt(i, withTies({ ...state.values, ...values }));
      return Number.isFinite(y) ? y : null;
    },
    // texts of the hypotheses of bound i that fail at values
    hypotheses(i, values) {
      return failures(i, withTies({ ...state.values, ...values })).map((f) => f.text);
    },
    // type a value into a symbol's number field (a "change" event, as a user's entry)
    setValue(key, value) {
      const field = document.querySelector(`#var-${CSS.escape(key)} input.field`);
      field.value = String(value);
      field.dispatchEvent(new Event("change", { bubbles: true }));
      return state.values[key];
    },
    // move a slider to a position 0…1000 (an "input" event, as a user's drag)
    drag(key, position) {
      const slider = document.querySelector(`#var-${CSS.escape(key)} input.slider`);
      slider.value = String(position);
      slider.dispatchEvent(new Event("input", { bubbles: true }));
      return state.values[key];
    },
    // type the plotted range of the axis symbol (its "from" and "to" fields)
    setRange(low, high) {
      const row = document.getElementById(`var-${CSS.escape(state.axis)}`);
      row.querySelector("input.axis-from").value = String(low);
      const to = row.querySelector("input.axis-to");
      to.value = String(high);
      to.dispatchEvent(new Event("change", { bubbles: true }));
      return [byKey[state.axis].low, byKey[state.axis].high];
    },
    setAxis(key) {
      const select = document.getElementById("axis-select");
      select.value = key;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      return state.axis;
    },
    plotted: () => last.plotted,
    crossovers: () => last.crossings.map((c) => ({ a: bounds[c.a].id, b: bounds[c.b].id, x: c.x,
      y: c.y })),
    messages: () => [...document.querySelectorAll("#messages li")].map((li) => ({
      bound: Number(li.dataset.bound), kind: li.dataset.kind, text: li.textContent })),
    values: () => withTies(state.values),
    axis: () => state.axis,
  };
  window.fedtheoryExplorer = hook;

  function testRequest() {
    const hash = window.location.hash;
    if (hash.startsWith("#test=")) {
      const base64 = hash.slice(6).replace(/-/g, "+").replace(/_/g, "/");
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return JSON.parse(new TextDecoder().decode(bytes));
    }
    const inline = document.getElementById("fedtheory-test");
    return inline ? JSON.parse(inline.textContent) : null;
  }
  function runTests(request) {
    const results = [];
    for (const step of request.steps || []) {
      try {
        switch (step.op) {
          case "evaluate": results.push(hook.evaluate(step.bound, step.values || {})); break;
          case "hypotheses": results.push(hook.hypotheses(step.bound, step.values || {})); break;
          case "evaluateMany":
            results.push(step.points.map(([i, values]) => [hook.evaluate(i, values),
              hook.hypotheses(i, values)]));
            break;
          case "set": results.push(hook.setValue(step.key, step.value)); break;
          case "drag": results.push(hook.drag(step.key, step.position)); break;
          case "axis": results.push(hook.setAxis(step.key)); break;
          case "range": results.push(hook.setRange(step.low, step.high)); break;
          case "plotted": results.push(hook.plotted()); break;
          case "crossovers": results.push(hook.crossovers()); break;
          case "messages": results.push(hook.messages()); break;
          case "values": results.push(hook.values()); break;
          default: results.push({ error: `unknown op ${step.op}` });
        }
      } catch (error) {
        EXPLORER_ERRORS.push(`test step ${JSON.stringify(step.op)}: ${error}`);
        results.push(null);
      }
    }
    return results;
  }

  let request = null;
  try {
    request = testRequest();
  } catch (error) {
    EXPLORER_ERRORS.push(`test request: ${error}`);
  }
  try {
    buildControls();
    buildBounds();
    refresh();
  } catch (error) {
    EXPLORER_ERRORS.push(`page: ${error && error.stack ? error.stack : error}`);
  }
  if (request !== null || EXPLORER_ERRORS.length) {
    const results = request !== null ? runTests(request) : [];
    const output = document.getElementById("test-output");
    output.textContent = JSON.stringify({ bounds: hook.bounds, results, errors: EXPLORER_ERRORS });
  }
})();
