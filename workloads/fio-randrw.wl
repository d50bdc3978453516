# (c) fio random read/write on a file on the XFS disk.
WL_MKFS="-n size=64k"
WL_CMD='fio --output-format=terse --terse-version=3 --numjobs=$CPUS /workloads/fio/randrw.fio'
WL_PARSE=fio_terse
