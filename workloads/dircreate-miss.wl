# dircreate from cold caches, then lookups that miss: 20000 files in 4
# directories, one drop of the caches (-r 1: the buffers are freed and the
# next lookups read them again), then 2 rounds of lookups of names that do
# not exist (-M 2, new names each round, so that no negative dentry
# answers): every lookup goes to the directories' hash blocks, 64k buffers.
WL_MKFS="-n size=64k"
WL_CMD='dircreate -t $CPUS -d 4 -n 20000 -r 1 -M 2 -p /mnt'
