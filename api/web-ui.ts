import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { AppContext } from './context';

/**
 * Where `vite build` puts the browser application (`web/vite.config.mjs`): `dist/web`, beside the compiled
 * server (`dist/api/web-ui.js`), so the one Koa process serves both.
 */
export const WEB_DIST = path.join(__dirname, '..', 'web');

/** The browser pages of the spec's catalog that the application answers (reset is server-rendered, see pages.ts). */
export const UI_PAGES = ['/login', '/logout', '/register', '/auth/login', '/auth/register', '/auth/forgot-password', '/auth/profile'] as const;

/**
 * The content security policy of every answer that does not set its own (the report viewer does): scripts,
 * styles, fonts and frames from this origin only, so no inline script or style attribute runs; images may be
 * data/blob URLs (chart exports); nothing may frame us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** The files copied from web/public/assets as they are (the server-rendered pages link them by name). */
const UNHASHED = new Set(['page.css', 'favicon.svg']);

/** File names `vite build` writes under assets/ (hashed) plus the fixed stylesheet of the server-rendered pages. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The application's HTML shell for a page route: `index.html` of the build, never cached (its asset names
 * change with each build). 503 with a plain page when the UI was not built.
 */
export function uiShell(ctx: AppContext, dir = WEB_DIST): string {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  try {
    return fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  } catch {
    ctx.status = 503;
    return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web UI not built</title></head><body><main><h1>Web UI not built</h1><p>Run <code>npm run build</code> (it runs <code>vite build</code> into dist/web).</p></main></body></html>';
  }
}

/**
 * Serves the built application after the API routes: `/assets/*` (hashed, cached for a year), and the shell for
 * `/` and the client-side routes under `/app`. Everything else falls through to 404.
 */
export function webUi(dir = WEB_DIST): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/' || ctx.path === '/app' || ctx.path.startsWith('/app/')) {
      ctx.body = uiShell(ctx as unknown as AppContext, dir);
      return;
    }
    const m = /^\/assets\/([^/]+)$/.exec(ctx.path);
    if (!m || !ASSET_NAME.test(m[1]) || m[1].includes('..')) return next();
    const file = path.join(dir, 'assets', m[1]);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return next();
    ctx.status = 200;
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.length = stat.size;
    // Vite names its assets by content hash; the files of web/public are not hashed.
    ctx.set('Cache-Control', UNHASHED.has(m[1]) ? 'no-cache' : 'public, max-age=31536000, immutable');
    // HEAD: Koa answers the headers alone; no file is opened.
    if (ctx.method === 'GET') ctx.body = fs.createReadStream(file);
  };
}
