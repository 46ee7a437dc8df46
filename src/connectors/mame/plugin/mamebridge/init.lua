-- Retro Debug bridge for MAME 0.251: connects to the Node side over TCP and
-- serves JSON-line requests. With -debug -debugger none, MAME resumes the CPU
-- as soon as the periodic callback returns at a stop, so the bridge keeps the
-- CPU stopped by holding inside that callback, answering requests, until a
-- request resumes or steps it.
local exports = {
  name = 'mamebridge',
  version = '0.1.0',
  description = 'Retro Debug JSON-lines control bridge',
  license = 'MIT',
  author = { name = 'Retro Debug' },
}

local ctx = require('mamebridge.context')
local transport = require('mamebridge.transport')
local idle = require('mamebridge.idle')
local ops = require('mamebridge.ops')
local rc = require('mamebridge.runcontrol')
local input = require('mamebridge.input')
local rawops = require('mamebridge.rawops')
local frames = require('mamebridge.frames')

local last_beat = 0
local gave_up = false

local function spin_s()
  local ms = ctx.config.spin_ms or (idle.mode() == 'exec' and 250 or 5)
  return ms / 1000
end

local function log(msg) io.stderr:write('[mamebridge] ' .. msg .. '\n') io.stderr:flush() end

local function dispatch(msg, binary)
  local id = msg.id
  local handler = ops[msg.op]
  local result, payload, err
  if not ctx.authed and msg.op ~= 'hello' then
    err = { code = 'unauthorized', message = 'send hello with the token first' }
  elseif type(msg.op) ~= 'string' or not handler then
    err = { code = 'bad_request', message = 'unknown op "' .. tostring(msg.op) .. '"' }
  elseif not ctx.machine then
    err = { code = 'not_ready', message = 'the machine is restarting' }
  else
    local args = type(msg.args) == 'table' and msg.args or {}
    local ok, r, p = pcall(handler, args, binary)
    if ok then result, payload = r, p
    elseif type(r) == 'table' then err = r
    else err = { code = 'internal', message = tostring(r) } end
  end
  if err then transport.send({ id = id, ok = false, error = err })
  else transport.send({ id = id, ok = true, result = result, binary = payload and #payload or nil }, payload) end
  if ctx.exit_requested and ctx.machine then
    ctx.exit_requested = false
    ctx.machine:exit()
  end
end

-- The peer is gone: nobody can control this MAME any more, so end it.
local function lost()
  if gave_up then return end
  gave_up = true
  log('connection to the debugger lost; exiting')
  if ctx.machine then ctx.machine:exit() end
end

-- Handle every complete request now in the socket. Returns how many there were.
local function service()
  local msgs = transport.receive()
  for _, m in ipairs(msgs) do
    if m.error then ctx.event('bridge_error', { message = m.error })
    else dispatch(m.msg, m.binary) end
  end
  local now = ctx.now()
  if now - last_beat >= ctx.config.heartbeat_s then
    last_beat = now
    ctx.event('heartbeat', { state = ctx.held() and 'stopped' or 'running' })
  end
  if transport.lost then lost() end
  return #msgs
end

-- Keep the CPU stopped, answering requests, until one resumes or steps it.
local function hold()
  local deadline = ctx.now() + spin_s()
  while ctx.machine and ctx.dbg.execution_state == 'stop' and not ctx.machine.exit_pending
        and not ctx.machine.hard_reset_pending and transport.connected() do
    if service() > 0 then
      deadline = ctx.now() + spin_s()
    elseif ctx.now() > deadline then
      -- Tell Node we are about to block: it rings the doorbell on its next request.
      if idle.mode() == 'stdin' then ctx.event('idle') end
      idle.wait()
      deadline = ctx.now() + (idle.mode() == 'stdin' and spin_s() or 0)
    end
  end
end

local function periodic()
  if not ctx.machine or gave_up then return end
  service()
  if not ctx.machine or not ctx.dbg then return end
  if ctx.dbg.execution_state == 'stop' then
    -- Nothing stays pressed while the CPU is stopped: release before reporting.
    if not ctx.reported and input.busy() then ctx.event('input_released', { reason = 'stop', cut = input.release_all() }) end
    if not ctx.reported then
      if not rc.handle_stop() then return end
      ctx.reported = true
    end
    hold()
  end
  if ctx.dbg and ctx.dbg.execution_state ~= 'stop' then
    ctx.reported = false
    input.tick()
  end
end

local function find_cpu(machine)
  local cpu = machine.devices[':maincpu']
  if cpu then return cpu end
  for _, dev in pairs(machine.devices) do
    if dev.debug and dev.state then return dev end
  end
  return nil
end

local function on_start()
  local machine = manager.machine
  -- a start without a stop before it is a soft reset (the Sprinter's restart after its configuration phase):
  -- MAME kept every breakpoint and watchpoint, so arming ours again would leave a copy no id can clear
  local soft_reset = ctx.machine ~= nil
  ctx.machine, ctx.dbg, ctx.cpu, ctx.symtab = machine, machine.debugger, find_cpu(machine), nil
  ctx.first_stop, ctx.reported, ctx.pending, ctx.range = true, false, nil, nil
  if not ctx.dbg or not ctx.cpu then
    log('MAME must run with -debug and the machine needs a CPU; the bridge is inactive')
    ctx.machine = nil
    return
  end
  ctx.log_mark, ctx.kept_log = #ctx.dbg.consolelog, {}
  if transport.connected() then
    if soft_reset then
      ctx.event('machine_start', { hard_reset = false })
      return
    end
    -- Hard reset: MAME dropped every breakpoint; put ours back under the same ids.
    for _, bp in pairs(ctx.bps) do bp.index = ctx.cpu.debug:bpset(bp.address, bp.condition, '') end
    rawops.rearm_watchpoints()
    ctx.event('machine_start', { hard_reset = true })
    return
  end
  if not ctx.config.address then
    log('MAMEBRIDGE_CONNECT is not set; the bridge is inactive')
    ctx.machine = nil
    return
  end
  local ok, err = transport.connect(ctx.config.address)
  if not ok then
    log('cannot connect to ' .. ctx.config.address .. ': ' .. err)
    gave_up = true
    machine:exit()
    return
  end
  ctx.event('hello', { token = ctx.config.token, version = exports.version, system = emu.romname(), mame = emu.app_version(),
                       cpu = ctx.cpu.tag, cpu_type = ctx.cpu.shortname })
end

local function on_stop()
  if ctx.machine then
    ctx.event('machine_stop', { exit = ctx.machine.exit_pending, hard_reset = ctx.machine.hard_reset_pending })
  end
  input.forget()
  frames.forget()
  ctx.machine, ctx.dbg, ctx.cpu, ctx.symtab = nil, nil, nil, nil
end

function exports.startplugin()
  emu.register_start(on_start)
  emu.register_stop(on_stop)
  emu.register_periodic(periodic)
  emu.register_frame_done(frames.on_frame)   -- every finished frame while running (not while held)
end

return exports
