-- Headless end-to-end test of the gcn.nvim plugin with gcn-lsp: what a user does and sees.
-- Run by run.sh (the plugin on the runtimepath, a copy of fixture/ as the project):
--   nvim --headless --clean --cmd 'set rtp^=PLUGIN' -l plugin_test.lua WORKDIR
-- Prints `ok`, `FAIL` or `SKIP` per step. A step whose server feature gcn-lsp does not
-- offer yet (checked from its capabilities or a "method not found" answer) is SKIPPED,
-- never passed; GCN_REQUIRE_FEATURES=1 turns every skip into a failure.
local dir = _G.arg[1]
local require_all = os.getenv('GCN_REQUIRE_FEATURES') == '1'
local failures, skips = 0, 0
local timeout = 15000

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end
local function check(ok, what)
  if ok then
    out('ok   ' .. what)
  else
    failures = failures + 1
    out('FAIL ' .. what)
  end
  return ok
end
local function skip(what, lacks)
  if require_all then
    failures = failures + 1
    out(('FAIL %s (server lacks %s; GCN_REQUIRE_FEATURES=1)'):format(what, lacks))
  else
    skips = skips + 1
    out(('SKIP %s (server lacks %s)'):format(what, lacks))
  end
end
local function wait(pred, ms)
  return vim.wait(ms or timeout, pred, 20)
end
local function finish()
  out(('nvim plugin test: %d failed, %d skipped'):format(failures, skips))
  vim.cmd(failures > 0 and 'cquit 1' or 'qall!')
end

-- A user's init.lua: the plugin from the runtimepath, setup with defaults.
vim.cmd('runtime! plugin/**/*.lua ftdetect/*.lua')
local gcn = require('gcn')
gcn.setup({})
-- Notifications are collected (the test reads them).
local notes = {}
vim.notify = function(msg) table.insert(notes, msg) end

for _, c in ipairs({ 'GcnAssemble', 'GcnRegisters', 'GcnSyntaxTree' }) do
  check(vim.fn.exists(':' .. c) == 2, 'command :' .. c .. ' exists')
end

-- Filetype detection.
vim.cmd('edit ' .. dir .. '/gnu.s')
check(vim.bo.filetype ~= 'clrx', 'GNU as gnu.s is not clrx (' .. vim.bo.filetype .. ')')
vim.cmd('edit ' .. dir .. '/arm.s')
check(vim.bo.filetype ~= 'clrx', 'GNU as for AArch64 arm.s (s0, v0 registers) is not clrx (' .. vim.bo.filetype .. ')')
-- An included file with GCN instructions and none of the CLRX pseudo-ops.
vim.cmd('edit ' .. dir .. '/inc/helpers.s')
check(vim.bo.filetype == 'clrx', 'inc/helpers.s (a .macro with v_mov_b32, s_nop) is clrx (' .. vim.bo.filetype .. ')')
-- `asmsyntax=` in the file wins.
vim.fn.writefile({ '# asmsyntax=asm', '        s_nop 0' }, dir .. '/said.s')
vim.cmd('edit ' .. dir .. '/said.s')
check(vim.bo.filetype == 'asm', 'asmsyntax=asm in the file wins over its s_nop (' .. vim.bo.filetype .. ')')
vim.g.gcn_detect_instructions = false
vim.cmd('bwipeout! ' .. vim.fn.bufnr(dir .. '/inc/helpers.s'))
vim.cmd('edit ' .. dir .. '/inc/helpers.s')
check(vim.bo.filetype ~= 'clrx', 'vim.g.gcn_detect_instructions = false: inc/helpers.s is not clrx (' .. vim.bo.filetype .. ')')
vim.g.gcn_detect_instructions = nil
vim.cmd('bwipeout! ' .. vim.fn.bufnr(dir .. '/inc/helpers.s'))
-- Definitions only: nothing in it says CLRX, until a CLRX source including it is open.
vim.cmd('edit ' .. dir .. '/inc/consts.s')
local consts = vim.api.nvim_get_current_buf()
check(vim.bo.filetype ~= 'clrx', 'inc/consts.s alone is not clrx (' .. vim.bo.filetype .. ')')
vim.fn.writefile({ 's_nop 0' }, dir .. '/bare.clrx')
vim.cmd('edit ' .. dir .. '/bare.clrx')
check(vim.bo.filetype == 'clrx', '*.clrx is clrx')
local path = dir .. '/kernel.s'
vim.cmd('edit ' .. path)
local buf = vim.api.nvim_get_current_buf()
check(vim.bo.filetype == 'clrx', 'kernel.s (.gallium, .gpu) is clrx')
-- Highlighting (syntax/clrx.vim, generated with the VS Code grammar from the same lists).
local function syn_at(pat)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = l:find(pat)
    if col then return vim.fn.synIDattr(vim.fn.synID(i, col, 1), 'name') end
  end
  return 'no ' .. pat
