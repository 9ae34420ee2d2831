-- wrk script for POST /v1/operations: one command body, a key per request.
--   MODE=fresh      a new random UUID per request (every request claims)   -> expects 202
--   MODE=duplicate  a key drawn from the DUP_KEYS seeded operations          -> expects 200
--   MODE=read       GET /v1/operations/{id} of one of the seeded operations  -> expects 200
--                   (READ_ID: of that operation instead; bench/checkout/run.sh)
-- TOKEN (bearer JWT) and DUP_KEYS come from the environment (bench/claim/run.sh sets them).
local mode = os.getenv("MODE") or "fresh"
local dup_keys = tonumber(os.getenv("DUP_KEYS") or "1000")
local token = os.getenv("TOKEN")
local body = os.getenv("BODY")
local read_id = os.getenv("READ_ID")
local expected = (mode == "fresh") and 202 or 200

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_id", thread_count)
  table.insert(threads, thread)
end

function init(args)
  -- distinct streams per thread: wrk starts all threads in the same second
  math.randomseed(os.time() * 1000 + thread_id * 7919)
  unexpected = 0
  wrk.method = "POST"
  wrk.path = "/v1/operations"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["User-Agent"] = "wrk-bench"
end

local function r16() return math.random(0, 65535) end

local function uuid4()
  return string.format("%04x%04x-%04x-4%03x-%04x-%04x%04x%04x",
    r16(), r16(), r16(), r16() % 4096, 32768 + r16() % 16384, r16(), r16(), r16())
end

-- the seeded duplicates: 00000000-0000-4000-8000-<12 decimal digits>, i in 1..DUP_KEYS
local function seeded_key()
  return string.format("00000000-0000-4000-8000-%012d", math.random(1, dup_keys))
end

function request()
  if mode == "read" then
    return wrk.format("GET", "/v1/operations/" .. (read_id or seeded_key()),
      { ["Authorization"] = "Bearer " .. token, ["User-Agent"] = "wrk-bench" })
  end
  wrk.headers["Idempotency-Key"] = (mode == "fresh") and uuid4() or seeded_key()
  return wrk.format()
end

function response(status, headers, body)
  if status ~= expected then
    unexpected = unexpected + 1
    if unexpected <= 3 then io.stderr:write("unexpected " .. status .. ": " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("unexpected") end
  io.write(string.format("RESULT requests=%d duration_us=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f unexpected=%d errors=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, total,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
