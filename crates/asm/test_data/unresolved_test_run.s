#! test-run
# The same in a test run (`--emit json`, as the reference's corpus was made): only
# data is kept as 0, with a warning; definitions stay undefined.
a = b                    # b waits for a: a cycle
b = a
.int a                   # a use of the cycle
.int never + 1           # never defined
c = never * 2            # a definition that waits forever
.int resolved            # a forward reference that does resolve: no error
resolved = 7
.scope inner
    .int x               # inner::x
.ends
# .incbin of something that is not a regular file (a directory here) says so
.incbin "test_data"
.incbin "no such file"