end
local groups = {
  syn_at('s_load_dwordx2'), syn_at('%.gallium'), syn_at('s6'), syn_at('^# Two'), syn_at('^offsetby:'),
}
check(vim.deep_equal(groups, { 'clrxInstruction', 'clrxPseudoOp', 'clrxRegister', 'clrxComment', 'clrxLabel' }),
  'highlight groups: ' .. table.concat(groups, ' '))

local client
if not check(wait(function()
  client = gcn.client(buf)
  return client ~= nil and client.initialized
end), 'gcn-lsp attached') then
  return finish()
end
check(client.root_dir == dir or client.root_dir == vim.uv.fs_realpath(dir),
  'project root is the gcn.toml folder (' .. tostring(client.root_dir) .. ')')
local caps = client.server_capabilities

local function line_of(pat)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:match(pat) then return i - 1 end
  end
end

-- Diagnostics after an edit: a bad instruction line, then removed.
wait(function() return #vim.diagnostic.get(buf) == 0 end, 3000)
check(#vim.diagnostic.get(buf) == 0, 'no diagnostics on the valid file')
local at = line_of('^%s+s_endpgm') -- end of the first kernel
vim.api.nvim_buf_set_lines(buf, at, at, false, { '        v_mov_b32 v1, (1+' })
check(wait(function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum == at and d.severity == vim.diagnostic.severity.ERROR then return true end
  end
end), 'error on the bad line ' .. (at + 1) .. ' after typing it')
vim.api.nvim_buf_set_lines(buf, at, at + 1, false, {})
check(wait(function() return #vim.diagnostic.get(buf) == 0 end), 'error gone after deleting the line')

-- An error a repetition makes three times: one diagnostic, its message telling where from.
vim.api.nvim_buf_set_lines(buf, at, at, false, { '        .rept 3', '        s_bogus_op', '        .endr' })
local repeated
check(wait(function()
  local here = vim.tbl_filter(function(d) return d.lnum == at + 1 end, vim.diagnostic.get(buf))
  repeated = here[1] and here[1].message
  return #here == 1 and repeated:find('reported 3 times', 1, true) and repeated:find('in repetition 3/3', 1, true)
end), 'a repeated error is one diagnostic, with its places: ' .. tostring(repeated):gsub('\n', ' | '))
vim.api.nvim_buf_set_lines(buf, at, at + 3, false, {})
check(wait(function() return #vim.diagnostic.get(buf) == 0 end), 'and gone with the repetition')

-- A misspelled mnemonic: the error says what it may be, and the quick fix corrects it.
if caps.codeActionProvider then
  vim.api.nvim_buf_set_lines(buf, at, at, false, { '        s_mov_b33 s0, s1' })
  check(wait(function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == at and d.message:find('did you mean `s_mov_b32`?', 1, true) then return true end
    end
  end), 'an unknown mnemonic says what it may be a slip for')
  vim.api.nvim_win_set_cursor(0, { at + 1, 10 })
  vim.lsp.buf.code_action({ apply = true, context = { only = { 'quickfix' } } })
  check(wait(function()
    return vim.api.nvim_buf_get_lines(buf, at, at + 1, false)[1] == '        s_mov_b32 s0, s1'
  end), 'the quick fix changes s_mov_b33 to s_mov_b32: ' .. vim.api.nvim_buf_get_lines(buf, at, at + 1, false)[1])
  vim.api.nvim_buf_set_lines(buf, at, at + 1, false, {})
  check(wait(function() return #vim.diagnostic.get(buf) == 0 end), 'and no error once the line is gone')
else
  skip('quick fix of a misspelled mnemonic', 'codeActionProvider')
end

-- A check's warning on the second of two lines written at `at`, its quick fix inserting
-- `fixed` before that line, and the setting that turns the check off.
local function check_warning_and_fix(lines, code, what, fixed, setting)
  if not caps.codeActionProvider then
    skip('the ' .. code .. ' warning and its fix', 'codeActionProvider')
    return
  end
  vim.api.nvim_buf_set_lines(buf, at, at, false, lines)
  check(wait(function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == at + 1 and d.code == code and d.severity == vim.diagnostic.severity.WARN then
        return true
      end
    end
  end), what .. ': warning ' .. code)
  vim.api.nvim_win_set_cursor(0, { at + 2, 10 })
  vim.lsp.buf.code_action({ apply = true, context = { only = { 'quickfix' } } })
  check(wait(function()
    return vim.api.nvim_buf_get_lines(buf, at + 1, at + 2, false)[1] == fixed
  end), 'the quick fix inserts "' .. vim.trim(fixed) .. '" before the line')
  check(wait(function() return #vim.diagnostic.get(buf) == 0 end), 'and the warning goes')
  vim.api.nvim_buf_set_lines(buf, at, at + 3, false, {})
  local off = { checks = { [setting] = false } }
  check(vim.deep_equal(gcn.server_settings(off), off),
    'checks = { ' .. setting .. ' = false } is sent as the server setting')
end

-- A register read before its load is waited for: the quick fix writes the wait.
check_warning_and_fix({ '        s_load_dword s7, s[0:1], 0x8', '        s_add_u32 s8, s7, 1' },
  'missing-waitcnt', 'a register read while its load is in flight',
  '        s_waitcnt lgkmcnt(0)', 'waitcnt')

-- An SGPR a vector ALU instruction wrote, read at once by a vector memory instruction:
-- the quick fix writes the s_nop.
check_warning_and_fix({ '        v_readfirstlane_b32 s7, v1', '        buffer_store_dword v1, v0, s[4:7], s7 offen' },
  'missing-nop', 'an SGPR read too soon after a VALU wrote it', '        s_nop 4', 'nops')

-- Hover on an instruction.
local mul = line_of('^%s+v_mul_lo_u32')
if caps.hoverProvider then
  vim.api.nvim_win_set_cursor(0, { mul + 1, 10 })
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    vim.lsp.util.make_position_params(0, client.offset_encoding), timeout) or {}
  local text = ''
  for _, r in pairs(res) do
    local c = r.result and r.result.contents
    if c then text = text .. (type(c) == 'string' and c or c.value or vim.inspect(c)) end
  end
  check(text:find('v_mul_lo_u32', 1, true) ~= nil, 'hover on v_mul_lo_u32 tells about it: ' .. text:sub(1, 60):gsub('\n', ' '))
else
  skip('hover on an instruction', 'hoverProvider')
end

-- Semantic tokens follow edits, asked as deltas (the server keeps its last result).
local st = caps.semanticTokensProvider
if st and type(st.full) == 'table' and st.full.delta then
  local asked = {}
  local rpc_request = client.rpc.request
  client.rpc.request = function(method, ...)
    asked[method] = (asked[method] or 0) + 1
    return rpc_request(method, ...)
  end
  local function token_at(row, col)
    for _, t in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}) do
      if t.client_id == client.id then return t.type end
    end
  end
  check(wait(function() return token_at(mul, 10) == 'instruction' end), 'semantic tokens: v_mul_lo_u32 is an instruction')
  vim.api.nvim_buf_set_lines(buf, mul, mul, false, { 'NEWSYM = 0x10' })
  check(wait(function() return token_at(mul, 0) == 'symbol' and token_at(mul, 10) == 'number' and token_at(mul + 1, 10) == 'instruction' end),
    'semantic tokens after inserting a line: the new symbol, then the instruction a line down')
  vim.api.nvim_buf_set_lines(buf, mul, mul + 1, false, {})
  check(wait(function() return token_at(mul, 10) == 'instruction' and token_at(mul, 0) == nil end),
    'and after deleting it again')
  check((asked['textDocument/semanticTokens/full/delta'] or 0) > 0,
    'the edits were asked as semanticTokens/full/delta (' .. vim.inspect(asked):gsub('%s+', ' ') .. ')')
  client.rpc.request = rpc_request
  -- A label's use in an operand is a label token, drawn as the syntax file draws labels.
  local branch = line_of('s_cbranch_scc0%s+loop')
  local use = vim.api.nvim_buf_get_lines(buf, branch, branch + 1, false)[1]:find('loop') - 1
  check(wait(function() return token_at(branch, use) == 'label' end), 'semantic tokens: the branch target `loop` is a label')
  vim.cmd('colorscheme default')
  check(vim.api.nvim_get_hl(0, { name = '@lsp.type.label.clrx' }).link == 'Label',
    'label tokens are linked to Label, also after a colour scheme is loaded')
  check(vim.api.nvim_get_hl(0, { name = '@lsp.type.parameter.clrx' }).link == 'Special',
    'macro parameters keep the syntax file\'s colour of `\\name` (Special)')
else
  skip('semantic tokens after edits, as deltas', 'semanticTokensProvider.full.delta')
end

-- A buffer past `semantic_tokens_max_lines` keeps the syntax colours only.
if st and st.full then
  gcn.setup({ semantic_tokens_max_lines = 5 })
  vim.cmd('edit ' .. dir .. '/long.s')
  local long = vim.api.nvim_get_current_buf()
  check(wait(function() return gcn.client(long) ~= nil end), 'long.s has the server')
  vim.wait(1000)
  local any = false
  for row = 0, vim.api.nvim_buf_line_count(long) - 1 do
    if #(vim.lsp.semantic_tokens.get_at_pos(long, row, 10) or {}) > 0 then any = true end
  end
  check(not any, 'no semantic tokens in a buffer longer than semantic_tokens_max_lines')
  gcn.setup({})
  vim.cmd('buffer ' .. buf)
  vim.cmd('bwipeout! ' .. long)
else
  skip('no semantic tokens in a long buffer', 'semanticTokensProvider.full')
end

-- Go to definition: from `s_cbranch_scc0 loop` to `loop:`.
local use = line_of('s_cbranch_scc0%s+loop')
local def = line_of('^loop:')
if caps.definitionProvider then
  local col = vim.api.nvim_buf_get_lines(buf, use, use + 1, false)[1]:find('loop') - 1
  vim.api.nvim_win_set_cursor(0, { use + 1, col })
  vim.lsp.buf.definition()
  check(wait(function() return vim.api.nvim_win_get_cursor(0)[1] == def + 1 end),
    'go to definition moves the cursor to loop: (line ' .. (def + 1) .. ')')
else
  skip('go to definition', 'definitionProvider')
end

-- Rename the label `loop` to `again` (definition and use).
if caps.renameProvider then
  local col = vim.api.nvim_buf_get_lines(buf, use, use + 1, false)[1]:find('loop') - 1
  vim.api.nvim_win_set_cursor(0, { use + 1, col })
  vim.lsp.buf.rename('again')
  check(wait(function()
    local l = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    return l[def + 1]:match('^again:') and l[use + 1]:match('s_cbranch_scc0%s+again')
  end), 'rename loop -> again changes the label and its use')
else
  skip('rename', 'renameProvider')
end

-- Highlight on a register: its operands in the same kernel, the load's as a write.
if caps.documentHighlightProvider then
  local load = line_of('s_load_dword%s+s6')
  local col = vim.api.nvim_buf_get_lines(buf, load, load + 1, false)[1]:find('s6') - 1
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/documentHighlight', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = load, character = col },
  }, timeout)
  local found = {}
  for _, r in pairs(res or {}) do
    for _, h in ipairs(r.result or {}) do
      table.insert(found, ('%d:%d'):format(h.range.start.line - load, h.kind))
    end
  end
  local read = line_of('v_mul_lo_u32%s+v3, v3, s6')
  check(table.concat(found, ' ') == ('0:3 %d:2'):format(read - load),
    'highlight on s6: the load writes it, the multiply reads it (' .. table.concat(found, ' ') .. ')')
else
  skip('register highlights', 'documentHighlightProvider')
end

-- Completion of a mnemonic.
if caps.completionProvider then
  vim.api.nvim_buf_set_lines(buf, mul, mul, false, { '        v_mul_l' })
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = mul, character = 15 },
  }, timeout) or {}
  local found = false
  for _, r in pairs(res) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, it in ipairs(items) do
      if it.label == 'v_mul_lo_u32' then found = true end
    end
  end
  check(found, 'completion after `v_mul_l` offers v_mul_lo_u32')
  vim.api.nvim_buf_set_lines(buf, mul, mul + 1, false, {})
else
  skip('completion', 'completionProvider')
end

-- Register counts: virtual text or inlay hints at the kernel labels, the statusline,
-- and both following an edit that uses a higher VGPR.
local kernels, err
gcn.fetch_usage(buf, function(k, e) kernels, err = k, e end)
wait(function() return kernels ~= nil or err ~= nil end)
if kernels then
  check(#kernels == 2, 'gcn/registerUsage: 2 kernels (' .. #kernels .. ')')
  local shown = wait(function()
    local ok_h, hints = pcall(vim.lsp.inlay_hint.get, { bufnr = buf })
    if ok_h and hints and #hints > 0 then return true end
    local marks = vim.api.nvim_buf_get_extmarks(buf, -1, 0, -1, { details = true })
    for _, m in ipairs(marks) do
      if m[4] and m[4].virt_text and m[4].virt_text[1][1]:find('VGPR') then return true end
    end
  end)
  check(shown, 'register counts shown at the kernel labels (inlay hints or virtual text)')
  -- In the last kernel: whichever line the server gives as a kernel's start (label or
  -- .kernel pseudo-op), the kernel starting last before the cursor is this one.
  local last = line_of('v_add_u32%s+v3, vcc, 7, v3')
  vim.api.nvim_win_set_cursor(0, { last + 1, 0 })
  local before = gcn.statusline()
  check(before:match('^SGPR %d+ · VGPR %d+') ~= nil, 'statusline in kernel offsetby: ' .. before)
  vim.api.nvim_buf_set_lines(buf, last, last, false, { '        v_mov_b32 v40, v3' })
  -- v40 used: at least 41 VGPRs (the server may round up to its allocation granule).
  check(wait(function() return tonumber(gcn.statusline():match('VGPR (%d+)') or 0) >= 41 end),
    'statusline follows the edit writing v40: ' .. gcn.statusline())
  vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})
  -- :GcnRegisters offers every kernel (vim.ui.select) and jumps to the one picked.
  local offered
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for _, k in ipairs(items) do
      if k.name == 'offsetby' then return on_choice(k) end
    end
    on_choice(nil)
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('GcnRegisters')
  local starts = { line_of('^offsetby:') + 1, line_of('^%.kernel offsetby') + 1 }
  check(wait(function() return vim.tbl_contains(starts, vim.api.nvim_win_get_cursor(0)[1]) end),
    ':GcnRegisters jumps to the kernel picked: ' .. table.concat(offered or {}, ' | '):gsub('%s+', ' '))
  vim.ui.select = select
