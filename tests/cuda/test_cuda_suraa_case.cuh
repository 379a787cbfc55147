/* Per-tag struct of tests/cuda/test_cuda_suraa.cu, included once per (TT_TAG, TT_VAL, TT_IDX, TT_TOL). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)

struct SPMV_CAT(tag_, TT_TAG) {
#include "tag_host_case.cuh"
    typedef TT_IDX I;
    typedef TN(suraa) host;
    typedef TN(suraa_dev) dev;
    static spmv_status from_csr(host *H, const csr *A, const spmv_suraa_params *p) {
        return TN(suraa_from_csr)(H, A, p, NULL);
    }
    static spmv_status to_csr(const host *H, csr *B) { return TN(suraa_to_csr)(H, B); }
    static void host_free(host *H) { TN(suraa_free)(H); }
    static size_t host_bytes(const host *H) { return TN(suraa_bytes)(H); }
    static spmv_status dev_from_csr(dev *D, const csr *A, const spmv_suraa_params *p, cudaStream_t s) {
        return TN(suraa_dev_from_csr)(D, A, p, s);
    }
    static spmv_status to_device(dev *D, const host *H, cudaStream_t s) {
        return TN(suraa_to_device)(D, H, s);
    }
    static spmv_status dev_mv(const dev *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(suraa_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status dev_free(dev *D) { return TN(suraa_dev_free)(D); }
    static size_t dev_bytes(const dev *D) { return TN(suraa_dev_bytes)(D); }
    static void dev_params(const dev *D, char *b, size_t n) { TN(suraa_dev_params_str)(D, b, n); }
    /* through the generic handle */
    static spmv_status any_from_csr(TN(any_dev) *D, const csr *A, const char *params,
                                    cudaStream_t s) {
        spmv_opts o = spmv_opts_default();
        o.format = SPMV_FMT_SURAA;
        o.params = params;
        return TN(any_dev_from_csr)(D, A, &o, NULL, s);
    }
};
#undef TN
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
#undef TT_TOL
