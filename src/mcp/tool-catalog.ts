/**
 * Which tool groups one MCP connection sees. The profile's groups are the
 * baseline and stay loaded; other groups can be loaded and unloaded at run
 * time (the SDK then sends tools/list_changed). The `full` profile shows
 * everything and allows no partial unloading.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { badRequest, notFound } from '../core/errors.js';
import { profileGroups, type Profile } from './groups.js';
import {
  registerToolDef,
  type CatalogApi,
  type GroupSummary,
  type ToolContext,
  type ToolGroup,
  type ToolMatch,
} from './tool-kit.js';

export const ALL_GROUPS = 'all';

export class ConnectionCatalog implements CatalogApi {
  private readonly baseline: ReadonlySet<string>;
  private readonly loaded = new Map<string, RegisteredTool[]>();

  constructor(
    private readonly server: McpServer,
    private readonly ctx: ToolContext,
    readonly profile: Profile,
    /** every group this server has: the generic ones and the connectors' */
    private readonly all: readonly ToolGroup[],
  ) {
    this.baseline = new Set(profileGroups(profile, all));
    for (const name of this.baseline) this.register(name);
  }

  groups(): GroupSummary[] {
    return this.all.map((g) => ({
      name: g.name,
      description: g.description,
      tools: g.tools.map((t) => t.name),
      loaded: this.loaded.has(g.name),
      baseline: this.baseline.has(g.name),
    }));
  }

  load(name: string): string[] {
    const names = name === ALL_GROUPS ? this.all.map((g) => g.name) : [this.group(name)];
    const added = names.filter((n) => !this.loaded.has(n));
    for (const n of added) this.register(n);
    return added;
  }

  unload(name: string): string[] {
    if (this.profile === 'full') {
      throw badRequest(
        'The full profile shows every group and allows no partial unloading; start with another profile to unload groups.',
        { profile: this.profile },
      );
    }
    const names =
      name === ALL_GROUPS ? [...this.loaded.keys()].filter((n) => !this.baseline.has(n)) : [this.group(name)];
    for (const n of names) {
      if (this.baseline.has(n)) {
        throw badRequest(`Group ${n} belongs to the ${this.profile} profile's baseline and stays loaded.`, {
          group: n,
          profile: this.profile,
        });
      }
    }
    const removed = names.filter((n) => this.loaded.has(n));
    for (const n of removed) {
      for (const tool of this.loaded.get(n)!) tool.remove();
      this.loaded.delete(n);
    }
    return removed;
  }

  search(query: string, limit: number): ToolMatch[] {
    const words = query
      .toLowerCase()
      .split(/[\s_]+/)
      .filter(Boolean);
    if (!words.length) throw badRequest('Give some words to search for.');
    const matches: ToolMatch[] = [];
    for (const g of this.all) {
      for (const t of g.tools) {
        const name = t.name.toLowerCase();
        const rest = `${t.title} ${t.description} ${g.name} ${g.description}`.toLowerCase();
        let score = 0;
        for (const w of words) score += name.includes(w) ? 3 : rest.includes(w) ? 1 : 0;
        if (score)
          matches.push({
            name: t.name,
            title: t.title,
            group: g.name,
            loaded: this.loaded.has(g.name),
            description: t.description,
            score,
          });
      }
    }
    return matches.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
  }

  private group(name: string): string {
    if (!this.all.some((g) => g.name === name)) {
      throw notFound(
        `No tool group "${name}"; groups: ${this.all.map((g) => g.name).join(', ')} (or "${ALL_GROUPS}").`,
      );
    }
    return name;
  }

  private register(name: string): void {
    const group = this.all.find((g) => g.name === name);
    if (!group || this.loaded.has(name)) return;
    this.loaded.set(
      name,
      group.tools.map((t) => registerToolDef(this.server, t, this.ctx)),
    );
  }
}
