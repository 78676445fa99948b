-- End-to-end smoke test: Neovim starts gcn-lsp for a `.s` file, and diagnostics and
-- document symbols follow edits. Run by `run.sh`; exits non-zero on failure.

local failures = 0
local function check(ok, what)
  if ok then
    io.stdout:write('ok   ' .. what .. '\n')
  else
    failures = failures + 1
    io.stdout:write('FAIL ' .. what .. '\n')
  end
end

local function finish()
  io.stdout:flush()
  if failures > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

local timeout = 10000

local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/kernel.s'
vim.fn.writefile({
  '# größe 😀: non-ASCII before the code',
  '.amd',
  '.gpu Bonaire',
  '.kernel first',
  '    .config',
  '        .dims x',
  '    .text',
  'first:',
  '    s_mov_b32 s0, 1+2*3',
  'loop: s_sub_u32 s0, s0, 1',
  '    s_cbranch_scc0 loop',
  '    s_endpgm',
}, path)

-- Publications arrive through this handler; count them to wait for the next one.
local published = 0
local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx)
  default_handler(err, result, ctx)
  if result and result.uri == vim.uri_from_fname(path) then
    published = published + 1
  end
end

vim.cmd('edit ' .. vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
check(vim.bo[buf].filetype == 'clrx', 'filetype is clrx')

local client
check(vim.wait(timeout, function()
  client = vim.lsp.get_clients({ bufnr = buf, name = 'gcn_lsp' })[1]
  return client ~= nil and client.initialized
end, 20), 'gcn-lsp attached')
if not client then
  return finish()
end
check(client.offset_encoding == 'utf-16' or client.offset_encoding == 'utf-8',
  'position encoding negotiated: ' .. tostring(client.offset_encoding))

local function wait_for(pred, what)
  check(vim.wait(timeout, pred, 20), what)
end

wait_for(function() return published > 0 end, 'diagnostics published on open')
check(#vim.diagnostic.get(buf) == 0, 'valid file: no diagnostics')

-- Insert a broken line after `loop:` (line index 10): an error on that line.
local before = published
vim.api.nvim_buf_set_lines(buf, 10, 10, false, { '    .int (1+2*' })
wait_for(function()
  local diags = vim.diagnostic.get(buf)
  return published > before and #diags > 0
end, 'error published after inserting `.int (1+2*`')
local diags = vim.diagnostic.get(buf)
local all_on_line = #diags > 0
for _, d in ipairs(diags) do
  all_on_line = all_on_line and d.lnum == 10 and d.severity == vim.diagnostic.severity.ERROR
end
check(all_on_line, 'errors are on the inserted line')

-- Delete it: the error goes away.
before = published
vim.api.nvim_buf_set_lines(buf, 10, 11, false, {})
wait_for(function()
  return published > before and #vim.diagnostic.get(buf) == 0
end, 'error cleared after deleting the line')

-- An edit after non-ASCII characters (line 0): rename the label via a character-wise
-- change, then a new label on a line with non-ASCII before it.
vim.api.nvim_buf_set_text(buf, 7, 0, 7, 5, { 'start' })
vim.api.nvim_buf_set_lines(buf, 0, 1, false, { '/* größe 😀 */ entry: s_nop 0' })
local line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
local col = line:find('entry', 1, true) - 1
vim.api.nvim_buf_set_text(buf, 0, col, 0, col, { 'main_' })

-- Document symbols.
local response = client:request_sync('textDocument/documentSymbol',
  { textDocument = vim.lsp.util.make_text_document_params(buf) }, timeout, buf)
local symbols = response and response.result or {}
local names = {}
local function collect(list, prefix)
  for _, s in ipairs(list) do
    table.insert(names, prefix .. s.name)
    collect(s.children or {}, prefix .. s.name .. '/')
  end
end
collect(symbols, '')
local got = table.concat(names, ' ')
check(got == 'main_entry first first/start first/loop', 'document symbols: ' .. got)

-- The label's selection range is where Neovim has it, in the negotiated encoding.
local entry = symbols[1]
if entry then
  local want = vim.str_utfindex(line:gsub('entry', 'main_entry'), client.offset_encoding, col)
  check(entry.selectionRange.start.line == 0 and entry.selectionRange.start.character == want,
    ('`main_entry` at column %d (%s)'):format(want, client.offset_encoding))
end

vim.fn.delete(dir, 'rf')
finish()
