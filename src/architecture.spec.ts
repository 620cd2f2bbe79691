import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The folders' layering (docs/architecture.md): each product (a11y, pdf-tools, visibility) stands
 * on the platform alone, so it imports only itself and src/common, never another product, the
 * website (src/web) or the accounts; the platform (src/common) imports no feature at all; the
 * accounts only the platform. The website and the entry files compose them and may import anything.
 */
const PRODUCTS = ['a11y', 'pdf-tools', 'visibility'];
const MAY_IMPORT: Record<string, readonly string[]> = {
  ...Object.fromEntries(PRODUCTS.map((p) => [p, [p, 'common']])),
  common: ['common'],
  accounts: ['accounts', 'common'],
};

const SRC = __dirname;
/** Relative module specifiers of a file: `import ... from`, `export ... from`, `import()`, `require()`, `import '...'`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The src/ folder a path is in ('common', 'web', ...), or undefined outside src/ (test helpers of a spec). */
function topFolder(path: string): string | undefined {
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return undefined;
  return rel.split(sep)[0];
}

/** Every import that crosses the layering: "a11y/render/report-html.ts imports web/render/layout". */
export function layeringViolations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const allowed = MAY_IMPORT[topFolder(path) ?? ''];
    if (!allowed) continue;
    for (const [, spec] of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(path), spec);
      const top = topFolder(target);
      if (top !== undefined && !allowed.includes(top))
        found.push(`${relative(SRC, path)} imports ${relative(SRC, target)}`);
    }
  }
  return found;
}

describe('folder layering', () => {
  it('no product imports another product, the website or the accounts; the platform imports no feature', () => {
    const files = tsFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(layeringViolations(files)).toEqual([]);
  });

  it('finds every kind of crossing import (the check can fail)', () => {
    const at = (path: string, text: string) => ({ path: join(SRC, path), text });
    expect(
      layeringViolations([
        at('a11y/render/report-html.ts', "import { page } from '../../web/render/layout';"),
        at(
          'a11y/a11y.controller.ts',
          "import type { X } from '../pdf-tools/x';\nconst y = require('../visibility/y');",
        ),
        at('visibility/v.ts', "export { Z } from '../accounts/z';\nvoid import('../a11y/a');"),
        at('common/html/page.ts', "import '../../web/web-context';"),
        at('accounts/a.ts', "import { W } from '../web/w';"),
        // Allowed: own folder, the platform, test helpers of a spec, and anything from the website.
        at(
          'pdf-tools/p.spec.ts',
          "import { a } from './a';\nimport { c } from '../common/c';\nimport { t } from '../../test/t';",
        ),
        at('web/w.ts', "import { a } from '../a11y/a';\nimport { v } from '../visibility/v';"),
      ]),
    ).toEqual([
      'a11y/render/report-html.ts imports web/render/layout',
      'a11y/a11y.controller.ts imports pdf-tools/x',
      'a11y/a11y.controller.ts imports visibility/y',
      'visibility/v.ts imports accounts/z',
      'visibility/v.ts imports a11y/a',
      'common/html/page.ts imports web/web-context',
      'accounts/a.ts imports web/w',
    ]);
  });
});
