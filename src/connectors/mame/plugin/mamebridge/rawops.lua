-- Raw MAME abilities beyond run control and memory: shares, ports, the
-- debugger console, disassembly and watchpoints. The Node side decides who may
-- call which (console commands are vetted there); this file only does them.
local ctx = require('mamebridge.context')
local json = require('mamebridge.json')

local raw = {}
local MAX_DASM = 256
local MAX_CONSOLE_LINES = 200
local WP_TYPES = { r = 'r', w = 'w', rw = 'rw' }

local function console(command)
  local log = ctx.dbg.consolelog
  local mark = #log
  ctx.dbg.visible_cpu = ctx.cpu
  ctx.dbg:command(command)
  local lines = json.array()
  local n = #ctx.dbg.consolelog
  for i = math.max(mark + 1, n - MAX_CONSOLE_LINES + 1), n do lines[#lines + 1] = ctx.dbg.consolelog[i] end
  ctx.skip_log(mark)
  return lines
end
raw.console_lines = console

function raw.list_shares()
  local list = json.array()
  for tag, s in pairs(ctx.machine.memory.shares) do
    list[#list + 1] = { tag = tag, kind = 'share', size = s.size, bitwidth = s.bitwidth, endianness = s.endianness }
  end
  for tag, r in pairs(ctx.machine.memory.regions) do
    list[#list + 1] = { tag = tag, kind = 'region', size = r.size, bitwidth = r.bitwidth, endianness = r.endianness }
  end
  table.sort(list, function(a, b) return a.tag < b.tag end)
  local spaces = json.array()
  for name, sp in pairs(ctx.cpu.spaces) do
    spaces[#spaces + 1] = { name = name, address_mask = sp.address_mask, data_width = sp.data_width }
  end
  table.sort(spaces, function(a, b) return a.name < b.name end)
  return { shares = list, spaces = spaces }
end

function raw.list_ports()
  local ports = json.array()
  for ptag, port in pairs(ctx.machine.ioport.ports) do
    local fields = json.array()
    for name, f in pairs(port.fields) do
      fields[#fields + 1] = { name = name, mask = f.mask, type = ctx.machine.ioport:input_type_to_token(f.type),
        type_class = f.type_class, player = f.player, is_analog = f.is_analog, defvalue = f.defvalue,
        minvalue = f.is_analog and f.minvalue or nil, maxvalue = f.is_analog and f.maxvalue or nil }
    end
    table.sort(fields, function(a, b) return a.name < b.name end)
    ports[#ports + 1] = { tag = ptag, fields = fields }
  end
  table.sort(ports, function(a, b) return a.tag < b.tag end)
  return { ports = ports }
end

-- The value a port reads now (all fields combined, as the machine sees it).
function raw.read_port(args)
  local port = ctx.machine.ioport.ports[tostring(args.tag)]
  if not port then ctx.fail('not_found', 'no input port tagged "' .. tostring(args.tag) .. '"') end
  return { value = port:read() }
end

-- Console command, output lines. Only reached for commands Node vetted.
function raw.console(args)
  if type(args.command) ~= 'string' or args.command == '' then ctx.fail('bad_request', 'command must be a non-empty string') end
  return { lines = console(args.command) }
end

-- Value of a debugger expression (hex as the console prints it), side effects off.
function raw.eval(args)
  local lines = console('print ' .. tostring(args.expression))
  local last = lines[#lines]
  local v = last and tonumber(last:match('^%s*(%x+)%s*$') or '', 16)
  if v == nil then ctx.fail('bad_request', 'MAME could not evaluate "' .. tostring(args.expression) .. '": ' .. tostring(last)) end
  return { value = v }
end

-- `dasm` to a private temp file (no Lua disassembler in 0.251), one entry a line.
function raw.disassemble(args)
  local address = ctx.integer(args.address, 'address')
  local count = ctx.integer(args.count or 16, 'count')
  if count < 1 or count > MAX_DASM then ctx.fail('bad_request', 'count must be 1..' .. MAX_DASM) end
  local tmp = os.tmpname()
  local lines = console(string.format('dasm "%s",%x,%x,0,%s', tmp, address, count * 4, ctx.cpu.tag))
  local out = json.array()
  local f = io.open(tmp, 'r')
  if f then
    for line in f:lines() do
      local a, text = line:match('^%s*(%x+):%s*(.-)%s*$')
      if a and #out < count then out[#out + 1] = { address = tonumber(a, 16), text = text } end
    end
    f:close()
  end
  os.remove(tmp)
  if #out == 0 then ctx.fail('bad_address', 'MAME disassembled nothing at that address: ' .. table.concat(lines, ' ')) end
  return { instructions = out }
end

-- Watchpoints under our own stable ids (MAME's indexes change on hard reset).
local function arm_wp(wp)
  local sp = ctx.cpu.spaces[wp.space]
  if not sp then ctx.fail('bad_address', 'the CPU has no ' .. wp.space .. ' space') end
  local ok, index = pcall(function() return ctx.cpu.debug:wpset(sp, wp.type, wp.address, wp.length, wp.condition, '') end)
  if not ok or not index then ctx.fail('bad_request', 'MAME refused the watchpoint: ' .. tostring(index)) end
  wp.index = index
end

function raw.set_watchpoint(args)
  local space = args.space or 'program'
  if space == 'opcodes' then ctx.fail('unsupported', 'watchpoints on the opcodes space crash MAME 0.251') end
  local wp = { space = space, type = WP_TYPES[args.type or 'w'], address = ctx.integer(args.address, 'address'),
               length = ctx.integer(args.length or 1, 'length'), condition = tostring(args.condition or '1') }
  if not wp.type then ctx.fail('bad_request', 'type must be r, w or rw') end
  if wp.condition == '' then wp.condition = '1' end   -- an empty condition crashes MAME later
  if wp.length < 1 or wp.length > 0x10000 then ctx.fail('bad_request', 'length must be 1..65536') end
  arm_wp(wp)
  local id = ctx.next_wp_id
  ctx.next_wp_id = id + 1
  ctx.wps[id] = wp
  return { id = id }
end

function raw.clear_watchpoint(args)
  local id = ctx.integer(args.id, 'id')
  local wp = ctx.wps[id]
  if not wp then ctx.fail('not_found', 'no watchpoint with id ' .. id) end
  ctx.cpu.debug:wpclear(wp.index)
  ctx.wps[id] = nil
  return {}
end

-- Hard reset dropped them: arm again under the same ids.
function raw.rearm_watchpoints()
  for _, wp in pairs(ctx.wps) do pcall(arm_wp, wp) end
end

function raw.watchpoint_id(index)
  for id, wp in pairs(ctx.wps) do if wp.index == index then return id end end
  return nil
end

-- MAME's count of installed watchpoints, from the console (wplist(space) can crash).
function raw.list_watchpoints()
  local list = json.array()
  for id, wp in pairs(ctx.wps) do
    list[#list + 1] = { id = id, space = wp.space, type = wp.type, address = wp.address, length = wp.length, condition = wp.condition }
  end
  table.sort(list, function(a, b) return a.id < b.id end)
  return { watchpoints = list, console = console('wplist') }
end

return raw
