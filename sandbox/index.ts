import type { RunningSandbox, SandboxOptions } from './contract';
import { createControl } from './control';
import { createControlHttp } from './controlHttp';
import { SandboxCore, resolveOptions } from './core';
import { SandboxServer } from './server';

export type {
	AppointmentOptions,
	ChannelLeadFields,
	DeliveryLogEntry,
	FaultKind,
	FaultSpec,
	RawDeliveryResult,
	RequestLogEntry,
	RunningSandbox,
	RuntimeOptions,
	SandboxControl,
	SandboxClockState,
	SandboxKeys,
	SandboxOptions,
	SandboxState,
	StoredAgent,
	StoredConversation,
	StoredLead,
} from './contract';
export type {
	AgentRecord,
	AppointmentRecord,
	ConversationRecord,
	KeyRole,
	LeadRecord,
	MessageRecord,
	OrganizationRecord,
	WebhookRecord,
} from './types';
export { ControlError } from './control';

function check(name: string, value: number, min: number): void {
	if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}`);
}

/** Starts a sandbox service on loopback (a free port unless `port` is given). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const resolved = resolveOptions(options);
	check('leads', resolved.leads, 0);
	check('rateLimit', resolved.rateLimit, 0);
	check('windowMs', resolved.windowMs, 1);
	check('retryScale', resolved.retryScale, 0);
	check('deliveryTimeoutMs', resolved.deliveryTimeoutMs, 1);

	const core = new SandboxCore(resolved);
	const control = createControl(core);
	const server = new SandboxServer(core, createControlHttp(core, control));
	const port = await server.listen(resolved.port, resolved.host);
	resolved.port = port;
	const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
	const origin = `http://${host}:${port}`;

	return {
		baseUrl: `${origin}/v1`,
		controlUrl: `${origin}/control`,
		port,
		keys: { ...core.keys.keys },
		control,
		close: async () => {
			core.dispatcher.cancelAll();
			await server.close();
		},
	};
}
