// Shared by the type tests (types.test.mjs of tests/js/paper-a, train, cem and gp): runs the project's tsc on a
// usage project (must compile) or on a misuse file (must fail exactly on its marked lines), so
// each test file only names its files and lines. Not a test file itself.
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs tsc with the given arguments from the repository root. */
export function tsc(args) {
  return spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', ...args], { cwd: root, encoding: 'utf8' });
}

/** Type-checks a misuse file strictly; returns tsc's result and the lines it reported errors on. */
export function misuseErrors(file) {
  const r = tsc(['--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext',
    file]);
  const name = basename(file);
  const lines = r.stdout.split('\n').filter((l) => l.includes(`${name}(`))
    .map((l) => Number(new RegExp(`${name.replace(/\./g, '\\.')}\\((\\d+)`).exec(l)[1]));
  return { ...r, lines };
}
