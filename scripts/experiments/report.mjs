#!/usr/bin/env node
// Markdown tables from the race JSON files an experiment wrote, so a report (such as
// docs/PAPER_A_RACE.md) can be regenerated from the committed results without rerunning:
//   node scripts/experiments/report.mjs docs/experiments [--summary-only]
// Prints a summary (test accuracy per model and task, mean ± standard error over seeds,
// best mean in bold) and then each task's full table.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { raceTable } from './race.mjs';

const TASKS = ['circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher'];

export function summaryTable(races) {
  const labels = races[0].selected.map((m) => m.label);
  const lines = [`| model | ${races.map((r) => r.task).join(' | ')} |`, `|---|${races.map(() => '---:').join('|')}|`];
  for (const label of labels) {
    const cells = races.map(({ selected }) => {
      const a = selected.find((m) => m.label === label).final.testAccuracy;
      const best = Math.max(...selected.map((m) => Number(m.final.testAccuracy.mean.toFixed(4))));
      const text = `${a.mean.toFixed(4)} ± ${(a.std / Math.sqrt(a.values.length)).toFixed(4)}`;
      return Number(a.mean.toFixed(4)) === best ? `**${text}**` : text;
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/experiments/report.mjs <folder with race-<task>.json> [--summary-only]');
  process.exit(2);
}
const races = TASKS.filter((t) => existsSync(join(dir, `race-${t}.json`)))
  .map((t) => JSON.parse(readFileSync(join(dir, `race-${t}.json`))));
if (races.length === 0) {
  console.error(`report: no race-<task>.json in ${dir}`);
  process.exit(1);
}
console.log(summaryTable(races));
if (!process.argv.includes('--summary-only')) {
  for (const r of races) console.log(`\n#### ${r.task}\n\n${raceTable({ models: r.selected })}`);
}
