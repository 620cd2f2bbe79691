/**
 * Puppeteer configuration: never download a browser. Beacon drives the system's Chromium
 * (Debian package `chromium`, path set by CHROMIUM_PATH).
 */
module.exports = {
  skipDownload: true,
  chrome: { skipDownload: true },
  'chrome-headless-shell': { skipDownload: true },
  firefox: { skipDownload: true },
};
