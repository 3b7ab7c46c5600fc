// The analysis of the gp-descent suites (cpp/experiments/experiment_gp_descent.hpp) and its
// markdown: every comparison is paired by seed (the models of a seed see the same training
// sequences and the same held-out set) with a 95 % t-interval from lab.stats, and Holm's
// adjustment over the suite's family of comparisons. The rules were fixed before the run
// (docs/EXPERIMENTS.md, "Paper B settled fairly"): η is chosen per T on the dev set, lowest mean
// dev RMSE over seeds; a comparison is resolved only when its interval excludes 0, and otherwise
// reads "not reproduced at this scale".
export const GRID_DEPTHS = [1, 2, 4, 8];
export const GRID_ETAS = [0.0625, 0.125, 0.25, 0.5];
export const TEST_TIME_TRAINED = [1, 2, 4];

const fixedName = (t, eta) => `cem-t${t}-eta${eta}`;

/** Jobs by name, then by seed. */
function index(jobs) {
  const out = new Map();
  for (const j of jobs) {
    if (!out.has(j.name)) out.set(j.name, new Map());
    out.get(j.name).set(j.seed, j);
  }
  return out;
}

const ok = (j) => j && !j.error && !j.diverged && Number.isFinite(j.rmse);
const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;

/** stats.summary of a model's held-out (or dev) RMSE over its seeds; null when fewer than one ran. */
function summary(stats, byName, name, field = 'rmse') {
  const runs = [...(byName.get(name)?.values() ?? [])].filter(ok);
  return runs.length ? { ...stats.summary(runs.map((j) => j[field])), name } : null;
}

/** One paired comparison a − b of `value(job)` over the seeds both have. */
function compare(stats, byName, a, b, claim, value = (j) => j.rmse) {
  const ja = byName.get(a);
  const jb = byName.get(b);
  if (!ja || !jb) return null;
  const seeds = [...ja.keys()].filter((s) => ok(ja.get(s)) && ok(jb.get(s))).sort((x, y) => x - y);
  if (seeds.length < 2) return null;
  const diff = stats.paired(seeds.map((s) => value(ja.get(s))), seeds.map((s) => value(jb.get(s))));
  const wins = seeds.filter((s) => value(ja.get(s)) < value(jb.get(s))).length;
  return { a, b, claim, diff, seeds: seeds.length, wins };
}

/** Resolved at 95 % (interval excludes 0) and the verdict words. */
function judge(comparisons, stats) {
  const list = comparisons.filter(Boolean);
  const adjusted = list.length ? stats.holm(list.map((c) => (Number.isFinite(c.diff.p) ? c.diff.p : 1))) : [];
  return list.map((c, i) => {
    const resolved = c.diff.ci95[0] > 0 || c.diff.ci95[1] < 0;
    const verdict = !resolved ? 'not reproduced at this scale (the interval includes 0)'
      : c.diff.mean < 0 ? 'the first is better' : 'the second is better';
    return { ...c, holm: adjusted[i], resolved, verdict };
  });
}

