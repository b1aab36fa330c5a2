// Everything a user or an operator could read after a run: output items, error messages and
// descriptions (with their serialized form and stack), log lines, webhook answers. Each scenario
// file captures all of it and searches it for the API keys and signing secrets in play.

import type { DeliveryResult, RunningSandbox, RunResult } from '../../../harness/engine';
import { allLogs } from '../../../harness/engine';
import { recordFigure } from './figures';

interface Hit {
	secret: string;
	where: string;
}

function errorText(error: unknown): string {
	if (!error || typeof error !== 'object') return String(error ?? '');
	const { message, description, stack } = error as {
		message?: unknown;
		description?: unknown;
		stack?: unknown;
	};
	let serialized = '';
	try {
		serialized = JSON.stringify(error);
	} catch {
		serialized = '[unserializable]';
	}
	return [message, description, stack, serialized].map((part) => String(part ?? '')).join('\n');
}

export class SecretTrace {
	private readonly secrets = new Map<string, string>();
	private readonly texts: Array<{ where: string; text: string }> = [];
	private characters = 0;

	constructor(private readonly file: string) {}

	/** Every API key of the sandbox. */
	addApiKeys(sandbox: RunningSandbox): void {
		for (const key of Object.values(sandbox.keys)) this.addSecret(key, 'an API key');
	}

	/** A value that must never be shown; `kind` names it in a report without revealing it. */
	addSecret(value: string | undefined, kind: string): void {
		if (typeof value === 'string' && value.length >= 8) this.secrets.set(value, kind);
	}

	addText(where: string, text: string | undefined): void {
		if (!text) return;
		this.texts.push({ where, text });
		this.characters += text.length;
	}

	/** Output items of every node, the errors (as thrown and as the engine kept them), the logs. */
	addRun(where: string, result: RunResult): void {
		this.addText(`${where}: run data`, JSON.stringify(result.run.data.resultData));
		if (result.error) this.addText(`${where}: error`, errorText(result.error));
		for (const nodeName of Object.keys(result.run.data.resultData.runData)) {
			const failure = result.nodeError(nodeName);
			if (failure) this.addText(`${where}: ${nodeName} error`, errorText(failure));
		}
		this.addText(`${where}: logs`, result.logs.join('\n'));
	}

	/** What the sender of a webhook saw, and what the run would start with. */
	addDelivery(where: string, result: DeliveryResult): void {
		const body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body ?? '');
		this.addText(
			`${where}: answer`,
			`${result.statusCode} ${JSON.stringify(result.headers)} ${body}`,
		);
		if (result.runs.length > 0) this.addText(`${where}: run items`, JSON.stringify(result.runs));
		if (result.error) this.addText(`${where}: webhook error`, errorText(result.error));
	}

	addError(where: string, error: unknown): void {
		this.addText(where, errorText(error));
	}

	/** The places a secret occurs in what was captured so far. */
	find(): Hit[] {
		const hits: Hit[] = [];
		for (const { where, text } of this.texts) {
			for (const [secret, kind] of this.secrets) {
				if (text.includes(secret)) hits.push({ secret: kind, where });
			}
		}
		return hits;
	}

	/**
	 * Searches everything captured (and every log line n8n wrote in this file) for every secret,
	 * records the figure of this file, and returns the places a secret was found.
	 */
	scan(): Hit[] {
		this.addText('all log lines of the file', allLogs().join('\n'));
		const hits = this.find();
		recordFigure({
			id: 'secrets',
			source: this.file,
			measured:
				hits.length === 0
					? 'none found'
					: hits
							.map((hit) => `${hit.secret} in ${hit.where}`)
							.slice(0, 5)
							.join('; '),
			pass: hits.length === 0 && this.secrets.size > 0,
			counts: {
				hits: hits.length,
				secrets: this.secrets.size,
				texts: this.texts.length,
				characters: this.characters,
			},
		});
		return hits;
	}
}
