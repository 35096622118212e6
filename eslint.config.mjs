// Type-aware lint with the layer boundaries of the architecture as rules (README "Architecture").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const layer = (...names) => names.flatMap((n) => [`**/${n}`, `**/${n}/*`, `**/${n}/**`]);
// Worker threads start only through platform/threads (ThreadHost), which knows the rules: terminate only outside native
// sections, cancel at the next batch, await at process exit, ignore a stopped thread's events.
const threadsOnly = 'Worker threads start and run through platform/threads (startThread, threadContext): see platform/threads/host.ts.';
const workerThreadsImport = 'ImportDeclaration[source.value=/^(node:)?worker_threads$/]';
const threadRules = [
  { selector: `${workerThreadsImport} ImportSpecifier[imported.name=/^(Worker|parentPort|workerData)$/]`, message: threadsOnly },
  { selector: `${workerThreadsImport} ImportNamespaceSpecifier`, message: threadsOnly },
  { selector: `${workerThreadsImport} ImportDefaultSpecifier`, message: threadsOnly },
  { selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?worker_threads$/]", message: threadsOnly },
  { selector: "NewExpression[callee.name='Worker'], NewExpression[callee.property.name='Worker']", message: threadsOnly },
];
const heartbeatsFromWork = 'Activities heartbeat from inside their work (jobActivity progress, activities/job-activity.ts), not from a timer.';
// Outside engine/, each engine package is reached through its index only.
const enginePrivate = { group: ['**/engine/*/*', '**/engine/*/**'], message: 'Import engine packages through their index (engine/automl, engine/data, engine/serving).' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.build-perf/**', 'bench/results/**', 'data/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-empty-function': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['engine/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [enginePrivate] }] },
  },
  {
    files: ['**/*.ts'],
    ignores: ['platform/threads/**'],
    rules: { 'no-restricted-syntax': ['error', ...threadRules] },
  },
  {
    // A job's activity heartbeats from inside its work (jobActivity's progress), never from a timer that beats whether
    // the work moves or not (README "Adding a job kind").
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...threadRules, { selector: "CallExpression[callee.name='setInterval'], CallExpression[callee.property.name='setInterval']", message: heartbeatsFromWork }],
    },
  },
  {
    // The engine is pure: no HTTP, no database, no Temporal, nothing of the layers above it.
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: layer('api', 'services', 'activities', 'entities', 'workflows', 'workers'), message: 'engine/ imports nothing from the layers above it.' },
            // platform/threads and platform/gpu are the exceptions: they import nothing but Node (and Dawn), and the
            // engine's threads start, and its GPU devices are acquired, through them.
            {
              group: ['**/platform/*', '!**/platform/threads', '!**/platform/gpu', '**/platform/*/**'],
              message: 'engine/ imports nothing from platform/ but platform/threads and platform/gpu, through their index.',
            },
          ],
        },
      ],
    },
  },
  {
    // The application layer and the activities never reach up into the HTTP layer.
    files: ['services/**/*.ts', 'activities/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: layer('api'), message: 'services/ and activities/ do not import api/.' }, enginePrivate] }],
    },
  },
  {
    // Activities are built on the services, never the reverse: a job's worker side lives in activities/ alone.
    files: ['services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: layer('api'), message: 'services/ and activities/ do not import api/.' },
            { group: layer('activities'), message: 'services/ does not import activities/ (activities are built on the services).' },
            enginePrivate,
          ],
        },
      ],
    },
  },
  {
    // The entities are the bottom of the application: Job.kind is typed by the job-kind registry through
    // RegisteredJobKinds, which services/job-kinds.ts fills in, never by importing it (README "Adding a job kind").
    files: ['entities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: layer('api', 'services', 'activities', 'workflows', 'workers'), message: 'entities/ imports nothing from the layers above it.' }, enginePrivate] },
      ],
    },
  },
  {
    // Routes parse, call a service and present: no SQL, no TypeORM.
    files: ['api/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'typeorm', message: 'Routes hold no data access: call a service.' }], patterns: [enginePrivate] }],
    },
  },
  {
    // Workflows are deterministic: no Node built-ins, activities as types only (Temporal samples' override).
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows run in a deterministic sandbox: no Node built-ins.' })),
          patterns: [
            { group: layer('activities', 'services'), allowTypeImports: true, message: 'Workflows import activities (and services) as types only.' },
            { group: [...layer('api', 'engine', 'platform', 'entities'), 'typeorm', 'pg'], message: 'Workflows import no I/O code.' },
          ],
        },
      ],
    },
  },
);
