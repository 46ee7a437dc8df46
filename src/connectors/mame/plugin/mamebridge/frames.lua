-- Live frames while the machine runs. MAME calls on_frame after every frame it
-- finished; while a viewer is subscribed (frames_start), a frame that is due
-- (a token bucket at the rate asked for, by the wall clock: in warp most
-- emulated frames are skipped without a look at their pixels) and whose pixels
-- differ from the last frame sent goes out as a 'frame' event line. Its BGRA
-- bytes go into one of two slots of the file Node names (a file write never
-- waits for the reader; MAME's socket write blocks until Node has read a
-- 416 KB frame, which on a loaded machine cost MAME's thread ~6 ms a frame),
-- or, without that file, after the line on the socket. At most MAX_UNACKED
-- frames are in flight (Node acks each), so a slot is rewritten only after
-- Node read it. An unchanged screen sends nothing.
local ctx = require('mamebridge.context')
local transport = require('mamebridge.transport')

local frames = {}
local MAX_FPS = 60
local MAX_BURST = 1.5     -- frames a late frame clock may send back to back to keep the average rate
local MAX_UNACKED = 2     -- = the slots in the file
local SLOT_BYTES = 16 * 1024 * 1024   -- a slot's stride in the file (a 2048x2048 screen); bigger ones use the socket

local sub = nil           -- { fps, allowance, last }
local sent, acked = 0, 0  -- frame numbers across subscriptions: an ack after a restart still frees its slot
local last_pixels = nil   -- the pixels of the last frame sent
local slots = nil         -- { file, path }: the emu.file the pixels go to

local function screen()
  local scr = ctx.machine.screens[':screen']
  if not scr then for _, s in pairs(ctx.machine.screens) do scr = s break end end
  return scr
end

-- The slot file Node created (an existing file: opened for writing without truncation).
local function open_slots(path)
  if slots and slots.path == path then return end
  if slots then pcall(function() slots.file:close() end) end
  slots = nil
  local f = emu.file('', 2)
  if not f:open(path) then slots = { file = f, path = path } end
end

-- frames_start {fps, throttle?, file?}: (re)subscribe; the next changed-or-not frame is sent once, so a
-- viewer starts with a picture. throttle true runs MAME at real speed, false unthrottled (warp).
function frames.start(args)
  local fps = tonumber(args.fps)
  if not fps or fps ~= fps or fps <= 0 then ctx.fail('bad_request', 'fps must be a positive number') end
  if args.file ~= nil and type(args.file) ~= 'string' then ctx.fail('bad_request', 'file must be a path') end
  if not screen() then ctx.fail('unsupported', 'this machine has no screen') end
  if args.throttle ~= nil then ctx.machine.video.throttled = args.throttle == true end
  if args.file then open_slots(args.file) end
  sub = { fps = math.min(fps, MAX_FPS), allowance = 1, last = ctx.now() }
  last_pixels = nil
  return { fps = sub.fps, throttled = ctx.machine.video.throttled, slots = slots ~= nil }
end

-- frames_stop {throttle?}: no more frames; the speed the session runs at without a viewer.
function frames.stop(args)
  sub = nil
  last_pixels = nil
  if args.throttle ~= nil and ctx.machine then ctx.machine.video.throttled = args.throttle == true end
  return { throttled = ctx.machine and ctx.machine.video.throttled or false }
end

-- frames_ack {seq}: Node has taken every frame up to seq.
function frames.ack(args)
  local seq = math.tointeger(args.seq)
  if not seq then ctx.fail('bad_request', 'seq must be an integer') end
  if seq > acked then acked = math.min(seq, sent) end
  return {}
end

-- The pixels into slot seq % MAX_UNACKED; false when they must go over the socket.
local function to_slot(seq, data)
  if not slots or #data > SLOT_BYTES then return false end
  local offset = (seq % MAX_UNACKED) * SLOT_BYTES
  local ok, wrote = pcall(function()
    return slots.file:seek('set', offset) == offset and slots.file:write(data) == #data
  end)
  if ok and wrote then return offset end
  slots = nil   -- a file that fails once is not trusted again: the socket it is
  return false
end

function frames.on_frame()
  if not sub or not ctx.machine or not transport.connected() then return end
  local now = ctx.now()
  sub.allowance = math.min(MAX_BURST, sub.allowance + (now - sub.last) * sub.fps)
  sub.last = now
  if sub.allowance < 1 or sent - acked >= MAX_UNACKED then return end
  sub.allowance = sub.allowance - 1
  local scr = screen()
  if not scr then return end
  local data, w, h = scr:pixels()
  if data == last_pixels then return end    -- long strings compare by content (memcmp)
  last_pixels = data
  sent = sent + 1
  local msg = { event = 'frame', seq = sent, frame = scr:frame_number(), width = w, height = h, format = 'bgra' }
  local offset = to_slot(sent, data)
  if offset then
    msg.offset, msg.bytes = offset, #data
    transport.send(msg)
  else
    msg.binary = #data
    transport.send(msg, data)
  end
end

-- A hard reset: the screen object is new, the subscription stays.
function frames.forget() last_pixels = nil end

return frames
