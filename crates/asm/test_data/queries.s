#! gpu=Tonga
# Predefined values.
.get_version v
.get_policy p
.policy 200
.get_policy p2
.get_arch arch
.get_gpu gpu
.get_format fmt
.get_64bit b64
.policy 0x1ffffffff
