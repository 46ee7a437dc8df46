/** Ready-to-paste client configurations for the extension's MCP endpoint. */

/** Codex reads the bearer token from this environment variable. */
export const MCP_TOKEN_ENV = 'RETRO_DEBUG_MCP_TOKEN';
export const MCP_SERVER_NAME = 'retro-debug';

/** Claude Code `.mcp.json` with the token in the header (the token changes when VS Code restarts). */
export function claudeCodeMcpJson(url: string, token: string): string {
  const config = {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } },
    },
  };
  return JSON.stringify(config, null, 2) + '\n';
}

/** Codex `~/.codex/config.toml` section; the token goes into the environment, not the file. */
export function codexConfigToml(url: string): string {
  // JSON string syntax is valid TOML basic-string syntax for these ASCII values.
  return [
    `# export ${MCP_TOKEN_ENV}=<token shown by "Retro Debug: Show MCP Connection">`,
    `[mcp_servers.${MCP_SERVER_NAME.replace(/-/g, '_')}]`,
    `url = ${JSON.stringify(url)}`,
    `bearer_token_env_var = ${JSON.stringify(MCP_TOKEN_ENV)}`,
    'tool_timeout_sec = 120',
    '',
  ].join('\n');
}
