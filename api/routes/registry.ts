import { z } from 'zod';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentRegisteredModel, presentRegistryEvent, presentRegistryTransition, presentRegistryVersion } from '../presenters/registry';
import { aliasMoveSchema, registeredModelSchema, registryEventSchema, registryTransitionSchema, registryVersionSchema } from '../presenters/registry.schema';
import { route, RouteDef } from '../route';
import { pageQuery, uuidParam } from '../validation';
import {
  alias,
  createRegisteredModelBody,
  createVersionBody,
  decisionBody,
  eventListQuery,
  patchRegisteredModelBody,
  patchVersionBody,
  putAliasBody,
  registeredModelListQuery,
  transitionBody,
} from './registry.schema';

const projectParams = z.object({ project_id: uuidParam });
const modelParams = z.object({ registered_model_id: uuidParam });
const aliasParams = z.object({ registered_model_id: uuidParam, alias });
const versionParams = z.object({ version_id: uuidParam });
const requestParams = z.object({ version_id: uuidParam, request_id: uuidParam });

const READ = 'read:deployments' as const;
const WRITE = 'write:deployments' as const;
const deleted = { 204: { description: 'Deleted (no body)', contentType: [] } };
const MODEL_404 = { description: 'Registered model not found' };
const VERSION_404 = { description: 'Version not found' };
const ADMIN_403 = { description: 'This action requires the admin role in the project (viewers and editors)' };

/**
 * The model registry (prefix /api/mlops), as MLflow's: registered models per project, numbered versions of trained
 * models, aliases, transition requests that an admin or owner decides, and the registry's events. Members read,
 * editors change, admins and owners approve; an API key needs `read:deployments` or `write:deployments`.
 */
