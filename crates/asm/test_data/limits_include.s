#! max-include-depth=5
# A file including itself stops at the include limit.
.rawcode
.byte 1
.include "test_data/limits_include.s"
