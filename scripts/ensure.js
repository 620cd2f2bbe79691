#!/usr/bin/env node
/*
 * Makes a fresh checkout runnable: installs dependencies when node_modules is missing or older
 * than package-lock.json, and builds dist/ when it is missing or older than any source file.
 * Used by `npm start`, `npm run admin` and `npm run migration:run`.
 */
'use strict';
const { execSync } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const run = (cmd) => execSync(cmd, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : mtime(p));
  }
  return latest;
}

const marker = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(marker) || mtime(join(root, 'package-lock.json')) > mtime(marker)) {
  process.stderr.write('Installing dependencies (npm ci)...\n');
  run('npm ci --no-audit --no-fund');
}
const built = join(root, 'dist', 'src', 'main.js');
const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'migrations')), mtime(join(root, 'tsconfig.json')));
if (!existsSync(built) || sources > mtime(built)) {
  process.stderr.write('Building (nest build)...\n');
  run('npx nest build');
}
