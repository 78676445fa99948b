-- :checkhealth gcn
local M = {}

function M.check()
  local health = vim.health
  health.start('gcn.nvim')
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. tostring(vim.version()))
  else
    health.error('Neovim 0.11 or newer is needed (vim.lsp.config)')
  end
  local gcn = require('gcn')
  if gcn.did_setup then
    health.ok("require('gcn').setup() was called")
  else
    health.warn("require('gcn').setup() was not called: gcn-lsp is not started",
      { "call require('gcn').setup({}) in your init.lua (lazy.nvim: opts = {})" })
  end
  local cmd = gcn.cmd()
  local exe = cmd[1]
  if vim.fn.executable(exe) == 1 then
    health.ok(('gcn-lsp: %s'):format(vim.fn.exepath(exe)))
  else
    health.error(('gcn-lsp not found: %s'):format(exe), {
      'build it: cargo build --release -p gcn-lsp (in the gcn-tools repository)',
      'then put target/release on PATH, or setup({ cmd = { "/path/to/gcn-lsp" } })',
    })
  end
  local s = vim.json.encode(gcn.server_settings())
  health.info('settings sent to the server: ' .. s)
  local clients = vim.lsp.get_clients({ name = 'gcn_lsp' })
  if #clients == 0 then
    health.info('no gcn-lsp running (open a CLRX file)')
  end
  for _, c in ipairs(clients) do
    local caps = c.server_capabilities or {}
    local has = {}
    for _, k in ipairs({ 'hoverProvider', 'definitionProvider', 'renameProvider', 'completionProvider',
      'inlayHintProvider', 'executeCommandProvider' }) do
      table.insert(has, k .. '=' .. tostring(caps[k] ~= nil and caps[k] ~= false))
    end
    health.ok(('gcn-lsp client %d (root %s): %s'):format(c.id, tostring(c.root_dir), table.concat(has, ' ')))
    local offered = vim.tbl_get(c.capabilities or {}, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration')
    local registered = c.dynamic_capabilities and c.dynamic_capabilities:get('workspace/didChangeWatchedFiles')
    health.info(('file watching: %s'):format(registered and 'on (the server registered its watcher)'
      or offered and 'offered, not registered by the server (or no project root)'
      or 'off (watch_files = false): changes on disk to closed included files show after the next edit'))
  end
end

return M
