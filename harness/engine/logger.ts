import { LoggerProxy } from 'n8n-workflow';
import type { Logger, LogMetadata } from 'n8n-workflow';

import { n8nCoreDependency } from './n8nCoreDependency';

const { Container } = n8nCoreDependency<typeof import('@n8n/di')>('@n8n/di');
const { Logger: BackendLogger } =
	n8nCoreDependency<typeof import('@n8n/backend-common')>('@n8n/backend-common');

type Level = 'error' | 'warn' | 'info' | 'debug';

/**
 * n8n logs through two doors: `this.logger` in a node context is the DI container's backend
 * Logger, and the engine itself writes through n8n-workflow's LoggerProxy. Both are pointed at
 * one recorder so a test can read every line a run produced (for example to prove that no API
 * key or signing secret was ever logged).
 */
class RecordingLogger implements Logger {
	readonly lines: string[] = [];

	error(message: string, metadata?: LogMetadata) {
		this.record('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata) {
		this.record('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata) {
		this.record('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata) {
		this.record('debug', message, metadata);
	}

	// The backend Logger API also offers scoped children; they write to the same record.
	scoped() {
		return this;
	}

	private record(level: Level, message: string, metadata?: LogMetadata) {
		const details = metadata === undefined ? '' : ` ${serializeMetadata(metadata)}`;
		this.lines.push(`${level}: ${String(message)}${details}`);
	}
}

function serializeMetadata(metadata: LogMetadata): string {
	const seen = new WeakSet<object>();
	try {
		return JSON.stringify(metadata, (_key, value: unknown) => {
			if (value instanceof Error) {
				// Keep everything an error carries (description, context, cause) visible to assertions.
				const { message, stack, ...rest } = value as Error & Record<string, unknown>;
				return { ...rest, name: value.name, message, stack, cause: describeCause(value.cause) };
			}
			if (typeof value === 'object' && value !== null) {
				if (seen.has(value)) return '[circular]';
				seen.add(value);
			}
			if (typeof value === 'bigint') return value.toString();
			return value;
		});
	} catch {
		return String(metadata);
	}
}

function describeCause(cause: unknown): unknown {
	if (cause instanceof Error) return { name: cause.name, message: cause.message };
	return cause;
}

const recorder = new RecordingLogger();

/** Routes n8n's loggers to the recorder; called by every harness entry point. */
export function installLogCapture(): void {
	LoggerProxy.init(recorder);
	Container.set(BackendLogger, recorder as unknown as InstanceType<typeof BackendLogger>);
}

/** A cursor into the shared log: lines written after it was taken. */
export function logCursor(): () => string[] {
	const start = recorder.lines.length;
	return () => recorder.lines.slice(start);
}

/**
 * What every harness entry point starts with: n8n's loggers routed to the recorder (a test may
 * have replaced them meanwhile) and a cursor from here on.
 */
export function captureLogs(): () => string[] {
	installLogCapture();
	return logCursor();
}

/** Every line recorded in this test file so far. */
export function allLogs(): string[] {
	return [...recorder.lines];
}

installLogCapture();