else
  skip('register counts and statusline (' .. tostring(err) .. ')', 'gcn/registerUsage')
end

-- :GcnAssemble writes the on-save output of gcn.toml.
local bin = dir .. '/build/kernel.bin'
local cmds = (caps.executeCommandProvider or {}).commands or {}
if vim.tbl_contains(cmds, 'gcn.assemble') then
  vim.fn.delete(bin)
  vim.cmd('GcnAssemble')
  check(wait(function() return vim.fn.filereadable(bin) == 1 end), ':GcnAssemble wrote build/kernel.bin')
else
  skip(':GcnAssemble', 'executeCommand gcn.assemble')
end

-- Saving writes the binary too (the server takes didSave).
local sync = caps.textDocumentSync
if type(sync) == 'table' and sync.save then
  vim.fn.delete(bin)
  vim.cmd('write')
  check(wait(function() return vim.fn.filereadable(bin) == 1 end), ':write writes build/kernel.bin (on-save)')
else
  skip('on-save output', 'textDocumentSync.save')
end

-- :GcnSyntaxTree opens the tree in a read-only scratch buffer.
local src_win = vim.api.nvim_get_current_win()
vim.cmd('GcnSyntaxTree')
local tree
check(wait(function()
  tree = vim.fn.bufnr('gcn-syntax-tree://' .. path)
  return tree ~= -1 and vim.api.nvim_buf_line_count(tree) > 10
end), ':GcnSyntaxTree shows the tree')
if tree and tree ~= -1 then
  check(not vim.bo[tree].modifiable, 'the tree buffer is read-only')
  local first = vim.api.nvim_buf_get_lines(tree, 0, 1, false)[1] or ''
  check(first:match('^%u[%u_]*@0%.%.%d+') ~= nil, 'tree text starts with the root node: ' .. first)
