-- The app's entry points: init_worker (turns on jit.dump) and handle (one
-- request).  The routes live in router.lua, the pages in pages.lua.
local config = require "config"
local router = require "router"

local _M = {}

function _M.init_worker()
  if #config.jit_opt > 0 then
    jit.opt.start(unpack(config.jit_opt))
  end
  require("jit.dump").on(config.dump_flags, config.dump_path)
  -- table.isempty exists only in OpenResty's luajit2
  local luajit2 = pcall(require, "table.isempty")
  ngx.log(ngx.WARN, "jit.dump on: ", jit.version, luajit2 and " (OpenResty luajit2)" or " (not luajit2)",
          ", -jdump=", config.dump_flags, ", jit.opt: ",
          #config.jit_opt > 0 and table.concat(config.jit_opt, " ") or "defaults")
end

function _M.dump_off()
  require("jit.dump").off()
  ngx.say("dump off")
end

function _M.handle()
  local status, body, ctype = router.dispatch(ngx.var.request_method, ngx.var.uri, ngx.var.args)
  ngx.status = status
  ngx.header["Content-Type"] = ctype or "text/html; charset=utf-8"
  ngx.print(body)
end

return _M
