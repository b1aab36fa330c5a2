import { startHttpReceiver } from '../../../../harness/support/receiver';

export interface ScriptedAnswer {
	status: number;
	body?: string;
	headers?: Record<string, string>;
}

/** A tiny real HTTP service answering from a script, for answers the sandbox never gives. */
export async function startScriptedService(script: ScriptedAnswer[], fallback: ScriptedAnswer) {
	const received: Array<{ method: string; url: string; at: number }> = [];
	const service = await startHttpReceiver(({ method, url }) => {
		received.push({ method, url, at: Date.now() });
		const { status, body = '', headers } = script.shift() ?? fallback;
		return { status, body, headers };
	});
	return {
		baseUrl: `${service.url}v1`,
		received,
		close: service.close,
	};
}
