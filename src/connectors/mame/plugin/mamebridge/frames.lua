-- Live frames while the machine runs. MAME calls on_frame after every frame it
-- finished; while a viewer is subscribed (frames_start), a frame that is due
-- (a token bucket at the rate asked for, by the wall clock) and whose pixels
-- differ from the last frame sent goes out as a 'frame' event line followed
-- by its BGRA bytes (binary, never JSON). At most MAX_UNACKED frames are in
-- flight (Node acks each): a slow consumer gets fewer frames, and MAME never
-- blocks on a full socket. An unchanged screen sends nothing.
local ctx = require('mamebridge.context')
local transport = require('mamebridge.transport')

local frames = {}
local MAX_FPS = 60
local MAX_BURST = 1.5     -- frames a late frame clock may send back to back to keep the average rate
local MAX_UNACKED = 2

local sub = nil           -- { fps, allowance, last, sent, acked }
local last_pixels = nil   -- the pixels of the last frame sent

local function screen()
  local scr = ctx.machine.screens[':screen']
  if not scr then for _, s in pairs(ctx.machine.screens) do scr = s break end end
  return scr
end

-- frames_start {fps, throttle?}: (re)subscribe; the next changed-or-not frame is sent once, so a
-- viewer starts with a picture. throttle true runs MAME at real speed, false unthrottled (warp).
function frames.start(args)
  local fps = tonumber(args.fps)
  if not fps or fps ~= fps or fps <= 0 then ctx.fail('bad_request', 'fps must be a positive number') end
  if not screen() then ctx.fail('unsupported', 'this machine has no screen') end
  if args.throttle ~= nil then ctx.machine.video.throttled = args.throttle == true end
  local now = ctx.now()
  sub = { fps = math.min(fps, MAX_FPS), allowance = 1, last = now, sent = sub and sub.sent or 0,
          acked = sub and sub.sent or 0 }
  last_pixels = nil
  return { fps = sub.fps, throttled = ctx.machine.video.throttled }
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
  if sub and seq > sub.acked then sub.acked = math.min(seq, sub.sent) end
  return {}
end

function frames.on_frame()
  if not sub or not ctx.machine or not transport.connected() then return end
  local now = ctx.now()
  sub.allowance = math.min(MAX_BURST, sub.allowance + (now - sub.last) * sub.fps)
  sub.last = now
  if sub.allowance < 1 or sub.sent - sub.acked >= MAX_UNACKED then return end
  sub.allowance = sub.allowance - 1
  local scr = screen()
  if not scr then return end
  local data, w, h = scr:pixels()
  if data == last_pixels then return end    -- long strings compare by content (memcmp)
  last_pixels = data
  sub.sent = sub.sent + 1
  transport.send({ event = 'frame', seq = sub.sent, frame = scr:frame_number(), width = w, height = h,
                   format = 'bgra', binary = #data }, data)
end

-- A hard reset: the screen object is new, the subscription stays.
function frames.forget() last_pixels = nil end

return frames
