-- Socket transport: MAME is the TCP client of the Node side. Messages are one
-- JSON object a line; a message whose top level has "binary": N is followed by
-- exactly N raw bytes (bulk memory and pixels travel this way, not as JSON).
local json = require('mamebridge.json')

local transport = {}

local MAX_BUFFER = 16 * 1024 * 1024   -- refuse to buffer more than this from the peer

local file = nil
local inbuf = ''
transport.lost = false

function transport.connect(address)
  local f = emu.file('', 3)           -- read|write: connect() as a client
  local err = f:open('socket.' .. address)
  if err then return false, tostring(err) end
  file = f
  transport.lost = false
  return true
end

function transport.connected() return file ~= nil and not transport.lost end

-- Send one message (and an optional binary payload). A short write means the
-- peer is gone: emu.file cannot report EOF any other way.
function transport.send(msg, binary)
  if not transport.connected() then return false end
  local line = json.encode(msg) .. '\n'
  local data = binary and (line .. binary) or line
  local n = file:write(data)
  if n == nil or n < #data then
    transport.lost = true
    return false
  end
  return true
end

-- Non-blocking: returns a list of {msg=table|nil, binary=string|nil, error=string|nil}.
function transport.receive()
  local out = {}
  if not transport.connected() then return out end
  while true do
    local chunk = file:read(65536)
    if chunk == nil or chunk == '' then break end
    inbuf = inbuf .. chunk
    if #inbuf > MAX_BUFFER then
      out[#out + 1] = { error = 'input buffer overflow; dropped ' .. #inbuf .. ' bytes' }
      inbuf = ''
      return out
    end
  end
  while true do
    local nl = inbuf:find('\n', 1, true)
    if not nl then break end
    local line = inbuf:sub(1, nl - 1)
    local ok, msg = pcall(json.decode, line)
    if not ok or type(msg) ~= 'table' then
      out[#out + 1] = { error = 'malformed request line: ' .. tostring(msg) }
      inbuf = inbuf:sub(nl + 1)
    else
      local nbin = math.tointeger(msg.binary) or 0
      if #inbuf - nl < nbin then break end   -- wait for the rest of the payload
      local binary = nbin > 0 and inbuf:sub(nl + 1, nl + nbin) or nil
      inbuf = inbuf:sub(nl + 1 + nbin)
      out[#out + 1] = { msg = msg, binary = binary }
    end
  end
  return out
end

function transport.close()
  if file then pcall(function() file:close() end) end
  file = nil
end

return transport
