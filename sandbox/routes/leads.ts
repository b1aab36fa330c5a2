import { createLead, updateLead, type LeadPatch } from '../actions';
import {
	LEAD_API_CHANNEL,
	E164,
	LEAD_CHANNELS,
	LEAD_INTENTS,
	LEAD_STATUSES,
	SCORE_MAX,
	SCORE_MIN,
	type LeadChannel,
} from '../constants';
import type { CursorFilters } from '../cursor';
import { invalidField, leadNotFound } from '../errors';
import type { LeadRecord } from '../types';
import {
	has,
	isEmail,
	optionalEnum,
	optionalString,
	parseEnumParam,
	parseIntegerParam,
	parseIsoParam,
	requiredString,
	requireObject,
} from '../validation';
import { leadView } from '../views';
import { listRoute } from './pagination';
import { ok, pathRecord, route, type Route, type RouteContext } from './route';

function parseLeadFilters(query: URLSearchParams): CursorFilters {
	const filters: CursorFilters = {};
	const status = query.get('status');
	if (status !== null) filters.status = parseEnumParam('status', status, LEAD_STATUSES);
	const intent = query.get('intent');
	if (intent !== null) filters.intent = parseEnumParam('intent', intent, LEAD_INTENTS);
	const channel = query.get('channel');
	// `api` is a value of the field but not of the filter.
	if (channel !== null) filters.channel = parseEnumParam('channel', channel, LEAD_CHANNELS);
	const scoreMin = query.get('score_min');
	if (scoreMin !== null)
		filters.score_min = parseIntegerParam('score_min', scoreMin, SCORE_MIN, SCORE_MAX);
	const scoreMax = query.get('score_max');
	if (scoreMax !== null)
		filters.score_max = parseIntegerParam('score_max', scoreMax, SCORE_MIN, SCORE_MAX);
	const after = query.get('created_after');
	if (after !== null) filters.created_after = parseIsoParam('created_after', after);
	const before = query.get('created_before');
	if (before !== null) filters.created_before = parseIsoParam('created_before', before);
	return filters;
}

function leadMatcher(filters: CursorFilters): ((lead: LeadRecord) => boolean) | undefined {
	const { status, intent, channel, score_min, score_max } = filters;
	if ([status, intent, channel, score_min, score_max].every((value) => value === undefined)) {
		return undefined;
	}
	return (lead) =>
		(status === undefined || lead.status === status) &&
		(intent === undefined || lead.intent === intent) &&
		(channel === undefined || lead.channel === channel) &&
		(score_min === undefined || lead.score >= (score_min as number)) &&
		(score_max === undefined || lead.score <= (score_max as number));
}

function findLead(context: RouteContext): LeadRecord {
	return pathRecord(context, (store, orgId, id) => store.leadOf(orgId, id), leadNotFound);
}

export const leadRoutes: Route[] = [
	listRoute({
		resource: 'leads',
		collectionOf: (org) => org.leads,
		parseFilters: parseLeadFilters,
		matcher: leadMatcher,
		createdRange: (filters) => ({
			from: filters.created_after as number | undefined,
			to: filters.created_before as number | undefined,
		}),
		withTotal: true,
		view: leadView,
	}),
	route('POST', '/leads', (context) => {
		const body = requireObject(context.body);
		const name = requiredString(body, 'name');
		const phone = requiredString(body, 'phone');
		if (!E164.test(phone)) {
			throw invalidField('phone', 'must be in E.164 format with country code, e.g. +5491123456789');
		}
		const email = optionalString(body, 'email') ?? null;
		if (email !== null && !isEmail(email))
			throw invalidField('email', 'must be a valid email address');
		let channel: LeadChannel = LEAD_API_CHANNEL;
		if (has(body, 'channel') && body.channel !== null) {
			channel = optionalEnum(body, 'channel', LEAD_CHANNELS) as LeadChannel;
		}
		const lead = createLead(context.core, {
			organizationId: context.org.id,
			name,
			phone,
			email,
			channel,
			vehicle_interest: optionalString(body, 'vehicle_interest') ?? null,
			notes: optionalString(body, 'notes') ?? null,
		});
		return { status: 201, body: leadView(lead) };
	}),
	route('GET', '/leads/{id}', (context) => ok(leadView(findLead(context)))),
	route('PATCH', '/leads/{id}', (context) => {
		const lead = findLead(context);
		const body = requireObject(context.body);
		const patch: LeadPatch = {};
		if (has(body, 'status')) patch.status = optionalEnum(body, 'status', LEAD_STATUSES);
		const assignedTo = optionalString(body, 'assigned_to');
		if (typeof assignedTo === 'string' && assignedTo.trim() === '') {
			throw invalidField('assigned_to', 'must be a user ID or null');
		}
		patch.assigned_to = assignedTo;
		patch.vehicle_interest = optionalString(body, 'vehicle_interest');
		patch.notes = optionalString(body, 'notes');
		return { status: 200, body: leadView(updateLead(context.core, lead, patch)) };
	}),
];
