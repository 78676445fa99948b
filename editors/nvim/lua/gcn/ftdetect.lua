-- Filetype detection: `*.clrx` is CLRX; a `*.s` file is CLRX when one of its first lines
-- has a pseudo-op only CLRX sources use (a binary format, `.gpu`, `.kernel`, `.arch GCN…`,
-- a kernel configuration) or a GCN-only instruction; other `*.s` files keep Neovim's own
-- detection (asm, GNU as). `vim.g.gcn_detect_lines` sets how many lines are read (50).
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

--- Whether `lines` look like a CLRX source.
function M.is_clrx(lines)
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
  end
  return false
end

--- The filetype of a `*.s` buffer: 'clrx', or what Neovim would say otherwise.
function M.detect_s(path, bufnr)
  local n = vim.g.gcn_detect_lines or 50
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, n, false)
  if M.is_clrx(lines) then
    return 'clrx'
  end
  local ok, ft = pcall(function() return require('vim.filetype.detect').asm(path, bufnr) end)
  if ok and ft then
    return ft
  end
  return 'asm'
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
    },
  })
end

return M
