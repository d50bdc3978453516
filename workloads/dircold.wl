# (b) Large directories from cold caches: 20000 empty files in 2
# directories with 64k directory blocks, then 5 rounds of: drop the caches
# (XFS frees, and unmaps, every directory and inode cluster buffer), stat
# every file (each buffer is read and mapped again).  files/s per phase;
# "coldstat" is the one that drives map and unmap.
WL_MKFS="-n size=64k"
WL_CMD='dircreate -t $CPUS -d 2 -n 20000 -r 5 -p /mnt'
