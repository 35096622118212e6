import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core for the web UI's browser tests, with the checks every page of them
 * gets: no console error or page error, no failed request (nothing answered 4xx/5xx), no serious or critical axe-core
 * violation at 1280 px or at 390 px wide, and a full-page screenshot under test-artifacts/<folder>/.
 */

const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The phone width every checked page is also checked at. */
const NARROW = { width: 390, height: 844 };

/** Serious and critical axe-core violations of the page as it is now, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  // A string, run in the page: the server's compiler has no DOM types.
  return page.evaluate<string[]>(`window.axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' (' + v.nodes.map((n) => n.target.join(' ')).join(', ') + ')'))`);
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Where the screenshots go. */
  artifacts: string;
  /**
   * Checks the page as it is now: no console error or failed request since the last check, no serious or critical
   * axe-core violation; saves a full-page screenshot named after the step.
   */
  checkPage(name: string): Promise<void>;
  /** Nothing wider than the window (tables scroll inside their own region). */
  expectNoHorizontalScroll(): Promise<void>;
  /** What the browser showed when a step ended (the first look after a failure), beside the page screenshots. */
  screenshotAfterStep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the UI when dist/web is missing (`npm test` builds it; a bare `tsc` does not), empties
 * test-artifacts/<folder>, and opens a 1280 x 900 page that records every problem the checks look for.
 */
export async function openBrowser(folder: string): Promise<BrowserSession> {
  if (!CHROMIUM) throw new Error('No chromium at /usr/bin/chromium: apt-get install -y chromium (.ci/run installs it)');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'web', 'index.html'))) execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
  const artifacts = path.join(ROOT, 'test-artifacts', folder);
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  /** Console errors, page errors and failed requests since the last check. */
  let problems: string[] = [];
  let shot = 0;
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error on ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error on ${page.url()}: ${String(e)}`));
  // A request the browser itself abandons (a poll cut by a full page load) is not a failure of the service.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });

  const file = (name: string) => path.join(artifacts, `${String(shot).padStart(2, '0')}${name}.png`);
  return {
    browser,
    context,
    page,
    artifacts,
    async checkPage(name) {
      await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
      shot += 1;
      await page.screenshot({ path: file(`-${name}`), fullPage: true });
      // Evaluated through the DevTools protocol: the page's content security policy (no inline script) stays in force.
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
      const violations = (await axeViolations(page)).map((v) => `axe on ${name}: ${v}`);
      // The same page on a phone: what only the narrow layout shows (a menu button, stacked tables) is checked too.
      const wide = page.viewportSize() ?? { width: 1280, height: 900 };
      await page.setViewportSize(NARROW);
      try {
        violations.push(...(await axeViolations(page)).map((v) => `axe on ${name} at ${NARROW.width} px: ${v}`));
      } finally {
        await page.setViewportSize(wide);
      }
      const found = [...problems, ...violations];
      problems = [];
      expect(found).toEqual([]);
    },
    async expectNoHorizontalScroll() {
      const { scroll, width } = await page.evaluate<{ scroll: number; width: number }>('({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })');
      expect(scroll).toBeLessThanOrEqual(width);
    },
    async screenshotAfterStep() {
      await page.screenshot({ path: file('z-after-step'), fullPage: true }).catch(() => undefined);
    },
    async close() {
      await browser.close();
    },
  };
}

/** The rows of a table in the region (an accessible `section`) named `region`, each as its cells' texts. */
export async function tableRows(page: Page, region: string): Promise<string[][]> {
  const rows = await page.getByRole('region', { name: region, exact: true }).locator('tbody tr').allInnerTexts();
  return rows.map((r) => r.split('\t').map((c) => c.trim()));
}
