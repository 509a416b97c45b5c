-- wrk script: POSTs one body, read from a file, to one path; prints the counts and latency percentiles as one JSON
-- line (latencies in microseconds). Arguments after `--`: BODY_FILE PATH AUTHORIZATION ["NAME: VALUE" ...], the
-- last ones more request headers (a peer gateway's routing headers).
local req

function init(args)
  local f = assert(io.open(args[1], "rb"))
  local body = f:read("*a")
  f:close()
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = args[3] }
  for i = 4, #args do
    local name, value = string.match(args[i], "^([^:]+): (.*)$")
    assert(name, "a header argument is NAME: VALUE, not " .. args[i])
    headers[name] = value
  end
  req = wrk.format("POST", args[2], headers, body)
end

function request()
  return req
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
