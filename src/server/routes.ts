// The session API's route table (docs/server.md "Endpoints"): each route's method, path, query and body schemas and
// handler. The HTTP server validates requests with these schemas and /openapi.json is generated from them, so the
// published description cannot drift from what the server accepts.
import { INPUT_ROUTES } from './inputRoutes';
import { INTERACTION_ROUTES } from './interactionRoutes';
import type { Route } from './routeKit';
import { SESSION_ROUTES } from './sessionRoutes';

export type { JsonSchema, Route, RouteContext } from './routeKit';

export const ROUTES: Route[] = [...SESSION_ROUTES, ...INTERACTION_ROUTES, ...INPUT_ROUTES];
