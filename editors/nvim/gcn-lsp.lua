-- Neovim (0.11+) configuration for gcn-lsp, the CLRX GCN assembly language server.
--
-- Use it from your init.lua with `dofile('/path/to/editors/nvim/gcn-lsp.lua')`, or copy
-- it there. `*.s` and `*.clrx` files get the filetype `clrx`, and gcn-lsp is started for
-- them. Set `vim.g.gcn_lsp_cmd` (a list, e.g. `{ '/path/to/gcn-lsp' }`) before loading
-- this file to run another binary than the `gcn-lsp` on PATH.

vim.filetype.add({
  extension = {
    s = 'clrx',
    clrx = 'clrx',
  },
})

vim.lsp.config('gcn_lsp', {
  cmd = vim.g.gcn_lsp_cmd or { 'gcn-lsp' },
  filetypes = { 'clrx' },
  root_markers = { '.git' },
  -- gcn-lsp answers UTF-8 when offered it; Neovim offers UTF-16 first by default.
})

vim.lsp.enable('gcn_lsp')

-- CLRX comments: `#` to the end of the line, and `/* … */`.
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'clrx',
  callback = function(args)
    vim.bo[args.buf].commentstring = '# %s'
    vim.bo[args.buf].comments = 's1:/*,mb:*,ex:*/,:#'
  end,
})
