# Compressed reads (the cread step): the full file set written to f2fs
# (mkfs.f2fs -O extra_attr,compression, mounted compress_algorithm=lz4, a
# directory with chattr +c: clusters of 4 pages), then read back cold.
# f2fs maps a cluster's pages and its compressed pages with vm_map_ram()
# for every decompression.  The files come from the 64k erofs image.
CR_FS=f2fs
CR_SET=full
CR_CLUSTER=64k
