-- Memory access for the bridge. Debugger reads (symbol-table memory_value with
-- side effects disabled) never fire watchpoints or I/O handlers; while the CPU
-- is held, read_range is equally free of watchpoint effects and far faster, so
-- non-I/O spaces use it then.
local memory = {}

local LETTERS = { program = 'pp', data = 'pd', io = 'pi', opcodes = 'p3' }
-- Logical (CPU-translated) letters, for the CPU view of wider spaces (e.g. the Z84C15's 18-bit program space).
local LOGICAL = { program = 'p', data = 'd', io = 'i', opcodes = '3' }

-- The CPU's logical view differs from the raw space only when the space is wider than 16 bits.
local function logical_view(sp, args)
  return args.logical == true and sp.address_mask > 0xFFFF
end
local CHUNK = 4096

local function fail(code, message) error({ code = code, message = message }, 0) end
memory.fail = fail

local function check_range(addr, len, size, what)
  if math.type(addr) ~= 'integer' or math.type(len) ~= 'integer' or addr < 0 or len < 0 then
    fail('bad_request', 'address and length must be non-negative integers')
  end
  if addr + len > size then
    fail('bad_address', string.format('%s ends at 0x%X; 0x%X+%d is beyond it', what, size - 1, addr, len))
  end
end

local function bytes_from(values)
  local parts = {}
  for i = 1, #values, CHUNK do
    parts[#parts + 1] = string.char(table.unpack(values, i, math.min(i + CHUNK - 1, #values)))
  end
  return table.concat(parts)
end

local function cpu_space(cpu, name)
  if not LETTERS[name] then fail('bad_address', 'unknown address space "' .. tostring(name) .. '"') end
  local sp = cpu.spaces[name]
  if not sp then fail('bad_address', 'the CPU has no ' .. name .. ' space') end
  if sp.data_width ~= 8 then fail('unsupported', name .. ' space is ' .. sp.data_width .. ' bits wide; only 8-bit spaces are supported') end
  return sp
end

-- A share or region as a block: its size and byte reads/writes.
local function memory_block(b)
  return {
    size = b.size,
    read = function(addr, len)
      local values = {}
      for i = 0, len - 1 do values[i + 1] = b:read_u8(addr + i) end
      return bytes_from(values)
    end,
    write = function(addr, data) for i = 1, #data do b:write_u8(addr + i - 1, data:byte(i)) end end,
  }
end

-- A device's save-state item as a block, named '<device tag>/<item name>': state no share holds, e.g.
-- ':ram/0/m_pointer' (a RAM device's storage: the 128K's eight pages) or ':/0/m_port_7ffd_data' (a driver's latch
-- of a write-only port). Read side-effect free; written only when its elements are bytes.
local function save_item(machine, tag)
  local slash = tag:find('/', 1, true)
  if not slash then return nil end
  local dev = machine.devices[tag:sub(1, slash - 1)]
  local index = dev and dev.items[tag:sub(slash + 1)]
  if not index then return nil end
  local it = emu.item(index)
  return {
    size = it.size * it.count,
    read = function(addr, len) return it:read_block(addr, len) end,
    write = function(addr, data)
      if it.size ~= 1 then fail('unsupported', tag .. ' holds ' .. it.size .. '-byte values; only byte items are written') end
      for i = 1, #data do it:write(addr + i - 1, data:byte(i)) end
    end,
  }
end

-- Shares (e.g. :video_ram), regions (e.g. :maincpu ROM) and save-state items by tag; 'vram' picks the video share.
local function block(machine, tag)
  if tag == nil or tag == '' or tag == 'vram' then
    for t, share in pairs(machine.memory.shares) do
      if t:find('vram') or t:find('video') then return memory_block(share), t end
    end
    fail('bad_address', 'this machine has no video RAM share')
  end
  local b = machine.memory.shares[tag] or machine.memory.regions[tag]
  if b then return memory_block(b), tag end
  local item = save_item(machine, tag)
  if not item then fail('bad_address', 'no memory share, region or save-state item tagged "' .. tostring(tag) .. '"') end
  return item, tag
end

function memory.read(machine, cpu, symtab, held, args)
  local space, addr, len = args.space or 'program', args.address, args.length
  if space == 'share' or space == 'vram' then
    local b, tag = block(machine, args.tag)
    check_range(addr, len, b.size, tag)
    if len == 0 then return '' end
    return b.read(addr, len)
  end
  local sp = cpu_space(cpu, space)
  local logical = logical_view(sp, args)
  check_range(addr, len, logical and 0x10000 or sp.address_mask + 1, space .. ' space')
  if len == 0 then return '' end
  if held and space ~= 'io' and not logical then return sp:read_range(addr, addr + len - 1, 8) end
  local letters, values = logical and LOGICAL[space] or LETTERS[space], {}
  for i = 0, len - 1 do values[i + 1] = symtab:memory_value(nil, letters, addr + i, 1, true) & 0xFF end
  return bytes_from(values)
end

function memory.write(machine, cpu, symtab, args, data)
  local space, addr = args.space or 'program', args.address
  data = data or ''
  if space == 'share' or space == 'vram' then
    local b, tag = block(machine, args.tag)
    check_range(addr, #data, b.size, tag)
    b.write(addr, data)
    return
  end
  local sp = cpu_space(cpu, space)
  local logical = logical_view(sp, args)
  check_range(addr, #data, logical and 0x10000 or sp.address_mask + 1, space .. ' space')
  local letters = logical and LOGICAL[space] or LETTERS[space]
  for i = 1, #data do symtab:set_memory_value(nil, letters, addr + i - 1, 1, data:byte(i), true) end
end

return memory
