-- Shared bridge state. The machine, debugger and CPU references are nil between
-- register_stop and register_start: touching stale ones during a hard reset crashes MAME.
local transport = require('mamebridge.transport')
local json = require('mamebridge.json')

local ctx = {
  machine = nil, dbg = nil, cpu = nil, symtab = nil,
  authed = false,
  first_stop = true,      -- the next stop is the one MAME makes at start (-debug)
  reported = false,       -- the current stop has been reported
  log_mark = 0,           -- consolelog lines up to here have been read
  kept_log = {},          -- unread lines a console command's output was skipped past (a stop's own lines)
  pending = nil,          -- reason for the next stop we caused: 'step', 'step_over', 'step_out', 'pause'
  range = nil,            -- active step_range: { ranges, mode, left, pause }
  bps = {},               -- our stable id -> { address, condition, index (MAME's) }
  next_bp_id = 1,
  wps = {},               -- our stable id -> { space, type, address, length, condition, index (MAME's) }
  next_wp_id = 1,
  last_stop = nil,
  config = {
    address = os.getenv('MAMEBRIDGE_CONNECT'),
    token = os.getenv('MAMEBRIDGE_TOKEN') or '',
    hold_on_start = os.getenv('MAMEBRIDGE_HOLD_ON_START') == '1',
    heartbeat_s = tonumber(os.getenv('MAMEBRIDGE_HEARTBEAT') or '') or 2,
    spin_ms = tonumber(os.getenv('MAMEBRIDGE_SPIN_MS') or ''),
    max_log = 64,
  },
}

function ctx.now() return emu.osd_ticks() / emu.osd_ticks_per_second() end

function ctx.fail(code, message) error({ code = code, message = message }, 0) end

function ctx.event(name, fields)
  local msg = fields or {}
  msg.event = name
  return transport.send(msg)
end

-- Stopped in the debugger and not in the middle of a step_range.
function ctx.held()
  return ctx.dbg ~= nil and ctx.dbg.execution_state == 'stop' and ctx.range == nil
end

function ctx.pc() return ctx.cpu.state.CURPC.value end

-- Let the CPU run. 0.251 binds go(offs_t targetpc = ~0) bare, so a call without
-- an address passes 0 and every resume ran to a temporary breakpoint at PC 0.
local NO_STOP_PC = 0xffffffff
function ctx.go() ctx.cpu.debug:go(NO_STOP_PC) end

-- Every register of the CPU by its state name (read_registers, and with each stop).
function ctx.registers()
  local regs = {}
  for name, entry in pairs(ctx.cpu.state) do regs[name] = entry.value end
  return regs
end

-- The RAM page of each memory window where the machine maps windows through banks named ':bank_ram1..3' (the
-- Sprinter: W1..W3), read from the banks' entries: no port read, so nothing the hardware would notice. nil elsewhere.
function ctx.window_pages()
  local banks = ctx.machine.memory.banks
  if not banks[':bank_ram1'] then return nil end
  local pages = {}
  for w = 1, 3 do
    local bank = banks[':bank_ram' .. w]
    if bank then pages['W' .. w] = bank.entry end
  end
  return pages
end

-- New console lines since the last call (at most max_log of them).
function ctx.take_log()
  local lines = json.array()
  for _, line in ipairs(ctx.kept_log) do lines[#lines + 1] = line end
  ctx.kept_log = {}
  local log = ctx.dbg.consolelog
  local n = #log
  for i = math.max(ctx.log_mark + 1, n - ctx.config.max_log + 1), n do
    local line = log[i]
    if line then lines[#lines + 1] = line end
  end
  ctx.log_mark = n
  return lines
end

-- Marks a console command's output (after `before`) read. Lines before it nobody read yet are kept for take_log:
-- a command served in the same periodic call as a stop must not swallow "Stopped at breakpoint N".
function ctx.skip_log(before)
  local log = ctx.dbg.consolelog
  for i = math.max(ctx.log_mark + 1, before - ctx.config.max_log + 1), before do
    if log[i] and #ctx.kept_log < ctx.config.max_log then ctx.kept_log[#ctx.kept_log + 1] = log[i] end
  end
  ctx.log_mark = math.max(ctx.log_mark, #log)
end

function ctx.integer(v, what)
  local n = math.tointeger(v)
  if n == nil then ctx.fail('bad_request', what .. ' must be an integer') end
  return n
end

return ctx
