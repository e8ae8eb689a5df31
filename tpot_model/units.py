"""Scale constants: the only place that knows how many bytes a GB is. Everything inside the model is SI."""

KB = 1e3
MB = 1e6
GB = 1e9  # decimal gigabyte, as on datasheets
TB = 1e12
GiB = 2.0**30  # binary gibibyte, what nvidia-smi and operating systems report
MiB = 2.0**20
KiB = 2.0**10

GB_per_s = 1e9
Gbit_per_s = 1e9 / 8  # network links are quoted in bits: 400 Gb/s = 50 GB/s
TB_per_s = 1e12
TFLOP_per_s = 1e12

ms = 1e-3
us = 1e-6
hour_s = 3600.0
