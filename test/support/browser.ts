import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eventually } from './client';

/**
 * Debian's Chromium driven by playwright-core for the web UI's browser tests, with the checks every page of them
 * gets: no console error or page error, no failed request (nothing answered 4xx/5xx), no serious or critical axe-core
 * violation and nothing wider than the window, at 1280 px and at 390 px wide, and a full-page screenshot under
 * test-artifacts/<folder>/. Beside it, the steps those tests share: the browser's life around a test file
 * ({@link useBrowser}), logging in through the form, opening a project's tab, reading and waiting for table rows.
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

/**
 * How far the page is wider than its window, in CSS pixels (0: it fits; tables scroll inside their own region), and
 * the elements that stick out past its right edge (outside any region that scrolls on its own and contains them), to
 * say what to fix.
 */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  // A string, run in the page: the server's compiler has no DOM types.
  return page.evaluate<{ overflow: number; culprits: string[] }>(`(() => {
    const width = window.innerWidth;
    const overflow = document.documentElement.scrollWidth - width;
    if (overflow <= 0) return { overflow, culprits: [] };
    const out = (e) => e.getBoundingClientRect().right > width + 0.5;
    const clipped = (e) => {
      // An absolutely placed element (a table's sr-only text) is clipped only by a scroller at or inside its
      // containing block, its nearest positioned ancestor; a fixed one by none.
      const place = getComputedStyle(e).position;
      let contained = place !== 'absolute' && place !== 'fixed';
      for (let a = e.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (place === 'absolute' && style.position !== 'static') contained = true;
        if (contained && style.overflowX !== 'visible') return true;
      }
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((e) => out(e) && !clipped(e) && !(e.parentElement && out(e.parentElement) && !clipped(e.parentElement)))
      .slice(0, 3)
      .map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' "' + (e.textContent || '').trim().slice(0, 40) + '"');
    return { overflow, culprits };
  })()`);
}

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
   * Checks the page as it is now: no console error or failed request since the last check, and at the window's width
   * and at 390 px nothing wider than the window and no serious or critical axe-core violation; saves a full-page
   * screenshot named after the step.
   */
  checkPage(name: string): Promise<void>;
  /**
   * Runs `action`, during which the problems matching `allowed` are expected (a request the page makes to show a
   * refusal, and the console line the browser writes for it), then checks the page as {@link checkPage} does with
   * those left out. Answers the expected problems seen, so the test can say how many it wanted.
   */
  checkPageAllowing(name: string, allowed: RegExp[], action: () => Promise<void>): Promise<string[]>;
  /** Nothing wider than the window (checkPage checks it too; this is for a page it does not check). */
  expectNoHorizontalScroll(): Promise<void>;
  /** Runs `action` with the window 390 px wide, as a phone shows the pages, and puts the width back after. */
  atPhoneWidth<T>(action: () => Promise<T>): Promise<T>;
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
  /** Lets the page finish its requests (a page that polls never idles: 3 s at most). */
  const settle = () => page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  /** Axe's serious and critical violations of the page at the window's width now. */
  const axeProblems = async (name: string, width: string): Promise<string[]> => (await axeViolations(page)).map((v) => `axe on ${name}${width}: ${v}`);
  /** The page's horizontal scroll at the window's width now, with the elements that cause it (none: it fits). */
  const scrollProblems = async (name: string, width: string): Promise<string[]> => {
    const { overflow, culprits } = await sidewaysOverflow(page);
    return overflow > 0 ? [`${name}${width} is ${overflow} px wider than the window (a horizontal scroll): ${culprits.join(', ') || 'the page itself'}`] : [];
  };
  /** Runs `action` with the window 390 px wide and puts the width back after. */
  const atPhoneWidth = async <T>(action: () => Promise<T>): Promise<T> => {
    const wide = page.viewportSize() ?? { width: 1280, height: 900 };
    await page.setViewportSize(NARROW);
    try {
      return await action();
    } finally {
      await page.setViewportSize(wide);
    }
  };
  const checkPage = async (name: string): Promise<void> => {
    await settle();
    shot += 1;
    await page.screenshot({ path: file(`-${name}`), fullPage: true });
    // Evaluated through the DevTools protocol: the page's content security policy (no inline script) stays in force.
    if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
    const found = [...(await axeProblems(name, '')), ...(await scrollProblems(name, ''))];
    // The same page on a phone: what only the narrow layout shows (a menu button, stacked tables) is checked too, and
    // so is sideways scrolling there (a button row or a long value that fits at 1280 px may not at 390).
    if (page.viewportSize()?.width !== NARROW.width) {
      found.push(...(await atPhoneWidth(async () => [...(await axeProblems(name, ` at ${NARROW.width} px`)), ...(await scrollProblems(name, ` at ${NARROW.width} px`))])));
    }
    found.unshift(...problems);
    problems = [];
    expect(found).toEqual([]);
  };
  return {
    browser,
    context,
    page,
    artifacts,
    checkPage,
    async checkPageAllowing(name, allowed, action) {
      const from = problems.length;
      await action();
      await settle();
      const during = problems.splice(from);
      const isAllowed = (p: string) => allowed.some((a) => a.test(p));
      problems.push(...during.filter((p) => !isAllowed(p)));
      await checkPage(name);
      return during.filter(isAllowed);
    },
    async expectNoHorizontalScroll() {
      const { overflow, culprits } = await sidewaysOverflow(page);
      expect({ overflow: Math.max(overflow, 0), culprits }).toEqual({ overflow: 0, culprits: [] });
    },
    atPhoneWidth,
    async screenshotAfterStep() {
      await page.screenshot({ path: file('z-after-step'), fullPage: true }).catch(() => undefined);
    },
    async close() {
      await browser.close();
    },
  };
}

