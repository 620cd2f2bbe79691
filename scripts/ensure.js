#!/usr/bin/env node
/*
 * Makes a fresh checkout runnable: installs dependencies when node_modules is missing or older
 * than package-lock.json, and builds dist/ when it is missing or older than any source file.
 * Used by `npm start`, `npm run admin` and `npm run migration:run`.
 *
 * With --browser (npm start) it also makes scans work on a fresh Debian/Ubuntu machine: when no
 * Chromium is at CHROMIUM_PATH (default /usr/bin/chromium), it installs Debian's chromium the way
 * scripts/test.sh does (apt-get, as root or through password-less sudo), or, when it may not,
 * prints exactly what to run. The server starts either way; /readyz and failed scans say the same.
 * --browser-only skips the dependency and build steps.
 */
'use strict';
const { execSync, spawnSync } = require('node:child_process');
const { accessSync, constants, existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const run = (cmd) => execSync(cmd, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);
const say = (text) => process.stderr.write(`${text}\n`);

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : mtime(p));
  }
  return latest;
}

function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker) || mtime(join(root, 'package-lock.json')) > mtime(marker)) {
    say('Installing dependencies (npm ci)...');
    run('npm ci --no-audit --no-fund');
  }
}

function ensureBuild() {
  const built = join(root, 'dist', 'src', 'main.js');
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'migrations')), mtime(join(root, 'tsconfig.json')));
  if (!existsSync(built) || sources > mtime(built)) {
    say('Building (nest build)...');
    run('npx nest build');
  }
}

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const succeeds = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/**
 * Debian's packages the service needs at run time (the same list as scripts/test.sh installs):
 * the browser for scans, then qpdf (the PDF tools' repairing pre-pass), poppler-utils (PDF to images),
 * ocrmypdf with tesseract's eng/deu/fra/spa data (OCR) and the stamp fonts.
 */
const BROWSER_PACKAGES = ['chromium', 'fonts-dejavu-core'];
const PDF_TOOL_PACKAGES = ['qpdf', 'poppler-utils', 'ocrmypdf', 'tesseract-ocr-eng', 'tesseract-ocr-deu', 'tesseract-ocr-fra', 'tesseract-ocr-spa', 'fonts-noto-core', 'fonts-nanum', 'fonts-droid-fallback'];
/** Files that say the PDF tools' packages are installed. */
const PDF_TOOL_FILES = ['/usr/bin/qpdf', '/usr/bin/pdftoppm', '/usr/bin/ocrmypdf', ...['eng', 'deu', 'fra', 'spa'].map((l) => `/usr/share/tesseract-ocr/5/tessdata/${l}.traineddata`), '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf', '/usr/share/fonts/truetype/nanum/NanumGothic.ttf', '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'];
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * What to do about the browser, from the facts of this machine (pure, so it is tested alone):
 * `none` (it is there), `install` (run `command`), or `tell` (print `message`, start anyway).
 */
function browserPlan({ path, present, debianPresent, aptGet, isRoot, sudo }) {
  if (present) return { action: 'none' };
  const install = `apt-get install -y --no-install-recommends ${BROWSER_PACKAGES.join(' ')}`;
  if (path !== DEBIAN_CHROMIUM && debianPresent) {
    return { action: 'tell', message: `No browser at CHROMIUM_PATH=${path}; Debian's Chromium is at ${DEBIAN_CHROMIUM}: unset CHROMIUM_PATH or set it to that.` };
  }
  const then = path === DEBIAN_CHROMIUM ? '' : ` and set CHROMIUM_PATH=${DEBIAN_CHROMIUM}`;
  if (!aptGet) {
    return { action: 'tell', message: `Scans need Chromium, which is not at ${path}, and there is no apt-get here: install Chromium and set CHROMIUM_PATH to it. The server starts now; scans answer 502 until then.` };
  }
  if (isRoot || sudo) {
    const s = isRoot ? '' : 'sudo ';
    return { action: 'install', command: `${s}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${s}${install} ${PDF_TOOL_PACKAGES.join(' ')} -qq >/dev/null`, message: `Installing Debian's Chromium, qpdf and fonts for scans and PDF tools (${s}${install})...${then ? ` Then set CHROMIUM_PATH=${DEBIAN_CHROMIUM}.` : ''}` };
  }
  return {
    action: 'tell',
    message: ['Scans need Chromium, which is not installed. Run:', '', `  sudo apt-get update && sudo ${install}`, '', `(and for the PDF tools' repair pre-pass and stamp fonts: sudo apt-get install -y ${PDF_TOOL_PACKAGES.join(' ')})`, '', `then start again${then}. The server starts now; scans answer 502 with this hint until then.`].join('\n'),
  };
}

function ensureBrowser() {
  let path = process.env.CHROMIUM_PATH;
  if (!path) {
    try {
      path = require('dotenv').config({ path: join(root, '.env'), quiet: true }).parsed?.CHROMIUM_PATH;
    } catch {
      /* dotenv not installed yet: the default */
    }
  }
  path = path || DEBIAN_CHROMIUM;
  const present = executable(path) && PDF_TOOL_FILES.every((f) => existsSync(f));
  const plan = browserPlan({
    path,
    present,
    debianPresent: executable(DEBIAN_CHROMIUM),
    aptGet: !present && succeeds('sh', ['-c', 'command -v apt-get']),
    isRoot: process.getuid?.() === 0,
    sudo: !present && process.getuid?.() !== 0 && succeeds('sudo', ['-n', 'true']),
  });
  if (plan.action === 'none') return;
  say(plan.message);
  if (plan.action !== 'install') return;
  try {
    run(plan.command);
  } catch {
    say('Installing Chromium failed (see above); the server starts without it and scans answer 502 until it is installed.');
  }
}

module.exports = { browserPlan };

if (require.main !== module) return;
const args = process.argv.slice(2);
if (!args.includes('--browser-only')) {
  ensureDependencies();
  ensureBuild();
}
if (args.includes('--browser') || args.includes('--browser-only')) ensureBrowser();
