-- Kept for configurations that `dofile` this file: loads the gcn.nvim plugin of this folder
-- (filetype detection, commands, gcn-lsp) with its defaults. New configurations should load
-- the folder as a plugin instead (see README.md). `vim.g.gcn_lsp_cmd` (a list, e.g.
-- `{ '/path/to/gcn-lsp' }`) still selects the server.
local here = vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2))
if not vim.tbl_contains(vim.api.nvim_list_runtime_paths(), here) then
  vim.opt.runtimepath:prepend(here)
end
vim.cmd('runtime! plugin/gcn.lua')
require('gcn').setup({ cmd = vim.g.gcn_lsp_cmd })