export function registryRoutes({ services }: RouteDeps): RouteDef[] {
  const { registry } = services;
  const tagged = { tag: 'registry', auth: 'user' as const };

  return [
    // --- registered models
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/projects/:project_id/registry',
      scope: WRITE,
      params: projectParams,
      summary: 'Register a model name in the project (unique per project); versions are added to it',
      body: createRegisteredModelBody,
      responses: {
        201: { description: 'The registered model', schema: registeredModelSchema },
        404: { description: 'Project not found' },
        409: { description: 'A registered model with this name already exists in the project' },
      },
      handler: async (ctx, { params, body }) => {
        const view = await registry.createModel(callerId(ctx), params.project_id, body);
        ctx.status = 201;
        return presentRegisteredModel(view);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/projects/:project_id/registry',
      scope: READ,
      params: projectParams,
      query: registeredModelListQuery,
      summary: "The project's registered models (search by name; sort by updated_at, name or created_at)",
      responses: { 200: { description: 'List envelope of registered models', schema: pageOf(registeredModelSchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { params, query }) => {
        const page = await registry.listModels(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map(presentRegisteredModel) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/registry/:registered_model_id',
      scope: READ,
      params: modelParams,
      summary: 'A registered model with its aliases',
      responses: { 200: { description: 'The registered model', schema: registeredModelSchema }, 404: MODEL_404 },
      handler: async (ctx, { params }) => presentRegisteredModel(await registry.getModel(callerId(ctx), params.registered_model_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/registry/:registered_model_id',
      scope: WRITE,
      params: modelParams,
      summary: 'Rename, describe, tag, or set the aliases that deploy on move (`auto_deploy_aliases`: admin or owner)',
      body: patchRegisteredModelBody,
      responses: { 200: { description: 'The registered model', schema: registeredModelSchema }, 404: MODEL_404, 409: { description: 'The new name is taken in the project' } },
      handler: async (ctx, { params, body }) => presentRegisteredModel(await registry.updateModel(callerId(ctx), params.registered_model_id, body)),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/registry/:registered_model_id',
      scope: WRITE,
      params: modelParams,
      summary: 'Delete a registered model with its versions, aliases, requests and events (its deployments stay)',
      responses: { ...deleted, 404: MODEL_404, 409: { description: 'A version of this registered model is in production' } },
      handler: async (ctx, { params }) => {
        await registry.deleteModel(callerId(ctx), params.registered_model_id);
        ctx.status = 204;
        return undefined;
      },
    }),

    // --- versions
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/registry/:registered_model_id/versions',
      scope: WRITE,
      params: modelParams,
      summary: 'Add a version (1, 2, ...): a model of the project, with its experiment, dataset version and a snapshot of its metrics (immutable but for tags, description and stage)',
      body: createVersionBody,
      responses: { 201: { description: 'The version', schema: registryVersionSchema }, 404: MODEL_404, 422: { description: 'model_id must belong to project' } },
      handler: async (ctx, { params, body }) => {
        const { model_id, ...rest } = body;
        const view = await registry.createVersion(callerId(ctx), params.registered_model_id, model_id, rest);
        ctx.status = 201;
        return presentRegistryVersion(view);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/registry/:registered_model_id/versions',
      scope: READ,
      params: modelParams,
      query: pageQuery(200),
      summary: "A registered model's versions, newest first",
      responses: { 200: { description: 'List envelope of versions', schema: pageOf(registryVersionSchema) }, 404: MODEL_404 },
      handler: async (ctx, { params, query }) => {
        const page = await registry.listVersions(callerId(ctx), params.registered_model_id, query);
        return { ...page, items: page.items.map(presentRegistryVersion) };
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/versions/:version_id',
      scope: READ,
      params: versionParams,
      summary: 'A registry version',
      responses: { 200: { description: 'The version', schema: registryVersionSchema }, 404: VERSION_404 },
      handler: async (ctx, { params }) => presentRegistryVersion(await registry.getVersionFor(callerId(ctx), params.version_id)),
    }),
    route({
      ...tagged,
      method: 'patch',
      path: '/api/mlops/versions/:version_id',
      scope: WRITE,
      params: versionParams,
      summary: "Change a version's tags or description (the rest is immutable)",
      body: patchVersionBody,
      responses: { 200: { description: 'The version', schema: registryVersionSchema }, 404: VERSION_404 },
      handler: async (ctx, { params, body }) => presentRegistryVersion(await registry.updateVersion(callerId(ctx), params.version_id, body)),
    }),

    // --- aliases
    route({
      ...tagged,
      method: 'put',
      path: '/api/mlops/registry/:registered_model_id/aliases/:alias',
      scope: WRITE,
      params: aliasParams,
      summary:
        'Point an alias at a version (the move is recorded as an `alias_moved` event). An alias in `auto_deploy_aliases` (admin or owner) deploys the version to production as an approved transition would',
      body: putAliasBody,
      responses: {
        200: { description: 'Where the alias moved', schema: aliasMoveSchema },
        403: ADMIN_403,
        404: MODEL_404,
        422: { description: 'version_id must be a version of this registered model' },
      },
      handler: async (ctx, { params, body }) => registry.putAlias(callerId(ctx), params.registered_model_id, params.alias, body.version_id),
    }),
    route({
      ...tagged,
      method: 'delete',
      path: '/api/mlops/registry/:registered_model_id/aliases/:alias',
      scope: WRITE,
      params: aliasParams,
      summary: 'Remove an alias',
      responses: { ...deleted, 404: { description: 'Registered model not found, or Alias not found' } },
      handler: async (ctx, { params }) => {
        await registry.deleteAlias(callerId(ctx), params.registered_model_id, params.alias);
        ctx.status = 204;
        return undefined;
      },
    }),

    // --- transitions
    route({
      ...tagged,
      method: 'post',
      path: '/api/mlops/versions/:version_id/transition',
      scope: WRITE,
      params: versionParams,
      summary: 'Ask to move a version to staging, production or archived: a pending request an admin or owner approves or rejects',
      body: transitionBody,
      responses: { 201: { description: 'The pending request', schema: registryTransitionSchema }, 404: VERSION_404 },
      handler: async (ctx, { params, body }) => {
        const t = await registry.requestTransitionAs(callerId(ctx), params.version_id, body.to_stage, body.comment);
        ctx.status = 201;
        return presentRegistryTransition(t);
      },
    }),
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/versions/:version_id/transitions',
      scope: READ,
      params: versionParams,
      query: pageQuery(200),
      summary: "A version's transition requests, newest first",
      responses: { 200: { description: 'List envelope of transition requests', schema: pageOf(registryTransitionSchema) }, 404: VERSION_404 },
      handler: async (ctx, { params, query }) => {
        const page = await registry.listTransitions(callerId(ctx), params.version_id, query);
        return { ...page, items: page.items.map(presentRegistryTransition) };
      },
    }),
    ...(['approve', 'reject'] as const).map((decision) =>
      route({
        ...tagged,
        method: 'post',
        path: `/api/mlops/versions/:version_id/transitions/:request_id/${decision}`,
        scope: WRITE,
        params: requestParams,
        summary:
          decision === 'approve'
            ? 'Approve a pending request (admin or owner) and carry it out: production deploys the version (the previous production deployment archived, its version archived), staging makes a staging deployment, archived deactivates the version’s deployments'
            : 'Reject a pending request (admin or owner)',
        body: decisionBody,
        responses: {
          200: { description: 'The decided request', schema: registryTransitionSchema },
          403: ADMIN_403,
          404: { description: 'Version not found, or Transition request not found' },
          409: { description: 'The request was already decided (or a concurrent deployment move won)' },
        },
        handler: async (ctx, { params, body }) => presentRegistryTransition(await registry.decideAs(callerId(ctx), params.version_id, params.request_id, decision, body.comment)),
      }),
    ),

    // --- events
    route({
      ...tagged,
      method: 'get',
      path: '/api/mlops/registry/:registered_model_id/events',
      scope: READ,
      params: modelParams,
      query: eventListQuery,
      summary:
        "A registered model's events, newest first (append-only): version_created, alias_moved, transition_requested/approved/rejected, stage_changed, and the rollouts' and retraining's. Each is sent to the project's enabled alert channels (webhook type `registry.<kind>`, signed as alerts are)",
      responses: { 200: { description: 'List envelope of events', schema: pageOf(registryEventSchema) }, 404: MODEL_404 },
      handler: async (ctx, { params, query }) => {
        const page = await registry.listEvents(callerId(ctx), params.registered_model_id, query);
        return { ...page, items: page.items.map(presentRegistryEvent) };
      },
    }),
  ];
}
