import { agentRoutes } from './agents';
import { conversationRoutes } from './conversations';
import { leadRoutes } from './leads';
import type { Route } from './route';
import { webhookRoutes } from './webhooks';

export type { Route, RouteContext, RouteResult } from './route';

/** Every /v1 endpoint. */
export const routes: Route[] = [
	...leadRoutes,
	...conversationRoutes,
	...agentRoutes,
	...webhookRoutes,
];
