-- Request handlers. Each takes (args, binary) and returns (result, binary?) or
-- raises {code, message}. Run-control handlers reply once MAME accepted the
-- command; the resulting stop arrives later as a 'stopped' event.
local ctx = require('mamebridge.context')
local rc = require('mamebridge.runcontrol')
local memory = require('mamebridge.memory')
local json = require('mamebridge.json')
local idle = require('mamebridge.idle')
local rawops = require('mamebridge.rawops')
local input = require('mamebridge.input')
local frames = require('mamebridge.frames')

local ops = {}
local VERSION = '0.1.0'
local MAX_RANGE_STEPS = 10000000

local function need_held(what)
  if not ctx.held() then ctx.fail('not_stopped', what .. ' needs the CPU to be stopped') end
end

local function symtab()
  if not ctx.symtab then ctx.symtab = emu.symbol_table(ctx.cpu) end
  return ctx.symtab
end

local function screen()
  local scr = ctx.machine.screens[':screen']
  if not scr then for _, s in pairs(ctx.machine.screens) do scr = s break end end
  if not scr then ctx.fail('unsupported', 'this machine has no screen') end
  return scr
end

local function state_name()
  if ctx.held() then return 'stopped' end
  return 'running'
end

function ops.hello(args)
  if args.token ~= ctx.config.token then ctx.fail('unauthorized', 'wrong token') end
  ctx.authed = true
  return { version = VERSION, system = emu.romname(), driver = emu.gamename(), cpu = ctx.cpu.tag,
           cpu_type = ctx.cpu.shortname, clock = ctx.cpu.clock, state = state_name(), lua = _VERSION,
           program_mask = ctx.cpu.spaces['program'] and ctx.cpu.spaces['program'].address_mask or nil }
end

function ops.echo() return {} end

function ops.status()
  local scr = ctx.machine.screens[':screen']
  return { state = state_name(), pc = ctx.pc(), frame = scr and scr:frame_number() or nil,
           time = ctx.machine.time:as_double(), last_stop = ctx.last_stop,
           idle = idle.mode() }
end

function ops.read_registers()
  return { registers = ctx.registers() }
end

function ops.write_register(args)
  local entry = ctx.cpu.state[tostring(args.name)]
  if not entry then ctx.fail('bad_request', 'no register named "' .. tostring(args.name) .. '"') end
  entry.value = ctx.integer(args.value, 'value')
  return { value = entry.value }
end

