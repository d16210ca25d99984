-- wrk script: after the run, print every latency wrk recorded with its count ("latency MICROSECONDS
-- COUNT"), and the run's answers and duration ("summary REQUESTS MICROSECONDS"), so that several short
-- runs can be pooled into one distribution (benchmarks/wrk_runs.py).
done = function(summary, latency, requests)
  io.write(string.format("summary %d %d\n", summary.requests, summary.duration))
  -- #latency is the number of distinct values; latency(i) the i-th smallest and how often it came.
  for i = 1, #latency do
    local value, count = latency(i)
    io.write(string.format("latency %d %d\n", value, count))
  end
end
