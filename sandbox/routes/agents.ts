import {
	AGENT_LANGUAGES,
	AGENT_SETTABLE_STATUSES,
	AGENT_STATUSES,
	AGENT_TONES,
	type AgentLanguage,
	type AgentStatus,
	type AgentTone,
} from '../constants';
import type { CursorFilters } from '../cursor';
import { invalidField, notFound } from '../errors';
import { laterThan } from '../time';
import type { AgentRecord } from '../types';
import {
	has,
	optionalEnum,
	optionalInteger,
	optionalStringArray,
	parseEnumParam,
	requiredString,
	requireObject,
	type JsonObject,
} from '../validation';
import { agentListView, agentView } from '../views';
import { listRoute } from './pagination';
import { ok, pathRecord, route, type Route, type RouteContext } from './route';

function findAgent(context: RouteContext): AgentRecord {
	return pathRecord(
		context,
		(store, orgId, id) => store.agentOf(orgId, id),
		(id) => notFound(`Agent ${id} not found`),
	);
}

interface AgentPatch {
	name?: string;
	status?: AgentStatus;
	language?: AgentLanguage;
	tone?: AgentTone;
	handoff_triggers?: string[];
	max_follow_ups?: number;
	interval_days?: number;
}

/** Validates the whole body before anything changes: a 400 leaves the agent untouched. */
function parseAgentPatch(body: JsonObject): AgentPatch {
	const patch: AgentPatch = {};
	if (has(body, 'name')) patch.name = requiredString(body, 'name');
	// Transitions into draft are not offered: only active and inactive can be set.
	patch.status = optionalEnum(body, 'status', AGENT_SETTABLE_STATUSES);
	patch.language = optionalEnum(body, 'language', AGENT_LANGUAGES);
	if (has(body, 'configuration')) {
		const configuration = requireObject(body.configuration, 'configuration');
		patch.tone = optionalEnum(configuration, 'tone', AGENT_TONES, 'configuration.tone');
		patch.handoff_triggers = optionalStringArray(
			configuration,
			'handoff_triggers',
			'configuration.handoff_triggers',
		);
		if (has(configuration, 'allowed_topics')) {
			throw invalidField('configuration.allowed_topics', 'is read-only');
		}
		if (has(configuration, 'follow_up_cadence')) {
			const cadence = requireObject(
				configuration.follow_up_cadence,
				'configuration.follow_up_cadence',
			);
			patch.max_follow_ups = optionalInteger(
				cadence,
				'max_follow_ups',
				0,
				100,
				'configuration.follow_up_cadence.max_follow_ups',
			);
			patch.interval_days = optionalInteger(
				cadence,
				'interval_days',
				1,
				365,
				'configuration.follow_up_cadence.interval_days',
			);
			if (has(cadence, 'channel')) {
				throw invalidField('configuration.follow_up_cadence.channel', 'is read-only');
			}
		}
	}
	return patch;
}

export const agentRoutes: Route[] = [
	listRoute({
		resource: 'agents',
		collectionOf: (org) => org.agents,
		parseFilters: (query) => {
			const filters: CursorFilters = {};
			const status = query.get('status');
			if (status !== null) filters.status = parseEnumParam('status', status, AGENT_STATUSES);
			return filters;
		},
		matcher: (filters) =>
			filters.status === undefined ? undefined : (agent) => agent.status === filters.status,
		withTotal: false,
		view: agentListView,
	}),
	route('GET', '/agents/{id}', (context) => ok(agentView(findAgent(context)))),
	route('PATCH', '/agents/{id}', (context) => {
		const agent = findAgent(context);
		const patch = parseAgentPatch(requireObject(context.body));
		const configuration = agent.configuration;
		if (patch.name !== undefined) agent.name = patch.name;
		if (patch.status !== undefined) agent.status = patch.status;
		if (patch.language !== undefined) agent.language = patch.language;
		if (patch.tone !== undefined) configuration.tone = patch.tone;
		if (patch.handoff_triggers !== undefined)
			configuration.handoff_triggers = [...patch.handoff_triggers];
		if (patch.max_follow_ups !== undefined)
			configuration.follow_up_cadence.max_follow_ups = patch.max_follow_ups;
		if (patch.interval_days !== undefined)
			configuration.follow_up_cadence.interval_days = patch.interval_days;
		agent.updated_at = laterThan(agent.updated_at, context.core.clock.now());
		context.org.agents.changed();
		return { status: 200, body: agentView(agent) };
	}),
];
