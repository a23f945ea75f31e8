-- Headless Neovim end-to-end check of vllm-config-lsp, run by editors/run.py:
--   nvim --headless -n -i NONE -u editors/nvim/e2e.lua
-- It loads the README's snippet (SNIPPET) exactly as a user's init.lua would, opens FILE,
-- waits for the server's diagnostic, applies the preferred quick fix through
-- vim.lsp.buf.code_action() (the user's command; vim.ui.select answers like a user who
-- picks the preferred action), waits for the diagnostic to go away and writes the file.
-- Env: SNIPPET, FILE (edited in place), OUT_JSON, TIMEOUT_MS (default 20000).
local out_path = assert(os.getenv('OUT_JSON'), 'OUT_JSON required')
local file = assert(os.getenv('FILE'), 'FILE required')
local snippet = assert(os.getenv('SNIPPET'), 'SNIPPET required')
local TIMEOUT = tonumber(os.getenv('TIMEOUT_MS') or '20000')
local result = { ok = false, nvim = tostring(vim.version().major) .. '.' .. vim.version().minor }

local function finish(code)
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  local clients = vim.lsp.get_active_clients()
  for _, c in pairs(clients) do
    c.stop()
  end
  -- an orderly shutdown/exit first; the runner kills whatever is still there afterwards
  vim.wait(3000, function()
    for _, c in pairs(clients) do
      if not c.is_stopped() then
        return false
      end
    end
    return true
  end, 20)
  vim.cmd('cquit ' .. code)
end

local function fail(msg)
  result.error = msg
  finish(1)
end

vim.cmd('filetype on')
dofile(snippet)

vim.ui.select = function(items, opts, on_choice)
  result.offered = {}
  local chosen, index = nil, nil
  for i, item in ipairs(items) do
    local action = item.action or item[2] -- 0.10: {ctx, action}; 0.7-0.9: {client_id, action}
    table.insert(result.offered, action.title)
    if chosen == nil and action.isPreferred then
      chosen, index = item, i
    end
  end
  if chosen == nil then
    result.error = 'no preferred code action offered'
    return on_choice(nil, nil)
  end
  result.applied = (chosen.action or chosen[2]).title
  on_choice(chosen, index)
end

local function lsp_code(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code
end

local function run()
  local t0 = vim.loop.hrtime()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  if not vim.wait(TIMEOUT, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
    return fail('timeout waiting for diagnostics')
  end
  result.first_diag_ms = (vim.loop.hrtime() - t0) / 1e6
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, {
      line = d.lnum, col = d.col, end_line = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = lsp_code(d), source = d.source, message = d.message,
    })
  end
  local d = vim.diagnostic.get(buf)[1]
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local before = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
  vim.lsp.buf.code_action()
  if not vim.wait(TIMEOUT, function()
    return result.error ~= nil
      or vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1] ~= before
  end, 20) then
    return fail('timeout waiting for the code action edit')
  end
  if result.error then
    return finish(1)
  end
  if not vim.wait(TIMEOUT, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
    return fail('diagnostics did not clear after the fix')
  end
  vim.cmd('write')
  result.total_ms = (vim.loop.hrtime() - t0) / 1e6
  result.ok = true
  finish(0)
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(run)
      if not ok then
        fail('error: ' .. tostring(err))
      end
    end)
  end,
})
