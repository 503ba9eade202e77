-- wrk script for `npm run bench`: every request has its own value of a parameter /shop reads
-- (`category`: an unknown one shows every product), so each one misses the page cache (renders,
-- compresses and stores): the cost of a cold page with the cache on. A parameter the page does not
-- read would be left out of the cache key, and hit.
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, wrk.path .. "?category=miss-" .. counter .. "-" .. math.random(1000000000))
end
