import { z } from 'zod';
import { ALIAS_PATTERN, TRANSITION_TARGETS } from '../../entities';
import { REGISTRY_SORT_FIELDS } from '../../services/registry/models';
import { listQuery, nonBlank, pageQuery, uuidParam } from '../validation';

/** The request schemas of the registry routes (api/routes/registry.ts). */

export const MAX_TAGS = 50;

/** Tags as MLflow has them: string keys (1-100 characters) to string values (up to 1,000), at most 50. */
export const tags = z
  .record(z.string().min(1).max(100), z.string().max(1000))
  .refine((t) => Object.keys(t).length <= MAX_TAGS, { message: `At most ${MAX_TAGS} tags` })
  .meta({ maxProperties: MAX_TAGS, description: `key → value; keys 1-100 characters, values up to 1,000, at most ${MAX_TAGS}` });

const description = z.string().max(5000);
const comment = z.string().max(2000);

export const alias = z
  .string()
  .regex(ALIAS_PATTERN)
  .meta({ description: `An alias: ${ALIAS_PATTERN.source} (\`champion\`, \`challenger\` or custom)` });

export const createRegisteredModelBody = z.object({ name: nonBlank(200), description: description.optional(), tags: tags.optional() }).strict();

export const patchRegisteredModelBody = z
  .object({
    name: nonBlank(200).optional(),
    description: description.optional(),
    tags: tags.optional().meta({ description: 'Replaces the tags' }),
    auto_deploy_aliases: z.array(alias).max(10).optional().meta({ description: 'Aliases whose move deploys the version to production, as an approved transition would (admin or owner)' }),
  })
  .strict();

export const registeredModelListQuery = listQuery(REGISTRY_SORT_FIELDS, 200);

export const createVersionBody = z.object({ model_id: uuidParam.meta({ description: 'A model of the same project' }), description: description.optional(), tags: tags.optional() }).strict();

export const patchVersionBody = z.object({ description: description.optional(), tags: tags.optional().meta({ description: 'Replaces the tags' }) }).strict();

export const putAliasBody = z.object({ version_id: uuidParam.meta({ description: 'A version of this registered model' }) }).strict();

export const transitionBody = z.object({ to_stage: z.enum(TRANSITION_TARGETS), comment: comment.optional() }).strict();

export const decisionBody = z.object({ comment: comment.optional() }).strict();

export const eventListQuery = pageQuery(500).extend({ kind: z.string().max(100).optional().meta({ description: 'Only events of this kind' }) });
