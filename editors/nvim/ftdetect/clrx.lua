-- CLRX sources: `*.clrx`, and `*.s` files whose first lines look like CLRX (see
-- lua/gcn/ftdetect.lua).
require('gcn.ftdetect').register()
