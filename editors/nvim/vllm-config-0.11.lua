-- vllm-config-lsp for Neovim 0.11+, no plugin needed: put this in init.lua.
-- The server decides which files start vLLM or are vLLM configs; it is silent on the others.
vim.lsp.config('vllm_config', {
  cmd = { 'vllm-config-lsp', '--stdio' },
  filetypes = { 'yaml', 'sh', 'bash', 'dockerfile', 'markdown' },
  root_markers = { '.git' },
  settings = {
    vllmConfig = {
      detection = true, -- also recognise configs by their keys, whatever the file name
      -- vllmVersion = '0.33.0',
      -- associations = { globs = { 'deploy/*.yaml' }, exclude = { 'charts/**' } },
    },
  },
})
vim.lsp.enable('vllm_config')
