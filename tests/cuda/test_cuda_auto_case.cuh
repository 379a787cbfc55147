/* Per-tag struct of tests/cuda/test_cuda_auto.cu, included once per (TT_TAG, TT_VAL, TT_TOL). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)

struct SPMV_CAT(tag_, TT_TAG) {
#include "tag_host_case.cuh"
    typedef TN(auto_dev) adev;
    static spmv_status sel(adev *D, const csr *A, const spmv_opts *o, cudaStream_t s) {
        return TN(auto_dev_from_csr)(D, A, o, &g_err, s);
    }
    static spmv_status mv(const adev *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(auto_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status dfree(adev *D) { return TN(auto_dev_free)(D); }
    static spmv_format fmt(const adev *D) { return TN(auto_dev_format)(D); }
};
#undef TN
#undef TT_TAG
#undef TT_VAL
#undef TT_TOL
