# make test's short compressed read: the small file set (about 11 MB in
# 412 files) in an erofs image with physical clusters up to 64k.
CR_FS=erofs
CR_SET=small
CR_CLUSTER=64k
