import { z } from 'zod';
import { ACTIONS, piiTypes, profiles } from '../../engine/privacy';
import { callerId, type RouteDeps } from '../context';
import { pageOf } from '../presenters/page.schema';
import { presentPolicy, presentResult, presentRule, presentSession, presentSessionSummary } from '../presenters/privacy';
import { actionSchema, piiTypeSchema, policySchema, profileSchema, resultSchema, ruleSchema, sessionReportSchema, sessionSchema, sessionSummarySchema } from '../presenters/privacy.schema';
import { route, RouteDef } from '../route';
import {
  createPolicyBody,
  createRuleBody,
  createSessionBody,
  findingOverrideBody,
  findingParams,
  patchPolicyBody,
  patchRuleBody,
  policyListQuery,
  policyParams,
  ruleParams,
  sessionListQuery,
  sessionParams,
  sessionReportQuery,
  sessionResultsQuery,
} from './privacy.schema';

const policyNotFound = { description: 'Policy not found' };
const sessionNotFound = { description: 'Session not found' };
const badRule = { description: 'Unknown pii_type or action, or a config setting the action does not have or cannot use (the field is named)' };

/** The privacy suite (prefix /api/privacy): policies and rules, detect/transform sessions, and the engine's catalogues. */
export function privacyRoutes({ services }: RouteDeps): RouteDef[] {
  const { privacyPolicies: policies, privacySessions: sessions } = services;
  const tag = 'privacy';

  return [
    route({
      method: 'post',
      path: '/api/privacy/policies',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      summary: 'Create a policy in a project (profile `custom` and status `draft` unless given)',
      body: createPolicyBody,
      responses: { 201: { description: '{id, policy_id}', schema: z.object({ id: z.string(), policy_id: z.string() }) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { body }) => {
        const p = await policies.create(callerId(ctx), body);
        ctx.status = 201;
        return { id: p.id, policy_id: p.id };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/policies',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      summary: 'Policies of a project, or of every project the caller is a member of; newest first, with compliance figures',
      query: policyListQuery,
      responses: { 200: { description: 'List envelope of policies', schema: pageOf(policySchema) }, 404: { description: 'Project not found' } },
      handler: async (ctx, { query }) => {
        const page = await policies.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentPolicy) };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/policies/:policy_id',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      params: policyParams,
      summary: 'A policy with its rules (highest priority first)',
      responses: {
        200: { description: '{policy: {id, name, profile, project_name, rules_count, compliance_score, ...}, rules: [...]}', schema: z.object({ policy: policySchema, rules: z.array(ruleSchema) }) },
        404: policyNotFound,
      },
      handler: async (ctx, { params }) => {
        const { view, rules } = await policies.get(callerId(ctx), params.policy_id);
        return { policy: presentPolicy(view), rules: rules.map(presentRule) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/privacy/policies/:policy_id',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: policyParams,
      summary: 'Change any of name, description, status, profile, settings; only provided fields change',
      body: patchPolicyBody,
      responses: { 200: { description: '{ok}' }, 404: policyNotFound },
      handler: async (ctx, { params, body }) => {
        await policies.update(callerId(ctx), params.policy_id, body);
        return { ok: true };
      },
    }),
    route({
      method: 'delete',
      path: '/api/privacy/policies/:policy_id',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: policyParams,
      summary: 'Delete a policy with its rules and sessions (their output files stay artifacts of the project)',
      responses: { 200: { description: '{ok}' }, 404: policyNotFound },
      handler: async (ctx, { params }) => {
        await policies.delete(callerId(ctx), params.policy_id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/privacy/policies/:policy_id/rules',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: policyParams,
      summary: 'Add a rule: what to do with one PII type (the highest priority enabled rule of a type applies)',
      body: createRuleBody,
      responses: { 201: { description: '{id, rule_id}', schema: z.object({ id: z.string(), rule_id: z.string() }) }, 404: policyNotFound, 422: badRule },
      handler: async (ctx, { params, body }) => {
        const r = await policies.addRule(callerId(ctx), params.policy_id, body);
        ctx.status = 201;
        return { id: r.id, rule_id: r.id };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/policies/:policy_id/rules',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      params: policyParams,
      summary: "A policy's rules, highest priority first",
      responses: { 200: { description: '{rules: [...]}', schema: z.object({ rules: z.array(ruleSchema) }) }, 404: policyNotFound },
      handler: async (ctx, { params }) => ({ rules: (await policies.listRules(callerId(ctx), params.policy_id)).map(presentRule) }),
    }),
    route({
      method: 'patch',
      path: '/api/privacy/policies/:policy_id/rules/:rule_id',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: ruleParams,
      summary: 'Change any of pii_type, action, is_enabled, priority, config; a new action without config starts from none',
      body: patchRuleBody,
      responses: {
        200: { description: '{ok, rule}', schema: z.object({ ok: z.boolean(), rule: ruleSchema }) },
        404: { description: 'Policy not found, or Rule not found (not a rule of the policy)' },
        422: badRule,
      },
      handler: async (ctx, { params, body }) => ({ ok: true, rule: presentRule(await policies.updateRule(callerId(ctx), params.policy_id, params.rule_id, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/privacy/policies/:policy_id/rules/:rule_id',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: ruleParams,
      summary: 'Delete a rule',
      responses: { 200: { description: '{ok}' }, 404: { description: 'Policy not found, or Rule not found (not a rule of the policy)' } },
      handler: async (ctx, { params }) => {
        await policies.deleteRule(callerId(ctx), params.policy_id, params.rule_id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/privacy/sessions',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      summary: "Start a session of a policy on a dataset's latest version or on a given version of the policy's project (status `created`)",
      body: createSessionBody,
      responses: {
        201: { description: '{id, session_id}', schema: z.object({ id: z.string(), session_id: z.string() }) },
        404: { description: 'Policy not found, Dataset not found or Dataset version not found' },
        422: { description: 'dataset_id or dataset_version_id is required; Dataset must belong to the same project as the policy' },
      },
      handler: async (ctx, { body }) => {
        const s = await sessions.create(callerId(ctx), body);
        ctx.status = 201;
        return { id: s.id, session_id: s.id };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/sessions',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      summary: 'Sessions of a project or a policy (or of every project the caller is a member of), newest first',
      query: sessionListQuery,
      responses: {
        200: { description: 'List envelope of {id, policy_name, dataset_name, status, pii_found, transformed, created_at}', schema: pageOf(sessionSummarySchema) },
        404: { description: 'Project not found' },
      },
      handler: async (ctx, { query }) => {
        const page = await sessions.list(callerId(ctx), query);
        return { ...page, items: page.items.map(presentSessionSummary) };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/sessions/:session_id',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      params: sessionParams,
      summary: 'A session: status, counts, the progress of its job, the output artifact once completed',
      responses: { 200: { description: '{session: {...}}', schema: z.object({ session: sessionSchema }) }, 404: sessionNotFound },
      handler: async (ctx, { params }) => ({ session: presentSession(await sessions.get(callerId(ctx), params.session_id)) }),
    }),
    route({
      method: 'post',
      path: '/api/privacy/sessions/:session_id/detect',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: sessionParams,
      summary: 'Queue a `privacy_detect` job: the session is `detecting`, then `detected` with its results',
      responses: { 200: { description: "{job_id, session_id, status: 'detecting'}" }, 404: sessionNotFound, 409: { description: 'Another job of the session is still open' } },
      handler: async (ctx, { params }) => {
        const job = await sessions.detect(callerId(ctx), params.session_id);
        return { job_id: job.id, session_id: params.session_id, status: 'detecting' };
      },
    }),
    route({
      method: 'post',
      path: '/api/privacy/sessions/:session_id/transform',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: sessionParams,
      summary: 'Queue a `privacy_transform` job: the session is `transforming`, then `completed` with a new CSV artifact (detected first if it never was); the source is never changed',
      responses: { 200: { description: "{job_id, session_id, status: 'transforming'}" }, 404: sessionNotFound, 409: { description: 'Another job of the session is still open' } },
      handler: async (ctx, { params }) => {
        const job = await sessions.transform(callerId(ctx), params.session_id);
        return { job_id: job.id, session_id: params.session_id, status: 'transforming' };
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/sessions/:session_id/results',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      params: sessionParams,
      query: sessionResultsQuery,
      summary: 'Detection results, most confident first; `confidence` is a bucket: high (>= 0.9), medium (0.7-0.9), low (< 0.7). Samples are masked',
      responses: {
        200: { description: '{results: [{column, pii_type, confidence, instances, sample, samples, action, transformed}]}', schema: z.object({ results: z.array(resultSchema) }) },
        404: sessionNotFound,
      },
      handler: async (ctx, { params, query }) => ({ results: (await sessions.results(callerId(ctx), params.session_id, query)).map(presentResult) }),
    }),
    route({
      method: 'put',
      path: '/api/privacy/sessions/:session_id/findings/:finding_id',
      tag,
      auth: 'user',
      scope: 'write:privacy',
      params: findingParams,
      body: findingOverrideBody,
      summary:
        "Override one finding (a detection result) for this session only: `excluded: true` leaves it out of the transform and of the counts' protected findings, `action` replaces the policy's action for it (null: the policy's again). The next transform uses it; a new detection keeps it",
      responses: {
        200: { description: '{result: the finding as results list it}', schema: z.object({ result: resultSchema }) },
        404: { description: 'Session not found, or Finding not found (not a finding of this session)' },
        422: { description: 'Neither excluded nor action sent, an unknown action, or a field of the wrong type' },
      },
      handler: async (ctx, { params, body }) => ({ result: presentResult(await sessions.overrideFinding(callerId(ctx), params.session_id, params.finding_id, body)) }),
    }),
    route({
      method: 'get',
      path: '/api/privacy/sessions/:session_id/download',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      params: sessionParams,
      summary: "The anonymized output: a redirect to its artifact's download",
      responses: {
        302: { contentType: 'text/html', description: 'Location: /api/artifacts/{artifact_id}/download' },
        404: { description: 'Session not found, or Anonymized output not found (not completed)' },
      },
      handler: async (ctx, { params }) => {
        const artifactId = await sessions.output(callerId(ctx), params.session_id);
        ctx.redirect(`/api/artifacts/${artifactId}/download`);
        ctx.status = 302;
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/api/privacy/sessions/:session_id/report',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      rateLimit: 'report',
      params: sessionParams,
      query: sessionReportQuery,
      summary: "A PDF summary of a completed session (findings with masked samples, actions, the policy's compliance), stored as an artifact of the session",
      responses: { 200: { description: '{artifact_id, download_url}', schema: sessionReportSchema }, 404: { description: 'Session not found, or the session is not completed yet' } },
      handler: async (ctx, { params, query }) => services.privacyReports.make(callerId(ctx), params.session_id, query.ai_insights ?? false),
    }),
    route({
      method: 'get',
      path: '/api/privacy/pii-types',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      summary: 'Every PII type the engine detects: id, name, category, country of national identifiers, strongest evidence',
      responses: { 200: { description: '{types: [{id, name, category, country?, evidence}]}', schema: z.object({ types: z.array(piiTypeSchema) }) } },
      handler: async () => ({ types: piiTypes() }),
    }),
    route({
      method: 'get',
      path: '/api/privacy/actions',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      summary: 'The seven transformation actions',
      responses: { 200: { description: '{actions: [{id, name, description}]}', schema: z.object({ actions: z.array(actionSchema) }) } },
      handler: async () => ({ actions: ACTIONS }),
    }),
    route({
      method: 'get',
      path: '/api/privacy/profiles',
      tag,
      auth: 'user',
      scope: 'read:privacy',
      summary: 'Compliance profiles: their PII types (one per identifier the regulation lists), default action and the clause of each identifier',
      responses: {
        200: { description: '{profiles: [{id, name, description, source, pii_types, covered_types, default_action, identifiers}]}', schema: z.object({ profiles: z.array(profileSchema) }) },
      },
      handler: async () => ({
        profiles: profiles().map((p) => ({
          id: p.id,
          name: p.name,
          description: p.description,
          source: p.source,
          pii_types: p.piiTypes,
          covered_types: p.coveredTypes,
          default_action: p.default_action,
          identifiers: p.identifiers,
        })),
      }),
    }),
  ];
}
