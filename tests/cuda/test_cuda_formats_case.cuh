/* Per-tag struct of tests/cuda/test_cuda_formats.cu, included once per (TT_TAG, TT_VAL, TT_IDX, TT_TOL, TT_BIT). */
/* TT_BIT: the tag's bit in SPMV_TEST_TAGS's mask. */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)

struct SPMV_CAT(tag_, TT_TAG) {
#include "tag_host_case.cuh"
    typedef TT_IDX I;
    typedef TN(coo) coo;
    typedef TN(axt) axt;
    typedef TN(any_dev) any;
    typedef TN(csr_dev) csrd;
    typedef TN(coo_dev) cood;
    typedef TN(axt_dev) axtd;
    static int bit() { return TT_BIT; }
    static size_t csr_bytes(const csr *A) { return TN(csr_bytes)(A); }
    static spmv_status coo_from_csr(coo *C, const csr *A) { return TN(coo_from_csr)(C, A, NULL, NULL); }
    static void coo_free(coo *C) { TN(coo_free)(C); }
    static spmv_status axt_from_csr(axt *H, const csr *A, spmv_axt_variant v, const spmv_axt_params *p) {
        return TN(axt_from_csr)(H, A, v, p, NULL);
    }
    static void axt_free(axt *H) { TN(axt_free)(H); }
    static size_t axt_kernel_bytes(const axt *H) { return TN(axt_kernel_bytes)(H); }
    /* generic device handle */
    static spmv_status any_from_csr(any *D, const csr *A, spmv_format f, const spmv_axt_params *p,
                                    cudaStream_t s) {
        spmv_any_params u; /* every AXC/AXT row's params are spmv_axt_params */
        spmv_opts o = spmv_opts_default();
        if (!p) { /* the public builder with the device defaults */
            o.format = f;
            return TN(any_dev_from_csr)(D, A, &o, NULL, s);
        }
        u.axc = *p; /* parameters that no string could hold (the refusal tests) */
        return TN(any_dev__build)(D, A, f, &u, s);
    }
    static spmv_status any_dev_opts(any *D, const csr *A, const spmv_opts *o, spmv_error *e) {
        return TN(any_dev_from_csr)(D, A, o, e, 0);
    }
    static spmv_status any_mv(const any *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(any_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status any_update_x(const any *D, const T *x, cudaStream_t s) {
        return TN(any_dev_update_x)(D, x, s);
    }
    static spmv_status any_mv_kernel(const any *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(any_dev_mv_kernel)(D, al, x, be, y, s);
    }
    static int any_embeds_x(const any *D) { return TN(any_dev_embeds_x)(D); }
    static spmv_status any_free(any *D) { return TN(any_dev_free)(D); }
    static size_t any_bytes(const any *D) { return TN(any_dev_bytes)(D); }
    static size_t any_kernel_bytes(const any *D) { return TN(any_dev_kernel_bytes)(D); }
    static void any_params(const any *D, char *b, size_t n) { TN(any_dev_params_str)(D, b, n); }
    /* 1 when format f (device defaults) must refuse A with SPMV_ERR_LIMIT (ELL's and DIA's size caps) */
    static int limited(const csr *A, int f) {
        spmv_any_params u;
        const char *fam = spmv_format_family((spmv_format)f);
        if (spmv_any_dev_params_init((spmv_format)f, NULL, &u, NULL) != SPMV_OK) return 0;
        if (!strcmp(fam, "ell"))
            return TN(ell_limited)(A, &u.ell, SPMV_ISA_GENERIC) ||
                   TN(ell_dev_skewed)(A, u.ell.variant);
        if (!strcmp(fam, "dia")) return TN(dia_limited)(A, &u.dia, SPMV_ISA_GENERIC);
        if (!strcmp(fam, "bcsr"))
            return TN(bcsr_limited)(A, &u.bcsr, SPMV_ISA_GENERIC) || TN(bcsr_dev_skewed)(A);
        return 0;
    }
    /* per-format device objects */
    static spmv_status csr_to_device(csrd *D, const csr *A, cudaStream_t s) {
        return TN(csr_to_device)(D, A, s);
    }
    static spmv_status csr_dev_mv(const csrd *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(csr_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status csr_dev_free(csrd *D) { return TN(csr_dev_free)(D); }
    static size_t csr_dev_bytes(const csrd *D) { return TN(csr_dev_bytes)(D); }
    static spmv_status coo_to_device(cood *D, const coo *A, cudaStream_t s) {
        return TN(coo_to_device)(D, A, s);
    }
    static spmv_status coo_dev_mv(const cood *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(coo_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status coo_dev_free(cood *D) { return TN(coo_dev_free)(D); }
    static size_t coo_dev_bytes(const cood *D) { return TN(coo_dev_bytes)(D); }
    static spmv_status axt_to_device(axtd *D, const axt *H, cudaStream_t s) {
        return TN(axt_to_device)(D, H, s);
    }
    static spmv_status axt_dev_update_x(const axtd *D, const T *x, cudaStream_t s) {
        return TN(axt_dev_update_x)(D, x, s);
    }
    static spmv_status axt_dev_mv_kernel(const axtd *D, T al, T be, T *y, cudaStream_t s) {
        return TN(axt_dev_mv_kernel)(D, al, be, y, s);
    }
    static spmv_status axt_dev_mv(const axtd *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(axt_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status axt_dev_free(axtd *D) { return TN(axt_dev_free)(D); }
    static size_t axt_dev_bytes(const axtd *D) { return TN(axt_dev_bytes)(D); }
    static size_t axt_dev_kernel_bytes(const axtd *D) { return TN(axt_dev_kernel_bytes)(D); }
    /* ELLR-T / SELL-P: ellr and sell with t threads per row */
    typedef TN(ell_dev) elld;
    static spmv_status ellt_from_csr(elld *D, const csr *A, int sell, int t, cudaStream_t s) {
        spmv_ell_params p = sell ? spmv_sell_dev_params_default() : spmv_ellr_dev_params_default();
        p.t = t;
        return sell ? TN(sell_dev_from_csr)(D, A, &p, s) : TN(ellr_dev_from_csr)(D, A, &p, s);
    }
    static spmv_status ell_dev_mv(const elld *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(ell_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status ell_dev_free(elld *D) { return TN(ell_dev_free)(D); }
    static int ell_limited(const csr *A, int sell, int t) {
        spmv_ell_params p = sell ? spmv_sell_dev_params_default() : spmv_ellr_dev_params_default();
        p.t = t;
        return TN(ell_limited)(A, &p, SPMV_ISA_GENERIC) || TN(ell_dev_skewed)(A, p.variant);
    }
    /* BCSR with a given block size and kernel */
    typedef TN(bcsr_dev) bcsrd;
    static spmv_bcsr_params bcsr_params(int bs, int kern) {
        spmv_bcsr_params p = spmv_bcsr_dev_params_default();
        p.bs = bs, p.kern = kern, p.fill = 1 << 20;
        return p;
    }
    static spmv_status bcsr_from_csr(bcsrd *D, const csr *A, int bs, int kern, cudaStream_t s) {
        spmv_bcsr_params p = bcsr_params(bs, kern);
        return TN(bcsr_dev_from_csr)(D, A, &p, s);
    }
    static int bcsr_limited(const csr *A, int bs) {
        spmv_bcsr_params p = bcsr_params(bs, 0);
        return TN(bcsr_limited)(A, &p, SPMV_ISA_GENERIC) || TN(bcsr_dev_skewed)(A);
    }
    static spmv_status bcsr_dev_mv(const bcsrd *D, T al, const T *x, T be, T *y, cudaStream_t s) {
        return TN(bcsr_dev_mv)(D, al, x, be, y, s);
    }
    static spmv_status bcsr_dev_free(bcsrd *D) { return TN(bcsr_dev_free)(D); }
};
#undef TN
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
#undef TT_TOL
#undef TT_BIT