/** The grid suite: the η × T table, η chosen per T on dev, comparisons, test-time recursion, learned η. */
export function analyseGrid(run, stats) {
  const byName = index(run.jobs);
  const cells = GRID_DEPTHS.map((t) => ({ steps: t, etas: GRID_ETAS.map((eta) => ({ eta,
    dev: summary(stats, byName, fixedName(t, eta), 'devRmse'),
    heldOut: summary(stats, byName, fixedName(t, eta)) })) }))
    .filter((row) => row.etas.some((c) => c.heldOut));
  const chosen = Object.fromEntries(cells.map((row) => {
    const best = row.etas.filter((c) => c.dev).reduce((x, y) => (y.dev.mean < x.dev.mean ? y : x));
    return [row.steps, best.eta];
  }));
  const at = (t) => fixedName(t, chosen[t]);
  const depths = cells.map((r) => r.steps);
  const has = (name) => byName.has(name);
  const comparisons = judge([
    ...depths.filter((t) => t > 1).map((t) => compare(stats, byName, at(t), at(1),
      `recursion: T = ${t} against T = 1, each at its dev-chosen η (${chosen[t]}, ${chosen[1]})`)),
    ...depths.filter((t) => t > 1 && has(fixedName(t, 0.25))).map((t) => compare(stats, byName, fixedName(t, 0.25),
      fixedName(1, 0.25), `recursion at the old fixed η = 1/4: T = ${t} against T = 1`)),
    ...depths.filter((t) => has(`cem-t${t}-learned`)).map((t) => compare(stats, byName, `cem-t${t}-learned`, at(t),
      `learned η against the dev-chosen fixed η (${chosen[t]}), T = ${t}`)),
    ...depths.filter((t) => t > 1 && has(`cem-t${t}-learned`)).map((t) => compare(stats, byName, `cem-t${t}-learned`,
      'cem-t1-learned', `recursion with learned η: T = ${t} against T = 1`)),
    compare(stats, byName, 'cem-attn2-mlp1', fixedName(1, 0.25),
      'recursion in attention only (T_attn = 2, T_mlp = 1) against T = 1, η = 1/4'),
    compare(stats, byName, 'cem-attn1-mlp2', fixedName(1, 0.25),
      'recursion in the MLP only (T_attn = 1, T_mlp = 2) against T = 1, η = 1/4'),
    compare(stats, byName, 'cem-t1-precond-paper', fixedName(1, 0.25),
      "the paper's preconditioner at T = 1 against none, η = 1/4"),
    compare(stats, byName, 'cem-t1-precond-psd', fixedName(1, 0.25),
      'the positive-definite preconditioner at T = 1 against none, η = 1/4'),
    compare(stats, byName, at(1), 'standard',
      `tied CEM (T = 1, η = ${chosen[1]}) against the untied standard transformer`),
  ], stats);
  const learned = depths.filter((t) => has(`cem-t${t}-learned`)).map((t) => {
    const runs = [...byName.get(`cem-t${t}-learned`).values()].filter(ok);
    const etas = (part) => runs.flatMap((j) => j.learnedEta.map((b) => b[part]));
    return { steps: t, attention: stats.summary(etas('attention')), mlp: stats.summary(etas('mlp')),
      heldOut: summary(stats, byName, `cem-t${t}-learned`) };
  });
  return { cells, chosen, comparisons, learned, testTime: testTime(run, stats, byName, chosen),
    standard: summary(stats, byName, 'standard'), others: ['cem-attn2-mlp1', 'cem-attn1-mlp2', 'cem-t1-precond-paper',
      'cem-t1-precond-psd'].filter(has).map((name) => summary(stats, byName, name)) };
}

/** Models trained at T = 1, 2, 4 (dev-chosen η) evaluated at T′ = 1 … 8, with the probes' summaries. */
function testTime(run, stats, byName, chosen) {
  const evalSteps = run.header.settings.evalSteps;
  return TEST_TIME_TRAINED.filter((t) => chosen[t] !== undefined).map((t) => {
    const name = fixedName(t, chosen[t]);
    const runs = [...byName.get(name).values()].filter(ok).sort((a, b) => a.seed - b.seed);
    const rows = evalSteps.map((tp) => {
      const entries = runs.map((j) => j.testTime.find((e) => e.steps === tp));
      const rmse = entries.map((e) => e.rmse);
      const trained = runs.map((j) => j.testTime.find((e) => e.steps === t).rmse);
      const blocks = entries.flatMap((e) => e.blocks);
      const perStep = (field) => Array.from({ length: tp }, (_, s) => mean(blocks.map((b) => b[field][s])));
      const n = blocks[0].entropyByPosition.length / tp;
      const entropy = Array.from({ length: tp }, (_, s) => mean(blocks.map((b) => mean(Array.from({ length: n },
        (_, i) => b.entropyByPosition[i * tp + s])))));
      return { steps: tp, rmse: stats.summary(rmse), againstTrained: tp === t ? null : stats.paired(rmse, trained),
        descended: perStep('descended'), mlpDescended: blocks[0].mlpDescended ? perStep('mlpDescended') : null,
        entropy };
    });
    return { trained: t, eta: chosen[t], name, rows };
  });
}

