-- Minimal JSON codec for the bridge's small control messages (bulk bytes travel
-- as raw binary after the line, never through here). Arrays are tables marked
-- with json.array(); every other table encodes as an object.
local json = {}

local ARRAY = {}
function json.array(t) return setmetatable(t or {}, ARRAY) end

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                  ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return escapes[c] or string.format('\\u%04x', c:byte())
  end) .. '"'
end

local encode
local function encode_value(v, out)
  local t = type(v)
  if t == 'nil' then out[#out + 1] = 'null'
  elseif t == 'boolean' then out[#out + 1] = v and 'true' or 'false'
  elseif t == 'number' then
    if math.type(v) == 'integer' then out[#out + 1] = string.format('%d', v)
    elseif v ~= v or v == math.huge or v == -math.huge then out[#out + 1] = 'null'
    else out[#out + 1] = string.format('%.17g', v) end
  elseif t == 'string' then out[#out + 1] = encode_string(v)
  elseif t == 'table' then
    if getmetatable(v) == ARRAY then
      out[#out + 1] = '['
      for i = 1, #v do
        if i > 1 then out[#out + 1] = ',' end
        encode_value(v[i], out)
      end
      out[#out + 1] = ']'
    else
      out[#out + 1] = '{'
      local first = true
      for k, val in pairs(v) do
        if not first then out[#out + 1] = ',' end
        first = false
        out[#out + 1] = encode_string(tostring(k))
        out[#out + 1] = ':'
        encode_value(val, out)
      end
      out[#out + 1] = '}'
    end
  else out[#out + 1] = encode_string(tostring(v)) end
end

function encode(v)
  local out = {}
  encode_value(v, out)
  return table.concat(out)
end
json.encode = encode

-- Decoder: recursive descent over a string; raises a Lua error on bad input.
local function skip(s, i)
  return s:find('[^ \t\r\n]', i) or #s + 1
end

local decode_value
local function decode_string(s, i)
  local out, j = {}, i + 1
  while true do
    local c = s:sub(j, j)
    if c == '' then error('unterminated string') end
    if c == '"' then return table.concat(out), j + 1 end
    if c == '\\' then
      local e = s:sub(j + 1, j + 1)
      if e == 'u' then
        local code = tonumber(s:sub(j + 2, j + 5), 16) or error('bad \\u escape')
        out[#out + 1] = utf8.char(code)
        j = j + 6
      else
        local map = { b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }
        out[#out + 1] = map[e] or e
        j = j + 2
      end
    else
      local k = s:find('["\\]', j) or error('unterminated string')
      out[#out + 1] = s:sub(j, k - 1)
      j = k
    end
  end
end

function decode_value(s, i)
  i = skip(s, i)
  local c = s:sub(i, i)
  if c == '{' then
    local obj = {}
    i = skip(s, i + 1)
    if s:sub(i, i) == '}' then return obj, i + 1 end
    while true do
      if s:sub(i, i) ~= '"' then error('expected a key at ' .. i) end
      local key
      key, i = decode_string(s, i)
      i = skip(s, i)
      if s:sub(i, i) ~= ':' then error('expected : at ' .. i) end
      obj[key], i = decode_value(s, i + 1)
      i = skip(s, i)
      local d = s:sub(i, i)
      if d == '}' then return obj, i + 1 end
      if d ~= ',' then error('expected , or } at ' .. i) end
      i = skip(s, i + 1)
    end
  elseif c == '[' then
    local arr = json.array()
    i = skip(s, i + 1)
    if s:sub(i, i) == ']' then return arr, i + 1 end
    while true do
      arr[#arr + 1], i = decode_value(s, i)
      i = skip(s, i)
      local d = s:sub(i, i)
      if d == ']' then return arr, i + 1 end
      if d ~= ',' then error('expected , or ] at ' .. i) end
      i = i + 1
    end
  elseif c == '"' then return decode_string(s, i)
  elseif s:sub(i, i + 3) == 'true' then return true, i + 4
  elseif s:sub(i, i + 4) == 'false' then return false, i + 5
  elseif s:sub(i, i + 3) == 'null' then return nil, i + 4
  else
    local num = s:match('^-?%d+%.?%d*[eE]?[-+]?%d*', i)
    if not num or num == '' then error('unexpected character at ' .. i) end
    return math.tointeger(tonumber(num)) or tonumber(num), i + #num
  end
end

function json.decode(s)
  local v, i = decode_value(s, 1)
  if skip(s, i) <= #s then error('trailing characters') end
  return v
end

return json
