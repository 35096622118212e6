import fs from 'node:fs';
import { z } from 'zod';
import { preview } from '../../engine/data';
import { Artifact } from '../../entities';
import type { AppDeps } from '../context';
import { notFound, unprocessable } from '../errors';
import { route, RouteDef } from '../route';
import { assertProjectAccess } from '../services/access';
import { intParam, uuidParam } from '../validation';

const PREVIEW_ROWS = 20;
const TEXT_PREVIEW_BYTES = 64 * 1024;

/** Artifact downloads and previews, for members of the artifact's project. */
export function artifactRoutes(deps: AppDeps): RouteDef[] {
  const { ds } = deps;

  async function artifactForUser(userId: string, artifactId: string): Promise<Artifact> {
    const a = await ds.getRepository(Artifact).findOneBy({ id: artifactId });
    if (!a) throw notFound('Artifact not found');
    await assertProjectAccess(ds.manager, userId, a.projectId, 'Artifact not found');
    if (!deps.store.exists(a.storageKey)) throw notFound('Artifact not found');
    return a;
  }

  return [
    route({
      method: 'get', path: '/api/artifacts/:artifact_id/download', tag: 'artifacts', auth: 'user', scope: 'read:projects',
      summary: 'Download an artifact file', params: z.object({ artifact_id: uuidParam }),
      responses: { 200: { description: 'The file, with the content type it was stored with', contentType: ['application/octet-stream', '*/*'] }, 404: { description: 'Artifact not found' } },
      handler: async (ctx, { params }) => {
        const a = await artifactForUser(ctx.state.principal!.user.id, params.artifact_id);
        ctx.type = a.contentType;
        ctx.length = a.sizeBytes;
        ctx.attachment(a.filename);
        ctx.body = deps.store.read(a.storageKey);
        return undefined;
      },
    }),
    route({
      method: 'get', path: '/api/artifacts/:artifact_id/preview', tag: 'artifacts', auth: 'user', scope: 'read:projects',
      summary: 'Preview: first rows of tabular artifacts, first 64 KiB of text artifacts', params: z.object({ artifact_id: uuidParam }),
      query: z.object({ rows: intParam(1, 500).default(PREVIEW_ROWS) }),
      responses: { 200: { description: '{artifact_id, kind, rows} or {artifact_id, kind, text, truncated}' }, 422: { description: 'No preview for this type' } },
      handler: async (ctx, { params, query }) => {
        const a = await artifactForUser(ctx.state.principal!.user.id, params.artifact_id);
        const base = { artifact_id: a.id, kind: a.kind, filename: a.filename, content_type: a.contentType, size_bytes: a.sizeBytes };
        if (a.contentType.includes('parquet')) {
          const rows = await preview(deps.store.pathOf(a.storageKey), query.rows);
          return { ...base, rows, row_count: rows.length };
        }
        if (/^text\/|json|csv|xml/.test(a.contentType)) {
          const fd = fs.openSync(deps.store.pathOf(a.storageKey), 'r');
          try {
            const buf = Buffer.alloc(Math.min(TEXT_PREVIEW_BYTES, a.sizeBytes));
            const n = fs.readSync(fd, buf, 0, buf.length, 0);
            return { ...base, text: buf.subarray(0, n).toString('utf8'), truncated: a.sizeBytes > n };
          } finally {
            fs.closeSync(fd);
          }
        }
        throw unprocessable(`No preview for ${a.contentType} artifacts; download it instead`);
      },
    }),
  ];
}