end
vim.api.nvim_set_current_win(src_win)

-- New settings reach the running server (no restart) and take effect: a line that fails
-- only when E2E_FLAG is defined, then setup() with args that define it.
local id = client.id
vim.api.nvim_buf_set_lines(buf, 1, 1, false, { '.ifdef E2E_FLAG; .error "E2E_FLAG is set"; .endif' })
vim.wait(1500)
local function flag_error()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('E2E_FLAG is set', 1, true) then return true end
  end
end
check(not flag_error(), 'no E2E_FLAG error before the setting')
gcn.setup({ diagnostics_delay = 10, args = { '-D', 'E2E_FLAG' } })
check(gcn.client(buf) and gcn.client(buf).id == id, 'setup() again keeps the server running')
check(vim.deep_equal(gcn.client(buf).settings, { gcn = { diagnosticsDelay = 10, args = { '-D', 'E2E_FLAG' } } }),
  'new settings sent: ' .. vim.inspect(gcn.client(buf).settings):gsub('%s+', ' '))
check(wait(flag_error), 'the server applies them: error "E2E_FLAG is set" shown')
gcn.setup({})
check(wait(function() return not flag_error() end), 'and drops it when the setting goes')
vim.api.nvim_buf_set_lines(buf, 1, 2, false, {})

