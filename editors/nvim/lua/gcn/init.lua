-- gcn.nvim: AMD GCN assembly (CLRX dialect) with the gcn-lsp language server, for Neovim 0.11+.
--
--   require('gcn').setup({
--     cmd = { 'gcn-lsp' },                 -- the server; default: gcn-lsp on PATH
--     args = { '-g', 'Tonga' },            -- gcnasm options (gcn.toml's args come after)
--     on_save_output = 'build/{stem}.bin', -- binary written on save (gcn.toml's wins)
--     diagnostics_delay = 200,             -- ms after an edit (default: the server's)
--     register_counts = true,              -- counts at kernel labels (inlay hints or virtual text)
--     watch_files = true,                  -- Neovim watches the project for the server
--   })
--
-- Settings reach the server as initializationOptions, `workspace/didChangeConfiguration`
-- ({ settings = { gcn = ... } }) and the `gcn` section of `workspace/configuration`;
-- calling setup() again applies new ones to running servers without a restart.
local M = {}

local defaults = {
  cmd = nil, -- nil: vim.g.gcn_lsp_cmd, else { 'gcn-lsp' }
  args = nil,
  on_save_output = nil,
  diagnostics_delay = nil,
  -- The editor's own checks: `waitcnt` warns where a register is used while a memory load
  -- that writes it may still be in flight (a missing s_waitcnt), and hints at an s_waitcnt
  -- that can never wait; `nops` where a register is
  -- read too soon after a write the hardware does not wait for (a missing s_nop, and GCN 1.5's
  -- own hazards); `uninitialized` where a kernel reads a register nothing wrote before
  -- (neither its setup nor an instruction on any path from its start).
  checks = { waitcnt = true, nops = true, uninitialized = true },
  register_counts = true,
  -- Offer workspace.didChangeWatchedFiles.dynamicRegistration (Neovim 0.11 does not on
  -- Linux): the server registers `**/*` under the project root, and Neovim's watcher
  -- tells it when a closed included file changes on disk.
  watch_files = true,
  -- Past this many lines a buffer keeps the syntax file's colours only: Neovim (0.11)
  -- rebuilds a whole file's semantic tokens on every answer, a pause of a few hundred
  -- milliseconds per edit at 50,000 lines, however small the server's delta. false: never.
  semantic_tokens_max_lines = 20000,
  root_markers = { 'gcn.toml', '.git' },
  -- Extra fields merged into vim.lsp.config('gcn_lsp', ...) (capabilities, on_attach, ...).
  lsp = {},
}

M.config = vim.deepcopy(defaults)
M.did_setup = false

local ns = vim.api.nvim_create_namespace('gcn_register_counts')
local usage = {} -- bufnr -> { changedtick, kernels }
local timers = {}
local unsupported = {} -- client id -> true when gcn/registerUsage is unknown
local attached = {} -- bufnr -> true while on_lines refreshes the counts

local function notify(msg, level)
  vim.notify('gcn: ' .. msg, level or vim.log.levels.INFO)
end

--- The settings object the server reads (unset values left out: gcn.toml decides).
function M.server_settings(cfg)
  cfg = cfg or M.config
  local s = {}
  if cfg.args and #cfg.args > 0 then
    s.args = cfg.args
  end
  if cfg.on_save_output and cfg.on_save_output ~= '' then
    s.onSave = { output = cfg.on_save_output }
  end
  if cfg.diagnostics_delay then
    s.diagnosticsDelay = cfg.diagnostics_delay
  end
  for _, check in ipairs({ 'waitcnt', 'nops', 'uninitialized' }) do
    if cfg.checks and cfg.checks[check] == false then
      s.checks = s.checks or {}
      s.checks[check] = false
    end
  end
  if next(s) == nil then
    return vim.empty_dict()
  end
  return s
end

function M.cmd()
  return M.config.cmd or vim.g.gcn_lsp_cmd or { 'gcn-lsp' }
end

--- The gcn-lsp client attached to `bufnr` (default: current buffer), if any.
function M.client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'gcn_lsp' })[1]
end

local function has_capability(client, name)
  return client and client.server_capabilities and client.server_capabilities[name] ~= nil
    and client.server_capabilities[name] ~= false
end
M.has_capability = has_capability

-- ---- register usage --------------------------------------------------------------------

--- `SGPR 16 · VGPR 24 · 10 waves`: the server's `label` (its inlay hint text) when given.
function M.usage_text(k)
  if type(k.label) == 'string' and k.label ~= '' then
    return k.label
  end
  local t = ('SGPR %s · VGPR %s'):format(k.sgprs, k.vgprs)
  if type(k.waves) == 'number' then
    t = t .. (' · %d %s'):format(k.waves, k.waves == 1 and 'wave' or 'waves')
  end
  return t
end

--- The kernel whose range starts last at or before `line` (0-based).
function M.kernel_at(kernels, line)
  local best
  for _, k in ipairs(kernels or {}) do
    local start = k.range and k.range.start.line or -1
    if start <= line and (not best or start >= best.range.start.line) then
      best = k
    end
  end
  return best
end

local function draw(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local client = M.client(bufnr)
  local u = usage[bufnr]
  if not M.config.register_counts or not u or has_capability(client, 'inlayHintProvider') then
    return -- the server's inlay hints show them
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, k in ipairs(u.kernels) do
    local line = k.range.start.line
    if line < count then
      vim.api.nvim_buf_set_extmark(bufnr, ns, line, 0, {
        virt_text = { { '  ' .. M.usage_text(k), 'LspInlayHint' } },
        virt_text_pos = 'eol',
        hl_mode = 'combine',
      })
    end
  end
end

local schedule_usage -- defined below; a stale answer asks again through it

--- Asks the server for the register usage of `bufnr`; calls `cb(kernels or nil, err)`.
function M.fetch_usage(bufnr, cb)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  cb = cb or function() end
  local client = M.client(bufnr)
  if not client then
    return cb(nil, 'gcn-lsp is not attached')
  end
  if unsupported[client.id] then
    return cb(nil, 'gcn-lsp does not answer gcn/registerUsage')
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  client:request('gcn/registerUsage', params, function(err, result)
    if err then
      if err.code == -32601 then
        unsupported[client.id] = true
      end
      return cb(nil, err.message or tostring(err))
    end
    usage[bufnr] = { changedtick = tick, kernels = (result and result.kernels) or {} }
    vim.schedule(function()
      draw(bufnr)
      vim.cmd('redrawstatus')
      -- The answer is for the version the server had: when the request overtook the
      -- buffer's last change (sent debounced), ask again, or the counts of an older text
      -- would stay until the next edit.
      local version = result and result.version
      if type(version) == 'number' and version < tick and vim.api.nvim_buf_is_valid(bufnr) then
        schedule_usage(bufnr, 300)
      end
    end)
    cb(usage[bufnr].kernels)
  end, bufnr)
end

function schedule_usage(bufnr, delay)
  if timers[bufnr] then
    timers[bufnr]:stop()
  else
    timers[bufnr] = vim.uv.new_timer()
  end
  timers[bufnr]:start(delay, 0, vim.schedule_wrap(function()
    if vim.api.nvim_buf_is_valid(bufnr) then
      M.fetch_usage(bufnr)
      M.fetch_includes(bufnr)
    end
  end))
end

--- For the statusline: the register usage of the kernel under the cursor, or ''.
---   vim.o.statusline = '%f %= %{v:lua.require("gcn").statusline()}'
function M.statusline()
  local bufnr = vim.api.nvim_get_current_buf()
  local u = usage[bufnr]
  if not u then
    return ''
  end
  local k = M.kernel_at(u.kernels, vim.api.nvim_win_get_cursor(0)[1] - 1)
  return k and M.usage_text(k) or ''
end

-- ---- included files ---------------------------------------------------------------------

--- Tells the filetype detection which files `bufnr` includes (`.include`), so that they
--- are CLRX when opened (and become CLRX when already open): the targets of the server's
--- document links, or, when it has none, the `.include "file"` lines read here (relative
--- to the source's folder).
function M.fetch_includes(bufnr)
  local ftdetect = require('gcn.ftdetect')
  if vim.g.gcn_detect_includes == false or vim.g.gcn_detect_includes == 0 then
    return
  end
  local client = M.client(bufnr)
  if not client then
    return
  end
  if has_capability(client, 'documentLinkProvider') then
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
    client:request('textDocument/documentLink', params, function(err, links)
      if err or type(links) ~= 'table' then
        return
      end
      local paths = {}
      for _, link in ipairs(links) do
        if type(link.target) == 'string' and link.target:match('^file:') then
          table.insert(paths, vim.uri_to_fname(link.target))
        end
      end
      vim.schedule(function() ftdetect.add_included(paths) end)
    end, bufnr)
    return
  end
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local paths = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local name = l:match('^%s*%.[iI][nN][cC][lL][uU][dD][eE]%s+"([^"]+)"')
    if name then
      local path = name:sub(1, 1) == '/' and name or (dir .. '/' .. name)
      if vim.uv.fs_stat(path) then
        table.insert(paths, path)
      end
    end
  end
  ftdetect.add_included(paths)
end

-- ---- commands ----------------------------------------------------------------------------

function M.assemble(bufnr, cb)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  cb = cb or function() end
  local client = M.client(bufnr)
  if not client then
    notify('gcn-lsp is not attached to this buffer', vim.log.levels.WARN)
    return cb(nil, 'not attached')
  end
  local cmds = (client.server_capabilities.executeCommandProvider or {}).commands or {}
  if not vim.tbl_contains(cmds, 'gcn.assemble') then
    notify('this gcn-lsp cannot assemble (no gcn.assemble command); update it', vim.log.levels.WARN)
    return cb(nil, 'no gcn.assemble')
  end
  local params = { command = 'gcn.assemble', arguments = { vim.uri_from_bufnr(bufnr) } }
  client:request('workspace/executeCommand', params, function(err, result)
    if err then
      notify('assembling failed: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return cb(nil, err.message)
    end
    local out = result and result.output
    notify(out and ('assembled into ' .. out) or 'assembled')
    cb(out)
  end, bufnr)
end

function M.registers()
  local bufnr = vim.api.nvim_get_current_buf()
  M.fetch_usage(bufnr, function(kernels, err)
    vim.schedule(function()
      if not kernels then
        return notify('no register usage: ' .. tostring(err), vim.log.levels.WARN)
      end
      if #kernels == 0 then
        return notify('no kernels in this file')
      end
      vim.ui.select(kernels, {
        prompt = 'Register usage',
        format_item = function(k)
          return ('%-24s %s  (line %d)'):format(k.name, M.usage_text(k), k.range.start.line + 1)
        end,
      }, function(k)
        if k and vim.api.nvim_buf_is_valid(bufnr) then
          vim.api.nvim_win_set_buf(0, bufnr)
          vim.api.nvim_win_set_cursor(0, { k.range.start.line + 1, k.range.start.character })
        end
      end)
    end)
  end)
end

-- `lines` in the read-only scratch buffer `name` (made once), shown in a split beside
-- unless a window already shows it. A scratch buffer (buftype nofile) gets no server.
local function show_read_only(name, lines, filetype, bufhidden)
  local view = vim.fn.bufnr(name)
  if view == -1 then
    view = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(view, name)
  end
  vim.bo[view].modifiable = true
  vim.api.nvim_buf_set_lines(view, 0, -1, false, lines)
  vim.bo[view].modifiable = false
  vim.bo[view].buftype = 'nofile'
  vim.bo[view].bufhidden = bufhidden
  vim.bo[view].filetype = filetype
  if vim.fn.bufwinid(view) == -1 then
    vim.cmd('vsplit')
    vim.api.nvim_win_set_buf(0, view)
  end
end

-- The server's answer to `method` for the current file, as `text_of` makes it text, in
-- a read-only scratch buffer `scheme://FILE` beside the source.
local function show_view(method, scheme, filetype, text_of)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return notify('gcn-lsp is not attached to this buffer', vim.log.levels.WARN)
  end
  local name = scheme .. '://' .. vim.api.nvim_buf_get_name(bufnr)
  client:request(method, { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    vim.schedule(function()
      if err then
        return notify(method .. ' failed: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      end
      show_read_only(name, vim.split(text_of(result), '\n', { trimempty = true }), filetype, 'hide')
    end)
  end, bufnr)
end

function M.syntax_tree()
  show_view('gcn/syntaxTree', 'gcn-syntax-tree', 'gcntree', function(result)
    return type(result) == 'string' and result or vim.inspect(result)
  end)
end

-- Each instruction of the current file with its section, offset and words, and the
-- source line it came from (gcn/listing, what `gcnasm --emit listing` writes), in a
-- scratch buffer beside the source; :GcnListing again shows the current version.
function M.listing()
  show_view('gcn/listing', 'gcn-listing', 'gcnlisting', function(result)
    return result.text
  end)
end

-- What the macro calls and repetitions on the cursor's line expand to, as the assembler
-- ran them (gcn/expandMacro), in a scratch buffer beside the source (filetype clrx).
function M.expand_macro()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return notify('gcn-lsp is not attached to this buffer', vim.log.levels.WARN)
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  client:request('gcn/expandMacro', params, function(err, result)
    vim.schedule(function()
      if err then
        return notify('gcn/expandMacro failed: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      end
      if not result or result == vim.NIL then
        return notify('the assembler ran no macro call or repetition on this line')
      end
      local line = result.range.start.line
      local call = vim.trim((vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''))
      local source = vim.api.nvim_buf_get_name(bufnr)
      local lines = { ('# %s (%s:%d) expands to:'):format(call, vim.fn.fnamemodify(source, ':t'), line + 1) }
      vim.list_extend(lines, vim.split(result.text, '\n', { trimempty = true }))
      show_read_only(('gcn-expansion://%s:%d'):format(source, line + 1), lines, 'clrx', 'wipe')
    end)
  end, bufnr)
end

-- ---- diagnostics -------------------------------------------------------------------------

-- Neovim shows no relatedInformation: the places that explain a diagnostic (the line of
-- an included file or macro where the error is, the chain of calls, how many times it
-- was reported) are added to its message, one line each (`file:line: what`).
function M.with_related(d)
  local lines = { d.message }
  for _, r in ipairs(d.relatedInformation or {}) do
    local file = vim.fn.fnamemodify(vim.uri_to_fname(r.location.uri), ':t')
    table.insert(lines, ('%s:%d: %s'):format(file, r.location.range.start.line + 1, r.message))
  end
  return table.concat(lines, '\n')
end

local function on_publish_diagnostics(err, result, ctx, config)
  if result and result.diagnostics then
    for _, d in ipairs(result.diagnostics) do
      d.message = M.with_related(d)
    end
  end
  -- The global handler, as it is now: a user's own (or a plugin's) still runs.
  return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
end

-- ---- setup -------------------------------------------------------------------------------

-- Whether a buffer is too long for semantic tokens (see `semantic_tokens_max_lines`).
local function too_long_for_tokens(bufnr)
  local max = M.config.semantic_tokens_max_lines
  return max and vim.api.nvim_buf_line_count(bufnr) > max
end

local function on_attach(client, bufnr)
  if too_long_for_tokens(bufnr) then
    -- Neovim starts the tokens in a callback it schedules after on_attach: stop them
    -- after that one has run.
    vim.schedule(function()
      vim.schedule(function() pcall(vim.lsp.semantic_tokens.stop, bufnr, client.id) end)
    end)
  end
  if M.config.register_counts and has_capability(client, 'inlayHintProvider') then
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  end
  vim.bo[bufnr].commentstring = '# %s'
  vim.bo[bufnr].comments = 's1:/*,mb:*,ex:*/,:#'
  local group = vim.api.nvim_create_augroup('gcn_buf_' .. bufnr, { clear = true })
  -- Every change (typing, plugins, API edits) refreshes the counts, debounced.
  if not attached[bufnr] then
    attached[bufnr] = true
    vim.api.nvim_buf_attach(bufnr, false, {
      on_lines = function()
        if not attached[bufnr] then
          return true -- detach
        end
        vim.schedule(function() schedule_usage(bufnr, 300) end)
      end,
      on_detach = function() attached[bufnr] = nil end,
    })
  end
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    buffer = bufnr,
    callback = function() schedule_usage(bufnr, 50) end,
  })
  vim.api.nvim_create_autocmd('CursorMoved', {
    group = group,
    buffer = bufnr,
    callback = function() vim.cmd('redrawstatus') end,
  })
  vim.api.nvim_create_autocmd({ 'BufWipeout', 'LspDetach' }, {
    group = group,
    buffer = bufnr,
    callback = function(ev)
      if ev.event == 'LspDetach' and ev.data and ev.data.client_id ~= client.id then
        return
      end
      usage[bufnr] = nil
      attached[bufnr] = nil
      if timers[bufnr] then
        timers[bufnr]:stop()
        timers[bufnr]:close()
        timers[bufnr] = nil
      end
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
  schedule_usage(bufnr, 0)
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

-- Colours for the server's semantic tokens where they know more than the syntax file: a
-- name in an operand that the file defines as a label, and symbols. The other types keep
-- the syntax file's colours (no link: nothing changes when the tokens arrive), but for
-- macro parameters, which Neovim itself links to a group of its own: they get the
-- syntax file's colour of `\name`. Defaults only, set again after a colour scheme
-- clears them: a user's own links win.
local token_links = {
  ['@lsp.type.label.clrx'] = 'Label',
  ['@lsp.type.symbol.clrx'] = 'Constant',
  ['@lsp.type.parameter.clrx'] = 'Special',
}

local function link_token_highlights()
  for group, target in pairs(token_links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

function M.setup(opts)
  link_token_highlights()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('gcn_token_highlights', { clear = true }),
    callback = link_token_highlights,
  })
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  -- args replace, never merge by index.
  if opts and opts.args then
    M.config.args = opts.args
  end
  local settings = M.server_settings()
  vim.lsp.config('gcn_lsp', vim.tbl_deep_extend('force', {
    cmd = M.cmd(),
    capabilities = {
      workspace = { didChangeWatchedFiles = { dynamicRegistration = M.config.watch_files and true or false } },
    },
    filetypes = { 'clrx' },
    root_markers = M.config.root_markers,
    init_options = settings,
    settings = { gcn = settings },
    on_attach = on_attach,
    handlers = { ['textDocument/publishDiagnostics'] = on_publish_diagnostics },
  }, M.config.lsp or {}))
  vim.lsp.enable('gcn_lsp')
  -- Running servers take the new settings without a restart.
  for _, client in ipairs(vim.lsp.get_clients({ name = 'gcn_lsp' })) do
    client.settings = { gcn = settings }
    client:notify('workspace/didChangeConfiguration', { settings = { gcn = settings } })
  end
  M.did_setup = true
  return M
end

return M
