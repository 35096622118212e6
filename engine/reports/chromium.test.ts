import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { experimentDocument } from '../../bench/reports/fixtures';
import { renderReport } from './index';
import { hostileDocument, tempDir } from './test-helpers';

/** Debian's chromium package (`.ci/run` installs it); playwright-core downloads no browser of its own. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const maybe = CHROMIUM ? test : test.skip;
if (!CHROMIUM) console.warn('Skipping the Chromium check of the HTML report: no chromium executable at /usr/bin/chromium (apt-get install -y chromium)');

const tmp = tempDir('reports-chromium');
afterAll(() => tmp.cleanup());

maybe(
  'the HTML report opens in headless Chromium with no request, no console error, and every picture decoded',
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      for (const [name, doc] of [
        ['experiment', experimentDocument(20)],
        ['hostile', hostileDocument()],
      ] as const) {
        const file = join(tmp.dir, `${name}.html`);
        writeFileSync(file, (await renderReport(doc, 'html')).bytes);
        const page = await browser.newPage();
        const requests: string[] = [];
        const failures: string[] = [];
        const errors: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        page.on('requestfailed', (r) => failures.push(`${r.url().slice(0, 80)}: ${r.failure()?.errorText}`));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`file://${file}`, { waitUntil: 'load' });
        const images = await page.$$eval('img', (imgs) => imgs.map((i) => ({ complete: i.complete, width: i.naturalWidth, height: i.naturalHeight })));
        const title = await page.title();
        await page.close();

        expect(failures).toEqual([]);
        expect(errors).toEqual([]);
        // The document itself and its data: pictures; nothing from a network.
        expect(requests.filter((u) => !u.startsWith('data:') && u !== `file://${file}`)).toEqual([]);
        expect(images.length).toBeGreaterThan(0);
        for (const img of images) {
          expect(img.complete).toBe(true);
          expect(img.width).toBeGreaterThan(0);
          expect(img.height).toBeGreaterThan(0);
        }
        if (name === 'hostile') expect(title).toContain('<script>alert("x")</script>');
        else expect(images).toHaveLength(6);
      }
    } finally {
      await browser.close();
    }
  },
  120_000,
);
