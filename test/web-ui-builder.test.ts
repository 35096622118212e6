import { type Locator, type Page } from 'playwright-core';
import { factOf, logInThroughForm, useBrowser, waitForTableRows } from './support/browser';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startScriptedLlm, type ScriptedLlm } from './support/scripted-llm';
import { startStack, TestStack } from './support/stack';

/**
 * The builder page of issue 35 in Debian's Chromium against the real stack, with the checks every browser test gets
 * at 1280 and 390 px (no console error, no failed request, no serious axe violation, no horizontal scroll; screenshots
 * under test-artifacts/web-ui-builder/). Without an LLM (the deterministic planner proposes): a session started from
 * the dataset page's Builder tab on a messy upload; the understand step proposed and executed (dates stored as text
 * parsed); the clean step proposed, a bad edit refused inline with the API's reason, an operation removed, then
 * executed with its summary and output rows; the transform step rejected; the chat saying it needs an assistant;
 * finalize into a new version, whose link opens it; the recipe replayed on a later upload. With a scripted
 * OpenAI-compatible server: a chat message, the assistant's reply and the revised proposal.
 */

let stack: TestStack;
const ui = useBrowser('web-ui-builder');
let page: Page;
let api: ApiClient;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId = '';
let datasetId = '';
let sessionId = '';

const PLANS = ['basic', 'pro', 'team'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A seeded generator (Park-Miller): the same table on every run, with no pattern a planner could mistake for a leak. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/**
 * A messy customer table: `customer_id` runs 1..n (an identifier), `signup` holds dates as text ("15 Mar 2023", which
 * the upload keeps as text), `region` one value, `age` has gaps, `refund_issued` repeats the target (a leak), and the
 * last 6 rows repeat earlier ones.
 */
function messyCsv(n: number, seed: number): string {
  const next = random(seed);
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const spend = 10 + next() * 200;
    const churned = next() < 0.2 + spend / 500 ? 1 : 0;
    const age = next() < 0.1 ? '' : String(20 + Math.floor(next() * 45));
    const signup = `${1 + Math.floor(next() * 28)} ${MONTHS[Math.floor(next() * 12)]} 2023`;
    rows.push(`${i + 1},${signup},EU,${PLANS[Math.floor(next() * 3)]},${age},${spend.toFixed(2)},${churned},${churned}`);
  }
  return ['customer_id,signup,region,plan,age,spend,refund_issued,churned', ...rows, ...rows.slice(0, 6)].join('\n') + '\n';
}

/** The first stack: no LLM, so the deterministic planner proposes. */
async function startPlannerStack(): Promise<void> {
  page = ui.page;
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail, { name: 'Bea Builder' });
  api = owner.client;
  projectId = await createProject(api, 'Builder project');
  const up = await api.upload('/api/datasets/upload', { project_id: projectId, name: 'customers' }, { name: 'customers.csv', data: messyCsv(120, 7) });
  expect(up.status).toBe(201);
  datasetId = up.body.dataset_id;
}

/** The card of a step in the ordered list (named by its heading, "2. Clean"). */
const stepCard = (n: number, title: string): Locator => page.getByRole('listitem', { name: `${n}. ${title}`, exact: true });

/** The lines of a step's operations ("what · why"), in order, without their Remove buttons. */
const operationLines = async (title: string): Promise<string[]> =>
  (
    await page
      .getByRole('list', { name: `Operations of ${title}`, exact: true })
      .locator(':scope > li')
      .allInnerTexts()
  ).map((t) => t.replace(/\s*Remove$/, '').trim());

/** Waits for a step's status badge to read `status`. */
async function stepStatus(n: number, title: string, status: string, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => ((await stepCard(n, title).locator('.card-head .status').innerText()).trim() === status ? true : undefined), timeoutMs, 300);
}

