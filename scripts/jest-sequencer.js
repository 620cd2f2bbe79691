/*
 * jest's order of test files (jest.config.js `testSequencer`): the files known to take longest start
 * first, so that no long file starts near the end of the run while the other worker has nothing
 * left to do.
 *
 * jest's own order puts the files that failed last time first, then the slowest of the last run (its
 * timing cache, in /tmp/jest_<uid>, kept per checkout path), and files it has no time for by size.
 * A fresh clone (CI) has no timings, and size is a poor guess here: the CLI and process files are
 * small but run child processes for a minute. And the PGlite rerun of test/platform (npm test) would
 * find the main run's timings on PostgreSQL, where the files long on PGlite are short. So the files
 * below always start first, in this order, then the rest in jest's order.
 *
 * The list: the slowest files of CI runs on 2 cores, longest first, then the platform files that are
 * long on PGlite (docs/operations.md, "CI wall time"). A name that no longer matches a
 * file is ignored; a new long file belongs here.
 */
const { relative, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const LONG_FIRST = [
  'test/a11y/site-worker.e2e-spec.ts',
  'test/web/browser.e2e-spec.ts',
  'test/visibility/collect-faults.e2e-spec.ts',
  'test/a11y/site-crawl.e2e-spec.ts',
  'test/web/qa-walk.e2e-spec.ts',
  'test/pdf-tools/damaged.e2e-spec.ts',
  'test/a11y/fleet.e2e-spec.ts',
  'test/a11y/scan.e2e-spec.ts',
  'test/platform/process.e2e-spec.ts',
  'test/pdf-tools/file-handoff.e2e-spec.ts',
  'test/platform/cli.e2e-spec.ts',
  'test/platform/throttling.e2e-spec.ts',
  'test/a11y/hostile-pages.e2e-spec.ts',
  'test/web/dashboard.e2e-spec.ts',
  'test/pdf-tools/quota-stores.e2e-spec.ts',
  'test/pdf-tools/real-world.e2e-spec.ts',
  // The platform suite's longest on the embedded PGlite (npm test runs test/platform again on it).
  'test/platform/shutdown.e2e-spec.ts',
  'test/platform/hardening.e2e-spec.ts',
  'test/platform/api-key-cache.e2e-spec.ts',
  'test/platform/pipeline.e2e-spec.ts',
];

class LongFilesFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = (t) => {
      const i = LONG_FIRST.indexOf(relative(t.context.config.rootDir, t.path).split(sep).join('/'));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the unlisted files keep jest's order.
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongFilesFirst;
