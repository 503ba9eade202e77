-- wrk script for `npm run bench`: every request has its own query string, so each one misses the
-- page cache (renders, compresses and stores): the cost of a cold page with the cache on.
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, wrk.path .. "?miss=" .. counter .. "-" .. math.random(1000000000))
end
