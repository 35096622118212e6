import { z } from 'zod';
import { intParam, uuidParam } from '../validation';

/** The request schemas of the artifact routes (api/routes/artifacts.ts). */

const PREVIEW_ROWS = 20;

export const artifactParams = z.object({ artifact_id: uuidParam });
export const artifactPreviewQuery = z.object({ rows: intParam(1, 500).default(PREVIEW_ROWS) });
