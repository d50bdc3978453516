# (c) Many small block directories from cold caches: 40000 empty files in
# 2000 directories (20 each: every directory is one 64k block, a 16-page
# buffer), then 5 rounds of drop caches + stat every file: each round
# maps, and at the next drop frees and unmaps, 2000 directory buffers.
WL_MKFS="-n size=64k"
WL_CMD='dircreate -t $CPUS -d 2000 -n 40000 -r 5 -p /mnt'
