/* Per-tag struct of tests/cuda/test_cuda_csr.cu, included once per (TT_TAG, TT_VAL, TT_IDX, TT_TOL). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)

struct SPMV_CAT(tag_, TT_TAG) {
#include "tag_host_case.cuh"
    typedef TT_IDX I;
    typedef TN(csr_dev) dev;
    static size_t csr_bytes(const csr *A) { return TN(csr_bytes)(A); }
    static spmv_status to_device(dev *D, const csr *A, cudaStream_t s) {
        return TN(csr_to_device)(D, A, s);
    }
    static spmv_status to_device_default_stream(dev *D, const csr *A) {
        return TN(csr_to_device)(D, A);
    }
    static spmv_status dev_free(dev *D) { return TN(csr_dev_free)(D); }
    static size_t dev_bytes(const dev *D) { return TN(csr_dev_bytes)(D); }
    static spmv_status mv(const dev *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(csr_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status mv_default_stream(const dev *D, T al, const T *x, T be, T *y) {
        return TN(csr_dev_mv)(D, al, x, be, y);
    }
};
#undef TN
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
#undef TT_TOL