/** The diagonal suite: per dx, none and per-head against shared, and the sizes of d beside W_QᵀW_K. */
export function analyseDiagonal(run, stats) {
  const byName = index(run.jobs);
  const dxs = [...new Set(run.jobs.map((j) => j.dx))].sort((a, b) => a - b);
  const name = (diag, dx) => `diag-${diag}-dx${dx}`;
  const rows = dxs.map((dx) => {
    const models = ['none', 'per_head', 'shared'].filter((d) => byName.has(name(d, dx))).map((diag) => {
      const runs = [...byName.get(name(diag, dx)).values()].filter(ok);
      const norms = runs.flatMap((j) => j.diagNorms);
      return { diagonal: diag, heldOut: summary(stats, byName, name(diag, dx)), parameters: runs[0]?.parameters ?? 0,
        diagNorm: mean(norms.map((n) => n.diag)), wqkNorm: mean(norms.map((n) => n.wqk)) };
    });
    return { dx, models, baseline: run.header.baselines.find((b) => b.dx === dx) };
  });
  const comparisons = judge(dxs.flatMap((dx) => [
    compare(stats, byName, name('none', dx), name('shared', dx), `no diagonal against a shared diagonal, dx = ${dx}`),
    compare(stats, byName, name('per_head', dx), name('shared', dx), `per-head against a shared diagonal, dx = ${dx}`),
  ]), stats);
  return { rows, comparisons };
}

const f4 = (v) => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : 'n/a');
const interval = (s) => `[${signed(s.ci95[0])}, ${signed(s.ci95[1])}]`;
const cell = (s) => (s ? `${f4(s.mean)} ${interval(s).replace(/[+]/g, '')}` : '–');

function comparisonTable(comparisons) {
  const out = ['| comparison (a − b, paired by seed) | Δ held-out RMSE | 95 % interval | Holm p | a better in '
    + '| verdict |',
    '|---|---:|---:|---:|---:|---|'];
  for (const c of comparisons) {
    out.push(`| ${c.claim} | ${signed(c.diff.mean)} | ${interval(c.diff)} | ${c.holm.toFixed(3)} `
      + `| ${c.wins}/${c.seeds} | ${c.verdict} |`);
  }
  return out.join('\n');
}

