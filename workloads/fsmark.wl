# fs_mark, the benchmark XFS developers post for directory scalability
# (fs_mark -D <dirs> -S0 -n <files> -s 0 -L <loops> -d <dir> on
# mkfs.xfs -n size=64k), scaled to TCG: zero-length files, no sync, one
# thread per vCPU in a directory of its own (time-hashed over 4
# subdirectories, so in practice one large directory each), 4 loops of
# 5000 files per thread, kept (-k), so that the directories grow to
# 20000 entries each (phase create, timed around fs_mark, with its
# counters; fs_mark's own rates are phases loopN and fs_mark).  fs_mark
# only creates; the lookup-heavy phase that
# goes to the directory blocks comes after it: one drop of the caches,
# then ls -lR of the tree (coldls: readdir, and a lookup of every name
# with cold dentries: the directories' hash and data blocks are read
# again).
WL_MKFS="-n size=64k"
WL_SETUP='mkdir -p /mnt/fsm'
WL_CMD='phase_run create $((CPUS * 20000)) fs_mark -k -S0 -s 0 -D 4 -n 5000 -L 4 -t $CPUS -d /mnt/fsm &&
	sync && echo 3 > /proc/sys/vm/drop_caches &&
	phase_run coldls $((CPUS * 20000)) sh -c "ls -lR /mnt/fsm > /dev/null"'
WL_PARSE=fsmark_parse