-- Included files: multi.s includes inc/consts.s, already open and not clrx: it becomes
-- clrx when multi.s is open (the server's document links), and the server attaches to it.
vim.cmd('edit ' .. dir .. '/multi.s')
local multi = vim.api.nvim_get_current_buf()
check(vim.bo.filetype == 'clrx', 'multi.s is clrx')
check(wait(function() return vim.bo[consts].filetype == 'clrx' end),
  'inc/consts.s, open before its includer, becomes clrx (' .. vim.bo[consts].filetype .. ')')
check(wait(function() return gcn.client(consts) ~= nil end), 'and gcn-lsp attaches to it')
vim.cmd('bwipeout! ' .. consts)
vim.cmd('edit ' .. dir .. '/inc/consts.s')
check(vim.bo.filetype == 'clrx', 'inc/consts.s opened again while multi.s is open: clrx (' .. vim.bo.filetype .. ')')
vim.cmd('bwipeout!')
vim.cmd('buffer ' .. multi)

-- A closed included file changed on disk (a checkout): the includer's diagnostics follow,
-- with no edit, through Neovim's file watcher the server registers.
local mclient = gcn.client(multi)
check(mclient and vim.tbl_get(mclient.capabilities, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration') == true,
  'the client offers workspace.didChangeWatchedFiles.dynamicRegistration (watch_files)')
wait(function() return #vim.diagnostic.get(multi) == 0 end, 3000)
check(#vim.diagnostic.get(multi) == 0, 'multi.s has no diagnostics')

-- :GcnExpandMacro on `zero v1`, a macro of the included inc/helpers.s.
vim.api.nvim_win_set_cursor(0, { 11, 8 })
vim.cmd('GcnExpandMacro')
local expansion_name = 'gcn-expansion://' .. vim.api.nvim_buf_get_name(multi) .. ':11'
check(wait(function()
  local b = vim.fn.bufnr(expansion_name)
  return b ~= -1 and vim.deep_equal(vim.api.nvim_buf_get_lines(b, 0, -1, false),
    { '# zero v1 (multi.s:11) expands to:', '        v_mov_b32 v1, 0' })
end), ':GcnExpandMacro on `zero v1` shows `v_mov_b32 v1, 0` beside')
local expansion = vim.fn.bufnr(expansion_name)
check(expansion ~= -1 and vim.bo[expansion].filetype == 'clrx' and gcn.client(expansion) == nil,
  'the expansion is highlighted as clrx, and not sent to the server')
vim.cmd('only')
vim.cmd('buffer ' .. multi)

-- :GcnListing: each instruction with its words, `zero v1` (inc/helpers.s) among them.
vim.cmd('GcnListing')
local listing_name = 'gcn-listing://' .. vim.api.nvim_buf_get_name(multi)
check(wait(function()
  local b = vim.fn.bufnr(listing_name)
  if b == -1 then return false end
  local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
  return text:find('7e020280', 1, true) ~= nil and text:find('inc/helpers.s:', 1, true) ~= nil
end), ':GcnListing shows `zero v1` as 7e020280 from inc/helpers.s')
vim.cmd('only')
vim.cmd('buffer ' .. multi)
local registered = mclient and wait(function()
  return mclient.dynamic_capabilities:get('workspace/didChangeWatchedFiles') ~= nil
end, 3000)
if registered then
  local helpers = dir .. '/inc/helpers.s'
  local original = vim.fn.readfile(helpers)
  local broken = vim.deepcopy(original)
  broken[6] = '        s_nop 0, 1, 2'
  vim.fn.writefile(broken, helpers)
  check(wait(function()
    for _, d in ipairs(vim.diagnostic.get(multi)) do
      if d.severity == vim.diagnostic.severity.ERROR then return true end
    end
  end), 'an error written into the closed inc/helpers.s shows in multi.s')
  vim.fn.writefile(original, helpers)
  check(wait(function() return #vim.diagnostic.get(multi) == 0 end), 'and goes when the file is restored')
else
  skip('a closed include changed on disk', 'a workspace/didChangeWatchedFiles registration')
end

-- Rename a macro parameter from its use in the body: the declaration and every use,
-- the one inside a string too.
if caps.renameProvider then
  vim.fn.writefile({
    '.macro bump reg, count=1',
    '        v_add_u32 \\reg, vcc, \\count, \\reg',
    '        .ascii "\\count"',
    '.endm',
    'bump v1',
  }, dir .. '/params.s')
  vim.cmd('edit ' .. dir .. '/params.s')
  local pbuf = vim.api.nvim_get_current_buf()
  wait(function() return gcn.client(pbuf) ~= nil and #vim.diagnostic.get(pbuf) == 0 end, 3000)
  local col = vim.api.nvim_buf_get_lines(pbuf, 1, 2, false)[1]:find('count')
  vim.api.nvim_win_set_cursor(0, { 2, col })
  vim.lsp.buf.rename('n')
  local want = { '.macro bump reg, n=1', '        v_add_u32 \\reg, vcc, \\n, \\reg', '        .ascii "\\n"' }
  check(wait(function()
    return vim.deep_equal(vim.api.nvim_buf_get_lines(pbuf, 0, 3, false), want)
  end), 'rename of a macro parameter from a use: `count` -> `n` in its declaration and uses')
  vim.cmd('bwipeout! ' .. pbuf)
else
  skip('rename of a macro parameter', 'renameProvider')
end

-- :checkhealth gcn runs and finds the server.
vim.cmd('checkhealth gcn')
local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
check(health:find('gcn-lsp: ', 1, true) ~= nil and not health:find('ERROR', 1, true),
  ':checkhealth gcn reports the server without errors')

finish()