describe('the builder page in Chromium, proposals from the deterministic planner', () => {
  beforeAll(startPlannerStack, 300_000);
  afterAll(async () => {
    // The page polls the session it shows: leave it before its service goes, or the polls fail into the next check.
    await page.goto('about:blank');
    await stack?.stop();
  });

  it("starts a session from the dataset page's Builder tab", async () => {
    await logInThroughForm(page, stack.baseUrl, owner);
    await page.goto(`${stack.baseUrl}/app/datasets/${datasetId}?tab=builder`);
    await page.getByRole('heading', { name: 'New builder session', exact: true }).waitFor();
    await page.getByText('No builder session on this dataset yet.').waitFor();
    await ui.checkPage('dataset-builder-empty');

    await page.getByLabel('Session name').fill('Prepare customers');
    await page.getByLabel('Target column').selectOption('churned');
    await page.getByRole('button', { name: 'New builder session', exact: true }).click();
    await page.getByRole('heading', { name: 'Prepare customers', exact: true, level: 1 }).waitFor();
    sessionId = /\/builder\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';
    expect(page.url()).toBe(`${stack.baseUrl}/app/projects/${projectId}/builder/${sessionId}`);
    await page.getByRole('definition').getByRole('link', { name: 'customers', exact: true }).waitFor();
    expect(await factOf(page, 'Source version')).toBe('0');
    expect(await factOf(page, 'Target')).toBe('churned');
    expect(await factOf(page, 'Status')).toBe('open');
    // The five steps in order, nothing proposed yet.
    const headings = await page.getByRole('list', { name: 'Steps', exact: true }).getByRole('heading', { level: 2 }).allInnerTexts();
    expect(headings).toEqual(['1. Understand', '2. Clean', '3. Transform', '4. Features', '5. Validate']);
    await ui.checkPage('session-new');

    // The dataset's list has it.
    await page.goto(`${stack.baseUrl}/app/datasets/${datasetId}?tab=builder`);
    const [row] = await waitForTableRows(page, 'Builder sessions', 1);
    expect(row.slice(0, 3)).toEqual(['Prepare customers', 'churned', 'open']);
    await page.getByRole('link', { name: 'Prepare customers', exact: true }).click();
    await page.getByRole('heading', { name: 'Prepare customers', exact: true, level: 1 }).waitFor();
  });

  it('proposes the understand step and executes it: the text dates become datetimes', async () => {
    await page.getByRole('button', { name: 'Propose Understand', exact: true }).click();
    await eventually(async () => ((await operationLines('Understand').catch(() => [])).length > 0 ? true : undefined), 60_000);
    const lines = await operationLines('Understand');
    expect(lines.some((l) => l.startsWith('Parse signup as dates'))).toBe(true);
    await stepCard(1, 'Understand').getByRole('region', { name: 'Preview of Understand' }).waitFor();
    await ui.checkPage('understand-proposed');

    await page.getByRole('button', { name: 'Execute Understand', exact: true }).click();
    await stepStatus(1, 'Understand', 'executed', 120_000);
    const summary = page.getByRole('definition').filter({ hasText: 'signup object → datetime64' });
    await summary.waitFor();
    await stepCard(1, 'Understand').getByText('What it changed').waitFor();
    await ui.checkPage('understand-executed');
  });

  it('proposes the clean step: a bad edit shows the API reason inline, a removal saves', async () => {
    await page.getByRole('button', { name: 'Propose Clean', exact: true }).click();
    await eventually(async () => ((await operationLines('Clean').catch(() => [])).length > 0 ? true : undefined), 60_000);
    const proposed = await operationLines('Clean');
    expect(proposed.some((l) => l.startsWith('Remove duplicate rows'))).toBe(true);
    expect(proposed.some((l) => l.startsWith('Drop column customer_id'))).toBe(true);
    expect(proposed.some((l) => l.startsWith('Drop column region'))).toBe(true);
    expect(proposed.some((l) => l.startsWith('Fill missing age'))).toBe(true);
    // Each line carries the planner's reason.
    expect(proposed.find((l) => l.startsWith('Drop column region'))).toContain('single value');
    const rowsFact = stepCard(2, 'Clean').getByRole('definition').first();
    expect((await rowsFact.innerText()).trim()).toMatch(/^126 → 120$/);
    await ui.checkPage('clean-proposed');

    await page.getByRole('button', { name: 'Edit the operations of Clean', exact: true }).click();
    const box = page.getByLabel('Operations of Clean (JSON)');
    await box.fill('[{"op": "cast", "column": "agee", "to": "int64"}]');
    const refused = await ui.checkPageAllowing('clean-edit-refused', [/HTTP 422: PATCH .*\/steps\/clean$/, /status of 422/], async () => {
      await page.getByRole('button', { name: 'Save operations', exact: true }).click();
      await stepCard(2, 'Clean').getByRole('alert').filter({ hasText: 'agee' }).waitFor();
    });
    expect(refused.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await operationLines('Clean')).toEqual(proposed);

    // The `refund_issued` leak stays proposed for dropping; the age indicator goes (removed from the proposal).
    const ageAt = proposed.findIndex((l) => l.startsWith('Fill missing age'));
    await page.getByRole('button', { name: `Remove operation ${ageAt + 1} of Clean`, exact: true }).click();
    await eventually(async () => ((await operationLines('Clean')).length === proposed.length - 1 ? true : undefined), 20_000);
    expect((await operationLines('Clean')).some((l) => l.startsWith('Fill missing age'))).toBe(false);
    await ui.checkPage('clean-edited');
  });

  it('executes the clean step and follows its job to the summary and the first rows of the output', async () => {
    await page.getByRole('button', { name: 'Execute Clean', exact: true }).click();
    await stepStatus(2, 'Clean', 'executed', 120_000);
    const card = stepCard(2, 'Clean');
    await card.getByText('What it changed').waitFor();
    expect((await card.getByRole('definition').first().innerText()).trim()).toBe('126 → 120');
    const removed = await card.locator('dl dt', { hasText: 'Removed' }).locator('xpath=following-sibling::dd[1]').innerText();
    expect(removed).toContain('customer_id');
    expect(removed).toContain('region');
    await card.getByText('First rows of the output').click();
    const rows = await waitForTableRows(page, 'Preview of Clean', 20);
    expect(rows[0].length).toBeGreaterThan(3);
    await ui.checkPage('clean-executed');
  });

  it('rejects the transform step', async () => {
    await page.getByRole('button', { name: 'Reject Transform', exact: true }).click();
    await stepStatus(3, 'Transform', 'rejected', 20_000);
    await page.getByRole('button', { name: 'Reopen Transform', exact: true }).waitFor();
    await ui.checkPage('transform-rejected');
  });

  it('says in the chat panel that chat needs an assistant when the service has none', async () => {
    // The first step still to decide is the one the chat starts on.
    const chat = page.getByRole('complementary', { name: 'Chat about a step' });
    expect(await chat.getByRole('combobox', { name: 'Step' }).inputValue()).toBe('features');
    await page.getByRole('button', { name: 'Chat about Validate', exact: true }).click();
    expect(await chat.getByRole('combobox', { name: 'Step' }).inputValue()).toBe('validate');
    await chat.getByRole('combobox', { name: 'Step' }).selectOption('features');
    await page.getByText("This session's proposals come from the deterministic planner").waitFor();
    await page.getByLabel('Message about Features').fill('Which date parts would help?');
    const refused = await ui.checkPageAllowing('chat-without-assistant', [/HTTP 409: POST .*\/chat$/, /status of 409/], async () => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await chat.getByRole('alert').filter({ hasText: 'LLM_API_URL is not configured' }).waitFor();
    });
    expect(refused.length).toBeGreaterThan(0);
  });

  it('finalizes into a new version of the dataset and opens it from the link', async () => {
    await page.getByLabel('Version description').fill('cleaned by the builder');
    await page.getByRole('button', { name: 'Finalize', exact: true }).click();
    const link = page.getByRole('link', { name: 'version 1 of customers', exact: true });
    await link.waitFor({ timeout: 120_000 });
    expect(await factOf(page, 'Status')).toBe('finalized');
    // Finalized: the steps no longer change.
    expect(await page.getByRole('button', { name: 'Propose Features', exact: true }).count()).toBe(0);
    await ui.checkPage('finalized');

    await link.click();
    await page.getByRole('heading', { name: 'First rows of the latest version (version 1)', exact: true }).waitFor();
    const heads = await page.getByRole('region', { name: 'First rows of the latest version (version 1)', exact: true }).locator('thead th').allInnerTexts();
    expect(heads.some((h) => h.startsWith('customer_id'))).toBe(false);
    expect(heads).toContain('signup (datetime64)');
    const version = (await api.get(`/api/datasets/${datasetId}/versions?limit=10`)).body.items.find((v: { version: number }) => v.version === 1);
    expect(version.source).toMatchObject({ builder_session_id: sessionId });
    await ui.checkPage('result-version');
  });

  it('replays the recipe on a later upload of the source', async () => {
    const later = await api.upload(`/api/datasets/${datasetId}/versions`, { description: 'next month' }, { name: 'later.csv', data: messyCsv(60, 11) });
    expect(later.status).toBe(201);
    await page.goto(`${stack.baseUrl}/app/projects/${projectId}/builder/${sessionId}`);
    await page.getByRole('heading', { name: 'Replay on version…', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Version', exact: true }).selectOption({ label: 'v2 (66 rows)' });
    await page.getByRole('button', { name: 'Replay the recipe', exact: true }).click();
    await page.getByRole('status').getByRole('link', { name: 'version 3 of customers', exact: true }).waitFor({ timeout: 120_000 });
    await ui.checkPage('replayed');
    const versions = (await api.get(`/api/datasets/${datasetId}/versions?limit=10`)).body.items as { version: number; row_count: number }[];
    // v3: the 66 rows of v2 less its 6 repeated ones.
    expect(versions.find((v) => v.version === 3)?.row_count).toBe(60);
  });

  it("links the session's builder_run jobs on the jobs page to the session", async () => {
    await page.goto(`${stack.baseUrl}/app/jobs`);
    await page.getByRole('region', { name: 'Jobs', exact: true }).first().waitFor();
    // Two executions, the finalize and the replay: each job names the session.
    const links = page.getByRole('link', { name: `builder session …${sessionId.slice(-8)}`, exact: true });
    await links.first().waitFor();
    expect(await links.count()).toBe(4);
    await ui.checkPage('jobs-builder');
    await links.first().click();
    await page.getByRole('heading', { name: 'Replay on version…', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/projects/${projectId}/builder/${sessionId}`);
  });
});

describe('the builder page in Chromium, with an assistant (a scripted OpenAI-compatible server)', () => {
  let llm: ScriptedLlm;
  let assisted: TestStack;
  let user: Awaited<ReturnType<typeof signUp>>;
  let assistedProject = '';
  let assistedSession = '';

  beforeAll(async () => {
    page = ui.page;
    // Every answer: drop the constant column, with a reply; the service validates it like any proposal.
    llm = await startScriptedLlm(() => ({
      json: { reply: 'Dropped region: it holds one value.', operations: [{ operation: { op: 'drop_columns', columns: ['region'] }, reason: 'region is constant' }] },
    }));
    assisted = await startStack({ env: { LLM_API_URL: `${llm.url}/v1`, LLM_MODEL: 'scripted-model', LLM_API_KEY: 'sk-test' } });
    user = await signUp(assisted.baseUrl, assisted.mail, { name: 'Ada Assisted' });
    assistedProject = await createProject(user.client, 'Assisted project');
    const up = await user.client.upload('/api/datasets/upload', { project_id: assistedProject, name: 'customers' }, { name: 'customers.csv', data: messyCsv(40, 5) });
    expect(up.status).toBe(201);
    const created = await user.client.post('/api/builder/sessions', { project_id: assistedProject, dataset_id: up.body.dataset_id, target_column: 'churned', name: 'Assisted prep' });
    expect(created.status).toBe(201);
    assistedSession = created.body.session.id;
  }, 300_000);

  afterAll(async () => {
    await assisted?.stop();
    await llm?.close();
  });

  it("chats about a step: the assistant's reply and its revised proposal show beside the steps", async () => {
    await logInThroughForm(page, assisted.baseUrl, user);
    await page.goto(`${assisted.baseUrl}/app/projects/${assistedProject}/builder/${assistedSession}`);
    await page.getByRole('heading', { name: 'Assisted prep', exact: true, level: 1 }).waitFor();
    const chat = page.getByRole('complementary', { name: 'Chat about a step' });
    await chat.getByRole('combobox', { name: 'Step' }).selectOption('clean');
    await chat.getByLabel('Message about Clean').fill('Please drop the constant column.');
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    const log = chat.getByRole('list', { name: 'Messages about Clean', exact: true });
    await log.locator('li.chat-assistant').first().waitFor({ timeout: 60_000 });
    expect((await log.locator('li').allInnerTexts()).map((t) => t.trim())).toEqual(['You: Please drop the constant column.', 'Assistant: Dropped region: it holds one value.']);
    expect(await chat.getByRole('list', { name: 'Revised operations of Clean', exact: true }).locator('li').allInnerTexts()).toEqual(['Drop column region']);
    // The step's card holds the same proposal, with the assistant's reason, and its preview lost the column.
    expect(await operationLines('Clean')).toEqual(['Drop column region · region is constant']);
    const heads = await stepCard(2, 'Clean').getByRole('region', { name: 'Preview of Clean' }).locator('thead th').allInnerTexts();
    expect(heads.some((h) => h.startsWith('region'))).toBe(false);
    // The model was asked once, with the user's words as a chat message.
    expect(llm.requests.length).toBe(1);
    expect(JSON.stringify(llm.requests[0].body?.messages)).toContain('Please drop the constant column.');
    await ui.checkPage('assistant-chat');
  });

  it("replaces a step's output with a file: a file that is no table is refused inline, a CSV makes the step executed", async () => {
    const card = stepCard(1, 'Understand');
    await card.getByText('Use a file of your own as the output of Understand').click();
    const input = card.getByLabel('Result file for Understand');
    await input.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
    const refused = await ui.checkPageAllowing('upload-result-refused', [/HTTP 422: POST .*\/steps\/understand\/upload-result$/, /status of 422/], async () => {
      await card.getByRole('button', { name: 'Upload result', exact: true }).click();
      await card.getByRole('alert').waitFor();
    });
    expect(refused.length).toBeGreaterThan(0);

    await input.setInputFiles({ name: 'fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(messyCsv(30, 9)) });
    await card.getByRole('button', { name: 'Upload result', exact: true }).click();
    await stepStatus(1, 'Understand', 'executed', 30_000);
    await card.getByText('The output of this step is a file uploaded by hand (36 rows).').waitFor();
    await ui.checkPage('upload-result');
  });
});
