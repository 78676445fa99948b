# before any .gpu: the default generation (GCN1.0), AMD format
        v_pk_$0
        v_add_u1$0
.kernel k
        .cw$0
        .config
        .cw$0
