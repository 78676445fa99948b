v_rcp_f64 v[1:2], 1.5
v_add_f16 v1, 1.0, v2
