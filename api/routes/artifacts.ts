import { z } from 'zod';
import { Artifact } from '../../entities';
import type { AppDeps } from '../context';
import { notFound } from '../errors';
import { route, RouteDef } from '../route';
import { projectForUser } from '../services/access';
import { uuidParam } from '../validation';

/** Artifact downloads, for members of the artifact's project. */
export function artifactRoutes(deps: AppDeps): RouteDef[] {
  const { ds } = deps;
  return [
    route({
      method: 'get', path: '/api/artifacts/:artifact_id/download', tag: 'artifacts', auth: 'user', scope: 'read:projects',
      summary: 'Download an artifact file', params: z.object({ artifact_id: uuidParam }),
      responses: { 200: { description: 'The file', contentType: 'application/octet-stream' }, 404: { description: 'Artifact not found' } },
      handler: async (ctx, { params }) => {
        const a = await ds.getRepository(Artifact).findOneBy({ id: params.artifact_id });
        if (!a) throw notFound('Artifact not found');
        try {
          await projectForUser(ds.manager, ctx.state.principal!.user.id, a.projectId);
        } catch {
          throw notFound('Artifact not found');
        }
        if (!deps.store.exists(a.storageKey)) throw notFound('Artifact not found');
        ctx.type = a.contentType;
        ctx.length = a.sizeBytes;
        ctx.attachment(a.filename);
        ctx.body = deps.store.read(a.storageKey);
        return undefined;
      },
    }),
  ];
}
