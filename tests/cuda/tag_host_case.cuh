/* The host members every per-tag struct of the CUDA tests starts with (T, csr, name, base_tol,
 * eps, from_triplets, csr_free, ref): included inside the struct by each
 * tests/cuda/test_cuda_<name>_case.cuh, with TN, TT_TAG, TT_VAL and TT_TOL defined. */
typedef TT_VAL T;
typedef TN(csr) csr;
static const char *name() { return STR(TT_TAG); }
static double base_tol() { return TT_TOL; }
static double eps() { return sizeof(T) == 4 ? (double)FLT_EPSILON : DBL_EPSILON; }
static spmv_status from_triplets(csr *A, const spmv_triplets *t) { return TN(csr_from_triplets)(A, t, NULL, NULL); }
static void csr_free(csr *A) { TN(csr_free)(A); }
static void ref(const csr *A, T al, const T *x, T be, const T *y0, long double *r, long double *sc) {
    TN(csr_mv_ref)(A, al, x, be, y0, r, sc);
}
