-- wrk script: paid answers drawn at random from six queries over the 81 provinces (rankings, flows,
-- awards pages by date and by value, an index by year), so that the worker keeps making and
-- dropping objects as a day of varied clients would; used with benchmarks/worker_timing.py.
--   wrk -t2 -c2 -d60s --latency -s benchmarks/varied_answers.lua -H "Authorization: Bearer KEY" http://127.0.0.1:18002
math.randomseed(os.time())
local base = "/v1/public-procurement/"
local queries = {
  function(p) return base .. "top-contractors?province=" .. p end,
  function(p) return base .. "top-authorities?province=" .. p end,
  function(p) return base .. "supply-flows?buyerProvince=" .. p .. "&limit=20" end,
  function(p) return base .. "awards?province=" .. p .. "&limit=20" end,
  function(p) return base .. "awards?province=" .. p .. "&limit=5&sort=value" end,
  function(p) return base .. "competition-indices?dimension=province&period=" .. (2019 + p % 6) end,
}

request = function()
  return wrk.format("GET", queries[math.random(1, #queries)](math.random(1, 81)))
end
