-- How the hold loop waits while the CPU is stopped and no request is pending.
-- 'stdin' (default): block on MAME's stdin; Node writes "\n" after each request
-- (the doorbell), so waiting costs no CPU. Falls back to 'exec' at EOF.
-- 'exec': os.execute("sleep S") (about 10 ms of latency, some CPU).
-- 'spin': never sleep (one core busy; for measurements only).
local idle = {}

local mode = os.getenv('MAMEBRIDGE_IDLE') or 'stdin'
local sleep_s = tonumber(os.getenv('MAMEBRIDGE_SLEEP') or '') or 0.01
local stdin_eof = false

function idle.mode() return (mode == 'stdin' and stdin_eof) and 'exec' or mode end

-- Wait once. Returns after a doorbell byte, a sleep, or immediately for 'spin'.
function idle.wait()
  local m = idle.mode()
  if m == 'stdin' then
    local ok, c = pcall(io.stdin.read, io.stdin, 1)
    if not ok or c == nil then stdin_eof = true end
  elseif m == 'exec' then
    os.execute('sleep ' .. sleep_s)
  end
end

return idle
