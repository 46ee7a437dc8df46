/**
 * Annotations say what a tool does, the same way on every machine: each tool
 * (the full profile, as the SDK client lists it) belongs to one class of
 * action, and every tool of a class carries that class's hints; the client
 * reads the same hints. A new tool
 * must be placed in a class here, so a C64 write and a DOS write cannot drift.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../../src/connectors/registry.js';
import { catalogTools } from '../../src/mcp/tools/catalog.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

type Hints = { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean): Hints => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
});

/** Each class of action: its hints and its tools on every machine. */
const CLASSES: Record<string, { hints: Hints; tools: string[] }> = {
  'reads the machine': {
    hints: hints(true, false, true),
    tools: [
      'session_status',
      'wait_for_stop',
      'list_breakpoints',
      'backtrace',
      'list_variables',
      'evaluate',
      'read_memory',
      'read_registers',
      'read_program_memory',
      'read_vram',
      'read_share',
      'list_shares',
      'disassemble',
      'list_watchpoints',
      'list_ports',
      'read_port',
      'list_held_inputs',
      'read_screen_pixels',
      'dosbox_capabilities',
      'dosbox_find_guest',
      'dosbox_validate_profile',
      'dosbox_read',
      'dosbox_search_memory',
      'search_memory',
      'dosbox_watch',
      'dosbox_read_screen',
      'vice_status',
      'vice_registers',
      'vice_banks',
      'vice_read_memory',
      'vice_checkpoint_list',
      'vice_wait_for_stop',
      'list_c64_labels',
      'get_c64_symbol_profile',
      'decode_c64_text',
      'search_c64_text',
      'decode_c64_hires_bitmap',
      'decode_c64_multicolor_bitmap',
      'decode_c64_charset',
      'decode_c64_char_screen',
      'decode_c64_sprites',
      'list_tool_groups',
      'history',
      'cpu_history',
    ],
  },
  // a capture may also write a new file (no overwrite unless asked); a later capture shows a later screen
  'captures the screen or memory': {
    hints: hints(true, false, false),
    tools: [
      'screenshot',
      'watch_screen',
      'dosbox_read_framebuffer',
      'dosbox_capture_screen',
      'dosbox_watch_frames',
      'dosbox_dump_segment',
      'dump_memory',
      'save_state',
      'vice_capture_screen',
    ],
  },
  'writes memory or registers': {
    hints: hints(false, true, true),
    tools: ['write_memory', 'dosbox_write', 'vice_write_memory', 'vice_set_registers'],
  },
  'runs, stops or steps the CPU': {
    hints: hints(false, false, false),
    tools: ['resume', 'pause', 'step', 'run_to', 'step_instruction', 'vice_execute', 'go_to', 'last_write'],
  },
  'sets or clears a breakpoint, watchpoint or checkpoint': {
    hints: hints(false, false, false),
    tools: [
      'set_breakpoint',
      'clear_breakpoint',
      'set_watchpoint',
      'clear_watchpoint',
      'vice_checkpoint_set',
      'vice_checkpoint_delete',
    ],
  },
  'types keys or moves the mouse': {
    hints: hints(false, false, false),
    tools: [
      'type_keys',
      'press_key',
      'type_string',
      'type_text',
      'press_input',
      'move_mouse',
      'click_mouse',
      'dosbox_type_keys',
      'dosbox_click',
      'vice_type_keys',
    ],
  },
  'holds an input down (the same value again changes nothing)': {
    hints: hints(false, false, true),
    tools: ['set_input', 'vice_joystick'],
  },
  'patches guest code or runs a raw debugger command': {
    hints: hints(false, true, false),
    tools: ['dosbox_trace', 'debugger_command'],
  },
  'resets or stops a machine': {
    hints: hints(false, true, false),
    tools: ['vice_reset', 'stop_session', 'reset', 'load_state'],
  },
  'starts or attaches a session (outside this process)': {
    hints: hints(false, false, false),
    tools: ['start_session', 'dosbox_launch', 'dosbox_attach'],
  },
  'binds, labels or loads (the same call again changes nothing)': {
    hints: hints(false, false, true),
    tools: [
      'vice_connect',
      'vice_disconnect',
      'apply_c64_symbol_profile',
      'define_c64_text',
      'load_tool_group',
      'release_raw_lease',
    ],
  },
  'builds and runs tests or a profile on a private headless machine (no session)': {
    hints: hints(false, false, false),
    tools: ['run_tests', 'profile_run'],
  },
  'changes session state: the lease, a profile, a recorder': {
    hints: hints(false, false, false),
    tools: ['claim_control', 'claim_raw_lease', 'dosbox_load_profile', 'dosbox_record'],
  },
};

let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;
let tools: Tool[];

before(async () => {
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full' });
  agent = await connectHttpClient(server, 'annotations');
  tools = (await agent.listTools()).tools;
});
after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
});

const defs = [...catalogTools, ...TOOL_GROUPS.flatMap((g) => g.tools)];

test('every tool is in one class and its definition carries the class hints', () => {
  const classOf = new Map<string, string>();
  for (const [name, c] of Object.entries(CLASSES))
    for (const tool of c.tools) {
      assert.ok(!classOf.has(tool), `${tool} is in two classes`);
      classOf.set(tool, name);
    }
  const listed = tools.map((t) => t.name);
  assert.deepEqual(listed.sort(), defs.map((d) => d.name).sort(), 'the full profile lists every tool');
  assert.deepEqual(
    listed.filter((n) => !classOf.has(n)),
    [],
    'tools without a class',
  );
  assert.deepEqual(
    [...classOf.keys()].filter((n) => !listed.includes(n)),
    [],
    'classified but not listed',
  );
  const wrong = defs.flatMap((d) => {
    const want = CLASSES[classOf.get(d.name)!].hints;
    const got = hints(d.annotations.readOnly, d.annotations.destructive, d.annotations.idempotent);
    return JSON.stringify(got) === JSON.stringify(want) ? [] : [`${d.name} (${classOf.get(d.name)})`];
  });
  assert.deepEqual(wrong, []);
});

test('the client reads the same hints (absent ones at their MCP defaults); only tools reaching outside are open-world', () => {
  for (const t of tools) {
    const a = t.annotations ?? {};
    const def = defs.find((d) => d.name === t.name)!.annotations;
    const readOnly = a.readOnlyHint ?? false;
    assert.equal(readOnly, def.readOnly, `${t.name} readOnly`);
    // destructive and idempotent mean something only for a tool that changes things
    if (!readOnly) {
      assert.equal(a.destructiveHint ?? true, def.destructive, `${t.name} destructive`);
      assert.equal(a.idempotentHint ?? false, def.idempotent, `${t.name} idempotent`);
    }
    assert.equal(a.openWorldHint ?? true, def.openWorld, `${t.name} openWorld`);
  }
  const open = tools.filter((t) => t.annotations?.openWorldHint ?? true).map((t) => t.name);
  assert.deepEqual(open.sort(), ['dosbox_attach', 'dosbox_launch', 'start_session', 'vice_connect']);
});
