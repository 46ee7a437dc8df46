-- Why the CPU stopped, and stepping that continues on the MAME side (step_range)
-- without a round trip per instruction. MAME 0.251 has no breakpoint-hit
-- callback: the reason comes from consolelog lines and from what we last asked for.
local ctx = require('mamebridge.context')
local json = require('mamebridge.json')

local rc = {}

local function breakpoint_id(index)
  for id, bp in pairs(ctx.bps) do if bp.index == index then return id end end
  return nil
end

-- Returns reason, our breakpoint id, our watchpoint id, the watchpoint's console line.
local function classify(lines)
  for _, line in ipairs(lines) do
    -- MAME prints the index in hex ("Stopped at breakpoint A")
    local n = line:match('Stopped at breakpoint (%x+)')
    if n then return 'breakpoint', breakpoint_id(tonumber(n, 16)), nil end
    n = line:match('Stopped at watchpoint (%x+)')
    if n then return 'watchpoint', nil, require('mamebridge.rawops').watchpoint_id(tonumber(n, 16)), line end
    if line:find('Stopped at temporary breakpoint', 1, true) then return 'goto' end
  end
  return nil
end

-- A step lands on a breakpoint address without MAME reporting it (stepping
-- wins in the instruction hook), so step_range checks breakpoints itself.
local function condition_true(cond)
  if cond == nil or cond == '1' then return true end
  local mark = #ctx.dbg.consolelog
  ctx.dbg:command('print ' .. cond)
  local line = ctx.dbg.consolelog[#ctx.dbg.consolelog]
  ctx.log_mark = math.max(ctx.log_mark, #ctx.dbg.consolelog)
  if #ctx.dbg.consolelog == mark or not line then return false end
  local v = tonumber(line:match('^%s*(%x+)%s*$') or '', 16)
  return v ~= nil and v ~= 0
end

-- The CPU's totalcycles at the stop (time travel's clock), read like a condition: no round trip.
function rc.total_cycles()
  ctx.dbg.visible_cpu = ctx.cpu
  local mark = #ctx.dbg.consolelog
  ctx.dbg:command('printf "%X",totalcycles')
  local line = ctx.dbg.consolelog[#ctx.dbg.consolelog]
  ctx.log_mark = math.max(ctx.log_mark, #ctx.dbg.consolelog)
  if #ctx.dbg.consolelog == mark or not line then return nil end
  return tonumber(line:match('^%s*(%x+)%s*$') or '', 16)
end

local function breakpoint_at(pc)
  for id, bp in pairs(ctx.bps) do
    if bp.address == pc and condition_true(bp.condition) then return id end
  end
  return nil
end

local function in_ranges(pc, ranges)
  for _, r in ipairs(ranges) do
    if pc >= r[1] and pc <= r[2] then return true end
  end
  return false
end

function rc.step_once(mode)
  if mode == 'over' then
    ctx.dbg.visible_cpu = ctx.cpu
    ctx.dbg:command('over')
  else
    ctx.cpu.debug:step(1)
  end
end

-- Called once per stop. Returns true when the stop is final (reported, hold the
-- CPU), false when the bridge let the CPU go on (start without hold, range step).
function rc.handle_stop()
  local lines = ctx.take_log()
  local reason, bp, wp, wpline = classify(lines)
  local pc = ctx.pc()
  local extra = {}
  if ctx.first_stop then
    ctx.first_stop = false
    if not ctx.config.hold_on_start then
      ctx.go()
      return false
    end
    reason = reason or 'entry'
  elseif ctx.range then
    local r = ctx.range
    if not reason then
      if r.pause then reason = 'pause'
      else
        bp = breakpoint_at(pc)
        if bp then reason = 'breakpoint'
        elseif in_ranges(pc, r.ranges) then
          if r.left > 0 then
            r.left = r.left - 1
            rc.step_once(r.mode)
            return false
          end
          reason, extra.limit = 'step', true
        else reason = 'step' end
      end
    end
    extra.steps = r.max - r.left
    ctx.range = nil
  elseif not reason then
    reason = ctx.pending or 'unknown'
  end
  ctx.pending = nil
  ctx.last_stop = { reason = reason, pc = pc, breakpoint = bp, watchpoint = wp }
  -- MAME names the accessing instruction: "... writing D9 to 8001 (PC=0139)"
  if wpline then
    local access, value, at, wpc = wpline:match('(%a+) (%x+) %a+ (%x+) %(PC=(%x+)%)')
    if wpc then extra.access = { kind = access, value = tonumber(value, 16), address = tonumber(at, 16), pc = tonumber(wpc, 16) } end
  end
  local ev = { reason = reason, pc = pc, breakpoint = bp, watchpoint = wp, log = lines, access = extra.access,
               limit = extra.limit, steps = extra.steps, registers = ctx.registers(),
               pages = ctx.window_pages(), cycles = rc.total_cycles() }
  ctx.event('stopped', ev)
  return true
end

function rc.start_range(ranges, mode, max)
  local list = json.array()
  for _, r in ipairs(ranges) do
    local first, last = math.tointeger(r[1]), math.tointeger(r[2])
    if first == nil or last == nil or first > last then ctx.fail('bad_request', 'each range must be [first, last] integers with first <= last') end
    list[#list + 1] = { first, last }
  end
  if #list == 0 then ctx.fail('bad_request', 'step_range needs at least one range') end
  ctx.range = { ranges = list, mode = mode, left = max - 1, max = max, pause = false }
  rc.step_once(mode)
end

return rc
