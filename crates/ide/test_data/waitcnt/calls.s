# args: -g Tonga -b rawcode
# A called function waits for every memory operation before it returns (the calling
# convention LLVM's code keeps): a register the caller loaded before the call is safe
# to read after it. The call itself reads its target address when it issues, and
# its return address may not be written while a load into it is in flight.
        s_load_dwordx2 s[2:3], s[0:1], 0
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_load_dword s4, s[0:1], 8
        s_swappc_b64 s[4:5], s[2:3]
        v_add_f32 v2, v1, v1
        s_endpgm
