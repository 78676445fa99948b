-- gcn.nvim commands; the language server starts after require('gcn').setup({...}).
if vim.g.loaded_gcn then
  return
end
vim.g.loaded_gcn = true

require('gcn.ftdetect').register()

local function cmd(name, fn, desc)
  vim.api.nvim_create_user_command(name, function() require('gcn')[fn]() end, { desc = desc })
end
cmd('GcnAssemble', 'assemble', 'Assemble the current file (writes the on-save output)')
cmd('GcnRegisters', 'registers', 'Register usage of the kernels of the current file; jump to one')
cmd('GcnSyntaxTree', 'syntax_tree', "Show gcn-lsp's syntax tree of the current file")
cmd('GcnListing', 'listing', 'Show each instruction of the current file with its place and words')
cmd('GcnExpandMacro', 'expand_macro', 'Show what the macro calls and repetitions on the cursor line expand to')
