# make test's short compressed read on f2fs: the small file set, written
# to a compressed directory and read back cold.
CR_FS=f2fs
CR_SET=small
CR_CLUSTER=64k