/**
 * The browser of a test file, opened before its tests and closed after them, with a screenshot after every test
 * (test/support/browser.ts's checks on each checked page). Call it at the top of the file, before the file's own
 * `beforeAll`; what it answers can be used from the first `beforeAll` on.
 */
export function useBrowser(folder: string): BrowserSession {
  let session: BrowserSession | undefined;
  const open = (): BrowserSession => {
    if (!session) throw new Error(`the browser of ${folder} is not open: use it from beforeAll or a test`);
    return session;
  };
  beforeAll(async () => {
    session = await openBrowser(folder);
  }, 120_000);
  afterEach(async () => {
    await session?.screenshotAfterStep();
  });
  afterAll(async () => {
    await session?.close();
  });
  return {
    get browser() {
      return open().browser;
    },
    get context() {
      return open().context;
    },
    get page() {
      return open().page;
    },
    get artifacts() {
      return open().artifacts;
    },
    checkPage: (name) => open().checkPage(name),
    checkPageAllowing: (name, allowed, action) => open().checkPageAllowing(name, allowed, action),
    expectNoHorizontalScroll: () => open().expectNoHorizontalScroll(),
    atPhoneWidth: (action) => open().atPhoneWidth(action),
    screenshotAfterStep: () => open().screenshotAfterStep(),
    close: () => open().close(),
  };
}

/** Who logs in: an account's email and password (what `signUp` answers has both). */
export interface Credentials {
  email: string;
  password: string;
}

/** Fills the login form the page shows with `who`'s email and password and submits it. */
export async function submitLoginForm(page: Page, who: Credentials, options: { remember?: boolean } = {}): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  if (options.remember) await page.getByLabel('Keep me logged in for 30 days').check();
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Logs the browser in as `who` through the login form of `baseUrl` (any session it had is dropped first) and waits for
 * the projects page a login lands on.
 */
export async function logInThroughForm(page: Page, baseUrl: string, who: Credentials): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/login`);
  await submitLoginForm(page, who);
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
}

/** Opens a tab of a project's page (`?tab=members`, ...) and waits for the heading the tab shows once it is loaded. */
export async function openProjectTab(page: Page, baseUrl: string, projectId: string, tab: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl}/app/projects/${projectId}?tab=${tab}`);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/**
 * Opens each page at 390 px wide, waits for its heading and checks it ({@link BrowserSession.checkPage}), the
 * screenshot named `name`: what a phone shows when it loads the page narrow from the start.
 */
export async function checkPagesAtPhoneWidth(ui: BrowserSession, pages: { url: string; heading: string; name: string }[]): Promise<void> {
  await ui.atPhoneWidth(async () => {
    for (const { url, heading, name } of pages) {
      await ui.page.goto(url);
      await ui.page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await ui.checkPage(name);
    }
  });
}

/** The rows of a table in the region (an accessible `section`) named `region`, each as its cells' texts. */
export async function tableRows(page: Page, region: string): Promise<string[][]> {
  const rows = await page.getByRole('region', { name: region, exact: true }).locator('tbody tr').allInnerTexts();
  return rows.map((r) => r.split('\t').map((c) => c.trim()));
}

/**
 * The rows of the table in `region` once there are `count` of them (a list the page is still loading or has just
 * changed), each as its cells' texts; fails after `timeoutMs` saying how many there were.
 */
export async function waitForTableRows(page: Page, region: string, count: number, timeoutMs = 10_000): Promise<string[][]> {
  let rows: string[][] = [];
  try {
    await eventually(async () => {
      rows = await tableRows(page, region).catch(() => []);
      return rows.length === count;
    }, timeoutMs);
  } catch {
    throw new Error(`table ${region}: ${rows.length} rows after ${timeoutMs} ms, not ${count}: ${JSON.stringify(rows)}`);
  }
  return rows;
}

/** The value shown for a term of the first `dl.facts` list holding it. */
export async function factOf(page: Page, term: string): Promise<string> {
  return (await page.locator('dl.facts dt', { hasText: term }).first().locator('xpath=following-sibling::dd[1]').innerText()).trim();
}
