import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Problem = components['schemas']['Problem'];

/** Thrown for any 4xx/5xx: the service's problem+json envelope, typed. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail ?? ''}`);
  }
}

/**
 * A typed client for the ad network service's /v1 API, made from its OpenAPI
 * document: paths, parameters, bodies and answers are all checked by tsc.
 */
export function adNetworkClient(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl: `${baseUrl.replace(/\/$/, '')}/v1` });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}

export type AdNetworkClient = ReturnType<typeof adNetworkClient>;

/** Unwrap an openapi-fetch result: the data, or an ApiError carrying the envelope. */
export function ok<T>(result: { data?: T; error?: unknown }): T {
  if (result.error !== undefined) throw new ApiError(result.error as Problem);
  return result.data as T;
}