function ops.read_memory(args)
  local data = memory.read(ctx.machine, ctx.cpu, symtab(), ctx.held(), args)
  return { length = #data }, data
end

function ops.write_memory(args, binary)
  memory.write(ctx.machine, ctx.cpu, symtab(), args, binary)
  return { length = binary and #binary or 0 }
end

function ops.set_breakpoint(args)
  local address = ctx.integer(args.address, 'address')
  local cond = args.condition
  if cond == nil or cond == '' then cond = '1' end   -- an empty condition crashes MAME later
  local ok, index = pcall(function() return ctx.cpu.debug:bpset(address, tostring(cond), '') end)
  if not ok or not index then ctx.fail('bad_request', 'MAME refused the breakpoint: ' .. tostring(index)) end
  local id = ctx.next_bp_id
  ctx.next_bp_id = id + 1
  ctx.bps[id] = { address = address, condition = tostring(cond), index = index }
  return { id = id }
end

function ops.clear_breakpoint(args)
  local id = ctx.integer(args.id, 'id')
  local bp = ctx.bps[id]
  if not bp then ctx.fail('not_found', 'no breakpoint with id ' .. id) end
  ctx.cpu.debug:bpclear(bp.index)
  ctx.bps[id] = nil
  return {}
end

function ops.list_breakpoints()
  local list = json.array()
  for id, bp in pairs(ctx.bps) do
    list[#list + 1] = { id = id, address = bp.address, condition = bp.condition }
  end
  table.sort(list, function(a, b) return a.id < b.id end)
  return { breakpoints = list }
end

-- Time travel's recording, before the CPU runs from a stop: MAME's cycle count here and, when asked, a state saved
-- at args.record (its size in the reply). No round trip of its own.
local function record(args)
  args = args or {}
  local out = { cycles = rc.total_cycles() }
  if type(args.record) == 'string' and args.record ~= '' then
    rawops.console_lines('statesave "' .. args.record .. '"')
    local f = io.open(args.record, 'rb')
    if f then out.saved = f:seek('end') f:close() end
  end
  return out
end

function ops.resume(args)
  if not ctx.held() then return {} end
  local out = record(args)
  ctx.go()
  return out
end

function ops.pause()
  if ctx.range then ctx.range.pause = true return {} end
  if ctx.held() then return { already = true } end
  ctx.pending = 'pause'
  ctx.dbg.execution_state = 'stop'
  return {}
end

function ops.step(args)
  need_held('step')
  local count = math.tointeger(args.count) or 1
  if count < 1 then ctx.fail('bad_request', 'count must be at least 1') end
  local out = record(args)
  ctx.pending = 'step'
  ctx.cpu.debug:step(count)
  return out
end

function ops.step_over(args)
  need_held('step_over')
  local count = math.tointeger(args.count) or 1
  local out = record(args)
  ctx.pending = 'step_over'
  ctx.dbg.visible_cpu = ctx.cpu
  ctx.dbg:command(count > 1 and ('over ' .. count) or 'over')
  return out
end

function ops.step_out(args)
  need_held('step_out')
  local out = record(args)
  ctx.pending = 'step_out'
  ctx.dbg.visible_cpu = ctx.cpu
  ctx.dbg:command('out')
  return out
end

function ops.step_range(args)
  need_held('step_range')
  local mode = args.mode or 'into'
  if mode ~= 'into' and mode ~= 'over' then ctx.fail('bad_request', 'mode must be "into" or "over"') end
  local max = math.tointeger(args.max) or 1000000
  if max < 1 or max > MAX_RANGE_STEPS then ctx.fail('bad_request', 'max must be 1..' .. MAX_RANGE_STEPS) end
  if type(args.ranges) ~= 'table' then ctx.fail('bad_request', 'ranges must be a list of [first, last]') end
  local out = record(args)
  rc.start_range(args.ranges, mode, max)
  return out
end

function ops.screen_info()
  local scr = screen()
  return { width = scr.width, height = scr.height, refresh = scr.refresh, frame = scr:frame_number() }
end

-- Pixels as raw 0xAARRGGBB little-endian words (B, G, R, A bytes) after the reply line; `kept`: the ones
-- screen_keep took.
local kept = nil
function ops.screen_pixels(args)
  if args.kept then
    if not kept then ctx.fail('not_found', 'no screen picture was kept') end
    return kept.info, kept.data
  end
  local scr = screen()
  local data, w, h = scr:pixels()
  return { width = w, height = h, frame = scr:frame_number(), format = 'bgra' }, data
end

-- Keeps the screen as it stands here (time travel leaving the present): a copy in MAME, not over the socket.
function ops.screen_keep()
  local info, data = ops.screen_pixels({})
  kept = { info = info, data = data }
  return { width = info.width, height = info.height }
end

-- Live frames pushed while running (frames.lua): binary 'frame' events, changed ones only.
ops.frames_start = frames.start
ops.frames_stop = frames.stop
ops.frames_ack = frames.ack

ops.list_shares = rawops.list_shares
ops.list_ports = rawops.list_ports
ops.read_port = rawops.read_port
ops.console = rawops.console
ops.eval = rawops.eval
ops.disassemble = rawops.disassemble
ops.set_watchpoint = rawops.set_watchpoint
ops.clear_watchpoint = rawops.clear_watchpoint
ops.list_watchpoints = rawops.list_watchpoints

local function need_running(what)
  if ctx.held() then ctx.fail('not_running', what .. ' needs the machine running') end
end
function ops.input_enqueue(args) need_running('input') return input.enqueue(args) end
function ops.input_set(args)
  if (math.tointeger(args.value) or 0) ~= 0 then need_running('input') end
  return input.set(args)
end
function ops.input_natural(args) need_running('typing') return input.natural(args) end
function ops.input_keymap(args) return input.keymap(args) end
function ops.input_release_all() return { cut = input.release_all() } end

-- The image slots and what each holds: MAME goes on without an image it could not mount, so the launcher checks.
function ops.list_media()
  local list = json.array()
  for tag, img in pairs(ctx.machine.images) do
    list[#list + 1] = { tag = tag, slot = img.brief_instance_name, name = img.instance_name,
                        file = img.filename, mounted = img.exists }
  end
  return { images = list }
end

function ops.exit()
  ctx.exit_requested = true
  return {}
end

return ops
