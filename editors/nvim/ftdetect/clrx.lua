-- CLRX sources: `*.clrx`, and `*.s`/`*.S`/`*.asm` files whose first lines look like CLRX
-- or that an open CLRX source includes (see lua/gcn/ftdetect.lua).
require('gcn.ftdetect').register()
