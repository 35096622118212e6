import { RANGE_RESPONSES, sendStoredFile } from '../byte-range';
import { callerId, keyScopes, type RouteDeps } from '../context';
import { route, RouteDef } from '../route';
import { artifactParams, artifactPreviewQuery } from './artifacts.schema';

const scopeRule =
  "The read scope of the artifact's owner: read:datasets (dataset files), read:models (model files), read:projects plus read:datasets and read:models (project export archives), read:projects (files without an owner)";

/** Artifact downloads and previews, for members of the artifact's project; the scope follows the artifact's owner. */
export function artifactRoutes({ services }: RouteDeps): RouteDef[] {
  const { artifacts } = services;
  return [
    route({
      method: 'get',
      path: '/api/artifacts/:artifact_id/download',
      tag: 'artifacts',
      auth: 'user',
      scopeRule,
      summary: 'Download an artifact file',
      params: artifactParams,
      responses: {
        200: { description: 'The file, with the content type it was stored with', contentType: ['application/octet-stream', '*/*'] },
        ...RANGE_RESPONSES,
        403: { description: "Insufficient scope for this artifact's owner" },
        404: { description: 'Artifact not found' },
      },
      handler: async (ctx, { params }) => {
        const { artifact, open } = await artifacts.download(callerId(ctx), params.artifact_id, keyScopes(ctx));
        return sendStoredFile(ctx, artifact, open);
      },
    }),
    route({
      method: 'get',
      path: '/api/artifacts/:artifact_id/preview',
      tag: 'artifacts',
      auth: 'user',
      scopeRule,
      summary: 'Preview: first rows of tabular artifacts, first 64 KiB of text artifacts',
      params: artifactParams,
      query: artifactPreviewQuery,
      responses: { 200: { description: '{artifact_id, kind, rows} or {artifact_id, kind, text, truncated}' }, 422: { description: 'No preview for this type' } },
      handler: async (ctx, { params, query }) => {
        const { artifact: a, preview } = await artifacts.preview(callerId(ctx), params.artifact_id, keyScopes(ctx), query.rows);
        const base = { artifact_id: a.id, kind: a.kind, filename: a.filename, content_type: a.contentType, size_bytes: a.sizeBytes };
        return 'rows' in preview ? { ...base, rows: preview.rows, row_count: preview.rows.length } : { ...base, ...preview };
      },
    }),
  ];
}
