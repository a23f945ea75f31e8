-- vllm-config-lsp for Neovim 0.7–0.10, no plugin needed: put this in init.lua.
-- Every YAML, shell, Dockerfile and Markdown buffer is offered to the server; it decides
-- which files start vLLM or are vLLM configs (name contains `vllm`, a `# vllm-config`
-- comment, the content) and stays silent on the others.
local vllm_config_lsp = {
  name = 'vllm-config-lsp',
  cmd = { 'vllm-config-lsp', '--stdio' },
  settings = {
    vllmConfig = {
      detection = true, -- also recognise configs by their keys, whatever the file name
      -- vllmVersion = '0.33.0',
      -- associations = { globs = { 'deploy/*.yaml' }, exclude = { 'charts/**' } },
      -- severityOverrides = { VC302 = 'warning' },
      -- disabledCodes = { 'VC900' },
    },
  },
}

local vllm_config_clients = {} -- one server per project root

vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'yaml', 'sh', 'bash', 'dockerfile', 'markdown' },
  callback = function(args)
    local path = vim.api.nvim_buf_get_name(args.buf)
    if path == '' then
      return
    end
    local dir = vim.fn.fnamemodify(path, ':p:h')
    local git = vim.fn.finddir('.git', dir .. ';')
    local root = git ~= '' and vim.fn.fnamemodify(git, ':p:h:h') or dir
    local id = vllm_config_clients[root]
    if id == nil or vim.lsp.get_client_by_id(id) == nil then
      id = vim.lsp.start_client(vim.tbl_extend('force', vllm_config_lsp, { root_dir = root }))
      vllm_config_clients[root] = id
    end
    if id ~= nil then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
