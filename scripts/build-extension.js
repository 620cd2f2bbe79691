#!/usr/bin/env node
/*
 * npm run build:extension: packs extension/ (the Chromium Manifest V3 extension, docs/pdf-tools.md,
 * "Browser extension") into dist/beacon-pdf-extension-<version>.zip, ready for the Chrome Web Store
 * or "Load unpacked" after unzipping. With BEACON_SITE=https://your.site the ZIP's default site
 * address is that one (people can still change it in the options). Checks on the way: the manifest
 * is JSON, MV3, and every file it names is in the folder; no script is loaded from the network.
 */
'use strict';
const { readdirSync, readFileSync, mkdirSync, writeFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { zipSync, strToU8 } = require('fflate');

const root = join(__dirname, '..');
const src = join(root, 'extension');

function build({ site = process.env.BEACON_SITE, outDir = join(root, 'dist') } = {}) {
  const manifest = JSON.parse(readFileSync(join(src, 'manifest.json'), 'utf8'));
  if (manifest.manifest_version !== 3) throw new Error('extension/manifest.json: manifest_version must be 3');
  const named = [manifest.action?.default_popup, manifest.background?.service_worker, manifest.options_ui?.page, ...Object.values(manifest.icons ?? {})].filter(Boolean);
  for (const f of named) if (!existsSync(join(src, f))) throw new Error(`extension/manifest.json names ${f}, which is missing`);
  const files = {};
  for (const name of readdirSync(src).sort()) {
    let text = readFileSync(join(src, name));
    if (/\.(html|js)$/.test(name) && /<script[^>]+src=["']https?:|import\s[^;]*from\s+["']https?:/i.test(text.toString('utf8'))) {
      throw new Error(`extension/${name} loads code from the network: Manifest V3 allows only the extension's own files`);
    }
    if (name === 'tools.js' && site) {
      if (!/^https?:\/\/[^\s'"]+$/.test(site)) throw new Error(`BEACON_SITE must be an http(s) address, not ${site}`);
      text = Buffer.from(text.toString('utf8').replace(/export const DEFAULT_SITE = '[^']*';/, `export const DEFAULT_SITE = '${site.replace(/\/+$/, '')}';`));
    }
    files[name] = [new Uint8Array(text), { level: /\.png$/.test(name) ? 0 : 9, mtime: new Date('2026-01-01T00:00:00Z') }];
  }
  files['manifest.json'][0] = strToU8(JSON.stringify(manifest, null, 2));
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `beacon-pdf-extension-${manifest.version}.zip`);
  writeFileSync(out, zipSync(files));
  return out;
}

module.exports = { build };
if (require.main === module) {
  const out = build();
  process.stdout.write(`${out}\n`);
}
