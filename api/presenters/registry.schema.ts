import { z } from 'zod';
import { REGISTRY_STAGES, TRANSITION_STATUSES, TRANSITION_TARGETS } from '../../entities';
import { dateTimestamp as timestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/registry.ts, for the OpenAPI document (and through it the web UI's types).
 * Objects stay open (`loose`): clients ignore fields they do not know.
 */

const id = z.string();
const tags = z.record(z.string(), z.string());

export const registeredModelSchema = z
  .object({
    id,
    project_id: id,
    name: z.string(),
    description: z.string(),
    tags,
    latest_version: z.number().int().meta({ description: 'The highest version number handed out (0: none yet)' }),
    aliases: z.record(z.string(), z.number().int()).meta({ description: 'alias → version number' }),
    auto_deploy_aliases: z.array(z.string()).meta({ description: 'Aliases whose move deploys the version to production' }),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

export const registryVersionSchema = z
  .object({
    id,
    registered_model_id: id,
    project_id: id,
    version: z.number().int(),
    model_id: id,
    experiment_id: id,
    dataset_version_id: id.nullable(),
    metrics: jsonObject.meta({ description: "The model's metrics when the version was registered" }),
    stage: z.enum(REGISTRY_STAGES),
    aliases: z.array(z.string()),
    tags,
    description: z.string(),
    deployment_id: id.nullable().meta({ description: 'The deployment the registry last made for this version' }),
    created_by: id.nullable(),
    created_at: timestamp,
  })
  .loose();

export const aliasMoveSchema = z
  .object({
    alias: z.string(),
    from_version: z.number().int().nullable(),
    to_version: z.number().int(),
    version_id: id,
    deployment_id: id.nullable().meta({ description: 'The production deployment made when the alias deploys on move' }),
  })
  .loose();

export const registryTransitionSchema = z
  .object({
    id,
    version_id: id,
    registered_model_id: id,
    project_id: id,
    to_stage: z.enum(TRANSITION_TARGETS),
    status: z.enum(TRANSITION_STATUSES),
    requested_by: id.nullable(),
    comment: z.string().nullable(),
    created_at: timestamp,
    decided_by: id.nullable(),
    decided_at: timestamp.nullable(),
    decision_comment: z.string().nullable(),
    deployment_id: id.nullable(),
  })
  .loose();

export const registryEventSchema = z
  .object({
    id,
    project_id: id,
    registered_model_id: id.nullable(),
    version_id: id.nullable(),
    kind: z.string(),
    actor_id: id.nullable().meta({ description: 'null: the system' }),
    details: jsonObject,
    created_at: timestamp,
  })
  .loose();
