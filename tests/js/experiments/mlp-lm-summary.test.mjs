// The summary table at the top of docs/PAPER_A_LM_STUDY.md: every row is the committed verdict files'
// final numbers and word (the whole family of five from final-relu/, H5 from final-dial/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = (path) => JSON.parse(read(path));
const study = read('docs/PAPER_A_LM_STUDY.md');
const summary = study.slice(study.indexOf('**In short**'), study.indexOf('\n## '));
const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const cell = (d) => `${signed(d.mean)} [${signed(d.lo)}, ${signed(d.hi)}]`;

test('the study\'s summary table is the committed final verdicts', () => {
  const { final, verdicts } = json('docs/experiments/prereg/final-relu/verdict.json');
  const rows = [];
  for (const p of final.preconditions) rows.push([p.id, cell(p.gain), p.met ? 'met' : 'not met']);
  for (const h of final.hypotheses) rows.push([h.id, cell(h.diff), verdicts.find((v) => v.id === h.id).verdict]);
  const dial = json('docs/experiments/prereg/final-dial/dial.json');
  rows.push(['H5', cell(dial.final.slope), dial.verdict]);
  const lines = summary.split('\n').filter((l) => /^\| (P-|H)/.test(l));
  assert.equal(lines.length, rows.length);
  for (const [id, numbers, word] of rows) {
    const line = lines.find((l) => l.startsWith(`| ${id}: `));
    assert.ok(line, `a row for ${id}`);
    assert.ok(line.includes(`| ${numbers} | ${word}`), `${id}: ${line} should read ${numbers} | ${word}`);
  }
});
