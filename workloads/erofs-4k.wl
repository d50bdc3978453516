# Compressed reads (the cread step): the full file set (about 180 MB in
# 16864 files of text, source and binaries, scripts/lib/cread.sh) in an
# erofs image made with mkfs.erofs -zlz4hc -C 4096: LZ4HC in physical
# clusters of one page.
# A cold read decompresses each cluster, and erofs maps its output pages
# with vm_map_ram() when they are more than one.
CR_FS=erofs
CR_SET=full
CR_CLUSTER=4k
