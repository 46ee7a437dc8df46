-- Input for the bridge: fields held by name, and frame-paced sequences (key
-- presses, typed strings, mouse moves) run from the periodic callback while
-- the machine runs. Everything held is released the moment the CPU stops.
local ctx = require('mamebridge.context')
local json = require('mamebridge.json')

local input = {}
local MAX_QUEUE = 32
local MAX_STEPS = 256

local held = {}         -- "port\0field" -> field object (set_input)
local queue = {}        -- sequences waiting: { id, steps = { {fields, frames, gap} } }
local active = nil      -- { seq, i, phase = 'press'|'gap', until_frame }
-- After a release at a stop, nothing new is pressed until the machine has run
-- this many frames: a keyboard that scans once a frame would otherwise see the
-- release and the next press in one scan (shift still down for the next letter).
local SETTLE_FRAMES = 2
local quiet_until = 0   -- frame number before which no sequence starts

local function field(port, name)
  local p = ctx.machine.ioport.ports[tostring(port)]
  if not p then ctx.fail('not_found', 'no input port tagged "' .. tostring(port) .. '"') end
  local f = p.fields[tostring(name)]
  if not f then ctx.fail('not_found', 'port ' .. tostring(port) .. ' has no field named "' .. tostring(name) .. '"') end
  return f
end

local function frame()
  for _, s in pairs(ctx.machine.screens) do return s:frame_number() end
  return math.floor(ctx.machine.time:as_double() * 50)
end

local function set_all(fields, on)
  for _, e in ipairs(fields) do
    if on then e.f:set_value(e.value) else e.f:clear_value() end
  end
end

-- Check every field before anything is pressed: a bad name refuses the whole request.
local function resolve_steps(steps)
  if type(steps) ~= 'table' or #steps == 0 then ctx.fail('bad_request', 'steps must be a non-empty list') end
  if #steps > MAX_STEPS then ctx.fail('too_large', 'at most ' .. MAX_STEPS .. ' steps') end
  local out = {}
  for i, s in ipairs(steps) do
    local fields = {}
    for _, fd in ipairs(s.fields or {}) do
      fields[#fields + 1] = { f = field(fd.port, fd.field), value = math.tointeger(fd.value) or 1 }
    end
    out[i] = { fields = fields, frames = math.max(1, math.tointeger(s.frames) or 1), gap = math.max(0, math.tointeger(s.gap) or 0) }
  end
  return out
end

function input.enqueue(args)
  if #queue >= MAX_QUEUE then ctx.fail('too_large', 'the input queue is full (' .. MAX_QUEUE .. ' sequences)') end
  local id = ctx.integer(args.id, 'id')
  queue[#queue + 1] = { id = id, steps = resolve_steps(args.steps) }
  return { queued = #queue + (active and 1 or 0) }
end

function input.set(args)
  local f = field(args.port, args.field)
  local key = tostring(args.port) .. '\0' .. tostring(args.field)
  local value = math.tointeger(args.value) or 0
  if value == 0 then f:clear_value() held[key] = nil
  else f:set_value(value) held[key] = f end
  return { held = value ~= 0 }
end

function input.natural(args)
  local nk = ctx.machine.natkeyboard
  if not nk.can_post then ctx.fail('unsupported', 'this machine has no keyboard MAME can type into') end
  if args.coded then nk:post_coded(tostring(args.text)) else nk:post(tostring(args.text)) end
  return { posting = nk.is_posting }
end

-- Which fields (and shift fields) type each character, from MAME's own keyboard codes.
function input.keymap(args)
  local text = tostring(args.text or '')
  local shifts, bychar = {}, {}
  for ptag, port in pairs(ctx.machine.ioport.ports) do
    for name, f in pairs(port.fields) do
      if f.type_class == 'keyboard' then
        for shift = 0, 3 do
          local ok, codes = pcall(function() return f:keyboard_codes(shift) end)
          if ok and codes then
            for _, c in ipairs(codes) do
              local code = type(c) == 'number' and c or utf8.codepoint(c)
              if code >= 0x100000 and code <= 0x100003 and shift == 0 then shifts[code - 0x100000 + 1] = { port = ptag, field = name }
              elseif bychar[code] == nil or bychar[code].shift > shift then bychar[code] = { port = ptag, field = name, shift = shift } end
            end
          end
        end
      end
    end
  end
  local keys, missing = json.array(), json.array()
  for _, code in utf8.codes(text) do
    local k = bychar[code == 10 and 13 or code]
    if not k then missing[#missing + 1] = utf8.char(code)
    else
      local fields = json.array()
      for bit = 0, 1 do
        if (k.shift >> bit) & 1 == 1 then
          local s = shifts[bit + 1]
          if not s then missing[#missing + 1] = utf8.char(code) break end
          fields[#fields + 1] = s
        end
      end
      fields[#fields + 1] = { port = k.port, field = k.field }
      keys[#keys + 1] = fields
    end
  end
  return { keys = keys, missing = missing }
end

-- Release everything; returns the ids of sequences cut short.
function input.release_all()
  for _, f in pairs(held) do f:clear_value() end
  held = {}
  local cut = json.array()
  if active then set_all(active.seq.steps[active.i].fields, false) cut[#cut + 1] = active.seq.id end
  for _, s in ipairs(queue) do cut[#cut + 1] = s.id end
  active, queue = nil, {}
  quiet_until = frame() + SETTLE_FRAMES
  return cut
end

-- The machine is going away (exit, hard reset): its field objects are stale, so only forget them.
function input.forget()
  held, queue, active, quiet_until = {}, {}, nil, 0
end

function input.busy() return active ~= nil or #queue > 0 or next(held) ~= nil end

-- One look per periodic call while running: start, hold, release, advance.
function input.tick()
  if not active then
    if #queue == 0 or frame() < quiet_until then return end
    local seq = table.remove(queue, 1)
    active = { seq = seq, i = 1, phase = 'press', until_frame = frame() + seq.steps[1].frames }
    set_all(seq.steps[1].fields, true)
    return
  end
  local now = frame()
  if now < active.until_frame then return end
  local step = active.seq.steps[active.i]
  if active.phase == 'press' then
    set_all(step.fields, false)
    active.phase, active.until_frame = 'gap', now + step.gap
    if step.gap > 0 then return end
  end
  active.i = active.i + 1
  local nextstep = active.seq.steps[active.i]
  if not nextstep then
    ctx.event('input_done', { id = active.seq.id })
    active = nil
    return
  end
  set_all(nextstep.fields, true)
  active.phase, active.until_frame = 'press', now + nextstep.frames
end

return input
