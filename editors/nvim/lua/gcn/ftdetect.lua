-- Filetype detection: `*.clrx` is CLRX. A `*.s`, `*.S` or `*.asm` file is CLRX when
--  1. one of its first lines has a pseudo-op only CLRX sources use (a binary format,
--     `.gpu`, `.kernel`, `.arch GCN…`, a kernel configuration) or `s_endpgm`;
--  2. or one of them starts (after labels) with a GCN instruction: a mnemonic of the
--     instruction list of syntax/clrx.vim (`s_load_dword`, `v_add_u32`, `ds_read_b32`,
--     `buffer_load_dword`, …, the `_e32`/`_e64`/`_sdwa`/`_dpp` forms) or `exp mrt0 …`
--     (`vim.g.gcn_detect_instructions = false` turns this off). GNU as for x86, ARM,
--     … has no such mnemonics: ARM's `s0`/`v0` registers are operands, never first;
--  3. or an open CLRX source that gcn-lsp is attached to includes it (`.include`): the
--     server's document links of that source (`vim.g.gcn_detect_includes = false` turns
--     this off). A buffer opened before its includer gets `clrx` when the includer's
--     links arrive, unless its filetype was changed since it was detected.
-- Other files keep Neovim's own detection (asm, GNU as, …). `vim.g.gcn_detect_lines` sets
-- how many lines are read (50). What the user says wins: an `asmsyntax=NAME` in the
-- first 5 lines (Neovim's own asm rule), a modeline's `ft=`, `:setfiletype`.
local M = {}

local markers = {
  '^%s*%.amdcl2%f[^%w_]', '^%s*%.amd%f[^%w_]', '^%s*%.gallium%f[^%w_]', '^%s*%.rocm%f[^%w_]',
  '^%s*%.rawcode%f[^%w_]', '^%s*%.gpu%s', '^%s*%.kernel%s', '^%s*%.kcode%f[^%w_]',
  '^%s*%.hsaconfig%f[^%w_]', '^%s*%.config%f[^%w_]', '^%s*%.cws%f[^%w_]',
  '^%s*%.sgprsnum%f[^%w_]', '^%s*%.vgprsnum%f[^%w_]', '^%s*%.driver_version%f[^%w_]',
  '^%s*%.llvm_version%f[^%w_]', '^%s*%.64bit%f[^%w_]', '^%s*%.32bit%f[^%w_]',
  '^%s*%.get_gpu%f[^%w_]', '^%s*%.ifarch%f[^%w_]', '^%s*%.ifgpu%f[^%w_]',
  '[%s:;]s_endpgm%f[^%w_]', '^s_endpgm%f[^%w_]',
}

-- The GCN mnemonics, read once from syntax/clrx.vim (generated from the instruction
-- table). nil when the file is not found: then any word with a GCN prefix counts.
local mnemonics
local function mnemonic_set()
  if mnemonics == nil then
    mnemonics = false
    local file = vim.api.nvim_get_runtime_file('syntax/clrx.vim', false)[1]
    local ok, lines = pcall(vim.fn.readfile, file or '')
    if file and ok then
      local set = {}
      for _, l in ipairs(lines) do
        local words = l:match('^syn keyword clrxInstruction%s+(.*)$')
        for w in (words or ''):gmatch('%S+') do
          set[w:lower()] = true
        end
      end
      if next(set) then
        mnemonics = set
      end
    end
  end
  return mnemonics or nil
end

local prefixes = { 's', 'v', 'ds', 'buffer', 'tbuffer', 'flat', 'global', 'scratch', 'image' }

--- Whether `word` (lower case) is a GCN instruction mnemonic.
function M.is_mnemonic(word)
  local prefix = word:match('^(%l+)_[%w_]+$')
  if not prefix or not vim.tbl_contains(prefixes, prefix) then
    return false
  end
  local set = mnemonic_set()
  if not set then
    return true
  end
  if set[word] then
    return true
  end
  -- v_add_f32_e64, v_mov_b32_sdwa, v_mov_b32_dpp: an encoding suffix on a mnemonic
  local base = word:match('^(.-)_e32$') or word:match('^(.-)_e64$') or word:match('^(.-)_sdwa$')
    or word:match('^(.-)_dpp8?$')
  return base ~= nil and set[base] == true
end

--- Whether the (lower-case) line starts with a GCN instruction, after any labels.
local function starts_with_instruction(l)
  local rest = l:gsub('^%s+', '')
  -- labels: `name:`, `1:` (not `::`)
  while true do
    local after = rest:match('^[%a_.$][%w_.$]*:%s*(.*)$') or rest:match('^%d+:%s*(.*)$')
    if not after or rest:match('^[%w_.$]+::') then
      break
    end
    rest = after
  end
  local word = rest:match('^([%a_][%w_]*)')
  if not word then
    return false
  end
  if word == 'exp' then
    return rest:match('^exp%s+mrtz?%d*') ~= nil or rest:match('^exp%s+pos%d') ~= nil
      or rest:match('^exp%s+param%d') ~= nil or rest:match('^exp%s+null%f[^%w_]') ~= nil
  end
  return M.is_mnemonic(word)
end

--- Whether `lines` look like a CLRX source (rules 1 and 2 above).
function M.is_clrx(lines)
  local instructions = vim.g.gcn_detect_instructions ~= false and vim.g.gcn_detect_instructions ~= 0
  for _, line in ipairs(lines) do
    local l = line:lower()
    if l:match('^%s*%.arch%s+gcn') then
      return true
    end
    for _, m in ipairs(markers) do
      if l:match(m) then
        return true
      end
    end
    if instructions and starts_with_instruction(l) then
      return true
    end
  end
  return false
end

-- ---- included files (rule 3) --------------------------------------------------------

local function key(path)
  return vim.uv.fs_realpath(path) or vim.fs.normalize(path)
end

M.included = {} -- real path -> true: files an attached CLRX source includes

local function includes_enabled()
  return vim.g.gcn_detect_includes ~= false and vim.g.gcn_detect_includes ~= 0
end

--- Whether an attached CLRX source includes the file at `path`.
function M.is_included(path)
  return includes_enabled() and path ~= nil and path ~= '' and M.included[key(path)] == true
end

local extensions = { s = true, S = true, asm = true }

--- Records files an attached CLRX source includes (`paths`: file names). A loaded buffer
--- of one of them whose filetype is still the one detected for it (not `clrx`) becomes
--- `clrx`, so that the server attaches to it.
function M.add_included(paths)
  if not includes_enabled() then
    return
  end
  for _, path in ipairs(paths) do
    local k = key(path)
    if not M.included[k] then
      M.included[k] = true
      for _, b in ipairs(vim.api.nvim_list_bufs()) do
        local name = vim.api.nvim_buf_get_name(b)
        if vim.api.nvim_buf_is_loaded(b) and name ~= '' and extensions[vim.fn.fnamemodify(name, ':e')]
          and vim.bo[b].filetype ~= 'clrx' and vim.bo[b].filetype == vim.b[b].gcn_detected
          and key(name) == k then
          vim.bo[b].filetype = 'clrx'
        end
      end
    end
  end
end

--- The filetype of a `*.s`/`*.S`/`*.asm` buffer: 'clrx', or what Neovim would say.
function M.detect_s(path, bufnr)
  local n = vim.g.gcn_detect_lines or 50
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, n, false)
  -- `asmsyntax=NAME` in the first 5 lines: the file says what it is (Neovim's rule;
  -- its other guess there, vmasm for a `.macro`, is no reason to think it is not CLRX).
  local head = ' ' .. table.concat(vim.list_slice(lines, 1, 5), ' '):lower() .. ' '
  local said = head:match('%sasmsyntax=([%w]+)%s')
  local ft, on_detect
  if said == 'clrx' then
    ft = 'clrx'
  elseif not said and (M.is_clrx(lines) or M.is_included(path)) then
    ft = 'clrx'
  else
    local ok, f, cb = pcall(function() return require('vim.filetype.detect').asm(path, bufnr) end)
    if ok and f then
      ft, on_detect = f, cb
    else
      ft = 'asm'
    end
  end
  return ft, function(b)
    vim.b[b].gcn_detected = ft -- the include rule changes only a filetype still this one
    if on_detect then
      on_detect(b)
    end
  end
end

local done = false
function M.register()
  if done then
    return
  end
  done = true
  vim.filetype.add({
    extension = {
      clrx = 'clrx',
      s = M.detect_s,
      S = M.detect_s,
      asm = M.detect_s,
    },
  })
end

return M
