/* CUDA CSR5 — no device kernel yet: the registry row csr5 has cuda = 0, so nothing here is
 * used; formats/registry.h includes this file only because every family has a device
 * header. (CSR5 on the GPU is its own issue: warp-wide omega = 32 tiles, the calibrator
 * pass and the CSR tail.) */