/** Markdown of the grid suite. */
export function gridReport(a, run) {
  const s = run.header.settings;
  const posterior = run.header.baselines[0].posterior;
  const seedCount = Math.max(...a.cells.flatMap((r) => r.etas.map((c) => c.heldOut?.n ?? 0)));
  const out = [`gp-descent grid: d = ${s.d}, ${s.layers} blocks, ${s.heads} heads, M = ${s.hidden}; `
    + `${s.trainSteps} steps × `
    + `${s.batch} sequences of ${s.length}; ${seedCount} seeds; dev ${s.devSequences} and held-out `
    + `${s.evalSequences} sequences (GP posterior ${f4(posterior)})`, '',
  `| T | ${GRID_ETAS.map((e) => `η = ${e}`).join(' | ')} | learned η |`,
  `|---:|${GRID_ETAS.map(() => '---:').join('|')}|---:|`];
  for (const row of a.cells) {
    const learned = a.learned.find((l) => l.steps === row.steps);
    const heldOut = (c) => `${f4(c.heldOut.mean)}${a.chosen[row.steps] === c.eta ? ' *' : ''}`;
    out.push(`| ${row.steps} | ${row.etas.map((c) => (c.heldOut ? heldOut(c) : '–'))
      .join(' | ')} | ${learned ? f4(learned.heldOut.mean) : '–'} |`);
  }
  out.push('', 'Held-out RMSE, mean over seeds; * = the η chosen on the dev set for that T.', '');
  out.push('| T | dev RMSE by η | learned η: attention | learned η: MLP |', '|---:|---|---:|---:|');
  for (const row of a.cells) {
    const l = a.learned.find((x) => x.steps === row.steps);
    out.push(`| ${row.steps} | ${row.etas.map((c) => (c.dev ? f4(c.dev.mean) : '–')).join(' / ')} | `
      + `${l ? `${f4(l.attention.mean)} ${interval(l.attention).replace(/[+]/g, '')}` : '–'} | `
      + `${l ? `${f4(l.mlp.mean)} ${interval(l.mlp).replace(/[+]/g, '')}` : '–'} |`);
  }
  out.push('', '| other model | held-out RMSE [95 % interval] |', '|---|---:|');
  for (const m of [a.standard, ...a.others].filter(Boolean)) out.push(`| ${m.name} | ${cell(m)} |`);
  out.push('', comparisonTable(a.comparisons), '');
  for (const tt of a.testTime) {
    out.push(`Test-time recursion, trained at T = ${tt.trained} (η = ${tt.eta}):`, '',
      '| evaluated at T′ | held-out RMSE | − as trained [95 %] | steps that lowered the attention energy '
        + '| MLP energy | attention entropy, first → last step |',
      '|---:|---:|---:|---|---|---|');
    for (const r of tt.rows) {
      const pct = (v) => v.map((x) => `${Math.round(100 * x)} %`).join(', ');
      const against = r.againstTrained
        ? `${signed(r.againstTrained.mean)} ${interval(r.againstTrained)}` : '(trained)';
      out.push(`| ${r.steps} | ${f4(r.rmse.mean)} | ${against} | `
        + `${pct(r.descended)} | ${r.mlpDescended ? pct(r.mlpDescended) : 'n/a'} | `
        + `${r.entropy[0].toFixed(3)} → ${r.entropy.at(-1).toFixed(3)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Markdown of the diagonal suite. */
export function diagonalReport(a, run) {
  const s = run.header.settings;
  const out = [`gp-descent diagonal: d = ${s.d}, ${s.heads} heads (width ${s.d / s.heads}), T = 2, η = 1/4; `
    + `${s.trainSteps} steps`, '',
    '| dx | diagonal | parameters | held-out RMSE [95 %] | ‖d_k‖ (mean over heads) | ‖W_Q^kᵀ W_K^k‖_F '
      + '| GP posterior |', '|---:|---|---:|---:|---:|---:|---:|'];
  for (const row of a.rows) {
    for (const m of row.models) {
      out.push(`| ${row.dx} | ${m.diagonal} | ${m.parameters} | ${cell(m.heldOut)} `
        + `| ${m.diagonal === 'none' ? '–' : m.diagNorm.toFixed(3)} | `
        + `${m.wqkNorm.toFixed(3)} | ${f4(row.baseline.posterior)} |`);
    }
  }
  out.push('', comparisonTable(a.comparisons));
  return out.join('\n');
}

/**
 * The small-eta suite (exploratory, added after the grid showed its edge): per T ≥ 2, η = 1/32
 * against 1/16 on held-out and on dev (would the dev choice move?), and T at 1/32 against T = 1
 * at its dev-chosen 1/8.
 */
export function analyseSmallEta(run, stats) {
  const byName = index(run.jobs);
  const depths = [...new Set(run.jobs.map((j) => j.steps))].filter((t) => t > 1).sort((a, b) => a - b);
  const rows = depths.map((t) => ({ steps: t,
    small: { heldOut: summary(stats, byName, fixedName(t, 0.03125)),
      dev: summary(stats, byName, fixedName(t, 0.03125), 'devRmse') },
    edge: { heldOut: summary(stats, byName, fixedName(t, 0.0625)),
      dev: summary(stats, byName, fixedName(t, 0.0625), 'devRmse') } }));
  const comparisons = judge(depths.flatMap((t) => [
    compare(stats, byName, fixedName(t, 0.03125), fixedName(t, 0.0625), `η = 1/32 against 1/16, T = ${t}`),
    compare(stats, byName, fixedName(t, 0.03125), fixedName(1, 0.125), `T = ${t} at η = 1/32 against T = 1 at η = 1/8`),
  ]), stats);
  return { rows, comparisons, reference: summary(stats, byName, fixedName(1, 0.125)) };
}

/** Markdown of the small-eta suite. */
export function smallEtaReport(a) {
  const out = ['gp-descent small-eta (exploratory): η = 1/32 beside the grid\'s edge 1/16', '',
    '| T | held-out, η = 1/32 | held-out, η = 1/16 | dev, η = 1/32 | dev, η = 1/16 |', '|---:|---:|---:|---:|---:|'];
  for (const r of a.rows) {
    out.push(`| ${r.steps} | ${cell(r.small.heldOut)} | ${cell(r.edge.heldOut)} | ${f4(r.small.dev?.mean)} `
      + `| ${f4(r.edge.dev?.mean)} |`);
  }
  out.push(`| 1 (η = 1/8) | ${cell(a.reference)} | | | |`, '', comparisonTable(a.comparisons));
  return out.join('\n');
}
