import type { Deployment, Model } from '../entities';
import type { ServingTarget } from './deployment-targets';

/** Which deployment serves a request, and which was addressed. */
export interface RoutedRequest {
  requested: Deployment;
  deployment: Deployment;
  model: Model;
}

/**
 * Bucket 0-99 of a request id (FNV-1a), so a request id is always routed the same way: a staging
 * deployment asking for p% of production's traffic takes the requests whose bucket is below p.
 */
export function trafficBucket(requestId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < requestId.length; i++) {
    h ^= requestId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 100;
}

/** Which deployment serves this request (a staging deployment may take a share of production's). */
export function routeRequest(t: ServingTarget, requestId: string): RoutedRequest {
  if (t.canary && trafficBucket(requestId) < t.canary.deployment.trafficPercent) return { requested: t.deployment, ...t.canary };
  return { requested: t.deployment, deployment: t.deployment, model: t.model };
}
