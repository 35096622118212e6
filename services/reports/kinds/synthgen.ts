import type { ReportKindDef } from './kind';

/**
 * Synthetic-data jobs do not exist yet (their issue brings them and this kind's sections: per-
 * column and per-pair quality, real against synthetic distributions, the privacy check). Until
 * then no synthgen job is in any project: the kind is valid and every entity id is a 404.
 */
export const synthgenKind: ReportKindDef = {
  kind: 'synthgen',
  notFound: 'Synthgen job not found',
  exists: async () => false,
  build: async () => {
    throw new Error('no synthgen job exists');
  },
};
