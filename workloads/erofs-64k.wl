# Compressed reads (the cread step): the full file set in an erofs image
# made with mkfs.erofs -zlz4hc -C 65536: physical clusters up to 16 pages
# (big pclusters), whose input pages erofs maps too when they are not
# contiguous in memory.
CR_FS=erofs
CR_SET=full
CR_CLUSTER=64k
